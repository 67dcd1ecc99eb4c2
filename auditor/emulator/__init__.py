"""auditor.emulator."""
