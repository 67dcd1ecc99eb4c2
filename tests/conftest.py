"""Shared pytest options and fixtures."""

from __future__ import annotations

import pytest


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
