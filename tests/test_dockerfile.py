"""The service's `Dockerfile` (no Docker engine here to build it): a slim Python base, the
package installed with pip, a non-root user, `auditor serve` listening beyond loopback, and every
file it copies present in the repository."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_TEXT = (ROOT / "Dockerfile").read_text(encoding="utf-8")
#: Instructions, one a line, with `\` continuations joined and comments left out.
LINES = [
    line.strip()
    for line in _TEXT.replace("\\\n", " ").splitlines()
    if line.strip() and not line.lstrip().startswith("#")
]


def _instruction(name: str) -> list[str]:
    return [line[len(name) + 1 :] for line in LINES if line.startswith(name + " ")]


def test_slim_python_base_pip_install_and_a_non_root_user() -> None:
    [base] = _instruction("FROM")
    assert base.startswith("python:3.1") and base.endswith("-slim")
    assert any("pip install ." in line for line in _instruction("RUN"))
    users = _instruction("USER")
    assert users and users[-1] not in ("root", "0")


def test_the_entry_point_is_auditor_serve_beyond_loopback() -> None:
    [entry] = _instruction("ENTRYPOINT")
    [cmd] = _instruction("CMD")
    assert json.loads(entry) == ["auditor", "serve"]
    args = json.loads(cmd)
    assert args[args.index("--host") + 1] == "0.0.0.0"
    assert str(args[args.index("--port") + 1]) in " ".join(_instruction("EXPOSE"))


def test_every_copied_source_exists() -> None:
    for line in _instruction("COPY"):
        *sources, _target = line.split()
        for source in sources:
            assert (ROOT / source).exists(), source


def test_beyond_loopback_it_names_a_token_file() -> None:
    # `auditor serve` refuses a non-loopback address without tokens (`serve_tokens`)
    env = " ".join(_instruction("ENV"))
    assert "AUDITOR_SERVE_TOKENS=" in env
