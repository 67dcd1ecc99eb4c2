"""`auditor.files`: atomic writes that never replace links or devices, and report sets."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import threading
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from auditor.files import MANIFEST, OutputBusy, atomic_write_bytes, atomic_write_with, report_set


def test_a_symlink_is_written_through_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / "real.xml"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "stdout"
    link.symlink_to(target)
    atomic_write_bytes(link, b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"


def test_a_fifo_is_written_to_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    atomic_write_bytes(fifo, b"data")
    reader.join(timeout=10)
    assert got == [b"data"] and stat.S_ISFIFO(fifo.stat().st_mode)


def test_files_are_readable_under_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        atomic_write_bytes(tmp_path / "a", b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a").stat().st_mode) == 0o640


def test_a_held_folder_refuses_a_second_set(tmp_path: Path) -> None:
    with report_set(tmp_path / "out"), pytest.raises(OutputBusy), report_set(tmp_path / "out"):
        pass


def test_a_manifest_cannot_make_us_delete_outside_the_folder(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep", encoding="utf-8")
    (out / MANIFEST).write_text(
        '{"files": [{"name": "../victim.txt"}, {"name": "/etc/hostname"}]}', encoding="utf-8"
    )
    with report_set(out) as staging:
        (staging / "a.txt").write_text("1", encoding="utf-8")
    assert victim.read_text(encoding="utf-8") == "keep"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_manifest_digests_every_file_of_the_set_as_it_is_on_disk(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with report_set(out) as staging:
        atomic_write_with(staging / "a.csv", lambda handle: handle.write(b"x" * 100_000))
        pq.write_table(pa.table({"n": [1, 2]}), staging / "b.parquet")  # not through files.py
        atomic_write_bytes(staging / "c.json", b"first")
        atomic_write_bytes(staging / "c.json", b"second, signed")  # rewritten: last bytes count
        (staging / "d.txt").write_bytes(b"d")
        atomic_write_bytes(staging / "d.txt", b"dd")
        with open(staging / "d.txt", "ab") as changed:  # changed after its atomic write
            changed.write(b"!")
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    files = {f["name"]: (f["bytes"], f["sha256"]) for f in manifest["files"]}
    assert files == {
        name: ((out / name).stat().st_size, _sha256(out / name))
        for name in ("a.csv", "b.parquet", "c.json", "d.txt")
    }
    assert (out / "d.txt").read_bytes() == b"dd!"
