"""`auditor criteria [--id ID]`: print a criteria document as JSON (the default: auditor/v2)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from auditor.exitcodes import ExitCode
from auditor.vocabulary import CRITERIA_IDS, DEFAULT_CRITERIA


def criteria(
    criteria_id: Annotated[
        str,
        typer.Option("--id", help=f"Criteria id: {', '.join(CRITERIA_IDS)}."),
    ] = DEFAULT_CRITERIA,
) -> None:
    """Print a criteria document as JSON: its rules, every decided choice, known issues."""
    # The documents are read with the comparison stack (pandas): only when one is printed.
    from auditor.compare.decisions import criteria_document

    if criteria_id not in CRITERIA_IDS:
        typer.echo(
            f"error: unknown criteria {criteria_id!r} (known: {', '.join(CRITERIA_IDS)})", err=True
        )
        raise typer.Exit(ExitCode.USAGE)
    typer.echo(json.dumps(criteria_document(criteria_id), indent=2, ensure_ascii=False))


def register(app: typer.Typer) -> None:
    """Add the `criteria` command to `app`."""
    app.command("criteria")(criteria)
