"""The command line starts at once: `--version` and `--help` import none of the heavy libraries.

Each case runs in a fresh interpreter (a test process has imported everything already), calls
`auditor.cli.main` with the arguments and prints the heavy modules then in `sys.modules`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from auditor.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[1]

#: What `--version`/`--help` must not import (each costs from 0.1 s to over a second).
HEAVY = ("pyarrow", "duckdb", "aiohttp", "pandas", "dask", "cryptography", "jinja2")

_PROBE = """
import json, sys
sys.argv = ["auditor", *json.loads(sys.argv[1])]
from auditor.cli import main
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(m for m in {heavy} if m in sys.modules)), file=sys.stderr)
""".replace("{heavy}", repr(HEAVY))


def _heavy_after(args: list[str], tmp_path: Path) -> tuple[list[str], str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AUDITOR_")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(args)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
        check=False,
    )
    imported: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return imported, done.stdout


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["--version"], id="version"),
        pytest.param(["--help"], id="help"),
        pytest.param([], id="no-command"),
        *(pytest.param([name, "--help"], id=f"{name}-help") for name in COMMANDS),
    ],
)
def test_start_up_imports_no_heavy_library(args: list[str], tmp_path: Path) -> None:
    imported, out = _heavy_after(args, tmp_path)
    assert imported == []
    assert out.strip()  # it did print the version or the help


def test_the_probe_sees_a_heavy_import(tmp_path: Path) -> None:
    # `auditor load x.bib` does load pyarrow: the probe would notice a heavy import.
    bib = tmp_path / "x.bib"
    bib.write_text("@article{a, title={T}, year={2020}}\n", encoding="utf-8")
    imported, _ = _heavy_after(["load", str(bib)], tmp_path)
    assert "pyarrow" in imported


def test_dump_kind_names_are_the_readers() -> None:
    from auditor.commands.snapshot import KIND_NAMES
    from auditor.dumps import KINDS

    assert tuple(KINDS) == KIND_NAMES
