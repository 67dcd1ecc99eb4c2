"""The report's verdict table and totals."""

from __future__ import annotations

import pyarrow as pa

from auditor import tables
from auditor.report.rows import REPORT_VERDICTS
from auditor.report.view import build_view
from auditor.result import AuditResult


def test_one_row_per_input_row_in_input_order_even_if_verdicts_are_shuffled(
    result: AuditResult,
) -> None:
    shuffled = result.verdicts.take(pa.array([8, 3, 0, 5, 1, 7, 2, 6, 4]))
    table = build_view(AuditResult(**{**result.__dict__, "verdicts": shuffled})).rows
    assert table.schema == REPORT_VERDICTS
    assert table["row_id"].to_pylist() == list(range(9))
    shown = [name for name in tables.VERDICTS.names if name != "record_key"]
    assert table.schema.names[: len(shown)] == shown


def test_joined_columns(result: AuditResult) -> None:
    rows = {r["key"]: r for r in build_view(result).rows.to_pylist()}
    assert rows["lecun2015"]["agency"] == "crossref"
    assert rows["lecun2015"]["record_status"] == "found"
    assert rows["evil"]["id_raw"] == "2101.00001v2"
    assert rows["zh"]["priority"] == "P0"
    assert rows["wrongtitle"]["priority"] == "P1"
    assert rows["lecun2015"]["priority"] is None
    assert rows["lecun2015"]["checklist_items"] == 0
    assert rows["timeout"]["record_status"] == "unreachable"


def test_totals_count_every_outcome_and_file(result: AuditResult) -> None:
    counts = build_view(result).totals
    assert counts["rows"] == 9
    assert list(counts["by_verdict"]) == list(tables.OUTCOMES)
    assert sum(counts["by_verdict"].values()) == 9
    assert counts["by_verdict"]["UNCHECKED"] == 1
    assert counts["unchecked_reasons"] == {"timeout": 1}
    assert counts["by_priority"] == {"P0": 1, "P1": 2, "P2": 2, "P3": 2}
    assert [f["path"] for f in counts["by_file"]] == ["thesis.bib", "submission2.bib"]
    assert [f["rows"] for f in counts["by_file"]] == [6, 3]
    assert counts["duplicate_groups"] == 1


def _looked_up_row_by_row(result: AuditResult) -> list[tuple[object, ...]]:
    """The joined columns as the report defines them, one row at a time: the reference, and
    the first record of the row's `record_key`."""
    refs: dict[object, dict[str, object]] = {}
    for ref in result.references.to_pylist():
        refs.setdefault(ref["row_id"], ref)
    by_key: dict[str, dict[str, object]] = {}
    for rec in result.records.to_pylist():
        by_key.setdefault(f"{rec['register']}\x1f{rec['id_type']}\x1f{rec['identifier']}", rec)
    out = []
    for row in sorted(result.verdicts.to_pylist(), key=lambda r: r["row_id"]):
        rec = by_key.get(row["record_key"]) if row["record_key"] is not None else None
        ref = refs.get(row["row_id"], {})
        out.append(
            (
                row["row_id"],
                ref.get("source_format"),
                ref.get("id_raw"),
                rec and rec["status"],
                rec and rec["agency"],
            )
        )
    return out


def test_each_row_finds_its_reference_and_the_record_it_relied_on(result: AuditResult) -> None:
    records = result.records
    moved = pa.array(["elsewhere"] + records["register"].to_pylist()[1:], pa.string())
    cases = [
        result,
        # the record a row names is joined on its key alone: no other register's record of the
        # same identifier answers for it
        AuditResult(
            **{
                **result.__dict__,
                "records": records.set_column(
                    records.schema.get_field_index("register"), "register", moved
                ),
            }
        ),
        # references and verdicts in different orders
        AuditResult(
            **{
                **result.__dict__,
                "references": result.references.take(pa.array(range(8, -1, -1))),
                "verdicts": result.verdicts.take(pa.array([8, 3, 0, 5, 1, 7, 2, 6, 4])),
            }
        ),
    ]
    columns = ["row_id", "source_format", "id_raw", "record_status", "agency"]
    for case in cases:
        table = build_view(case).rows.select(columns)
        assert [tuple(r.values()) for r in table.to_pylist()] == _looked_up_row_by_row(case)
    assert build_view(cases[1]).rows["record_status"].to_pylist()[0] is None


def test_the_report_table_does_not_carry_the_join_key(result: AuditResult) -> None:
    assert "record_key" not in build_view(result).rows.column_names
