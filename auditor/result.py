"""The values a whole run produces, handed from the pipeline to the report formats."""

from __future__ import annotations

from dataclasses import dataclass, field

import pyarrow as pa

from auditor import tables


@dataclass(frozen=True)
class InputFile:
    """One bibliography the run read."""

    path: str
    """The path as the user gave it (what annotations and the report point at)."""
    sha256: str
    """Digest of the file's bytes, so a report names exactly what it audited."""
    format: str
    """bibtex | ris | csv."""
    rows: int
    """Entries loaded from it (every entry, broken ones included)."""


@dataclass(frozen=True)
class LoadProblem:
    """Something the loader saw in an input (a parse error, a warning), shown with the run."""

    path: str
    line: int | None
    """1-based line, or `None` for the whole file."""
    message: str
    severity: str
    """`error` (the row is `INVALID`) or `warning`."""


@dataclass(frozen=True)
class SearchUse:
    """What one title-search index cost the run."""

    index: str
    """The search register (`crossref_search`, `openalex_search`, `dblp`, …)."""
    requests: int
    """Queries sent to it, each one request (retries aside)."""
    free: int
    """Queries a snapshot or the cache answered, with no request."""
    waited_seconds: float
    """From the search stage's start to the index's last answer: how long the stage waited."""


@dataclass(frozen=True)
class RunInfo:
    """Metadata of one run, written into `report.json` and the HTML header."""

    tool_version: str
    started_at: str
    """ISO 8601 UTC."""
    finished_at: str
    inputs: tuple[InputFile, ...]
    base_urls: dict[str, str]
    """Register name → base URL used (the emulator's in tests)."""
    tiers_used: tuple[str, ...]
    """Which of snapshot / cache / live answered at least one record."""
    criteria_id: str
    """The criteria the verdicts were decided under (`--criteria`)."""
    offline: bool = False
    load_problems: tuple[LoadProblem, ...] = ()
    """What the loader reported, in file order (repeated kinds already counted on one line)."""
    search_use: tuple[SearchUse, ...] = ()
    """Per title-search index asked: requests, answers free of a request, seconds waited."""


@dataclass(frozen=True)
class AuditResult:
    """Every table of a finished run; report formats render these and decide nothing."""

    references: pa.Table
    records: pa.Table
    verdicts: pa.Table
    checklist: pa.Table
    duplicates: pa.Table = field(default_factory=lambda: tables.empty(tables.DUPLICATES))
    run: RunInfo | None = None

    @property
    def criteria_id(self) -> str | None:
        """The criteria of this run: the run's own, else the one the verdict rows name (`None`
        when there is neither a run nor a verdict, so nothing was decided under any)."""
        if self.run is not None:
            return self.run.criteria_id
        named = self.verdicts["criteria_id"].drop_null()
        return str(named[0]) if len(named) else None
