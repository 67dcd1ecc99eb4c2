"""No network: a refused connection is known at once, is not retried, stops the host's other
requests of the batch, and an audit that reached nothing says so in one line with the way out.

A closed loopback port stands for the missing network (no real network is touched).
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.emulator.services import BASE_PATHS
from auditor.errors import Reason, Unreachable
from auditor.exitcodes import ExitCode
from auditor.registers import registry
from auditor.transport.net import open_net

SAMPLE = Path(__file__).resolve().parents[2] / "sample_bibs" / "thesis.bib"


def _closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed when the block ends: connects are refused


@pytest.fixture
def nowhere() -> str:
    return f"http://127.0.0.1:{_closed_port()}"


async def test_a_refused_connection_is_one_attempt_and_no_wait(nowhere, tmp_path, clock) -> None:
    settings = registry.settings(
        crossref_url=nowhere, cache_dir=str(tmp_path / "cache"), max_retries=4
    )
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        with net.retry_batch():
            for _ in range(3):
                with pytest.raises(Unreachable) as info:
                    await net.get("crossref", f"{nowhere}/works/10.1/x")
                assert info.value.reason is Reason.CONNECTION_ERROR
    assert net.requests["crossref"] == 1  # the host's later requests of the batch fail at once
    assert [
        s for s in clock.sleeps if s > 0
    ] == []  # no backoff: asking again a moment later cannot help


def test_an_audit_that_reaches_nothing_says_so_with_the_way_out(
    nowhere: str, tmp_path: Path
) -> None:
    env = {f"AUDITOR_{name.upper()}": nowhere + path for name, path in BASE_PATHS.items()}
    env.update(AUDITOR_CACHE_DIR=str(tmp_path / "cache"), AUDITOR_OUT=str(tmp_path / "out"))
    result = CliRunner().invoke(
        app, ["audit", str(SAMPLE), "--config", str(_empty(tmp_path))], env=env
    )
    assert result.exit_code == ExitCode.INCOMPLETE, result.output  # never a silent exit 0
    lines = [line for line in result.stderr.splitlines() if "no register could be reached" in line]
    assert len(lines) == 1, result.stderr
    assert "--offline" in lines[0] and "--snapshot" in lines[0]


def _empty(tmp_path: Path) -> Path:
    """A config file of its own, so the sample's `auditor.toml` (its snapshot) is not read."""
    path = tmp_path / "auditor.toml"
    path.write_text("", encoding="utf-8")
    return path
