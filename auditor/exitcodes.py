"""The documented exit codes, in a module every command and the policy can import.

`cli` imports every command module, so the enum cannot live there without an import cycle.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Documented exit codes: findings are kept apart from failures to do the job."""

    OK = 0
    """Nothing at or above the `--fail-on` policy."""
    FINDINGS = 1
    """At least one row matched the `--fail-on` policy."""
    USAGE = 2
    """Bad invocation, config, or unreadable input."""
    INCOMPLETE = 3
    """`--fail-on-unchecked` was given and some rows are `UNCHECKED`."""
    INTERNAL = 4
    """An unexpected error inside the auditor (a bug to report); `--debug` shows its traceback."""
