"""`auditor fix --in-place` never loses a byte, a backup, the mode, or a hard link (#26, 1-5)."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.fix.writing import InPlaceRefused, read_state, write_in_place

from .fixtures import BIB, write_snapshot


@pytest.fixture
def workdir(isolated: Path, tmp_path: Path) -> Path:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    write_snapshot(tmp_path / "snap.parquet")
    return tmp_path


def _fix(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        app, ["fix", "refs.bib", "--offline", "--snapshot", "snap.parquet", "--in-place", *args]
    )
    return result.exit_code, result.output


def test_an_edit_made_during_the_audit_is_not_lost(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import auditor.pipeline

    real = auditor.pipeline.run_audit
    edited = BIB + "\n@misc{added_while_auditing, title = {Saved by the editor}}\n"

    async def audit_while_editing(*args: Any, **kwargs: Any) -> Any:
        (workdir / "refs.bib").write_text(edited, encoding="utf-8")  # an editor saves
        return await real(*args, **kwargs)

    monkeypatch.setattr(auditor.pipeline, "run_audit", audit_while_editing)
    code, output = _fix()
    assert code == 2, output
    assert "changed while it was audited" in output
    assert (workdir / "refs.bib").read_text(encoding="utf-8") == edited
    assert not (workdir / "refs.bib.bak").exists()


def test_a_same_size_edit_with_the_old_mtime_is_still_caught(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_bytes(b"@misc{a, title={One}}\n")
    before = read_state(path, path.read_bytes())
    path.write_bytes(b"@misc{a, title={Two}}\n")
    os.utime(path, ns=(before.mtime_ns, before.mtime_ns))  # size and mtime as before
    with pytest.raises(InPlaceRefused, match="changed"):
        write_in_place(path, b"new", before)
    assert path.read_bytes() == b"@misc{a, title={Two}}\n"


def test_a_second_run_and_the_users_own_backup_are_never_overwritten(workdir: Path) -> None:
    own = b"% my own backup, made by hand\n"
    (workdir / "refs.bib.bak").write_bytes(own)
    assert _fix()[0] == 0
    first = (workdir / "refs.bib").read_bytes()
    assert (workdir / "refs.bib.bak").read_bytes() == own
    assert (workdir / "refs.bib.bak.1").read_text(encoding="utf-8") == BIB
    # The second run's original is the first run's output: kept as .bak.2, nothing replaced.
    assert _fix()[0] == 0
    assert (workdir / "refs.bib.bak").read_bytes() == own
    assert (workdir / "refs.bib.bak.1").read_text(encoding="utf-8") == BIB
    assert (workdir / "refs.bib.bak.2").read_bytes() == first


def test_the_mode_is_kept(workdir: Path) -> None:
    os.chmod(workdir / "refs.bib", 0o600)
    code, output = _fix()
    assert code == 0, output
    assert (workdir / "refs.bib").read_text(encoding="utf-8") != BIB  # it was corrected
    assert stat.S_IMODE(os.stat(workdir / "refs.bib").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(workdir / "refs.bib.bak").st_mode) == 0o600


def test_owner_and_group_are_kept_where_the_process_may(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_bytes(b"old")
    wanted = os.stat(path)
    if os.geteuid() == 0:  # root may give the file away: the new one must be given too
        os.chown(path, 12345, 12346)
        wanted = os.stat(path)
    write_in_place(path, b"new", read_state(path, b"old"))
    now = os.stat(path)
    assert (now.st_uid, now.st_gid) == (wanted.st_uid, wanted.st_gid)
    assert path.read_bytes() == b"new"


def test_a_read_only_file_is_refused(workdir: Path) -> None:
    os.chmod(workdir / "refs.bib", 0o444)
    code, output = _fix()
    assert code == 2, output
    assert "read-only" in output
    assert stat.S_IMODE(os.stat(workdir / "refs.bib").st_mode) == 0o444
    assert (workdir / "refs.bib").read_text(encoding="utf-8") == BIB
    assert not (workdir / "refs.bib.bak").exists()


def test_a_hard_link_is_written_through_not_split(workdir: Path) -> None:
    other = workdir / "shared.bib"
    os.link(workdir / "refs.bib", other)
    code, output = _fix()
    assert code == 0, output
    fixed = (workdir / "refs.bib").read_bytes()
    assert fixed != BIB.encode("utf-8")
    assert other.read_bytes() == fixed  # the other name sees the corrected text
    assert os.stat(other).st_ino == os.stat(workdir / "refs.bib").st_ino
    assert (workdir / "refs.bib.bak").read_text(encoding="utf-8") == BIB


def test_a_symbolic_link_stays_a_link_and_its_target_is_written(tmp_path: Path) -> None:
    target = tmp_path / "real.bib"
    target.write_bytes(b"old")
    link = tmp_path / "refs.bib"
    link.symlink_to(target)
    backup = write_in_place(link, b"new", read_state(link, b"old"))
    assert link.is_symlink()
    assert target.read_bytes() == b"new"
    assert backup == tmp_path / "real.bib.bak"


def test_the_write_is_atomic_no_temporary_file_is_left(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_bytes(b"old")
    inode = os.stat(path).st_ino
    write_in_place(path, b"new", read_state(path, b"old"))
    assert os.stat(path).st_ino != inode  # replaced by rename, not truncated and rewritten
    assert sorted(p.name for p in tmp_path.iterdir()) == ["refs.bib", "refs.bib.bak"]
