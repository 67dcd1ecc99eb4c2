"""`auditor serve` as a process: the first stdout line is the URL, loopback by default."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
from typer.testing import CliRunner

from auditor.cli import app


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AUDITOR_")}
    env.update(
        AUDITOR_CACHE_DIR=str(tmp_path / "cache"),
        AUDITOR_SIGNING_KEY=str(tmp_path / "key.pem"),
    )
    return env


async def test_serve_prints_its_url_and_answers(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "auditor", "serve", "--port", "0", "--offline"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(tmp_path),
        cwd=tmp_path,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:"), (line, proc.stderr)
        url = line.removeprefix("listening on ")
        assert int(url.rsplit(":", 1)[1]) > 0
        async with aiohttp.ClientSession() as http, http.get(url + "/criteria") as resp:
            assert resp.status == 200
            assert "reference-resolution/v1" in (await resp.json())["criteria_ids"]
        assert (tmp_path / "key.pem").exists()
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=20)
    assert code == 0


def test_a_bad_port_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--port", "70000"], env=_env(tmp_path))
    assert result.exit_code == 2 and "not a TCP port" in result.output


@pytest.mark.parametrize("key", ["not a key"])
def test_an_unreadable_signing_key_is_a_usage_error(tmp_path: Path, key: str) -> None:
    bad = tmp_path / "bad.pem"
    bad.write_text(key)
    env = {**_env(tmp_path), "AUDITOR_SIGNING_KEY": str(bad)}
    result = CliRunner().invoke(app, ["serve", "--port", "0", "--offline"], env=env)
    assert result.exit_code == 2 and "bad.pem" in result.output
