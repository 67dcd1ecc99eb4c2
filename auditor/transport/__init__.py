"""auditor.transport."""
