"""Under `CI=true`, a test skipped for a missing fixture fails the run, and the run names it.

A test that needs `../shared` (realdata, the spec, the HALLMARK split) or a test extra skips
where it is absent, which is right on a contributor's machine and wrong in CI, where both are
laid out: there a skip of that kind hides a test that did not run (#38). Other skips (no
Chromium, not glibc, not POSIX) say what the machine is and stay skips.

Loaded by `tests/conftest.py` as a plugin; under pytest-xdist the controller sees every
worker's reports, so it alone decides.
"""

from __future__ import annotations

import os
import re

import pytest

#: What a missing-fixture skip's reason names: the shared folder or its parts, or a module
#: the test extras install (`pytest.importorskip`: "could not import 'docx'").
MISSING_FIXTURE_RE = re.compile(
    r"\b(?:shared|realdata|hallmark|eval/|spec)\b|could not import|not installed", re.IGNORECASE
)
#: Skips that say what the machine is, not that a fixture is missing.
MACHINE_RE = re.compile(r"chromium|glibc|POSIX|SIGKILL", re.IGNORECASE)

_missing: list[str] = []


def _reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


def is_missing_fixture(reason: str) -> bool:
    """Whether a skip with `reason` is one for a missing fixture."""
    return bool(MISSING_FIXTURE_RE.search(reason)) and not MACHINE_RE.search(reason)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Note each skip for a missing fixture."""
    if report.skipped and is_missing_fixture(reason := _reason(report)):
        _missing.append(f"{report.nodeid}: {reason.removeprefix('Skipped: ')}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Under `CI=true`, fail the run when a test was skipped for a missing fixture."""
    if os.environ.get("CI", "").lower() != "true" or hasattr(session.config, "workerinput"):
        return
    if not _missing:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = [
        f"CI=true: {len(_missing)} test(s) skipped for a missing fixture (CI has ../shared and "
        "the test extras, so none may skip):",
        *(f"  {line}" for line in sorted(set(_missing))),
    ]
    if reporter is not None:
        reporter.write_line("\n" + "\n".join(lines), red=True)
    else:
        print("\n".join(lines))
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
