"""The journal bridge: Chinese journal name → ISSN → NLM title abbreviation (offline table).

PubMed does not take Chinese journal names, so DOI-less references reach it through this table.
The seed rows ship as package data (`journal_bridge.csv`, real NLM Catalog facts, built only from
redistributable sources); users extend or override them with `--journal-map FILE`, a CSV with the
same header `journal,issn,nlm_ta,nlm_id`. An empty `nlm_ta` records a journal that is catalogued
but has no PubMed records (中国全科医学): a coordinate miss against it would mean nothing.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from auditor.errors import ConfigError
from auditor.text import han_title_form

COLUMNS = ("journal", "issn", "nlm_ta", "nlm_id")
_ISSN = re.compile(r"[0-9]{4}-[0-9]{3}[0-9X]")
# An NLM title abbreviation goes inside a quoted Entrez phrase: no quotes, brackets or operators.
_TA = re.compile(r"[A-Za-z0-9][A-Za-z0-9 .,'&()\-]{0,119}")


@dataclass(frozen=True)
class BridgeRow:
    """One journal of the bridge."""

    journal: str
    issn: str
    nlm_ta: str | None
    """`None` when the journal has no PubMed records (never query it)."""
    nlm_id: str | None


def journal_key(name: str | None) -> str:
    """Lookup form of a journal name: the Chinese title form (《中华医学杂志》 = 中华医学杂志)."""
    return han_title_form(name)


def _parse(text: str, origin: str) -> list[BridgeRow]:
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) != COLUMNS:
        raise ConfigError(f"{origin}: journal map header must be {','.join(COLUMNS)}")
    rows: list[BridgeRow] = []
    for n, raw in enumerate(reader, start=2):
        journal = journal_key(raw["journal"])
        issn = (raw["issn"] or "").strip().upper()
        ta = (raw["nlm_ta"] or "").strip() or None
        if not journal or not _ISSN.fullmatch(issn) or (ta and not _TA.fullmatch(ta)):
            raise ConfigError(f"{origin}:{n}: bad journal map row {raw!r}")
        rows.append(BridgeRow(journal, issn, ta, (raw["nlm_id"] or "").strip() or None))
    return rows


class JournalBridge:
    """Lookup of Chinese journal names; later rows (the user's file) override seed rows."""

    def __init__(self, rows: list[BridgeRow]) -> None:
        self._rows = {row.journal: row for row in rows}

    def __len__(self) -> int:
        return len(self._rows)

    def lookup(self, container_title: str | None) -> BridgeRow | None:
        """The row for `container_title`, or `None` (a gap in our table, not evidence)."""
        key = journal_key(container_title)
        return self._rows.get(key) if key else None


def load_bridge(journal_map: str | None = None) -> JournalBridge:
    """The shipped seed table, extended with the user's `journal_map` CSV when given.

    Raises `ConfigError` for an unreadable or malformed user file.
    """
    seed = files("auditor.chinese").joinpath("journal_bridge.csv").read_text(encoding="utf-8")
    rows = _parse(seed, "journal_bridge.csv")
    if journal_map:
        try:
            text = Path(journal_map).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"journal map {journal_map}: {exc}") from None
        rows += _parse(text, journal_map)
    return JournalBridge(rows)
