"""`unreadable_patch`: a weakly read document row is never a suspect (#35 item 6)."""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from auditor import tables
from auditor.load.documents.rows import UNSURE
from auditor.unreadable import flag_fields, unreadable_patch


def _tables(rows: list[dict[str, Any]]) -> tuple[pa.Table, pa.Table]:
    refs = [
        {
            "row_id": i,
            "source_path": "doc.pdf",
            "warnings": r.get("warnings", []),
            "field_confidence": r.get("conf"),
        }
        for i, r in enumerate(rows)
    ]
    verdicts = [
        {
            "row_id": i,
            "source_path": "doc.pdf",
            "verdict": r["verdict"],
            "reason": r.get("reason"),
            "findings": r.get("findings", []),
            "queried_by": r.get("queried_by", "id"),
            "title_claimed": r.get("title", "A title"),
            "criteria_id": tables.DEFAULT_CRITERIA,
        }
        for i, r in enumerate(rows)
    ]
    return tables.from_rows(refs, tables.REFERENCES), tables.from_rows(verdicts, tables.VERDICTS)


def _decided(rows: list[dict[str, Any]]) -> dict[int, tuple[str, str]]:
    patch = unreadable_patch(*_tables(rows)).to_pylist()
    return {p["row_id"]: (p["verdict"], p["reason"]) for p in patch}


WEAK = {"title": 0.3, "authors": 0.3, "year": 0.95}
STRONG = {"title": 0.95, "authors": 0.95, "year": 0.95}
UNREADABLE = ("UNCHECKED", "unreadable_reference")


def test_a_flag_on_weak_fields_alone_becomes_unchecked() -> None:
    rows = [
        {"verdict": "RESOLVES-BUT-DIFFERS", "reason": "title_differs", "conf": WEAK},
        {"verdict": "NOT FOUND", "reason": "no_index_match", "conf": WEAK},
        {
            "verdict": "RESOLVES-BUT-DIFFERS",
            "reason": "authors_first_differs",
            "findings": ["authors_first_differs", "title_near_miss"],
            "conf": WEAK,
        },
    ]
    assert _decided(rows) == {0: UNREADABLE, 1: UNREADABLE, 2: UNREADABLE}


def test_a_flag_with_one_strong_field_stands() -> None:
    rows = [
        {"verdict": "RESOLVES-BUT-DIFFERS", "reason": "title_differs", "conf": STRONG},
        # the year was read for certain: its difference is the reference's, not the reading's
        {
            "verdict": "RESOLVES-BUT-DIFFERS",
            "reason": "year_differs",
            "findings": ["title_near_miss", "year_differs"],
            "conf": WEAK,
        },
    ]
    assert _decided(rows) == {}


def test_identifier_rows_and_bibliography_rows_are_never_touched() -> None:
    rows = [
        # DOES-NOT-RESOLVE rests on an identifier, read by the certain rules
        {"verdict": "DOES-NOT-RESOLVE", "reason": "not_found", "conf": WEAK},
        # a .bib row has no confidences: its fields are not guessed
        {"verdict": "RESOLVES-BUT-DIFFERS", "reason": "title_differs", "conf": None},
        # a finding on no read field (an arXiv version) stands whatever the reading
        {"verdict": "RESOLVES-BUT-DIFFERS", "reason": "arxiv_version_unknown", "conf": WEAK},
        {"verdict": "RESOLVES-AND-MATCHES", "conf": WEAK},
    ]
    assert _decided(rows) == {}


def test_a_missing_field_is_weak_and_a_venue_for_a_title_is_no_title() -> None:
    rows = [
        {"verdict": "RESOLVES-BUT-DIFFERS", "reason": "authors_differ", "conf": {"title": 0.9}},
        {
            "verdict": "NOT FOUND",
            "reason": "no_index_match",
            "conf": STRONG,
            "title": "In Proceedings of the 40th International Conference on Machine Learning",
        },
    ]
    assert _decided(rows) == {0: UNREADABLE, 1: UNREADABLE}


def test_fields_a_string_search_validated_count_as_read() -> None:
    rows = [
        {
            "verdict": "RESOLVES-BUT-DIFFERS",
            "reason": "authors_first_differs",
            "conf": WEAK,
            "warnings": [UNSURE],
            "queried_by": "title",
        }
    ]
    assert _decided(rows) == {}


def test_flag_fields_by_reason_family() -> None:
    assert flag_fields("title_near_miss", ["title_near_miss", "venue_differs"]) == {
        "title",
        "container_title",
    }
    assert flag_fields("no_index_match", None) == {"title"}
    assert flag_fields("work_retracted", ["work_retracted"]) is None
