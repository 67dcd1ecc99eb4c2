"""auditor.registers."""
