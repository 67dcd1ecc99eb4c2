"""auditor.chinese."""
