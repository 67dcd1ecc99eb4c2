"""`auditor verify REPORT [--key PUB]`: check a signed report offline.

REPORT is a signed answer (JSON), or a report folder of `audit --sign` (the folder, its
`manifest.json` or its `report.json`): then the signed manifest is checked and every file of the
folder against it (`auditor.signed_set`): a changed, added or missing file fails. A
`report.json` of a signed set is never accepted on its own signature alone.

The key is `--key FILE` (PEM, or the base64url `public_key` text that `GET /criteria`
publishes), else the public half of the local signing key (`signing_key` setting). Exit 0 when
the signature is valid, 1 when the report was changed or signed by another key, 2 when the
report or key cannot be read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from auditor.errors import ConfigError
from auditor.exitcodes import ExitCode
from auditor.settings import load_settings

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from auditor.signing import Verification

#: Largest report read (a signed audit report of a big bibliography is tens of MB).
MAX_REPORT_BYTES = 512 * 1024 * 1024


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(ExitCode.USAGE)


def _outcome(report: Path, data: object, public: Ed25519PublicKey) -> Verification:
    """The report's own signature, then (for a file of a signed set) the whole set's."""
    from auditor.signed_set import MANIFEST, SIGNED_SET, verify_set
    from auditor.signing import verify_report

    if report.name == MANIFEST:
        return verify_set(report.parent, public)
    outcome = verify_report(data, public)
    if outcome.valid and isinstance(data, dict) and SIGNED_SET in data:
        return verify_set(report.parent, public)
    return outcome


def _public_key(key: Path | None, config: str | None) -> Ed25519PublicKey:
    from auditor.signing import SigningError, load_existing_key, load_public_key

    try:
        if key is not None:
            return load_public_key(key)
        from auditor.registers import registry

        settings = load_settings({}, config=config, registers=registry.settings_defaults())
        private = load_existing_key(settings.signing_key)
        if private is None:
            raise _fail(f"no local signing key at {settings.signing_key}; give --key")
        return private.public_key()
    except (SigningError, ConfigError) as exc:
        raise _fail(str(exc)) from None


def verify(
    report: Annotated[
        Path, typer.Argument(help="A signed report (JSON), or a report folder of audit --sign.")
    ],
    key: Annotated[
        Path | None, typer.Option(help="Public key: PEM or the base64url text of /criteria.")
    ] = None,
    config: Annotated[str | None, typer.Option(help="Config file (auditor.toml shape).")] = None,
) -> None:
    """Verify the Ed25519 signature of a report; exit non-zero on any change."""
    # cryptography only when a report is verified, not for `auditor --help`.
    public = _public_key(key, config)
    if report.is_dir():
        from auditor.signed_set import verify_set

        _finish(report, verify_set(report, public))
    try:
        with report.open("rb") as fh:
            raw = fh.read(MAX_REPORT_BYTES + 1)
    except OSError as exc:
        raise _fail(f"{report}: cannot read ({exc.strerror or exc})") from None
    if len(raw) > MAX_REPORT_BYTES:
        raise _fail(f"{report}: larger than {MAX_REPORT_BYTES} bytes")
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _fail(f"{report}: not JSON ({exc})") from None
    _finish(report, _outcome(report, data, public))


def _finish(report: Path, outcome: Verification) -> None:
    if outcome.valid:
        typer.echo(f"{report}: signature valid")
        raise typer.Exit(ExitCode.OK)
    typer.echo(f"{report}: NOT VALID: {outcome.reason}", err=True)
    raise typer.Exit(ExitCode.FINDINGS)


def register(app: typer.Typer) -> None:
    """Add `verify` to the CLI."""
    app.command("verify")(verify)
