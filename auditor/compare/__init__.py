"""auditor.compare."""
