"""auditor.load."""
