"""The one line an audit prints when it asked the network and no register answered.

Without a network every live lookup fails (refused, no route, no name, timed out): the rows are
`UNCHECKED`, which is the truth, but a screen of them hides the cause and the way out. One line
names both: `--offline` (snapshots and cache only, no waiting), a snapshot, or a re-run online.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from auditor.errors import Reason
from auditor.vocabulary import RecordStatus, Tier

__all__ = ["unreachable_note"]

_CANNOT_CONNECT = (Reason.CONNECTION_ERROR.value, Reason.TIMEOUT.value)


def unreachable_note(records: pa.Table) -> str | None:
    """The line, when live lookups were made and none reached its register; else `None`."""
    live = records.filter(pc.equal(records["tier"], Tier.LIVE.value))
    if not live.num_rows:
        return None
    cut = pc.and_(
        pc.equal(live["status"], RecordStatus.UNREACHABLE.value),
        pc.is_in(live["reason"], value_set=pa.array(_CANNOT_CONNECT, pa.string())),
    )
    if not pc.all(pc.fill_null(cut, False)).as_py():
        return None
    registers = ", ".join(sorted(set(live["register"].to_pylist())))
    return (
        f"no register could be reached ({registers}: connection refused or timed out), so "
        f"{live.num_rows} lookups are UNCHECKED; without a network, run with --offline "
        "(snapshots and the cache only), add --snapshot FILE, or re-run when online"
    )
