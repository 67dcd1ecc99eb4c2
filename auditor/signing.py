"""Signed reports: Ed25519 over the RFC 8785 (JCS) canonical form of a JSON report.

The rule, exactly: take the report as a JSON object, remove its top-level `signature` member,
serialize the rest with the JSON Canonicalization Scheme (RFC 8785: UTF-8, members sorted by
their UTF-16 code units, no whitespace, ECMAScript number form; the `rfc8785` package), and sign
those bytes with Ed25519. The signature goes back into the report as

    "signature": {"alg": "Ed25519", "canonicalization": "RFC 8785", "key_id": "sha256:…",
                  "value": "<base64url of the 64 signature bytes, no padding>"}

so anyone with the public key can check it offline (`auditor verify REPORT.json --key PUB`). Any
change to any other member (a verdict, a space inside a title, a reordered list) changes the
canonical bytes and fails the check; reformatting the file (indentation, key order) does not.

The private key is a PKCS#8 PEM file, by default `signing_key.pem` in the user config folder
(`signing_key` setting), made on first use with owner-only permissions (0600, folder 0700).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rfc8785
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

__all__ = [
    "ALG",
    "CANONICALIZATION",
    "SigningError",
    "Verification",
    "canonical_bytes",
    "key_id",
    "load_existing_key",
    "load_or_create_key",
    "load_public_key",
    "public_key_text",
    "sign_report",
    "verify_report",
]

ALG = "Ed25519"
CANONICALIZATION = "RFC 8785"
_SIGNATURE = "signature"
_MAX_KEY_FILE = 16 * 1024


class SigningError(Exception):
    """A key that cannot be read or made, a report that cannot be canonicalized, a bad signature
    block. The message says which file or member is at fault."""


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    """base64url or standard base64, padding optional."""
    clean = text.strip().replace("-", "+").replace("_", "/")
    clean += "=" * (-len(clean) % 4)
    try:
        return base64.b64decode(clean, validate=True)
    except (binascii.Error, ValueError):
        raise SigningError("not base64") from None


def canonical_bytes(report: Mapping[str, Any]) -> bytes:
    """The bytes that are signed: JCS of `report` without its top-level `signature` member."""
    body = {k: v for k, v in report.items() if k != _SIGNATURE}
    try:
        return rfc8785.dumps(body)
    except (rfc8785.CanonicalizationError, TypeError, ValueError) as exc:
        raise SigningError(f"report cannot be canonicalized: {exc}") from None


def _raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def public_key_text(key: Ed25519PublicKey) -> str:
    """The 32 raw public-key bytes as base64url (what `/criteria` publishes and `--key` takes)."""
    return _b64url(_raw_public(key))


def key_id(key: Ed25519PublicKey) -> str:
    """`sha256:` and the first 16 hex digits of the digest of the raw public key."""
    return "sha256:" + hashlib.sha256(_raw_public(key)).hexdigest()[:16]


def sign_report(report: Mapping[str, Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    """A copy of `report` with a fresh `signature` member (any old one is replaced)."""
    value = key.sign(canonical_bytes(report))
    signed = {k: v for k, v in report.items() if k != _SIGNATURE}
    signed[_SIGNATURE] = {
        "alg": ALG,
        "canonicalization": CANONICALIZATION,
        "key_id": key_id(key.public_key()),
        "value": _b64url(value),
    }
    return signed


@dataclass(frozen=True)
class Verification:
    """The outcome of `verify_report`."""

    valid: bool
    reason: str
    """`ok`, or what failed (`no signature`, `signed by another key`, `signature mismatch`, …)."""


def verify_report(report: object, key: Ed25519PublicKey) -> Verification:
    """Whether `report` (parsed JSON) carries a valid signature by `key`. Never raises."""
    if not isinstance(report, Mapping):
        return Verification(False, "the report is not a JSON object")
    block = report.get(_SIGNATURE)
    if not isinstance(block, Mapping):
        return Verification(False, "no signature")
    if block.get("alg") != ALG or block.get("canonicalization") != CANONICALIZATION:
        return Verification(False, "unknown signature algorithm or canonicalization")
    if block.get("key_id") != key_id(key):
        return Verification(False, f"signed by another key ({block.get('key_id')!r})")
    value = block.get("value")
    if not isinstance(value, str):
        return Verification(False, "signature value is not a string")
    try:
        key.verify(_unb64(value), canonical_bytes(report))
    except SigningError as exc:
        return Verification(False, str(exc))
    except InvalidSignature:
        return Verification(False, "signature mismatch: the report was changed after signing")
    return Verification(True, "ok")


def _read_small(path: Path) -> bytes:
    try:
        with path.open("rb") as fh:
            data = fh.read(_MAX_KEY_FILE + 1)
    except OSError as exc:
        raise SigningError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if len(data) > _MAX_KEY_FILE:
        raise SigningError(f"{path}: larger than a key file can be")
    return data


def _load_private(path: Path) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(_read_small(path), password=None)
    except (ValueError, TypeError) as exc:
        raise SigningError(f"{path}: not an unencrypted PEM private key ({exc})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningError(f"{path}: not an Ed25519 key")
    return key


def load_or_create_key(path: str | Path) -> Ed25519PrivateKey:
    """The private key at `path`; made there first (mode 0600, folder 0700) when absent.

    Creation is exclusive (`O_EXCL`), so two processes starting together end with one key.
    Raises `SigningError` for a file that is not an Ed25519 PEM key or cannot be written.
    """
    path = Path(path).expanduser()
    if path.exists():
        return _load_private(path)
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _load_private(path)  # another process made it first
    except OSError as exc:
        raise SigningError(f"{path}: cannot create the signing key ({exc.strerror})") from None
    with os.fdopen(fd, "wb") as fh:
        fh.write(pem)
    return key


def load_existing_key(path: str | Path) -> Ed25519PrivateKey | None:
    """The private key at `path`, or `None` when there is no file (never creates one)."""
    path = Path(path).expanduser()
    return _load_private(path) if path.exists() else None


def _key_from_json(data: bytes, path: str | Path) -> str:
    """The `public_key` text of a saved `/criteria` answer or of its `signing_key` member."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise SigningError(f"{path}: not JSON") from None
    if isinstance(doc, dict) and isinstance(doc.get("signing_key"), dict):
        doc = doc["signing_key"]
    value = doc.get("public_key") if isinstance(doc, dict) else None
    if not isinstance(value, str):
        raise SigningError(f"{path}: JSON without a public_key")
    return value.strip()


def load_public_key(path: str | Path) -> Ed25519PublicKey:
    """A public key from a file: PEM (public or private), the base64url text `/criteria` gives,
    or a saved `/criteria` answer (JSON) holding it."""
    data = _read_small(Path(path))
    text = data.decode("ascii", "replace").strip()
    if text.startswith("{"):
        text = _key_from_json(data, path)
    if text.startswith("-----BEGIN"):
        try:
            if "PRIVATE" in text.split("\n", 1)[0]:
                private = serialization.load_pem_private_key(data, password=None)
                if isinstance(private, Ed25519PrivateKey):
                    return private.public_key()
                raise SigningError(f"{path}: not an Ed25519 key")
            public = serialization.load_pem_public_key(data)
        except (ValueError, TypeError) as exc:
            raise SigningError(f"{path}: not a PEM key ({exc})") from None
        if not isinstance(public, Ed25519PublicKey):
            raise SigningError(f"{path}: not an Ed25519 key")
        return public
    try:
        raw = _unb64(text)
    except SigningError:
        raise SigningError(f"{path}: neither PEM nor base64 key text") from None
    if len(raw) != 32:
        raise SigningError(f"{path}: an Ed25519 public key is 32 bytes, this is {len(raw)}")
    return Ed25519PublicKey.from_public_bytes(raw)
