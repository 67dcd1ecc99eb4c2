"""Atomic writes: the target appears whole or not at all, and no temporary file lingers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from auditor.report.interface import atomic_write_bytes, atomic_write_text


def test_replaces_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "a.txt"
    target.write_text("old", encoding="utf-8")
    atomic_write_text(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_bom(tmp_path: Path) -> None:
    path = atomic_write_text(tmp_path / "b.csv", "é", bom=True)
    assert path.read_bytes() == b"\xef\xbb\xbf\xc3\xa9"


def test_failed_rename_keeps_old_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "c.txt"
    target.write_text("old", encoding="utf-8")

    def refuse(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        atomic_write_bytes(target, b"new")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["c.txt"]
