"""`.ci/run` never hides a test skipped for a missing fixture (#38 item 6)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.missing_fixtures import SHARED, is_missing_fixture, missing

ROOT = Path(__file__).resolve().parents[1]

_TESTS = """
import pytest

from tests.missing_fixtures import SHARED, need, needs

def test_runs():
    assert True

def test_needs_shared():
    need(SHARED / "no-such-fixture" / "x.bib")

@needs(SHARED / "no-such-folder")
def test_module_needs_shared():
    pass

def test_needs_a_browser():
    pytest.skip("chromium is not installed (CI installs it)")
"""


def _run(tmp_path: Path, ci: str | None, body: str = _TESTS) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_sample.py").write_text(body, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
         "tests.missing_fixtures", "test_sample.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_under_ci_a_missing_fixture_skip_fails_the_run_and_is_named(tmp_path: Path) -> None:
    run = _run(tmp_path, "true")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "2 test(s) skipped for a missing fixture" in run.stdout
    assert (
        "test_sample.py::test_needs_shared: missing fixture: ../shared/no-such-fixture/x.bib"
        in run.stdout
    )
    assert (
        "test_sample.py::test_module_needs_shared: missing fixture: ../shared/no-such-folder"
        in run.stdout
    )
    assert "test_needs_a_browser" not in run.stdout.split("missing fixture")[1]


def test_off_ci_the_same_skip_is_a_skip(tmp_path: Path) -> None:
    run = _run(tmp_path, None)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "missing fixture" not in run.stdout


def test_under_ci_a_machine_skip_alone_passes(tmp_path: Path) -> None:
    body = "import pytest\n\ndef test_b():\n    pytest.skip('chromium is not installed')\n"
    run = _run(tmp_path, "true", body)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize(
    ("reason", "missing"),
    [
        (missing(SHARED / "realdata" / "bibs"), True),
        ("Skipped: " + missing(SHARED / "spec" / "x.json"), True),
        ("could not import 'docx': No module named 'docx'", True),
        # Only the helper's prefix counts: a reason that merely names the folder is not one.
        ("shared realdata bibs not found", False),
        ("chromium is not installed (CI installs it: .ci/run)", False),
        ("git is not installed", False),
        ("mallopt and mallinfo2 are glibc's", False),
    ],
)
def test_which_skips_are_for_a_missing_fixture(reason: str, missing: bool) -> None:
    assert is_missing_fixture(reason) is missing


def test_the_reason_names_the_fixture_under_shared() -> None:
    assert missing(SHARED / "spec" / "a.json") == "missing fixture: ../shared/spec/a.json"
