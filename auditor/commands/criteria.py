"""`auditor criteria [--id ID]`: print a criteria document as JSON (the default: auditor/v2)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from auditor.compare.decisions import DOCUMENTS, criteria_document
from auditor.exitcodes import ExitCode
from auditor.tables import DEFAULT_CRITERIA


def criteria(
    criteria_id: Annotated[
        str,
        typer.Option("--id", help=f"Criteria id: {', '.join(DOCUMENTS)}."),
    ] = DEFAULT_CRITERIA,
) -> None:
    """Print a criteria document as JSON: its rules, every decided choice, known issues."""
    if criteria_id not in DOCUMENTS:
        typer.echo(
            f"error: unknown criteria {criteria_id!r} (known: {', '.join(DOCUMENTS)})", err=True
        )
        raise typer.Exit(ExitCode.USAGE)
    typer.echo(json.dumps(criteria_document(criteria_id), indent=2, ensure_ascii=False))


def register(app: typer.Typer) -> None:
    """Add the `criteria` command to `app`."""
    app.command("criteria")(criteria)
