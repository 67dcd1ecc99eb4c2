"""The checklist stage: priorities, wording, links, merging with other stages' items, order."""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pytest

from auditor import tables
from auditor.checklist import build_checklist, duplicate_items, links_for
from auditor.tables import CRITERIA_V1

FABRICATION_WORDS = ("fabricat", "fake", "invent", "hallucinat", "does not exist", "bogus")


def _tables(rows: list[tuple[str, str | None]], **ref_extra: Any) -> tuple[pa.Table, pa.Table]:
    refs, verdicts = [], []
    for i, (verdict, reason) in enumerate(rows):
        refs.append(
            {
                "row_id": i,
                "source_path": "refs.bib",
                "source_line": 1 + 10 * i,
                "key": f"k{i}",
                "id_type": "doi",
                "identifier": f"10.1000/{i}",
                "id_raw": f"doi:10.1000/{i}",
                "doi": f"10.1000/{i}",
                "title": f"Title {i}",
                "authors": ["Doe, J."],
                "year": 2020,
                **ref_extra,
            }
        )
        verdicts.append(
            {
                "row_id": i,
                "source_path": "refs.bib",
                "source_line": 1 + 10 * i,
                "key": f"k{i}",
                "verdict": verdict,
                "reason": reason,
                "id_type": "doi",
                "identifier": f"10.1000/{i}",
                "register": "crossref",
                "tier": "live",
                "criteria_id": CRITERIA_V1,
            }
        )
    return (
        tables.from_rows(refs, tables.REFERENCES),
        tables.from_rows(verdicts, tables.VERDICTS),
    )


@pytest.mark.parametrize(
    ("verdict", "reason", "priority"),
    [
        ("RESOLVES-BUT-DIFFERS", "title_differs", "P1"),
        ("RESOLVES-BUT-DIFFERS", "authors_differ", "P2"),
        ("RESOLVES-BUT-DIFFERS", "year_differs", "P3"),
        ("RESOLVES-BUT-DIFFERS", "title_empty", "P2"),
        ("DOES-NOT-RESOLVE", "not_found", "P1"),
        ("UNCHECKED", "timeout", "P2"),
        ("UNCHECKED", "offline", "P2"),
        ("INVALID", "missing_title", "P2"),
        ("NOT COVERED", "no_identifier", "P3"),
        ("NOT COVERED", "leg_closed", "P3"),
    ],
)
def test_each_ordinary_outcome_gets_one_item_with_its_priority(
    verdict: str, reason: str, priority: str
) -> None:
    checklist = build_checklist(*_tables([(verdict, reason)]))
    assert checklist.schema == tables.CHECKLIST
    [item] = checklist.to_pylist()
    assert item["priority"] == priority
    assert item["reason_code"] == reason
    assert item["outcome"] == verdict
    assert item["human_result"] is None
    assert "pending human check" in item["text"]
    assert not any(word in item["text"].lower() for word in FABRICATION_WORDS)
    assert (item["key"], item["source_path"], item["source_line"]) == ("k0", "refs.bib", 1)
    assert item["cited_title"] == "Title 0"
    assert item["cited_authors"] == ["Doe, J."]
    assert item["cited_year"] == 2020


def test_matches_get_no_item_and_no_p0_is_ever_made_here() -> None:
    rows = [
        ("RESOLVES-AND-MATCHES", None),
        ("DOES-NOT-RESOLVE", "not_found"),
        ("RESOLVES-BUT-DIFFERS", "title_differs"),
    ]
    checklist = build_checklist(*_tables(rows))
    assert checklist["row_id"].to_pylist() == [1, 2]
    assert "P0" not in checklist["priority"].to_pylist()


def test_sources_tried_names_register_and_tier() -> None:
    [item] = build_checklist(*_tables([("UNCHECKED", "http_5xx")])).to_pylist()
    assert item["sources_tried"] == ["crossref (live)"]
    assert "http_5xx" in item["text"]


def test_links_encode_untrusted_identifiers() -> None:
    assert links_for(doi="10.1000/a b?x=1#f") == ["https://doi.org/10.1000/a%20b%3Fx%3D1%23f"]
    assert links_for(pmid="12345") == ["https://pubmed.ncbi.nlm.nih.gov/12345/"]
    assert links_for(pmid="123/../x") == []  # a PMID is digits or it gets no link
    assert links_for(arxiv="hep-th/9901001") == ["https://arxiv.org/abs/hep-th/9901001"]
    assert links_for(doi="10.1/@evil.example") == ["https://doi.org/10.1/%40evil.example"]
    for link in links_for(doi="//evil.example/x", arxiv="../../x"):
        assert link.startswith(("https://doi.org/", "https://arxiv.org/abs/"))


def test_item_links_cover_every_identifier_checked_one_first() -> None:
    refs, verdicts = _tables([("DOES-NOT-RESOLVE", "not_found")], pmid="777")
    verdicts = verdicts.set_column(
        verdicts.schema.get_field_index("id_type"), "id_type", pa.array(["pmid"])
    ).set_column(verdicts.schema.get_field_index("identifier"), "identifier", pa.array(["777"]))
    [item] = build_checklist(refs, verdicts).to_pylist()
    assert item["links"] == [
        "https://pubmed.ncbi.nlm.nih.gov/777/",
        "https://doi.org/10.1000/0",
    ]


def _extra(row_id: int, priority: str, reason: str) -> dict[str, Any]:
    return {
        "row_id": row_id,
        "priority": priority,
        "reason_code": reason,
        "text": "from another stage",
        "human_result": "should be cleared",
    }


def test_extra_items_merge_sorted_by_priority_then_input_order() -> None:
    rows = [
        ("NOT COVERED", "no_identifier"),  # P3
        ("UNCHECKED", "timeout"),  # P2
        ("DOES-NOT-RESOLVE", "DOI_REFUTED"),  # decided by the waterfall: its P0 item only
        ("RESOLVES-BUT-DIFFERS", "title_differs"),  # P1
        ("DOES-NOT-RESOLVE", "not_found"),  # P1
    ]
    refs, verdicts = _tables(rows)
    extra = tables.from_rows([_extra(2, "P0", "DOI_REFUTED")], tables.CHECKLIST)
    checklist = build_checklist(refs, verdicts, extra=extra)
    got = list(zip(checklist["priority"].to_pylist(), checklist["row_id"].to_pylist(), strict=True))
    assert got == [("P0", 2), ("P1", 3), ("P1", 4), ("P2", 1), ("P3", 0)]
    assert checklist["human_result"].null_count == checklist.num_rows


def test_out_of_scope_waterfall_item_keeps_the_rows_own_item() -> None:
    """A DOI_RA_OUT_OF_SCOPE item leaves the Crossref verdict; its finding still gets an item."""
    refs, verdicts = _tables([("RESOLVES-BUT-DIFFERS", "title_differs")])
    extra = tables.from_rows([_extra(0, "P3", "DOI_RA_OUT_OF_SCOPE")], tables.CHECKLIST)
    checklist = build_checklist(refs, verdicts, extra=extra)
    assert checklist["reason_code"].to_pylist() == ["title_differs", "DOI_RA_OUT_OF_SCOPE"]


def test_invalid_item_repeats_the_parse_error() -> None:
    refs, verdicts = _tables([("INVALID", "parse_error")], parse_error="unclosed brace")
    [item] = build_checklist(refs, verdicts).to_pylist()
    assert "unclosed brace" in item["text"]
    assert item["sources_tried"] == ["crossref (live)"]


def test_empty_run_gives_empty_checklist() -> None:
    checklist = build_checklist(*_tables([]))
    assert checklist.num_rows == 0
    assert checklist.schema == tables.CHECKLIST


def test_duplicate_items_name_the_first_key_and_merge() -> None:
    refs, verdicts = _tables([("RESOLVES-AND-MATCHES", None)] * 3)
    duplicates = tables.from_rows(
        [
            {"group_id": 1, "row_id": 2, "key": "k2", "basis": "doi", "value": "10.1000/0"},
            {"group_id": 1, "row_id": 0, "key": "k0", "basis": "doi", "value": "10.1000/0"},
        ],
        tables.DUPLICATES,
    )
    [item] = duplicate_items(duplicates, refs).to_pylist()
    assert (item["row_id"], item["priority"], item["reason_code"]) == (
        2,
        "P3",
        "duplicate_reference",
    )
    assert "k0" in item["text"] and "pending human check" in item["text"]
    assert item["links"] == ["https://doi.org/10.1000/0"]
    merged = build_checklist(refs, verdicts, extra=duplicate_items(duplicates, refs))
    assert merged["row_id"].to_pylist() == [2]
    assert duplicate_items(tables.empty(tables.DUPLICATES), refs).num_rows == 0


def test_columns_built_items_on_nulls_files_and_rows_without_findings() -> None:
    ref = {"source_path": "a.bib", "id_type": "doi", "title": "T", "year": 2020}
    refs = tables.from_rows(
        [
            {**ref, "row_id": 0, "key": "first", "doi": "10.1/x", "pmid": "12"},
            {**ref, "row_id": 1, "key": None, "doi": "10.1/y"},
            {**ref, "row_id": 2, "source_path": "b.bib", "key": "again", "doi": "10.1/x"},
            {**ref, "row_id": 3, "key": "k3", "id_type": "pmid", "pmid": " 34 ", "doi": "10.1/(z)"},
        ],
        tables.REFERENCES,
    )
    verdict = {"source_path": "", "criteria_id": CRITERIA_V1, "id_type": "doi"}
    update = {"type": "retraction", "relation": "updated_by", "date": None, "doi": "10.9/n"}
    verdicts = tables.from_rows(
        [
            {**verdict, "row_id": 0, "key": "first", "verdict": "RESOLVES-AND-MATCHES"},
            {**verdict, "row_id": 1, "key": "", "verdict": "RESOLVES-AND-MATCHES",
             "register": "crossref", "tier": None, "updates": [update]},
            {**verdict, "row_id": 2, "key": "again", "verdict": "RESOLVES-AND-MATCHES"},
            {**verdict, "row_id": 3, "key": "k3", "verdict": "DOES-NOT-RESOLVE",
             "reason": "not_found", "id_type": "pmid", "identifier": "34",
             "searched": ["crossref", "openalex"]},
        ],
        tables.VERDICTS,
    )  # fmt: skip
    duplicates = tables.from_rows(
        [
            {"group_id": 1, "row_id": 2, "key": None, "basis": "doi", "value": "10.1/x"},
            {"group_id": 1, "row_id": 0, "key": None, "basis": "doi", "value": "10.1/x"},
        ],
        tables.DUPLICATES,
    )
    extra = duplicate_items(duplicates, refs)
    items = build_checklist(refs, verdicts, extra=extra).to_pylist()
    # Row 0 matches and has no updates: no item. P0 first, then input order.
    assert [(i["row_id"], i["priority"], i["reason_code"]) for i in items] == [
        (1, "P0", "work_retracted"),
        (3, "P1", "not_found"),
        (2, "P3", "duplicate_reference"),
    ]
    retracted, unresolved, duplicate = items
    assert (retracted["source_path"], retracted["key"]) == ("a.bib", None)
    assert retracted["text"] == (
        "The cited work was retracted (the register gives no date); notice: doi:10.9/n; "
        "pending human check."
    )
    assert retracted["sources_tried"] == ["crossref"]
    assert retracted["links"] == ["https://doi.org/10.1/y"]
    assert unresolved["text"].endswith(
        " No index holds a work with this title either (asked: crossref, openalex)."
    )
    assert unresolved["sources_tried"] == ["pubmed"]
    # The checked PMID's page first, then the DOI, percent-encoded.
    assert unresolved["links"] == [
        "https://pubmed.ncbi.nlm.nih.gov/34/",
        "https://doi.org/10.1/%28z%29",
    ]
    assert (duplicate["source_path"], duplicate["key"], duplicate["outcome"]) == (
        "b.bib",
        "again",
        None,
    )
    assert duplicate["text"].startswith("Same work as first (doi 10.1/x), cited under another key")
    assert (duplicate["sources_tried"], duplicate["links"]) == ([], ["https://doi.org/10.1/x"])


def test_priority_rank_orders_p0_first_and_the_unknown_last() -> None:
    from auditor.checklist import PRIORITY_ORDER, priority_rank

    ranks = priority_rank(pa.array(["P2", "P0", None, "P9", "P3", "P1"]))
    assert ranks.to_pylist() == [2, 0, len(PRIORITY_ORDER), len(PRIORITY_ORDER), 3, 1]


def test_every_identifier_type_names_its_register() -> None:
    assert set(tables.REGISTER_FOR_ID_TYPE) == set(tables.IdType)
    assert tables.REGISTER_FOR_ID_TYPE["pmid"] == "pubmed"
