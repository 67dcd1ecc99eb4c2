"""`auditor verify REPORT.json [--key PUB]`: check a signed report offline.

The key is `--key FILE` (PEM, or the base64url `public_key` text that `GET /criteria`
publishes), else the public half of the local signing key (`signing_key` setting). Exit 0 when
the signature is valid, 1 when the report was changed or signed by another key, 2 when the
report or key cannot be read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from auditor.errors import ConfigError
from auditor.exitcodes import ExitCode
from auditor.settings import load_settings

#: Largest report read (a signed audit report of a big bibliography is tens of MB).
MAX_REPORT_BYTES = 512 * 1024 * 1024


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(ExitCode.USAGE)


def verify(
    report: Annotated[Path, typer.Argument(help="A signed report (JSON).")],
    key: Annotated[
        Path | None, typer.Option(help="Public key: PEM or the base64url text of /criteria.")
    ] = None,
    config: Annotated[str | None, typer.Option(help="Config file (auditor.toml shape).")] = None,
) -> None:
    """Verify the Ed25519 signature of a report; exit non-zero on any change."""
    # cryptography only when a report is verified, not for `auditor --help`.
    from auditor.signing import SigningError, load_existing_key, load_public_key, verify_report

    try:
        if key is not None:
            public = load_public_key(key)
        else:
            from auditor.registers import registry

            settings = load_settings({}, config=config, registers=registry.settings_defaults())
            private = load_existing_key(settings.signing_key)
            if private is None:
                raise _fail(f"no local signing key at {settings.signing_key}; give --key")
            public = private.public_key()
    except (SigningError, ConfigError) as exc:
        raise _fail(str(exc)) from None
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
    outcome = verify_report(data, public)
    if outcome.valid:
        typer.echo(f"{report}: signature valid")
        raise typer.Exit(ExitCode.OK)
    typer.echo(f"{report}: NOT VALID: {outcome.reason}", err=True)
    raise typer.Exit(ExitCode.FINDINGS)


def register(app: typer.Typer) -> None:
    """Add `verify` to the CLI."""
    app.command("verify")(verify)
