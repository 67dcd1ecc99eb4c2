"""Which registration agency holds a DOI prefix, remembered across runs so each DOI goes to its own
agency's register first.

A DOI prefix belongs to one agency. What doiRA says about a DOI (DataCite, mEDRA, …) and what a
register's own answer shows (a Crossref record is Crossref's) is kept per prefix in the record
cache, as a `RECORDS` row (register `doi`, id_type `doi_prefix`, identifier the prefix, status
`found`, `agency` set), so the next run sends a Zenodo DOI straight to DataCite instead of asking
Crossref first, and never sends a Crossref DOI to DataCite. A prefix nobody has placed yet keeps
today's order (Crossref, then the DOI system). Only agencies a register answered for are learned;
a failure to look teaches nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from auditor.registers.interface import RecordRow
from auditor.registers.records import now_iso
from auditor.tables import PREFIX_ID_TYPE, RecordStatus
from auditor.transport.cache import RecordCache

#: Cache namespace of prefix → agency rows.
NAMESPACE = ("doi-prefix", "agency-v1")

_ANSWERED = frozenset({RecordStatus.FOUND, RecordStatus.NOT_COVERED})


def prefix_of(doi: str) -> str | None:
    """`10.5281/zenodo.1` → `10.5281`; `None` for something that is not a DOI."""
    head, slash, _ = doi.partition("/")
    return head.lower() if slash and head.startswith("10.") else None


class AgencyBook:
    """Prefix → agency for one run, read from and written to the record cache."""

    def __init__(self, cache: RecordCache | None) -> None:
        self._cache = cache
        self._known: dict[str, str] = {}

    def agency(self, doi: str) -> str | None:
        """The agency known for `doi`'s prefix (doiRA's spelling), or `None`."""
        prefix = prefix_of(doi)
        if prefix is None:
            return None
        if prefix not in self._known and self._cache is not None:
            cached = self._cache.get(*NAMESPACE, prefix)
            agency = cached.get("agency") if cached else None
            if isinstance(agency, str) and agency.strip():
                self._known[prefix] = agency.strip()
        return self._known.get(prefix)

    def learn(self, rows: Mapping[str, RecordRow]) -> None:
        """Remember the agency of every answered DOI row that names one."""
        for doi, record in rows.items():
            agency = record.get("agency")
            prefix = prefix_of(doi)
            if (
                prefix is None
                or record.get("status") not in _ANSWERED
                or not isinstance(agency, str)
                or not agency.strip()
                or self._known.get(prefix) == agency.strip()
            ):
                continue
            self._known[prefix] = agency.strip()
            if self._cache is not None:
                self._cache.put(
                    *NAMESPACE,
                    prefix,
                    {
                        "register": "doi",
                        "id_type": PREFIX_ID_TYPE,
                        "identifier": prefix,
                        "status": str(RecordStatus.FOUND),
                        "agency": agency.strip(),
                        "retrieved_at": record.get("retrieved_at") or now_iso(),
                    },
                )
