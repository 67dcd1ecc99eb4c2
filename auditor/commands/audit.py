"""`auditor audit PATH...`: the whole pipeline, reports in `--out`, an exit code for CI."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, assert_never

import typer
from rich.console import Console
from rich.markup import escape
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

from auditor.commands.consoles import console
from auditor.commands.errors import fail
from auditor.commands.load import InputFormat, parse_map
from auditor.commands.options import AUDIT_FLAGS, given, settings_flags
from auditor.errors import ConfigError, InputError
from auditor.exitcodes import ExitCode
from auditor.report import output_formats
from auditor.report.output_formats import OutputName
from auditor.settings import Settings, load_settings

if TYPE_CHECKING:
    from auditor.report.interface import ReportFormat
    from auditor.result import AuditResult


class Engine(StrEnum):
    """Where the stages run: this process, or mapped over partitions on a Dask cluster."""

    LOCAL = "local"
    DASK = "dask"


def default_out(paths: list[str]) -> Path:
    """`reports/<stem of the input>/` for one input (a folder too), `reports/batch/` for
    several."""
    return Path("reports") / (Path(paths[0]).stem if len(paths) == 1 else "batch")


@settings_flags(AUDIT_FLAGS)
def audit(
    paths: Annotated[
        list[str], typer.Argument(help="Bibliography files (.bib, .ris, .csv, …) or folders.")
    ],
    recursive: Annotated[
        bool,
        typer.Option("--recursive", "-r", help="Audit the bibliographies in folder arguments."),
    ] = False,
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
    output_format: Annotated[
        OutputName,
        typer.Option(
            help="Findings on stdout: text (a table), "
            + ", ".join(f"{n} ({f.help})" for n, f in output_formats.FORMATS.items())
            + ".",
        ),
    ] = OutputName.TEXT,
    junit: Annotated[str | None, typer.Option(help="Write a JUnit XML report here.")] = None,
    max_findings: Annotated[
        int, typer.Option(min=0, help="Findings listed on the terminal, worst first.")
    ] = 20,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
    json_: Annotated[
        bool, typer.Option("--json", help="Print the summary as JSON on stdout.")
    ] = False,
    sign: Annotated[
        bool, typer.Option("--sign", help="Sign report.json with the local Ed25519 key.")
    ] = False,
    **settings: Any,
) -> None:
    """Audit bibliographies against the registers and write verdicts, checklist and reports."""
    from auditor import policy
    from auditor.pipeline import run_audit
    from auditor.report import write_reports
    from auditor.report.choice import parse_reports
    from auditor.report.junit import JunitReport
    from auditor.report.view import build_view
    from auditor.signing import SigningError

    err = console(stderr=True)
    named = paths
    note: str | None = None
    try:
        from auditor.registers import registry

        chosen = output_formats.FORMATS.get(output_format)
        if json_ and chosen is not None and chosen.document:
            raise ConfigError(
                f"--json and --output-format {output_format} both write stdout: choose one"
            )
        paths = _expand(named, recursive)
        run = load_settings(
            given(settings),
            config=config,
            pipeline=pipeline,
            inputs=paths,
            registers=registry.settings_defaults(),
        )
        policy.parse_fail_on(run.fail_on, fail_on_unchecked=run.fail_on_unchecked)
        parse_reports(run.report)  # a misspelt report is refused before the run, not after
        fmt = input_format.value if input_format else None
        engine = Engine(run.engine)
        dataset = next((p for p in paths if Path(p).is_dir()), None)
        if dataset is not None and engine is not Engine.DASK:
            raise ConfigError(f"{dataset}: a Parquet dataset folder is read with --engine dask")
        match engine:
            case Engine.LOCAL:
                with _progress(err, quiet or json_) as progress:
                    result = asyncio.run(
                        run_audit(
                            paths,
                            run,
                            input_format=fmt,
                            csv_map=parse_map(map_ or []),
                            progress=progress,
                        )
                    )
            case Engine.DASK:
                out = Path(run.out) if run.out else default_out(named)
                result = _on_cluster(
                    paths, run, out, fmt, parse_map(map_ or []), max_findings, err,
                    quiet=quiet, json_=json_,
                )  # fmt: skip
            case _:
                assert_never(engine)
        out_dir = Path(run.out) if run.out else default_out(named)
        finish, sign_manifest = _signer(run.signing_key) if sign else (None, None)
        view = build_view(result, run.report, run.fail_on)  # once, for every format
        try:
            write_reports(view, out_dir, finish=finish, sign_manifest=sign_manifest)
        except OSError as exc:
            fail(err, exc, target=f"--out {out_dir}")
        from auditor.commands.reach import unreachable_note

        note = unreachable_note(result.records)
        for output in _outputs(run, output_format, junit, max_findings, quiet, json_, err):
            try:
                output.write(view, out_dir)
            except OSError as exc:
                fail(
                    err, exc, target=f"--junit {junit}" if isinstance(output, JunitReport) else None
                )
        if note and not (quiet or json_):  # last, where a CI log's reader looks
            err.print(f"[bold red]error:[/] {escape(note)}")
    except (InputError, ConfigError, SigningError, OSError) as exc:
        fail(err, exc)
    code = policy.exit_code(result.verdicts, result.checklist, run.fail_on, run.fail_on_unchecked)
    # Nothing reached: the run could not do its job, whatever the policy counts (never exit 0).
    raise typer.Exit(ExitCode.INCOMPLETE if note and code == ExitCode.OK else code)


def _expand(named: list[str], recursive: bool) -> list[str]:
    """The inputs with each bibliography folder expanded (`expand_paths`); a folder of Parquet
    files (a references dataset) stays a folder, for `--engine dask` to cut into pieces."""
    from auditor.load.inputs import expand_paths

    out: list[str] = []
    for path in named:
        folder = Path(path)
        if folder.is_dir() and any(folder.rglob("*.parquet")):
            out.append(path)
        else:
            out.extend(expand_paths([path], recursive=recursive))
    return list(dict.fromkeys(out))


def _on_cluster(
    paths: list[str],
    run: Settings,
    out: Path,
    fmt: str | None,
    csv_map: dict[str, str],
    max_findings: int,
    err: Console,
    *,
    quiet: bool = False,
    json_: bool = False,
) -> AuditResult:
    """`--engine dask`: the run's whole result when it is small enough to read back; else the
    parts and `parts.json` are its output, its summary is printed here and the command exits."""
    from auditor.cluster import audit_on_cluster, print_totals

    spread = audit_on_cluster(
        paths, run, out, input_format=fmt, csv_map=csv_map, max_findings=max_findings
    )
    if spread.result is not None:
        return spread.result
    if json_:
        # As `--json` of a run read back (`summary_dict`): the search use beside the totals.
        console().print_json(data={"search": spread.search_use(), **spread.totals.counts})
    elif not quiet:
        print_totals(spread.totals, out, err, console())
    raise typer.Exit(spread.totals.exit_code)


def _outputs(
    run: Settings,
    style: OutputName,
    junit: str | None,
    max_findings: int,
    quiet: bool,
    json_: bool,
    err: Console,
) -> list[ReportFormat]:
    """Every output the flags ask for besides the report set: JUnit, summary to stderr, data to
    stdout (the `--output-format` registry's, or the findings list for `text`)."""
    from auditor.report.console import ConsoleSummary, JsonSummary
    from auditor.report.findings import FindingsList
    from auditor.report.junit import JunitReport

    outputs: list[ReportFormat] = []
    if junit:
        outputs.append(JunitReport(Path(junit), run.fail_on))
    if style in output_formats.FORMATS:
        outputs.append(output_formats.FORMATS[style].build(sys.stdout, run.fail_on))
    if json_:
        outputs.append(JsonSummary(sys.stdout))
    elif not quiet:
        outputs.append(ConsoleSummary(err))
        if style is OutputName.TEXT:
            outputs.append(FindingsList(console(), max_findings))
    return outputs


def _signer(
    key_path: str,
) -> tuple[Callable[[Path], None], Callable[[dict[str, Any]], dict[str, Any]]]:
    """Signs the staged `report.json` (when written; marked as one file of a signed set) before
    the set is moved in, and the manifest listing every file's SHA-256 (the key is read
    first)."""
    from auditor.report.json import sign_report_file
    from auditor.signing import load_or_create_key, sign_report

    key = load_or_create_key(key_path)

    def sign(staging: Path) -> None:
        # The manifest's signature covers the set; `report.json`, when asked for, is signed too.
        if (staging / "report.json").is_file():
            sign_report_file(staging / "report.json", key, signed_set=True)

    return sign, lambda doc: sign_report(doc, key)


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
