"""Streaming a dump into a snapshot dataset: Parquet parts, resumable, in constant memory.

`import_dump(reader, paths, out)` writes `out/records/<file>-<n>.parquet`, one part per
`PART_ROWS` records (the only rows held in memory), each written atomically, and after each part
records in `out/import-state.json` how many parts of which input are done. Run again after an
interruption, it skips the inputs already finished and, inside a half-done input, the records
of the parts already written: the dataset ends the same as an uninterrupted import. An input
that changed since (size or modification time) is imported again from its start. Finally the
title index is (re)built beside the records (`auditor.dumps.title_index`).

Parts are written to `out/.import/` and moved into `records/` (`os.replace`, each atomic) only
once every input is finished, old parts of a re-imported input removed after: an import that
fails half-way, or is killed, leaves the snapshot that was there byte for byte as it was (the
title index too), and a rerun resumes from the parts kept aside.

Inputs ending `.gz` are decompressed on the fly, at most `ImportLimits.inflated_bytes` each.
`--out DIR` is then a snapshot: `auditor audit refs.parquet --snapshot DIR/records --offline`.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import shutil
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from auditor.dumps.interface import DumpReader, Skipped
from auditor.dumps.limits import SETTINGS
from auditor.dumps.title_index import build_title_index
from auditor.errors import InputError
from auditor.files import atomic_write_bytes, atomic_write_parquet
from auditor.registers.interface import RecordRow
from auditor.tables import RECORDS, Tier, from_rows

__all__ = ["PART_ROWS", "ImportSummary", "import_dump"]

#: Records per Parquet part: the import's memory is about this many rows.
PART_ROWS = 50_000
STATE = "import-state.json"
#: Where this run's parts wait until every input is read (outside `records/`, never a snapshot).
STAGING = ".import"

Progress = Callable[[int, int], None]
"""`progress(bytes read, total bytes)` across all inputs."""


@dataclass
class ImportSummary:
    """What one import did."""

    records: int = 0
    """Rows written in this run (resumed parts not counted again)."""
    skipped: list[Skipped] = field(default_factory=list)
    """Records that did not become rows (the first 1,000 kept)."""
    skipped_count: int = 0
    parts: int = 0
    """Parquet parts written in this run."""
    resumed_inputs: int = 0
    """Inputs found finished by an earlier run and not read again."""


class _Counting:
    """A binary stream that counts the compressed bytes read from its file."""

    def __init__(self, raw: io.BufferedReader, seen: Callable[[int], None]) -> None:
        self._raw, self._seen = raw, seen

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        self._seen(len(data))
        return data

    def readinto(self, buffer: Any) -> int:
        n = self._raw.readinto(buffer)
        self._seen(n or 0)
        return n or 0

    def readable(self) -> bool:
        return True

    @property
    def closed(self) -> bool:
        return self._raw.closed


class _Inflated(io.RawIOBase):
    """A decompressing stream that stops at `cap` bytes inflated with an `InputError`."""

    def __init__(self, inner: gzip.GzipFile, cap: int, path: Path) -> None:
        self._inner, self._cap, self._path, self._total = inner, cap, path, 0

    def readinto(self, buffer: Any) -> int:
        n = self._inner.readinto(buffer)
        self._total += n
        if self._total > self._cap:
            raise InputError(
                f"{self._path}: inflates past {self._cap:,} bytes "
                f"({SETTINGS['inflated_bytes']}; a gzip bomb, or raise the setting)"
            )
        return n

    def readable(self) -> bool:
        return True


@contextmanager
def _open(path: Path, seen: Callable[[int], None], cap: int) -> Iterator[BinaryIO]:
    try:
        raw = path.open("rb")
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    with raw:
        counted: Any = _Counting(raw, seen)
        if path.suffix == ".gz":
            with gzip.GzipFile(fileobj=counted, mode="rb") as unzipped:
                yield io.BufferedReader(_Inflated(unzipped, cap, path), 1 << 16)
        else:
            yield io.BufferedReader(counted, 1 << 16)


def _fingerprint(path: Path) -> dict[str, int]:
    stat = path.stat()
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def _load_state(out: Path) -> dict[str, Any]:
    try:
        state = json.loads((out / STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def _save_state(out: Path, state: dict[str, Any]) -> None:
    atomic_write_bytes(out / STATE, json.dumps(state, indent=1, sort_keys=True).encode())


def _part_name(path: Path, index: int, number: int) -> str:
    stem = path.name.split(".")[0] or "dump"
    return f"{index:04d}-{stem}-{number:05d}.parquet"


#: Once: `Schema.names` builds a new list on every access (it was a third of an import's time).
_COLUMNS = frozenset(RECORDS.names)


def _write_part(out: Path, name: str, rows: list[RecordRow], as_of: str) -> None:
    tier = str(Tier.SNAPSHOT)
    clean = [
        {**{k: v for k, v in r.items() if k in _COLUMNS}, "tier": tier, "retrieved_at": as_of}
        for r in rows
    ]
    atomic_write_parquet(out / STAGING / name, from_rows(clean, RECORDS))


def _publish(target: Path, files: Sequence[Path], inputs: dict[str, Any]) -> None:
    """Move the parts kept aside into `records/`, then drop the parts of the inputs' earlier
    imports that the new ones did not replace. Run again after a crash half-way, it finishes."""
    records = target / "records"
    present = [p.name for p in records.iterdir() if p.name.endswith(".parquet")]
    for index, path in enumerate(files):
        count = int(inputs[str(path.resolve())]["parts"])
        names = {_part_name(path, index, n) for n in range(count)}
        for name in sorted(names):
            staged = target / STAGING / name
            if staged.is_file():
                os.replace(staged, records / name)
        prefix = _part_name(path, index, 0).removesuffix("00000.parquet")
        for old in present:
            number = old.removeprefix(prefix).removesuffix(".parquet")
            # The number must follow the prefix: `0000-arxiv-2-00000` is another input's part.
            if old.startswith(prefix) and number.isdigit() and old not in names:
                (records / old).unlink(missing_ok=True)
    shutil.rmtree(target / STAGING, ignore_errors=True)


def import_dump(
    reader: DumpReader,
    paths: Sequence[str],
    out: str,
    *,
    progress: Progress | None = None,
    part_rows: int = PART_ROWS,
) -> ImportSummary:
    """Import the dump files `paths` with `reader` into the snapshot dataset at `out`.

    Each record's `retrieved_at` is its file's modification time (the dump's as-of). Raises
    `InputError` naming an input that cannot be read; a bad record is skipped and counted.
    """
    files = [Path(p) for p in paths]
    missing = [str(p) for p in files if not p.is_file()]
    if missing:
        raise InputError(f"{missing[0]}: no such file")
    target = Path(out)
    (target / "records").mkdir(parents=True, exist_ok=True)
    state = _load_state(target)
    if state.get("kind") not in (None, reader.kind):
        raise InputError(f"{out}: holds a {state['kind']} import, not {reader.kind}")
    state["kind"] = reader.kind
    inputs: dict[str, Any] = state.setdefault("inputs", {})
    total = sum(p.stat().st_size for p in files)
    done = [0]

    def seen(n: int) -> None:
        done[0] += n
        if progress is not None:
            progress(done[0], total)

    summary = ImportSummary()
    for index, path in enumerate(files):
        key = str(path.resolve())
        mark = _fingerprint(path)
        entry = inputs.get(key)
        if not isinstance(entry, dict) or entry.get("file") != mark:
            entry = inputs[key] = {"file": mark, "parts": 0, "finished": False}
        if entry["finished"]:
            summary.resumed_inputs += 1
            seen(mark["size"])
            continue
        _import_one(reader, path, index, target, entry, state, summary, seen, part_rows)
    _publish(target, files, inputs)
    build_title_index(target)
    return summary


def _guarded(items: Iterator[RecordRow | Skipped], path: Path) -> Iterator[RecordRow | Skipped]:
    """`items`, with a truncated or corrupt compressed file as an `InputError` naming it (gzip
    raises `EOFError`, which the command line would take for Ctrl-D: "Aborted.", exit 1)."""
    try:
        yield from items
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        detail = str(exc) or type(exc).__name__
        raise InputError(f"{path}: truncated or corrupt compressed file ({detail})") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None


def _import_one(
    reader: DumpReader,
    path: Path,
    index: int,
    target: Path,
    entry: dict[str, Any],
    state: dict[str, Any],
    summary: ImportSummary,
    seen: Callable[[int], None],
    part_rows: int,
) -> None:
    from datetime import UTC, datetime

    as_of = datetime.fromtimestamp(path.stat().st_mtime, UTC).isoformat(timespec="seconds")
    skip = int(entry["parts"]) * part_rows  # records already in finished parts
    rows: list[RecordRow] = []
    number = int(entry["parts"])
    with _open(path, seen, reader.limits.inflated_bytes) as stream:
        for item in _guarded(reader.records(stream, str(path)), path):
            if isinstance(item, Skipped):
                summary.skipped_count += 1
                if len(summary.skipped) < 1000:
                    summary.skipped.append(item)
                continue
            if skip:
                skip -= 1
                continue
            rows.append(item)
            if len(rows) >= part_rows:
                _write_part(target, _part_name(path, index, number), rows, as_of)
                summary.records += len(rows)
                summary.parts += 1
                number += 1
                rows = []
                entry["parts"] = number
                _save_state(target, state)
    if rows:
        _write_part(target, _part_name(path, index, number), rows, as_of)
        summary.records += len(rows)
        summary.parts += 1
        number += 1
    entry.update(parts=number, finished=True)
    _save_state(target, state)
