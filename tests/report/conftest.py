"""A synthetic `AuditResult` covering every outcome, two input files and a hostile title."""

from __future__ import annotations

from typing import Any

import pytest

from auditor import tables
from auditor.checklist import build_checklist
from auditor.patches import relied_on
from auditor.result import AuditResult, InputFile, RunInfo
from auditor.tables import CRITERIA_V1

EVIL_TITLE = '<script>document.title="pwned"</script><img src=x onerror=alert(1)> Deep nets'

_AS_OF = "2026-11-30T12:00:00+00:00"


def _ref(row_id: int, path: str, line: int, key: str, **kw: Any) -> dict[str, Any]:
    row = {"row_id": row_id, "source_path": path, "source_line": line, "key": key}
    row.update({"source_format": "bibtex", "entry_type": "article"})
    row.update(kw)
    return row


REFERENCES = [
    _ref(
        0,
        "thesis.bib",
        1,
        "lecun2015",
        id_raw="10.1038/nature14539",
        id_type="doi",
        identifier="10.1038/nature14539",
        doi="10.1038/nature14539",
        title="Deep learning",
        authors=["LeCun, Yann", "Bengio, Yoshua", "Hinton, Geoffrey"],
        year=2015,
    ),
    _ref(
        1,
        "thesis.bib",
        9,
        "wrongtitle",
        id_raw="10.1000/xyz",
        id_type="doi",
        identifier="10.1000/xyz",
        doi="10.1000/xyz",
        title="Attention is all you need",
        authors=["Vaswani, Ashish"],
        author_names=[
            {"family": "Vaswani", "given": "Ashish", "particle": None, "suffix": "<i>Jr</i>"}
        ],
        year=2017,
    ),
    _ref(
        2,
        "thesis.bib",
        17,
        "ghost",
        id_raw="PMID:99999999",
        id_type="pmid",
        identifier="99999999",
        pmid="99999999",
        title="A study that is not there",
        authors=["Nobody, N."],
        year=2020,
    ),
    _ref(
        3,
        "thesis.bib",
        25,
        "evil",
        id_raw="2101.00001v2",
        id_type="arxiv",
        identifier="2101.00001",
        arxiv="2101.00001",
        title=EVIL_TITLE,
        authors=["Mallory, M."],
        year=2021,
    ),
    _ref(
        4,
        "thesis.bib",
        33,
        "timeout",
        id_raw="10.5555/slow",
        id_type="doi",
        identifier="10.5555/slow",
        doi="10.5555/slow",
        title="Slow register paper",
        authors=["Waits, W."],
        year=2019,
    ),
    _ref(
        5,
        "thesis.bib",
        41,
        "notitle",
        id_raw="10.5555/nt",
        id_type="doi",
        identifier="10.5555/nt",
        doi="10.5555/nt",
        title=None,
        authors=["Anon, A."],
        year=2018,
        row_state="INVALID",
        row_reason="missing_title",
        parse_error="entry has no title",
    ),
    _ref(
        6,
        "submission2.bib",
        1,
        "book",
        title="A book without identifiers",
        authors=["Author, B."],
        year=2001,
        row_state="NOT COVERED",
        row_reason="no_identifier",
    ),
    _ref(
        7,
        "submission2.bib",
        8,
        "lecun2015b",
        id_raw="https://doi.org/10.1038/nature14539",
        id_type="doi",
        identifier="10.1038/nature14539",
        doi="10.1038/nature14539",
        title="Deep learning",
        authors=["LeCun, Y."],
        year=2016,
    ),
    _ref(
        8,
        "submission2.bib",
        15,
        "zh",
        id_raw="10.3760/cma.j.issn.0376-2491.2020.01.001",
        id_type="doi",
        identifier="10.3760/cma.j.issn.0376-2491.2020.01.001",
        doi="10.3760/cma.j.issn.0376-2491.2020.01.001",
        title="中华医学杂志 示例 研究",
        authors=["王伟"],
        year=2020,
        language="zh",
    ),
]

RECORDS = [
    {
        "register": "crossref",
        "id_type": "doi",
        "identifier": "10.1038/nature14539",
        "status": "found",
        "retrieved_at": _AS_OF,
        "tier": "snapshot",
        "title": "Deep learning",
        "surnames": ["LeCun", "Bengio", "Hinton"],
        "year": 2015,
        "container_title": "Nature",
        "agency": "crossref",
        "body_digest": "ab" * 32,
    },
    {
        "register": "crossref",
        "id_type": "doi",
        "identifier": "10.1000/xyz",
        "status": "found",
        "retrieved_at": _AS_OF,
        "tier": "cache",
        "title": "Attention span in goldfish",
        "surnames": ["Vaswani"],
        "year": 2017,
    },
    {
        "register": "pubmed",
        "id_type": "pmid",
        "identifier": "99999999",
        "status": "not_found",
        "reason": "not_found",
        "retrieved_at": _AS_OF,
        "tier": "live",
    },
    {
        "register": "arxiv",
        "id_type": "arxiv",
        "identifier": "2101.00001",
        "status": "found",
        "retrieved_at": _AS_OF,
        "tier": "live",
        "title": "Deep nets </td><b>bold</b>",
        "surnames": ["Mallory"],
        "year": 2021,
    },
    {
        "register": "crossref",
        "id_type": "doi",
        "identifier": "10.5555/slow",
        "status": "unreachable",
        "reason": "timeout",
        "tier": "live",
    },
]


def _verdict(ref: dict[str, Any], verdict: str, **kw: Any) -> dict[str, Any]:
    row = {k: ref.get(k) for k in ("row_id", "source_path", "source_line", "key")}
    row.update(
        verdict=verdict,
        criteria_id=CRITERIA_V1,
        id_type=ref.get("id_type"),
        identifier=ref.get("identifier"),
        title_claimed=ref.get("title"),
        authors_claimed=ref.get("authors"),
        year_claimed=ref.get("year"),
    )
    row.update(kw)
    return row


_FOUND = {"retrieved_at": _AS_OF}
VERDICTS = [
    _verdict(
        REFERENCES[0],
        "RESOLVES-AND-MATCHES",
        register="crossref",
        tier="snapshot",
        title_register="Deep learning",
        title_match=True,
        title_score=1.0,
        authors_register=["LeCun", "Bengio", "Hinton"],
        authors_match=True,
        year_register=2015,
        year_match=True,
        group_id=1,
        **_FOUND,
    ),
    _verdict(
        REFERENCES[1],
        "RESOLVES-BUT-DIFFERS",
        reason="title_differs",
        register="crossref",
        tier="cache",
        title_register="Attention span in goldfish",
        title_match=False,
        title_score=0.25,
        authors_register=["Vaswani"],
        authors_match=True,
        year_register=2017,
        year_match=True,
        **_FOUND,
    ),
    _verdict(
        REFERENCES[2],
        "DOES-NOT-RESOLVE",
        reason="not_found",
        register="pubmed",
        tier="live",
        **_FOUND,
    ),
    _verdict(
        REFERENCES[3],
        "RESOLVES-AND-MATCHES",
        register="arxiv",
        tier="live",
        title_register="Deep nets </td><b>bold</b>",
        title_match=True,
        title_score=0.9,
        authors_register=["Mallory"],
        authors_match=True,
        year_register=2021,
        year_match=True,
        **_FOUND,
    ),
    _verdict(REFERENCES[4], "UNCHECKED", reason="timeout", register="crossref", tier="live"),
    _verdict(REFERENCES[5], "INVALID", reason="missing_title"),
    _verdict(REFERENCES[6], "NOT COVERED", reason="no_identifier"),
    _verdict(
        REFERENCES[7],
        "RESOLVES-BUT-DIFFERS",
        reason="year_differs",
        register="crossref",
        tier="snapshot",
        title_register="Deep learning",
        title_match=True,
        title_score=1.0,
        authors_register=["LeCun", "Bengio", "Hinton"],
        authors_match=True,
        year_register=2015,
        year_match=False,
        group_id=1,
        **_FOUND,
    ),
    _verdict(
        REFERENCES[8],
        "DOES-NOT-RESOLVE",
        reason="DOI_REFUTED",
        register="doi",
        tier="live",
        **_FOUND,
    ),
]

WATERFALL_ITEMS = [
    {
        "row_id": 8,
        "source_path": "submission2.bib",
        "source_line": 15,
        "key": "zh",
        "priority": "P0",
        "reason_code": "DOI_REFUTED",
        "outcome": "DOES-NOT-RESOLVE",
        "cited_title": "中华医学杂志 示例 研究",
        "cited_authors": ["王伟"],
        "cited_year": 2020,
        "cited_id": "10.3760/cma.j.issn.0376-2491.2020.01.001",
        "sources_tried": ["doiRA", "doi.org CSL", "Handle"],
        "text": "The DOI system has no such DOI and Handle reports it absent.",
        "links": ["https://doi.org/10.3760/cma.j.issn.0376-2491.2020.01.001"],
        "human_result": None,
    },
]

DUPLICATES = [
    {
        "group_id": 1,
        "row_id": 0,
        "key": "lecun2015",
        "basis": "doi",
        "value": "10.1038/nature14539",
    },
    {
        "group_id": 1,
        "row_id": 7,
        "key": "lecun2015b",
        "basis": "doi",
        "value": "10.1038/nature14539",
    },
]

RUN = RunInfo(
    tool_version="0.1.0",
    started_at="2026-11-30T12:00:00+00:00",
    finished_at="2026-11-30T12:00:05+00:00",
    inputs=(
        InputFile("thesis.bib", "0" * 64, "bibtex", 6),
        InputFile("submission2.bib", "1" * 64, "bibtex", 3),
    ),
    base_urls={"crossref": "http://127.0.0.1:1/crossref", "pubmed": "http://127.0.0.1:1/eutils"},
    tiers_used=("cache", "live", "snapshot"),
    criteria_id=CRITERIA_V1,
)


def make_result() -> AuditResult:
    """The synthetic run, its checklist built by the real checklist stage."""
    references = tables.from_rows(REFERENCES, tables.REFERENCES)
    records = tables.from_rows(RECORDS, tables.RECORDS)
    verdicts = tables.from_rows(VERDICTS, tables.VERDICTS)
    # Each row relies on the record its register and identifier name, as the stages write it.
    at = verdicts.schema.get_field_index("record_key")
    verdicts = verdicts.set_column(at, "record_key", relied_on(records, verdicts))
    extra = tables.from_rows(WATERFALL_ITEMS, tables.CHECKLIST)
    checklist = build_checklist(references, verdicts, extra=extra)
    return AuditResult(
        references=references,
        records=records,
        verdicts=verdicts,
        checklist=checklist,
        duplicates=tables.from_rows(DUPLICATES, tables.DUPLICATES),
        run=RUN,
    )


@pytest.fixture
def result() -> AuditResult:
    """A fresh synthetic `AuditResult`."""
    return make_result()
