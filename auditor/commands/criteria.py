"""`auditor criteria`: print the criteria document (reference-resolution/v1) as JSON."""

from __future__ import annotations

import json

import typer

from auditor.compare.decisions import criteria_document


def criteria() -> None:
    """Print the comparison criteria as JSON: the v1 rules, every decided choice, known issues."""
    typer.echo(json.dumps(criteria_document(), indent=2, ensure_ascii=False))


def register(app: typer.Typer) -> None:
    """Add the `criteria` command to `app`."""
    app.command("criteria")(criteria)
