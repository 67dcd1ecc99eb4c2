"""auditor.report."""
