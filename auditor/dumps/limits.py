"""The caps on what one dump file may cost to import: bytes inflated, a line, JSON nesting.

A dump is a stranger's file as much as a bibliography is: a gzip of a few megabytes can inflate
to terabytes (a run of zeros compresses about a thousandfold), one line can be gigabytes, one
record 100,000 brackets deep. Each cap is a setting (section `[input]` of the config file); the
defaults sit far above the real dumps (arXiv's snapshot inflates to some 5 GB, `dblp.xml` to
some 5 GB, an OpenAlex partition to a few GB; a work's JSON nests about ten deep) and far below
what would hurt the machine. An input past the inflated cap stops the import with an error
naming the file and the setting; a line past the line or nesting cap is skipped with its place,
as any unreadable record is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["SETTINGS", "ImportLimits", "limits_from"]


@dataclass(frozen=True)
class ImportLimits:
    """What one dump file may cost. Field `x` is read from the setting named in `SETTINGS`."""

    inflated_bytes: int = 32 * 1024 * 1024 * 1024
    """Bytes inflated from one `.gz` input, counted as they inflate (a gzip's trailer states
    its size modulo 4 GiB and is the sender's word anyway)."""
    line_bytes: int = 16 * 1024 * 1024
    """Bytes of one JSON Lines line (it is held whole while parsed)."""
    json_depth: int = 200
    """Arrays and objects open at once in one JSON record."""


#: The setting behind each field of `ImportLimits`.
SETTINGS: dict[str, str] = {
    "inflated_bytes": "import_max_inflated_bytes",
    "line_bytes": "import_max_line_bytes",
    "json_depth": "import_max_json_depth",
}


def limits_from(settings: Any) -> ImportLimits:
    """The `ImportLimits` of a `Settings` (any object with the settings of `SETTINGS`)."""
    return ImportLimits(**{name: getattr(settings, key) for name, key in SETTINGS.items()})
