"""`auditor audit PATH...`: the whole pipeline, reports in `--out`, an exit code for CI."""

from __future__ import annotations

import asyncio
import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, assert_never

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from auditor.commands.load import parse_map
from auditor.errors import ConfigError, InputError
from auditor.exitcodes import ExitCode
from auditor.settings import load_settings


class OutputStyle(StrEnum):
    """How findings are printed on stdout besides the report files."""

    TEXT = "text"
    GITHUB = "github"


class InputFormat(StrEnum):
    """Bibliography formats; by default each file's extension decides."""

    BIBTEX = "bibtex"
    RIS = "ris"
    WOS = "wos"
    MEDLINE = "medline"
    ENDNOTE = "endnote"
    CSV = "csv"


def default_out(paths: list[str]) -> Path:
    """`reports/<stem of the first input>/` (or `reports/batch/` for several inputs)."""
    return Path("reports") / (Path(paths[0]).stem if len(paths) == 1 else "batch")


def audit(
    paths: Annotated[list[str], typer.Argument(help="Bibliography files (.bib, .ris, .csv).")],
    out: Annotated[
        str | None, typer.Option(help="Report folder [default: reports/<stem>/].")
    ] = None,
    config: Annotated[str | None, typer.Option(help="Config file (auditor.toml shape).")] = None,
    pipeline: Annotated[
        str | None, typer.Option(help="Profile: a name in pipelines/ or a TOML path.")
    ] = None,
    input_format: Annotated[
        InputFormat | None, typer.Option(help="Read every input as this format.")
    ] = None,
    map_: Annotated[
        list[str] | None, typer.Option("--map", help="CSV column for a field: title=Col.")
    ] = None,
    encoding: Annotated[str | None, typer.Option(help="Input encoding (default: detect).")] = None,
    snapshot: Annotated[
        list[str] | None, typer.Option(help="Snapshot Parquet of register records (repeat).")
    ] = None,
    cache_dir: Annotated[str | None, typer.Option(help="Register response cache.")] = None,
    offline: Annotated[
        bool | None, typer.Option("--offline/--online", help="Never open a socket.")
    ] = None,
    refresh: Annotated[bool | None, typer.Option("--refresh", help="Bypass the cache.")] = None,
    mailto: Annotated[str | None, typer.Option(help="Contact sent to Crossref.")] = None,
    ncbi_email: Annotated[str | None, typer.Option(help="Email sent to NCBI.")] = None,
    ncbi_api_key: Annotated[str | None, typer.Option(help="NCBI API key.")] = None,
    pmid_leg: Annotated[bool | None, typer.Option("--pmid-leg/--no-pmid-leg")] = None,
    doi_leg: Annotated[bool | None, typer.Option("--doi-leg/--no-doi-leg")] = None,
    arxiv_leg: Annotated[bool | None, typer.Option("--arxiv-leg/--no-arxiv-leg")] = None,
    crossref_url: Annotated[str | None, typer.Option(help="Crossref REST base URL.")] = None,
    eutils_url: Annotated[str | None, typer.Option(help="NCBI E-utilities base URL.")] = None,
    arxiv_url: Annotated[str | None, typer.Option(help="arXiv API base URL.")] = None,
    doi_url: Annotated[str | None, typer.Option(help="DOI system (doiRA, CSL) base URL.")] = None,
    datacite_url: Annotated[str | None, typer.Option(help="DataCite REST base URL.")] = None,
    handle_url: Annotated[str | None, typer.Option(help="Handle API base URL.")] = None,
    cache_ttl_days: Annotated[float | None, typer.Option(help="Cache entry lifetime.")] = None,
    batching: Annotated[
        bool | None, typer.Option("--batching/--no-batching", help="Many ids per request.")
    ] = None,
    crossref_batch_size: Annotated[
        int | None, typer.Option(help="DOIs per Crossref filter request.")
    ] = None,
    ncbi_rate: Annotated[float | None, typer.Option(help="NCBI requests/s.")] = None,
    timeout: Annotated[float | None, typer.Option(help="Per-request timeout, seconds.")] = None,
    max_retries: Annotated[int | None, typer.Option(help="Retries on 429/5xx/resets.")] = None,
    criteria: Annotated[
        str | None,
        typer.Option(
            help="Criteria id deciding the verdicts [default: auditor/v2].", show_default=False
        ),
    ] = None,
    fail_on: Annotated[
        str | None, typer.Option(help="Comma list of verdicts and priorities that fail the run.")
    ] = None,
    fail_on_unchecked: Annotated[
        bool | None, typer.Option("--fail-on-unchecked", help="Exit 3 when rows are UNCHECKED.")
    ] = None,
    journal_map: Annotated[
        str | None, typer.Option(help="Extra Chinese journal bridge rows (CSV).")
    ] = None,
    format_: Annotated[
        OutputStyle, typer.Option("--format", help="Findings on stdout: text or github.")
    ] = OutputStyle.TEXT,
    junit: Annotated[str | None, typer.Option(help="Write a JUnit XML report here.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress, no summary.")] = False,
    json_: Annotated[
        bool, typer.Option("--json", help="Print the summary as JSON on stdout.")
    ] = False,
    sign: Annotated[
        bool, typer.Option("--sign", help="Sign report.json with the local Ed25519 key.")
    ] = False,
    signing_key: Annotated[
        str | None, typer.Option(help="Ed25519 private key for --sign (made on first use).")
    ] = None,
) -> None:
    """Audit bibliographies against the registers and write verdicts, checklist and reports."""
    from auditor import policy
    from auditor.pipeline import run_audit
    from auditor.report import write_reports
    from auditor.report.annotations import github_annotations
    from auditor.report.console import print_summary, summary_dict
    from auditor.report.junit import write_junit

    err = Console(stderr=True)
    flags: dict[str, object] = {
        "out": out,
        "encoding": encoding,
        "snapshots": tuple(snapshot or ()),
        "cache_dir": cache_dir,
        "offline": offline,
        "refresh": refresh,
        "mailto": mailto,
        "ncbi_email": ncbi_email,
        "ncbi_api_key": ncbi_api_key,
        "pmid_leg": pmid_leg,
        "doi_leg": doi_leg,
        "arxiv_leg": arxiv_leg,
        "crossref_url": crossref_url,
        "eutils_url": eutils_url,
        "arxiv_url": arxiv_url,
        "doi_url": doi_url,
        "datacite_url": datacite_url,
        "handle_url": handle_url,
        "cache_ttl_days": cache_ttl_days,
        "batching": batching,
        "crossref_batch_size": crossref_batch_size,
        "ncbi_rate": ncbi_rate,
        "timeout": timeout,
        "max_retries": max_retries,
        "criteria": criteria,
        "fail_on": fail_on,
        "fail_on_unchecked": fail_on_unchecked,
        "journal_map": journal_map,
        "signing_key": signing_key,
    }
    try:
        settings = load_settings(flags, config=config, pipeline=pipeline, inputs=paths)
        policy.parse_fail_on(settings.fail_on, fail_on_unchecked=settings.fail_on_unchecked)
        csv_map = parse_map(map_ or [])
        fmt = input_format.value if input_format else None
        with _progress(err, quiet or json_) as report_progress:
            result = asyncio.run(
                run_audit(
                    paths, settings, input_format=fmt, csv_map=csv_map, progress=report_progress
                )
            )
    except (InputError, ConfigError) as exc:
        err.print(f"[bold red]error:[/] {exc}")
        raise typer.Exit(ExitCode.USAGE) from None

    out_dir = Path(settings.out) if settings.out else default_out(paths)
    written = write_reports(result, out_dir)
    if sign:
        from auditor.report.json import sign_report_file
        from auditor.signing import SigningError, load_or_create_key

        try:
            sign_report_file(out_dir / "report.json", load_or_create_key(settings.signing_key))
        except SigningError as exc:
            err.print(f"[bold red]error:[/] {exc}")
            raise typer.Exit(ExitCode.USAGE) from None
    if junit:
        write_junit(result, Path(junit), settings.fail_on)
    match format_:
        case OutputStyle.GITHUB:
            sys.stdout.write(github_annotations(result, settings.fail_on))
        case OutputStyle.TEXT:
            pass
        case _:
            assert_never(format_)
    if json_:
        sys.stdout.write(json.dumps(summary_dict(result), indent=2, ensure_ascii=False) + "\n")
    elif not quiet:
        print_summary(result, out_dir, quiet=False, console=err)
    del written
    code = policy.exit_code(
        result.verdicts, result.checklist, settings.fail_on, settings.fail_on_unchecked
    )
    raise typer.Exit(code)


class _PaceColumn(ProgressColumn):
    """Identifiers answered per second, as rich measures the updates."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:.1f} ids/s", style="progress.data.speed")


class _progress:
    """Rich progress bars per register, fed by the stages' `progress(register, done, total)`."""

    def __init__(self, console: Console, silent: bool) -> None:
        self._bars = (
            None
            if silent
            else Progress(
                TextColumn("{task.description:>10}"),
                BarColumn(),
                MofNCompleteColumn(),
                _PaceColumn(),
                TimeElapsedColumn(),
                console=console,
                transient=True,
            )
        )
        self._tasks: dict[str, TaskID] = {}

    def __enter__(self) -> _progress | None:
        if self._bars is None:
            return None
        self._bars.__enter__()
        return self

    def __call__(self, register: str, done: int, total: int) -> None:
        assert self._bars is not None
        if register not in self._tasks:
            self._tasks[register] = self._bars.add_task(register, total=total)
        self._bars.update(self._tasks[register], completed=done, total=total)

    def __exit__(self, *exc: object) -> None:
        if self._bars is not None:
            self._bars.__exit__(None, None, None)


def register(app: typer.Typer) -> None:
    """Add `audit` to the CLI."""
    app.command("audit")(audit)
