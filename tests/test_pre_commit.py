"""`pre-commit run --all-files` in a manuscript repository runs the shipped `auditor` hook (#38).

The sample repository holds `paper.tex`, `refs.bib` and the sample snapshot (named in its
`auditor.toml`). Its `.pre-commit-config.yaml` is a `repo: local` hook with the shipped hook's
own id, entry and file pattern, `language: system`: pre-commit would otherwise build a Python
environment for the hook from the network, and the entry, not the environment, is what is under
test. The hook is offline, so the test needs no network either way.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_bibs"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _entry(block: str, key: str) -> str:
    start = block.index(f"{{{key},")
    start = block.rindex("@", 0, start)
    end = block.find("\n@", start + 1)
    return block[start : end if end != -1 else len(block)].rstrip() + "\n"


def _repo(tmp_path: Path, keys: list[str]) -> Path:
    repo = tmp_path / "paper"
    repo.mkdir()
    thesis = (SAMPLES / "thesis.bib").read_text(encoding="utf-8")
    (repo / "refs.bib").write_text("\n".join(_entry(thesis, k) for k in keys), encoding="utf-8")
    cites = " ".join(f"\\cite{{{k}}}" for k in keys)
    (repo / "paper.tex").write_text(
        f"\\documentclass{{article}}\\begin{{document}}{cites}\\bibliography{{refs}}"
        "\\end{document}\n",
        encoding="utf-8",
    )
    shutil.copy(SAMPLES / "snapshot.parquet", repo / "snapshot.parquet")
    (repo / "auditor.toml").write_text('snapshots = ["snapshot.parquet"]\n', encoding="utf-8")
    (hook,) = [
        h
        for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
        if h["id"] == "auditor"
    ]
    local = {**hook, "language": "system"}
    config = {"repos": [{"repo": "local", "hooks": [local]}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    for cmd in (["git", "init", "-q"], ["git", "add", "."]):
        subprocess.run(cmd, cwd=repo, check=True, capture_output=True)
    return repo


def _pre_commit(repo: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    bin_dir = str(Path(sys.executable).parent)  # the `auditor` script of this environment
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "AUDITOR_CACHE_DIR": str(tmp_path / "cache"),
        "HOME": str(tmp_path / "home"),
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
        cwd=repo, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def test_the_hook_fails_a_commit_with_a_reference_that_does_not_resolve(tmp_path: Path) -> None:
    repo = _repo(tmp_path, ["lecun2015deep", "zhang2021quantum"])
    run = _pre_commit(repo, tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Failed" in run.stdout and "zhang2021quantum" in run.stdout
    assert (repo / ".auditor-reports" / "verdicts.parquet").is_file()


def test_the_hook_passes_a_commit_whose_references_resolve_and_match(tmp_path: Path) -> None:
    repo = _repo(tmp_path, ["lecun2015deep", "he2016resnet"])
    run = _pre_commit(repo, tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Passed" in run.stdout
