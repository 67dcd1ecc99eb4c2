"""`auditor snapshot import KIND PATH... --out DIR`: register dumps into a snapshot dataset.

KIND is one of `auditor.dumps.KINDS` (crossref, pubmed, arxiv, datacite, dblp, openalex). The import
streams (constant memory), shows a progress bar over the bytes read, and resumes where an
interrupted run stopped; `DIR` is then a snapshot (`--snapshot DIR`) with a title index.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

from auditor.commands.consoles import console
from auditor.errors import ConfigError, InputError
from auditor.exitcodes import ExitCode

#: The names of `auditor.dumps.KINDS` (a test keeps them equal), so that the help needs neither
#: the readers nor pyarrow.
KIND_NAMES: tuple[str, ...] = ("crossref", "pubmed", "arxiv", "datacite", "dblp", "openalex")

snapshot_app = typer.Typer(
    name="snapshot",
    help="Turn public register dumps into snapshot datasets.",
    no_args_is_help=True,
)


@snapshot_app.command("import")
def import_(
    kind: Annotated[str, typer.Argument(help=f"Dump format: {', '.join(KIND_NAMES)}.")],
    paths: Annotated[list[str], typer.Argument(help="Dump files (.gz read as they are).")],
    out: Annotated[str, typer.Option("--out", help="Snapshot dataset folder to write.")],
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
    config: Annotated[
        str | None, typer.Option("--config", help="Config file (auditor.toml): the import caps.")
    ] = None,
) -> None:
    """Import dump files of KIND into the snapshot dataset --out (resumable)."""
    from auditor.dumps import KINDS
    from auditor.dumps.importer import import_dump
    from auditor.dumps.limits import limits_from
    from auditor.registers import registry
    from auditor.settings import load_settings

    err = console(stderr=True)
    reader = KINDS.get(kind.lower())
    if reader is None:
        err.print(f"[bold red]error:[/] unknown dump kind {kind!r} (choose {', '.join(KINDS)})")
        raise typer.Exit(ExitCode.USAGE)
    try:
        settings = load_settings(None, config=config, registers=registry.settings_defaults())
    except ConfigError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
        raise typer.Exit(ExitCode.USAGE) from None
    columns = (BarColumn(), DownloadColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, disable=quiet, transient=True) as bar:
        task = bar.add_task(kind, total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            summary = import_dump(reader(limits_from(settings)), paths, out, progress=progress)
        except InputError as exc:
            err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
            raise typer.Exit(ExitCode.USAGE) from None
    resumed = f", {summary.resumed_inputs} input(s) already done" if summary.resumed_inputs else ""
    err.print(
        f"{summary.records:,} records in {summary.parts} part(s) written to {out}/records"
        f"{resumed}; {summary.skipped_count:,} skipped; title index in {out}/title_index"
    )
    for skipped in summary.skipped[:10]:
        err.print(f"  skipped {skipped.where}: {skipped.why}", markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    """Add `snapshot` to the CLI."""
    app.add_typer(snapshot_app, name="snapshot")
