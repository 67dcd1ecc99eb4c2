"""A signed report set: `manifest.json` (every file's name, size and SHA-256) carries the
signature, so a signature covers every file of the folder, not `report.json` alone.

`audit --sign` signs the manifest (`sign_report`'s rule: Ed25519 over its RFC 8785 form) and
marks the signed `report.json` with `"signed_set": "manifest.json"`, so a `report.json` whose
manifest was removed does not pass for a standalone answer. `verify_set(folder, key)` checks the
manifest's signature and then every regular file of the folder against it: a changed file (size
or SHA-256), a listed file that is missing, and a file the manifest does not list all fail.
Never raises for what it reads; the reasons name the file.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from auditor.files import MANIFEST
from auditor.signing import Verification, verify_report

__all__ = ["MANIFEST", "MAX_MANIFEST_BYTES", "SIGNED_SET", "verify_set"]

#: The member of a signed `report.json` that says its folder's manifest is signed too.
SIGNED_SET = "signed_set"
#: Largest manifest read (a few hundred bytes per file).
MAX_MANIFEST_BYTES = 16 * 1024 * 1024


def _sha256(path: Path) -> tuple[int, str]:
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


def _read_manifest(folder: Path) -> Mapping[str, Any] | str:
    """The parsed manifest, or the reason it cannot be had."""
    path = folder / MANIFEST
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_MANIFEST_BYTES + 1)
    except OSError as exc:
        return f"{path}: cannot read ({exc.strerror or exc})"
    if len(raw) > MAX_MANIFEST_BYTES:
        return f"{path}: larger than {MAX_MANIFEST_BYTES} bytes"
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return f"{path}: not JSON"
    return data if isinstance(data, Mapping) else f"{path}: not a JSON object"


def _listed(manifest: Mapping[str, Any]) -> dict[str, tuple[object, object]] | str:
    files = manifest.get("files")
    if not isinstance(files, list):
        return "the manifest lists no files"
    listed: dict[str, tuple[object, object]] = {}
    for entry in files:
        name = entry.get("name") if isinstance(entry, Mapping) else None
        if not isinstance(name, str) or name != Path(name).name or name in ("", ".", ".."):
            return f"the manifest lists a file outside its folder ({name!r})"
        listed[name] = (entry.get("bytes"), entry.get("sha256"))
    return listed


def _compare(folder: Path, listed: dict[str, tuple[object, object]]) -> list[str]:
    """What differs between the folder's regular files and the manifest, one line each."""
    present = {p.name for p in folder.iterdir() if p.is_file() and p.name != MANIFEST}
    names = listed.keys()
    problems = [f"{name}: listed in the manifest but missing" for name in sorted(names - present)]
    problems += [f"{name}: not listed in the signed manifest" for name in sorted(present - names)]
    for name in sorted(present & listed.keys()):
        if _sha256(folder / name) != listed[name]:
            problems.append(f"{name}: changed after signing (size or SHA-256 differ)")
    return problems


def verify_set(folder: Path, key: Ed25519PublicKey) -> Verification:
    """Whether `folder`'s manifest is signed by `key` and every file in it matches the manifest."""
    manifest = _read_manifest(folder)
    if isinstance(manifest, str):
        return Verification(False, manifest)
    signed = verify_report(manifest, key)
    if not signed.valid:
        return Verification(False, f"{MANIFEST}: {signed.reason}")
    listed = _listed(manifest)
    if isinstance(listed, str):
        return Verification(False, listed)
    try:
        problems = _compare(folder, listed)
    except OSError as exc:
        return Verification(False, f"{folder}: cannot read ({exc.strerror or exc})")
    if problems:
        return Verification(False, "; ".join(problems))
    return Verification(True, "ok")
