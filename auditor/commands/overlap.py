"""`auditor overlap`: the citation-overlap contract from the command line.

`auditor overlap BUNDLE.json` reads one request of `spec/citation-overlap-openapi.json` (`-` for
stdin) and prints the contract's result JSON on stdout. `auditor overlap --bib refs.bib
--html-dir DIR` builds the request from a bibliography and saved article HTML named
`<citation key>.html`. Invalid input exits 2 with an error naming the field; nothing is fetched.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from auditor.errors import InputError
from auditor.exitcodes import ExitCode
from auditor.overlap.contract import (
    BATCH_LIMITS,
    CONTRACT_LIMITS,
    OverlapRequestError,
    check_bundle,
)
from auditor.overlap.response import encode_result

#: Usage errors and invalid bundles.
_USAGE = ExitCode.USAGE


def _read_bundle(path: str) -> bytes:
    """The bundle's bytes, read only one byte past the request bound so a huge file is cheap."""
    cap = (CONTRACT_LIMITS.max_request_bytes or 0) + 1
    try:
        if path == "-":
            return sys.stdin.buffer.read(cap)
        with open(path, "rb") as handle:
            return handle.read(cap)
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from exc


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(_USAGE)


def overlap(
    bundle: Annotated[
        str | None, typer.Argument(help="Request JSON of the overlap contract ('-': stdin).")
    ] = None,
    bib: Annotated[
        str | None, typer.Option(help="Bibliography (.bib, .ris, .csv) to check instead.")
    ] = None,
    html_dir: Annotated[
        str | None, typer.Option(help="Folder of saved article HTML named <citation key>.html.")
    ] = None,
    claim: Annotated[
        str | None, typer.Option(help="Claim label for --bib (default: the file name).")
    ] = None,
    compact: Annotated[
        bool, typer.Option("--compact", help="Print compact JSON (the wire form).")
    ] = False,
) -> None:
    """Find citation overlap: duplicate URLs, shared links and declared lineage."""
    if (bundle is None) == (bib is None):
        raise _fail("give either BUNDLE or --bib, not both")
    if bundle is not None and (html_dir or claim):
        raise _fail("--html-dir and --claim go with --bib, not with BUNDLE")
    keys: tuple[str, ...] = ()
    try:
        if bundle is not None:
            result = check_bundle(_read_bundle(bundle))
        else:
            assert bib is not None
            from auditor.load import load_files
            from auditor.overlap.batch import bundle_from_references

            html_path = Path(html_dir) if html_dir else None
            if html_path is not None and not html_path.is_dir():
                raise _fail(f"--html-dir {html_dir}: not a folder")
            built = bundle_from_references(
                load_files([bib]).table, html_path, claim or f"Sources cited in {Path(bib).name}"
            )
            keys = built.keys
            for line in built.skipped:
                typer.echo(f"skipped {line}", err=True)
            result = check_bundle(built.request, BATCH_LIMITS)
    except OverlapRequestError as exc:
        raise _fail(_with_key(exc, keys)) from None
    except InputError as exc:
        raise _fail(str(exc)) from None
    typer.echo(encode_result(result, indent=None if compact else 4))


def _with_key(exc: OverlapRequestError, keys: tuple[str, ...]) -> str:
    """The error, naming the citation key behind `citations[i]` in the batch form."""
    if keys and exc.field.startswith("citations["):
        index = int(exc.field[len("citations[") : exc.field.index("]")])
        return f"{exc} (citation key {keys[index]!r})"
    return str(exc)


def register(app: typer.Typer) -> None:
    """Add `overlap` to the CLI."""
    app.command("overlap")(overlap)
