"""Under `CI=true`, a test skipped for a missing fixture fails the run, and the run names it.

A test that needs `../shared` (realdata, the spec, the HALLMARK split) or a test extra skips
where it is absent, which is right on a contributor's machine and wrong in CI, where both are
laid out: there a skip of that kind hides a test that did not run (#38). Every such skip goes
through `need` / `needs` here, so its reason starts with `missing fixture: ../shared/...` and
nothing else is mistaken for one; a test extra missing shows as `pytest.importorskip`'s "could
not import". Other skips (no Chromium, not glibc, not POSIX) say what the machine is and stay
skips.

Loaded by `tests/conftest.py` as a plugin; under pytest-xdist the controller sees every
worker's reports, so it alone decides.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

#: `../shared` beside the clone (a worktree's too), wherever the clone is.
SHARED = Path(__file__).resolve().parents[2] / "shared"
#: The real bibliographies and parser suites; `AUDITOR_REALDATA` points elsewhere.
REALDATA = Path(os.environ.get("AUDITOR_REALDATA", SHARED / "realdata"))
#: How every missing-fixture skip's reason begins.
PREFIX = "missing fixture: "
#: `pytest.importorskip`'s reason when a module of the test extras is absent.
_NO_EXTRA = "could not import "

_missing: list[str] = []


def _reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


def missing(path: Path) -> str:
    """The skip reason for a test whose fixture `path` is absent."""
    try:
        shown = "../shared/" + path.relative_to(SHARED).as_posix()
    except ValueError:  # AUDITOR_REALDATA elsewhere
        shown = str(path)
    return PREFIX + shown


def need(path: Path) -> Path:
    """`path`, or skip the calling test for a missing fixture."""
    if not path.exists():
        pytest.skip(missing(path))
    return path


def needs(path: Path) -> pytest.MarkDecorator:
    """A mark skipping a test (or a module, as `pytestmark`) while `path` is absent."""
    return pytest.mark.skipif(not path.exists(), reason=missing(path))


def is_missing_fixture(reason: str) -> bool:
    """Whether a skip with `reason` is one for a missing fixture."""
    reason = reason.removeprefix("Skipped: ")
    return reason.startswith((PREFIX, _NO_EXTRA))


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
