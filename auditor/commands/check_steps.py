"""The steps of `auditor check` (its command is `auditor.commands.check`): check one reference
and word the field-by-field report.

The reference is built into a one-row `references` table and classified by `auditor.classify`
(with the run's closed legs), then goes through the stages of `auditor audit`
(`auditor.single.check_tables`: resolve, compare, the Chinese waterfall, the title search, with
the same settings), so a check gives the verdict an audit of that reference gives. With
`--record FILE` (a JSON object of `records` columns) a `RecordSource` gives the record instead
of resolve, and only that record is compared: no register is asked (no waterfall, no search).
"""

from __future__ import annotations

import asyncio
import dataclasses
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import typer

from auditor import tables
from auditor.classify import classify
from auditor.errors import MalformedBody
from auditor.exitcodes import ExitCode
from auditor.names import first_token, last_token
from auditor.registers import registry
from auditor.registers.updates import RETRACTION_TYPES
from auditor.report.words import update_text
from auditor.settings import Settings
from auditor.single import check_reports, check_tables, reference_rows, reference_table
from auditor.tables import RowState, UpdateRelation, Verdict
from auditor.transport import safejson
from auditor.transport.net import open_net

#: A resolution step: classified one-row `references` → `records` (any number of rows).
RecordSource = Callable[[pa.Table], pa.Table]

_OK, _FINDINGS, _USAGE, _INCOMPLETE = (
    ExitCode.OK,
    ExitCode.FINDINGS,
    ExitCode.USAGE,
    ExitCode.INCOMPLETE,
)
_MAX_RECORD_BYTES = 1 << 20

__all__ = [
    "check_reference",
    "claimed_reference",
    "exit_code",
    "load_record",
    "record_from_json",
    "reference_table",
    "render_text",
    "title_reference",
]


def _surnames_for(register: str, authors: list[str]) -> list[str]:
    """Register surnames from full names where the criteria's register rule allows it."""
    if register == "pubmed":
        return [first_token(a) for a in authors]
    if register == "arxiv":
        return [last_token(a) for a in authors]
    raise ValueError(
        f"record of register {register!r} gives 'authors' without 'surnames' "
        "(Crossref surnames are author.family and cannot be derived from full names)"
    )


def record_from_json(data: object) -> RecordSource:
    """A `RecordSource` answering with the record `data` (a JSON object of `records` columns).

    `id_type` and `identifier` default to the classified reference's, `status` to `found`,
    `tier` to `snapshot`. Raises `ValueError` on a wrong shape or unknown column.
    """
    if not isinstance(data, dict):
        raise ValueError("the record must be a JSON object")
    unknown = set(data) - set(tables.RECORDS.names)
    if unknown:
        raise ValueError(f"unknown record fields: {sorted(unknown)}")
    record: dict[str, Any] = {"status": "found", "tier": "snapshot", **data}
    if record.get("surnames") is None and isinstance(record.get("authors"), list):
        record["surnames"] = _surnames_for(str(record.get("register")), record["authors"])

    def source(references: pa.Table) -> pa.Table:
        ref = references.slice(0, 1).to_pylist()[0]
        filled = {"id_type": ref["id_type"] or "", "identifier": ref["identifier"] or ""}
        filled.update({k: v for k, v in record.items() if v is not None or k not in filled})
        try:
            return tables.from_rows([filled], tables.RECORDS)
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError) as exc:
            raise ValueError(f"record fields of the wrong type: {exc}") from None

    return source


def resolver_source(settings: Settings) -> RecordSource:
    """A `RecordSource` asking the resolve stage (snapshot → cache → live) under `settings`: what
    `--id` alone prints (the record itself, no comparison)."""
    from auditor.resolve import resolve

    async def lookup(references: pa.Table) -> pa.Table:
        async with open_net(settings, registry.hosts()) as net:
            return await resolve(references, settings, net)

    def source(references: pa.Table) -> pa.Table:
        return asyncio.run(lookup(references))

    return source


def check_reference(
    references: pa.Table, settings: Settings, source: RecordSource | None = None
) -> dict[str, Any]:
    """The report of the one-row `references` as a JSON-ready dict, by the stages of an audit
    under `settings` (snapshots, cache, then live registers unless `offline`).

    With `source` (`--record`), its records stand for resolve's and nothing is asked of a
    register: the waterfall and the title search, which would ask, are off.
    """
    if source is not None:
        quiet = dataclasses.replace(settings, chinese_waterfall=False, search_unresolved=False)
        made = asyncio.run(check_tables(references, quiet, None, records=source(references)))
        return check_reports(references, made)[0]

    async def run() -> dict[str, Any]:
        async with open_net(settings, registry.hosts()) as net:
            made = await check_tables(references, settings, net)
        return check_reports(references, made)[0]

    return asyncio.run(run())


def _safe(value: object) -> str:
    """Printable text for a terminal: control characters from untrusted data are escaped."""
    if value is None:
        return "-"
    text = "; ".join(map(str, value)) if isinstance(value, list) else str(value)
    return "".join(
        ch if unicodedata.category(ch)[0] != "C" else ch.encode("unicode_escape").decode()
        for ch in text
    )


def render_text(report: dict[str, Any]) -> str:
    """The human form of a `check_reference` report."""
    reason = f" ({_safe(report['reason'])})" if report["reason"] else ""
    lines = [
        f"reference  {_safe(report['id_type'])} {_safe(report['identifier'] or report['id'])}",
        f"verdict    {report['verdict']}{reason}",
        f"register   {_safe(report['register'])} (tier {_safe(report['tier'])}, "
        f"as of {_safe(report['retrieved_at'])})",
        f"criteria   {report['criteria_id']}",
    ]
    if report.get("queried_by") == "title":
        found = f"{_safe(report['id_type'])} {_safe(report['identifier'])}"
        lines[0] = f"reference  found by title search: {found if report['identifier'] else '-'}"
        lines.append(f"searched   {_safe(report['searched'])}")
        lines.extend(f"nearest    {_safe(n)}" for n in report["nearest"])
    if report.get("findings"):
        lines.append(f"findings   {_safe(report['findings'])}")
    lines.extend(f"update     {_safe(update_text(u))}" for u in report.get("updates") or [])
    marks = {True: "yes", False: "NO", None: "not compared"}
    for f in report["fields"]:
        score = f" (score {f['score']:.3f})" if f.get("score") is not None else ""
        lines.append(f"{f['field']:<8} {marks[f['match']]}{score}")
        lines.append(f"  claimed:  {_safe(f['claimed'])}")
        lines.append(f"  register: {_safe(f['register'])}")
    return "\n".join(lines)


def exit_code(verdict: str, updates: list[dict[str, Any]] | None = None) -> int:
    """0 for a match or NOT COVERED, 1 for a finding, 3 when the check could not be made.

    A cited work that was retracted, withdrawn or removed is a finding whatever the verdict (the
    P0 of an audit's default `--fail-on`).
    """
    if any(
        u.get("type") in RETRACTION_TYPES and u.get("relation") == UpdateRelation.UPDATED_BY
        for u in updates or []
    ):
        return _FINDINGS
    if verdict in (
        Verdict.DIFFERS,
        Verdict.DOES_NOT_RESOLVE,
        RowState.INVALID,
        RowState.NOT_FOUND,
    ):
        return _FINDINGS
    if verdict == RowState.UNCHECKED:
        return _INCOMPLETE
    return _OK


def load_record(path: Path) -> RecordSource:
    """The record of `--record path`, or `typer.Exit` (usage) naming the file and the fault."""
    try:
        with path.open("rb") as fh:
            raw = fh.read(_MAX_RECORD_BYTES + 1)
        if len(raw) > _MAX_RECORD_BYTES:
            raise ValueError(f"larger than {_MAX_RECORD_BYTES} bytes")
        try:
            # Bounded like a register body: deep nesting, NaN and lone surrogates never escape.
            data = safejson.loads(raw, "record")
        except MalformedBody as exc:
            raise ValueError(str(exc)) from None
        return record_from_json(data)
    except (OSError, ValueError) as exc:
        typer.echo(f"error: --record {path}: {exc}", err=True)
        raise typer.Exit(_USAGE) from None


def claimed_reference(
    ident: str | None,
    id_type: str | None,
    claimed: tuple[str, list[str], int | None, str | None],
    settings: Settings,
) -> pa.Table:
    """The classified one-row `references` of the reference given on the command line:
    `claimed` is (title, authors, year, venue); with `ident`, classified under the run's closed
    legs as an audit classifies it, else looked for by title (`title_reference`)."""
    from auditor.pipeline import closed_legs

    title, authors, year, venue = claimed
    if ident is None:
        return title_reference(title, authors, year, venue)
    legs = closed_legs(settings)
    return reference_table(ident, id_type, title, authors, year, venue=venue, closed_legs=legs)


def title_reference(
    title: str, authors: list[str], year: int | None, venue: str | None
) -> pa.Table:
    """The classified one-row `references` of a reference that has no identifier, which the
    stages look for by title, as `auditor audit` does.

    The reference counts as a journal or proceedings paper (`article`), so a miss is NOT FOUND
    unless its title or year say the indexes would not hold it.
    """
    row = reference_rows("", None, title, authors, year)
    row.update(id_raw=None, entry_type="article", container_title=venue)
    return classify(tables.from_rows([row], tables.REFERENCES))
