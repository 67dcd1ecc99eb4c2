"""Compare output with a golden file in `tests/golden/`, or rewrite it under `--update-golden`."""

from __future__ import annotations

from pathlib import Path

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def check_golden(name: str, actual: str, update: bool) -> None:
    """Assert `actual` equals `tests/golden/<name>`; with `update`, write it instead."""
    path = GOLDEN / name
    if update or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8", newline="")
        if not update:
            raise AssertionError(f"golden file {path} was missing; written, review and commit it")
        return
    expected = path.read_bytes().decode("utf-8")
    assert actual == expected, f"{name} differs from its golden file; run pytest --update-golden"
