"""SARIF 2.1.0 (`--output-format sarif`): the findings as a static-analysis log for code scanning.

One rule per verdict (or alert) and reason code that occurs, e.g. `does-not-resolve/not_found`
or `retracted/work_retracted`, each with help text from `report.words`; one result per
reference that needs a person, on its file and line. The level follows the `--fail-on` policy as
the GitHub annotations do (`report.annotations`): `error` for a failing row, `warning` for a row
that could not be checked or carries an alert, `note` for any other finding; a rule's default
level is the worst of its results'. A result's `partialFingerprints` hash the file, the key, the
identifier (or the title), the rule and which occurrence of those it is, not the line, so code
scanning keeps one alert per reference while the lines around it move, and two identical entries
stay two alerts. A file inside the working folder is a percent-encoded URI relative to
`%SRCROOT%` (what code scanning matches against the repository). Values from the bibliography
are JSON strings (json escapes them); control characters are dropped from messages and
properties so a log viewer never receives them raw.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path, PurePath
from typing import Any, TextIO
from urllib.parse import quote

import pyarrow as pa
import pyarrow.compute as pc

from auditor import __version__
from auditor.alerts import ALERT_CODES, ALERT_HELP, alert_column
from auditor.policy import failing_rows, parse_fail_on
from auditor.report.findings import SEVERITY, plain_text
from auditor.report.interface import ReportFormat
from auditor.report.view import ReportView
from auditor.report.words import VERDICT_HELP, reason_text
from auditor.result import AuditResult
from auditor.tables import RowState

__all__ = ["SCHEMA_URI", "SarifLog", "rule_id", "sarif_log"]

#: The `$schema` a SARIF 2.1.0 log names (the OASIS errata 01 schema).
SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)

_FINGERPRINT = "auditorReference/v1"
_WARNED = {RowState.UNCHECKED.value, RowState.INVALID.value}
_COLUMNS = [
    "row_id", "source_path", "source_line", "key", "verdict", "reason", "identifier",
    "title_claimed",
]  # fmt: skip


def rule_id(outcome: str, reason: str | None) -> str:
    """`does-not-resolve/not_found`: the outcome (verdict, state or alert) as a slug, then the
    reason code (`none` when the row has none)."""
    slug = outcome.lower().replace(" ", "-")
    return f"{slug}/{reason or 'none'}"


_LEVELS = ("error", "warning", "note")  # worst first


def _rule(outcome: str, reason: str | None, level: str) -> dict[str, Any]:
    rid = rule_id(outcome, reason)
    what = ALERT_HELP.get(outcome) or VERDICT_HELP.get(outcome, outcome)
    # an alert's reason code only restates the alert
    why = reason_text(reason) if reason and outcome not in ALERT_HELP else ""
    short = f"{outcome}: {why}" if why else outcome
    text = f"{what} {why[:1].upper()}{why[1:]}." if why else what
    todo = "Confirm it by hand against the links in report.html and record the result."
    return {
        "id": rid,
        "name": "".join(w.capitalize() for w in rid.replace("/", "-").replace("_", "-").split("-")),
        "shortDescription": {"text": short},
        "fullDescription": {"text": text},
        "help": {
            "text": f"{text} {todo}",
            "markdown": f"**{outcome}**{f' ({why})' if why else ''}. {what}\n\n{todo}",
        },
        "defaultConfiguration": {"level": level},
        "properties": {"outcome": outcome, "reason": reason or ""},
    }


def _uri(path: str) -> tuple[str, str | None]:
    """The artifact URI of `path` and its base: relative to the working folder (`%SRCROOT%`,
    what code scanning matches against the repository) when inside it, else a `file:` URI."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        relative = ".."
    if not relative.startswith(".."):
        return quote(PurePath(relative).as_posix()), "%SRCROOT%"
    return Path(path).resolve().as_uri(), None


def _fingerprint(uri: str, row: dict[str, Any], rule: str, seen: Counter[str]) -> str:
    ident = row.get("identifier") or row.get("title_claimed") or ""
    text = "\x1f".join([uri, str(row.get("key") or ""), str(ident), rule])
    seen[text] += 1  # the n-th identical entry of a file: its own alert
    return hashlib.sha256(f"{text}\x1f{seen[text]}".encode()).hexdigest()


def _message(row: dict[str, Any], outcome: str) -> str:
    key = row.get("key") or f"row {row['row_id']}"
    ident = f" {row['identifier']}" if row.get("identifier") else ""
    why = reason_text(row.get("reason"))
    text = f"{key}:{ident} {row['verdict']}" + (f" ({why})" if why else "")
    if outcome != row["verdict"]:  # an alert: the work's state first, its fields' verdict after
        said = reason_text(ALERT_CODES[outcome])
        text = f"{key}:{ident} {outcome} ({said}); verdict {row['verdict']}"
    return plain_text(f"{text}; pending human check")


def _level(row: dict[str, Any], failing: set[int]) -> str:
    if row["row_id"] in failing:
        return "error"
    if row["verdict"] in _WARNED or row["alert"]:
        return "warning"
    return "note"


def _rows(result: AuditResult, failing: set[int]) -> list[dict[str, Any]]:
    """The rows that become results (failing, a finding, or alerted), in input order; only
    those become Python values."""
    table = result.verdicts.select(_COLUMNS)
    table = table.append_column("alert", alert_column(result.verdicts, result.checklist))
    kinds = pa.array(sorted(k for k in SEVERITY if k in VERDICT_HELP), pa.string())
    ids = pa.array(sorted(failing), table.schema.field("row_id").type)
    said = pc.or_(pc.is_in(table["row_id"], value_set=ids), pc.is_in(table["verdict"], kinds))
    table = table.filter(pc.or_(said, pc.is_valid(table["alert"])))
    rows: list[dict[str, Any]] = table.take(pc.sort_indices(table["row_id"])).to_pylist()
    return rows


def _result(
    row: dict[str, Any], rid: str, index: int, level: str, uri: tuple[str, str | None], print_: str
) -> dict[str, Any]:
    """One result: `row` under rule `rid` (`index` in the rules) on its file `uri` (and base)."""
    artifact: dict[str, Any] = {"uri": uri[0], **({"uriBaseId": uri[1]} if uri[1] else {})}
    location: dict[str, Any] = {"artifactLocation": artifact}
    if row.get("source_line"):
        location["region"] = {"startLine": int(row["source_line"])}
    return {
        "ruleId": rid,
        "ruleIndex": index,
        "level": level,
        "message": {"text": _message(row, row["alert"] or row["verdict"])},
        "locations": [{"physicalLocation": location}],
        "partialFingerprints": {_FINGERPRINT: print_},
        "properties": {
            "key": plain_text(row.get("key")),
            "verdict": row["verdict"],
            "identifier": plain_text(row.get("identifier")),
        },
    }


def sarif_log(result: AuditResult, fail_on: Sequence[str] = ()) -> dict[str, Any]:
    """The SARIF 2.1.0 log of `result` as a JSON-ready dict (`fail_on`: the `--fail-on` list)."""
    failing = set(failing_rows(result.verdicts, result.checklist, parse_fail_on(fail_on)))
    rules: dict[str, tuple[str, str | None, str]] = {}  # id: outcome, reason, worst level
    results: list[dict[str, Any]] = []
    seen: Counter[str] = Counter()
    for row in _rows(result, failing):
        outcome = row["alert"] or row["verdict"]
        reason = ALERT_CODES[outcome] if row["alert"] else row.get("reason")
        level = _level(row, failing)
        rid = rule_id(outcome, reason)
        known = rules.get(rid, (outcome, reason, level))
        rules[rid] = (outcome, reason, min(known[2], level, key=_LEVELS.index))
        uri = _uri(str(row["source_path"]))
        print_ = _fingerprint(uri[0], row, rid, seen)
        results.append(_result(row, rid, list(rules).index(rid), level, uri, print_))
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "auditor",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [_rule(*rule) for rule in rules.values()],
            }
        },
        "results": results,
        "columnKind": "unicodeCodePoints",
        "properties": {"criteria": result.criteria_id or ""},
    }
    if any(
        r["locations"][0]["physicalLocation"]["artifactLocation"].get("uriBaseId") for r in results
    ):
        run["originalUriBaseIds"] = {"%SRCROOT%": {"uri": Path.cwd().resolve().as_uri() + "/"}}
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


class SarifLog(ReportFormat):
    """`--output-format sarif`: the SARIF log on `stream` (stdout), for code scanning."""

    def __init__(self, stream: TextIO, fail_on: Sequence[str] = ()) -> None:
        self.stream = stream
        self.fail_on = tuple(fail_on)

    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Write `sarif_log(result, fail_on)` as indented JSON to the stream."""
        json.dump(sarif_log(view.result, self.fail_on), self.stream, indent=2, ensure_ascii=False)
        self.stream.write("\n")
        return []
