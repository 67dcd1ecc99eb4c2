"""Fetch the real documents of `manifest.json` and their truth files (never run by the tests).

Each file is taken at the commit the manifest pins, from GitHub
(`https://raw.githubusercontent.com/{repo}/{commit}/{path}`) or, with `--mirror DIR`, from
local bare clones named `DIR/{owner}+{name}/repo`. Documents whose licence lets us
redistribute them are checked in under `docs/{id}/` (`--checked-in` rewrites those too); the rest
go to `fetched/{id}/` (git-ignored) or `$AUDITOR_REALDOCS_DIR/{id}/`, where the tests look.

Usage: `python tests/load/documents/realdocs/fetch.py [--mirror DIR] [--checked-in] [ID ...]`.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from tests.load.documents.realdocs.corpus import HERE, DocSpec, load_manifest, local_name


def _from_mirror(mirror: Path, spec: DocSpec, path: str) -> bytes:
    root = mirror / spec.repo.replace("/", "+", 1) / "repo"
    git_dir = root / ".git" if (root / ".git").is_dir() else root
    done = subprocess.run(
        ["git", "--git-dir", str(git_dir), "show", f"{spec.commit}:{path}"],
        capture_output=True,
        check=True,
    )
    return done.stdout


def _from_github(spec: DocSpec, path: str) -> bytes:
    url = f"https://raw.githubusercontent.com/{spec.repo}/{spec.commit}/{path}"
    with urllib.request.urlopen(url, timeout=60) as answer:  # noqa: S310 (fixed https host)
        data: bytes = answer.read()
    return data


def fetch(spec: DocSpec, target: Path, mirror: Path | None) -> int:
    """Write every file of `spec` under `target`; the bytes written."""
    target.mkdir(parents=True, exist_ok=True)
    total = 0
    for path in spec.files:
        data = _from_mirror(mirror, spec, path) if mirror else _from_github(spec, path)
        (target / local_name(path)).write_bytes(data)
        total += len(data)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*", help="only these documents")
    parser.add_argument("--mirror", type=Path, help="read bare clones here, not GitHub")
    parser.add_argument(
        "--checked-in", action="store_true", help="rewrite the redistributable ones in docs/"
    )
    args: Any = parser.parse_args(argv)
    fetched = Path(os.environ.get("AUDITOR_REALDOCS_DIR", HERE / "fetched"))
    for spec in load_manifest():
        if args.ids and spec.id not in args.ids:
            continue
        if spec.redistribute and not args.checked_in:
            continue
        target = (HERE / "docs" if spec.redistribute else fetched) / spec.id
        size = fetch(spec, target, args.mirror)
        print(f"{spec.id}: {size} bytes -> {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
