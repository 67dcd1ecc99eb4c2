"""`python -m auditor.compare.title_worker`: one share of a `TitlePool`'s title pairs.

Reads two lines on stdin, the pairs file and the answer file (nothing: end at once), decides
the pairs and writes the decisions; both files are Arrow IPC (`title_pool.PAIRS`,
`title_pool.DECISIONS`). Kept out of the package's imports so that running it does not import
it twice.
"""

from __future__ import annotations

import sys

import pyarrow as pa

from auditor.compare.title_pool import DECISIONS, PAIRS, decide_table


def main() -> int:
    """Decide the pairs named on stdin; exit status 0 only when the answer file is written."""
    given, answer = sys.stdin.readline().rstrip("\n"), sys.stdin.readline().rstrip("\n")
    if not given or not answer:
        return 0
    with pa.memory_map(given) as source:
        pairs = pa.ipc.open_file(source).read_all()
    if not pairs.schema.equals(PAIRS):
        return 2
    decided = decide_table(pairs)
    with pa.OSFile(answer, "wb") as sink, pa.ipc.new_file(sink, DECISIONS) as writer:
        writer.write_table(decided)
    return 0


if __name__ == "__main__":
    sys.exit(main())
