"""The config file of a run: which file is read, and its TOML (`find_config`).

`auditor.settings` resolves the values; this module only finds and parses the file.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from auditor.errors import ConfigError

__all__ = ["find_config", "read_toml"]


def find_config(
    explicit: str | None, inputs: Sequence[str] = ()
) -> tuple[Path, dict[str, Any]] | None:
    """Locate and parse the config file; `None` when there is none. Raises `ConfigError`."""
    candidates: list[tuple[Path, bool]] = []
    if explicit:
        candidates.append((Path(explicit), True))
    else:
        if inputs:
            candidates.append((Path(inputs[0]).resolve().parent / "auditor.toml", False))
        candidates.append((Path.cwd() / "auditor.toml", False))
        candidates.append((Path.cwd() / "pyproject.toml", False))
    for path, required in candidates:
        if not path.is_file():
            if required:
                raise ConfigError(f"config file not found: {path}")
            continue
        data = read_toml(path)
        if path.name == "pyproject.toml":
            data = data.get("tool", {}).get("auditor")
            if data is None:
                continue
        return path, data
    return None


def read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
