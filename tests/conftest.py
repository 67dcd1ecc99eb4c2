"""Shared pytest options and fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# a skip for a missing fixture fails a CI run (#38 item 6)
pytest_plugins = ["tests.missing_fixtures"]


def _hypothesis_profiles() -> None:
    """`default`: a few examples, no per-example deadline (a shared machine's load is no
    failure); `thorough`: every property test at its full count (`tests/properties.py`)."""
    from hypothesis import HealthCheck, settings

    from tests.properties import PROFILE

    relaxed = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
    settings.register_profile("default", max_examples=10, **relaxed)
    settings.register_profile("thorough", max_examples=200, **relaxed)
    settings.load_profile(PROFILE)


_hypothesis_profiles()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every property test (hypothesis) is marked `property`: `-m property` runs them alone,
    `-m "not property"` skips them."""
    for item in items:
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.property)


def pytest_addoption(parser: pytest.Parser) -> None:
    """`--update-golden` rewrites the golden files in `tests/golden/` instead of comparing."""
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite tests/golden/ files from the current output (review the diff).",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was started with `--update-golden`."""
    return bool(request.config.getoption("--update-golden"))


_LOOPBACK = {"127.0.0.1", "localhost", "::1", "127.0.0.2"}


@pytest.fixture(autouse=True)
def _no_internet(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test touches the internet: resolving any name but loopback fails at once.

    The emulator and every test server listen on 127.0.0.1, so this never gets in their way;
    a test that forgot to point a base URL at the emulator fails loudly instead of going out.
    """
    import socket

    real = socket.getaddrinfo

    def guarded(host: object, *args: object, **kwargs: object) -> object:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name not in _LOOPBACK and not name.startswith("127."):
            raise OSError(f"test tried to reach {name!r}: tests never touch the internet")
        return real(host, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", guarded)


@pytest.fixture
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No `AUDITOR_*` setting or leg switch from the developer's shell, a private cache, and the
    working directory in `tmp_path` (returned)."""
    for name in list(os.environ):
        if name.startswith("AUDITOR_") or name.endswith("_LEG"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("AUDITOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    return tmp_path
