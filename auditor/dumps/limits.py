"""The caps on what one dump file may cost to import: bytes inflated, a line, nesting.

A dump is a stranger's file as much as a bibliography is: a gzip inflates up to about a
thousandfold (a run of zeros), one line can be gigabytes, one record 100,000 brackets or
elements deep. Each cap is a setting (section `[input]` of the config file); the defaults sit
far above the real dumps (arXiv's snapshot and `dblp.xml` inflate to some 5 GB each, an OpenAlex
partition to a few GB; a work's JSON or a PubMed article's XML nests about ten deep) and far
below what would hurt the machine. An input past the inflated cap stops the import with an
error naming the file and the setting; a JSON line past the line or nesting cap is skipped with
its place, as any unreadable record is; an XML file past the nesting cap is read up to the
record before (as for any XML that stops being readable).
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
    xml_depth: int = 200
    """Elements open at once in an XML dump (PubMed and DBLP nest about ten deep)."""


#: The setting behind each field of `ImportLimits`.
SETTINGS: dict[str, str] = {
    "inflated_bytes": "import_max_inflated_bytes",
    "line_bytes": "import_max_line_bytes",
    "json_depth": "import_max_json_depth",
    "xml_depth": "import_max_xml_depth",
}


def limits_from(settings: Any) -> ImportLimits:
    """The `ImportLimits` of a `Settings` (any object with the settings of `SETTINGS`)."""
    return ImportLimits(**{name: getattr(settings, key) for name, key in SETTINGS.items()})
