"""The `--fail-on` policy and its exit codes."""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pytest

from auditor import tables
from auditor.errors import ConfigError
from auditor.exitcodes import ExitCode
from auditor.policy import DEFAULT_FAIL_ON, exit_code, failing_rows, parse_fail_on
from auditor.tables import CRITERIA_V1


def _verdicts(*verdicts: str) -> pa.Table:
    rows = [
        {"row_id": i, "source_path": "r.bib", "verdict": v, "criteria_id": CRITERIA_V1}
        for i, v in enumerate(verdicts)
    ]
    return tables.from_rows(rows, tables.VERDICTS)


def _checklist(*items: tuple[int, str]) -> pa.Table:
    rows: list[dict[str, Any]] = [
        {"row_id": r, "priority": p, "reason_code": "x", "text": "t"} for r, p in items
    ]
    return tables.from_rows(rows, tables.CHECKLIST)


def test_default_fails_on_does_not_resolve_differs_and_p0() -> None:
    assert DEFAULT_FAIL_ON == (
        "DOES-NOT-RESOLVE",
        "RESOLVES-BUT-DIFFERS",
        "NOT FOUND",
        "P0",
        "missing_entry",
    )
    ok = _verdicts("RESOLVES-AND-MATCHES", "NOT COVERED", "UNCHECKED", "INVALID")
    assert exit_code(ok, _checklist((1, "P3"), (2, "P2")), [], False) == ExitCode.OK
    assert exit_code(_verdicts("DOES-NOT-RESOLVE"), _checklist(), [], False) == ExitCode.FINDINGS
    assert exit_code(_verdicts("RESOLVES-BUT-DIFFERS"), _checklist(), (), False) == 1
    assert exit_code(_verdicts("NOT COVERED"), _checklist((0, "P0")), [], False) == 1


def test_reason_codes_fail_rows_with_that_reason() -> None:
    rows = [
        {"row_id": 0, "source_path": "p.tex", "verdict": "INVALID", "criteria_id": CRITERIA_V1},
        {
            "row_id": 1,
            "source_path": "p.tex",
            "verdict": "INVALID",
            "reason": "missing_entry",
            "criteria_id": CRITERIA_V1,
        },
    ]
    table = tables.from_rows(rows, tables.VERDICTS)
    assert exit_code(table, _checklist(), [], False) == ExitCode.FINDINGS
    assert exit_code(table.slice(0, 1), _checklist(), [], False) == ExitCode.OK
    assert exit_code(table, _checklist(), ["none"], False) == ExitCode.OK
    with pytest.raises(ConfigError):
        parse_fail_on(["no_such_reason_code"])


def test_priority_fails_at_or_above() -> None:
    verdicts = _verdicts("NOT COVERED", "UNCHECKED")
    assert exit_code(verdicts, _checklist((0, "P3")), ["P2"], False) == ExitCode.OK
    assert exit_code(verdicts, _checklist((1, "P2")), ["P2"], False) == ExitCode.FINDINGS
    assert exit_code(verdicts, _checklist((1, "P0")), ["P2"], False) == ExitCode.FINDINGS
    assert exit_code(verdicts, _checklist((1, "P3")), ["P1", "P3"], False) == ExitCode.FINDINGS


def test_only_listed_verdicts_fail() -> None:
    verdicts = _verdicts("RESOLVES-BUT-DIFFERS", "INVALID")
    assert exit_code(verdicts, _checklist(), ["DOES-NOT-RESOLVE"], False) == ExitCode.OK
    assert exit_code(verdicts, _checklist(), ["invalid"], False) == ExitCode.FINDINGS


def test_none_never_fails() -> None:
    verdicts = _verdicts("DOES-NOT-RESOLVE")
    assert exit_code(verdicts, _checklist((0, "P0")), ["none"], False) == ExitCode.OK


def test_unchecked_is_incomplete_not_a_finding() -> None:
    verdicts = _verdicts("RESOLVES-AND-MATCHES", "UNCHECKED")
    assert exit_code(verdicts, _checklist(), [], False) == ExitCode.OK
    assert exit_code(verdicts, _checklist(), [], True) == ExitCode.INCOMPLETE
    assert exit_code(verdicts, _checklist(), ["UNCHECKED"], False) == ExitCode.INCOMPLETE
    complete = _verdicts("RESOLVES-AND-MATCHES")
    assert exit_code(complete, _checklist(), [], True) == ExitCode.OK


def test_findings_win_over_incomplete() -> None:
    verdicts = _verdicts("UNCHECKED", "DOES-NOT-RESOLVE")
    assert exit_code(verdicts, _checklist(), [], True) == ExitCode.FINDINGS


@pytest.mark.parametrize("spelling", ["NOT COVERED", "not-covered", "Not_Covered", " NOT COVERED "])
def test_verdict_spellings_are_forgiven(spelling: str) -> None:
    assert parse_fail_on([spelling]).verdicts == frozenset({"NOT COVERED"})


def test_unknown_token_is_a_config_error_naming_it() -> None:
    with pytest.raises(ConfigError, match="'P9'"):
        parse_fail_on(["P9"])
    with pytest.raises(ConfigError, match="MAYBE"):
        exit_code(_verdicts(), _checklist(), ["MAYBE"], False)


def test_failing_rows_in_input_order_without_repeats() -> None:
    verdicts = _verdicts("DOES-NOT-RESOLVE", "NOT COVERED", "RESOLVES-BUT-DIFFERS")
    checklist = _checklist((2, "P1"), (1, "P0"), (0, "P1"))
    assert failing_rows(verdicts, checklist, parse_fail_on([])) == [0, 1, 2]


def _row_with(verdict: str, reason: str | None) -> pa.Table:
    row = {"row_id": 0, "source_path": "r.bib", "verdict": verdict, "reason": reason}
    return tables.from_rows([{**row, "criteria_id": CRITERIA_V1}], tables.VERDICTS)


def _item(code: str, priority: str = "P3") -> pa.Table:
    row = {"row_id": 0, "priority": priority, "reason_code": code, "text": "t"}
    return tables.from_rows([row], tables.CHECKLIST)


def _printed_labels() -> list[str]:
    """Every verdict, state, alert and findings label the reports print."""
    from auditor.alerts import ALERTS
    from auditor.report.findings import SEVERITY
    from auditor.report.words import VERDICT_HELP

    return sorted({*VERDICT_HELP, *SEVERITY, *ALERTS.values()})


def _printed_codes() -> list[str]:
    """Every reason code a verdict or checklist item can carry (the reports word them all)."""
    from auditor.chinese.outcomes import Outcome
    from auditor.errors import Reason

    return sorted({*(r.value for r in Reason), *(o.value for o in Outcome)})


@pytest.mark.parametrize("label", _printed_labels())
def test_every_printed_label_is_accepted_and_fails_its_rows(label: str) -> None:
    from auditor.alerts import ALERTS

    codes = {name: code for code, name in ALERTS.items()}
    if label in codes:  # an alert is a checklist item on a row that may match
        verdicts, checklist = _row_with("RESOLVES-AND-MATCHES", None), _item(codes[label], "P0")
    elif label in ("P0", "P1", "P2", "P3"):
        verdicts, checklist = _row_with("NOT COVERED", None), _item("x", label)
    else:
        verdicts, checklist = _row_with(label, None), _checklist()
    expected = ExitCode.INCOMPLETE if label == "UNCHECKED" else ExitCode.FINDINGS
    assert exit_code(verdicts, checklist, [label], False) == expected
    assert exit_code(verdicts, _checklist(), ["none"], False) == ExitCode.OK


@pytest.mark.parametrize("code", _printed_codes())
def test_every_reason_code_is_accepted_on_a_verdict_or_a_checklist_item(code: str) -> None:
    ok = _row_with("RESOLVES-AND-MATCHES", None)
    assert exit_code(_row_with("NOT COVERED", code), _checklist(), [code], False) == 1
    assert exit_code(ok, _item(code), [code], False) == ExitCode.FINDINGS
    if "".join(c for c in code.upper() if c.isalnum()) not in ("NOTFOUND", "INVALID"):
        assert exit_code(ok, _item(code), [code.upper()], False) == ExitCode.FINDINGS
    assert exit_code(ok, _checklist(), [code], False) == ExitCode.OK


def test_a_retraction_in_the_checklist_fails_work_retracted_and_retracted() -> None:
    verdicts = _row_with("RESOLVES-AND-MATCHES", None)
    checklist = _item("work_retracted", "P0")
    for token in ("work_retracted", "RETRACTED", "retracted"):
        assert exit_code(verdicts, checklist, [token], False) == ExitCode.FINDINGS, token
    assert exit_code(verdicts, checklist, ["UNDER CONCERN"], False) == ExitCode.OK
