"""The `--fail-on` policy: which rows fail a run, and the exit code that says so.

A `--fail-on` list holds what the tool prints: verdicts and states (`DOES-NOT-RESOLVE`,
`RESOLVES-BUT-DIFFERS`, `NOT COVERED`, `INVALID`, `NOT FOUND`), alert labels (`RETRACTED`,
`UNDER CONCERN`: `auditor.alerts`), checklist priorities and reason codes. A priority `Pn` fails
every row with a checklist item at `Pn` or more urgent (`P1` means P0 and P1). A reason code
(`missing_entry`, `work_retracted`, a waterfall outcome such as `DOI_REFUTED`) fails every row
whose verdict or one of whose checklist items carries it; an alert label fails the rows its
checklist code marks. `UNCHECKED` in the list is the same as
`--fail-on-unchecked`: a failure to look is never counted as a finding, it gets its own code.
An empty list means the default, `DEFAULT_FAIL_ON`; `none` means nothing fails.

Exit codes follow `auditor.exitcodes.ExitCode`: 0 nothing fails, 1 findings, 3 incomplete (rows are
`UNCHECKED` and the policy counts them). Findings win over incompleteness: a run with a
condemned reference fails as a finding even when other rows could not be checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from auditor.alerts import ALERTS
from auditor.chinese.outcomes import Outcome
from auditor.errors import ConfigError, Reason
from auditor.exitcodes import ExitCode
from auditor.tables import RowState, Verdict

__all__ = ["DEFAULT_FAIL_ON", "Policy", "exit_code", "failing_rows", "parse_fail_on"]

#: What fails a run when no `--fail-on` is given (the CI profile's rule too).
DEFAULT_FAIL_ON: tuple[str, ...] = (
    Verdict.DOES_NOT_RESOLVE.value,
    Verdict.DIFFERS.value,
    RowState.NOT_FOUND.value,
    "P0",
    Reason.MISSING_ENTRY.value,
)

_PRIORITIES = ("P0", "P1", "P2", "P3")
#: Every reason code a row or checklist item can carry, by its lower-case spelling.
_REASONS = {
    code.lower(): code for code in (*(r.value for r in Reason), *(o.value for o in Outcome))
}
#: Alert labels (`RETRACTED`) by their squashed spelling, to the checklist code they stand for.
_ALERTS = {"".join(c for c in label if c.isalnum()): code for code, label in ALERTS.items()}
_VERDICTS = {
    "".join(c for c in v.upper() if c.isalnum()): v
    for v in (*(x.value for x in Verdict), RowState.INVALID.value, RowState.NOT_FOUND.value)
}

_OK, _FINDINGS, _INCOMPLETE = ExitCode.OK, ExitCode.FINDINGS, ExitCode.INCOMPLETE


@dataclass(frozen=True)
class Policy:
    """A parsed `--fail-on` list."""

    verdicts: frozenset[str]
    """Verdict spellings (as in `tables.OUTCOMES`) that fail a row."""
    max_priority: int | None
    """Index in P0…P3 of the least urgent failing priority, or `None`."""
    unchecked: bool
    """`UNCHECKED` rows make the run incomplete (exit 3)."""
    reasons: frozenset[str] = frozenset()
    """Reason codes that fail a row whatever its verdict (a cited key with no entry)."""


def parse_fail_on(tokens: Iterable[str], *, fail_on_unchecked: bool = False) -> Policy:
    """Parse `--fail-on` tokens (case and `-`/`_`/space spelling are forgiven).

    A token spelled exactly as a reason code is that code (`not_found`, the register's answer);
    otherwise verdicts and states come first (`NOT_FOUND` is the state `NOT FOUND`).

    Raises `ConfigError` naming an unknown token, so the CLI can exit 2 before any work.
    """
    items = [t.strip() for t in tokens if t and t.strip()]
    if not items:
        items = list(DEFAULT_FAIL_ON)
    verdicts: set[str] = set()
    reasons: set[str] = set()
    max_priority: int | None = None
    unchecked = fail_on_unchecked
    for token in items:
        squashed = "".join(c for c in token.upper() if c.isalnum())
        if squashed == "NONE":
            continue
        if token in _REASONS.values():  # exactly as printed: `not_found` is the code, not the state
            reasons.add(token)
        elif squashed == "UNCHECKED":
            unchecked = True
        elif squashed in _PRIORITIES:
            rank = _PRIORITIES.index(squashed)
            max_priority = rank if max_priority is None else max(max_priority, rank)
        elif squashed in _VERDICTS:
            verdicts.add(_VERDICTS[squashed])
        elif squashed in _ALERTS:
            reasons.add(_ALERTS[squashed])
        elif token.lower() in _REASONS:
            reasons.add(_REASONS[token.lower()])
        else:
            known = ", ".join(
                [
                    *sorted(_VERDICTS.values()),
                    *ALERTS.values(),
                    *_PRIORITIES,
                    "UNCHECKED",
                    "a reason code",
                    "none",
                ]
            )
            raise ConfigError(f"--fail-on: unknown value {token!r} (known: {known})")
    return Policy(frozenset(verdicts), max_priority, unchecked, frozenset(reasons))


def _among(column: pa.ChunkedArray, values: Iterable[str]) -> pa.ChunkedArray:
    return pc.is_in(column, value_set=pa.array(sorted(values), pa.string()))


def failing_rows(verdicts: pa.Table, checklist: pa.Table, policy: Policy) -> list[int]:
    """`row_id`s that `policy` fails, in input order (`verdicts` order)."""
    row_ids = verdicts["row_id"]
    failing = pa.chunked_array([], row_ids.type)
    if policy.verdicts:
        failing = row_ids.filter(_among(verdicts["verdict"], policy.verdicts))
    if policy.reasons:
        # a retraction is a checklist item, not the verdict's reason: both are looked at
        by_item = checklist["row_id"].filter(_among(checklist["reason_code"], policy.reasons))
        by_verdict = row_ids.filter(_among(verdicts["reason"], policy.reasons))
        failing = pa.chunked_array(
            [*failing.chunks, *by_verdict.chunks, *by_item.cast(row_ids.type).chunks],
            row_ids.type,
        )
    if policy.max_priority is not None and checklist.num_rows:
        urgent = _among(checklist["priority"], _PRIORITIES[: policy.max_priority + 1])
        failing = pa.chunked_array(
            [*failing.chunks, *checklist["row_id"].filter(urgent).chunks], row_ids.type
        )
    result: list[int] = row_ids.filter(pc.is_in(row_ids, value_set=failing)).to_pylist()
    return result


def exit_code(
    verdicts: pa.Table,
    checklist: pa.Table,
    fail_on: Sequence[str],
    fail_on_unchecked: bool,
) -> int:
    """0 when no row fails the policy, 1 on findings, 3 when incomplete under the policy.

    Raises `ConfigError` on an unknown `fail_on` token.
    """
    policy = parse_fail_on(fail_on, fail_on_unchecked=fail_on_unchecked)
    if failing_rows(verdicts, checklist, policy):
        return _FINDINGS
    if policy.unchecked and pc.any(pc.equal(verdicts["verdict"], RowState.UNCHECKED.value)).as_py():
        return _INCOMPLETE
    return _OK
