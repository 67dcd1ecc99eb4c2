"""The transport sits below the registers: it can be imported, and so tested, without them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_transport_imports_no_register() -> None:
    code = (
        "import sys\n"
        "import auditor.transport.cache, auditor.transport.host, auditor.transport.net\n"
        "import auditor.transport.snapshot, auditor.record_check\n"
        "print(sorted(m for m in sys.modules if m.startswith('auditor.registers')))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == "[]"
