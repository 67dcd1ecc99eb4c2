"""`auditor fix PATH`: audit, then write the bibliography corrected from the registers.

Only what the audit makes certain is changed (see `auditor.fix.changes`); every other byte stays
as written. Without `--out` or `--in-place` the corrected copy goes beside the input as
`NAME.fixed.EXT`, so the source is never overwritten unless asked; `--in-place` keeps the
original as `NAME.EXT.bak` (`.bak.1`, … when one exists: none is overwritten) and refuses a
file that changed during the audit or is read-only (`auditor.fix.writing`).
`--diff` prints a unified diff and writes nothing.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import difflib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.prompt import Prompt

from auditor.commands.consoles import console
from auditor.errors import ConfigError, InputError
from auditor.exitcodes import ExitCode
from auditor.fix.changes import FIELDS
from auditor.settings import load_settings

if TYPE_CHECKING:
    from auditor.fix.bibtex_edit import Applied
    from auditor.fix.changes import Change, Plan
    from auditor.fix.writing import ReadState

__all__ = ["register"]


#: Byte-order marks `auditor fix` writes back as it found them (the loader reads the same).
_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def _decode(data: bytes, path: str) -> tuple[str, str, bytes]:
    """The text, the codec to write it back with, and the byte-order mark to put before it.

    UTF-16/32 (JabRef writes UTF-16) as the loader detects it, BOM or not; otherwise UTF-8, else
    Latin-1, which maps every byte to one character, so an unchanged byte is written back as it
    was even in a file of mixed encodings.
    """
    from auditor.load.encoding import decode_bytes

    for bom, codec in _WIDE_BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(codec), codec, bom
    wide = decode_bytes(data, path).encoding
    if wide.startswith(("utf-16", "utf-32")):
        return data.decode(wide), wide, b""
    try:
        return data.decode("utf-8"), "utf-8", b""
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1", b""


def _shown(value: object) -> str:
    text = " and ".join(value) if isinstance(value, list) else str(value or "")
    return escape("".join(ch if ch.isprintable() else "?" for ch in text))


class _Asker:
    """`--interactive`: one question per change; `a` accepts the rest of that field's changes."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.always: set[str] = set()
        self.stopped = False

    def __call__(self, change: Change) -> bool:
        if self.stopped:
            return False
        if change.field in self.always:
            return True
        self.console.print(
            f"[bold]{_shown(change.key)}[/] ({_shown(change.source_path)}:{change.source_line}) "
            f"{change.field}: {_shown(change.old) or '(none)'} → {_shown(change.value)}"
        )
        answer = Prompt.ask(
            # escaped: as Rich markup, `[y]` would be a style tag and vanish from the question
            escape("accept? [y]es, [n]o, [a]ll of this kind, [q]uit"),
            choices=["y", "n", "a", "q"],
            default="y",
            console=self.console,
        )
        if answer == "a":
            self.always.add(change.field)
        self.stopped = answer == "q"
        return answer in ("y", "a")


#: The formats `auditor fix` can edit in place; the others are audited but not rewritten.
_EDITABLE = ("bibtex", "ris", "csv")


def _apply(
    path: str,
    fmt: str,
    text: str,
    plan: Plan,
    comments: bool,
    accept: Callable[[Change], bool],
    latex: bool | None = None,
) -> Applied:
    from auditor.fix.bibtex_edit import edit_bibtex
    from auditor.fix.csv_edit import edit_csv
    from auditor.fix.ris_edit import edit_ris

    changes = [c for c in plan.changes if c.source_path == path]
    notes = [n for n in plan.notes if n.source_path == path] if comments else []
    if fmt == "ris":
        return edit_ris(text, changes, notes, accept=accept)
    if fmt == "csv":
        return edit_csv(text, changes, notes, accept=accept)
    return edit_bibtex(text, changes, notes, accept=accept, latex=latex)


def _target(path: Path, out: Path | None, in_place: bool) -> Path:
    if in_place:
        return path
    return out or path.with_name(f"{path.stem}.fixed{path.suffix}")


def _write(err: Console, target: Path, new: bytes, before: ReadState | None) -> None:
    """Write the corrected copy (over the input when `before`, its state as read), or exit 2."""
    from auditor.files import atomic_write_bytes
    from auditor.fix.writing import InPlaceRefused, write_in_place

    try:
        if before is None:
            atomic_write_bytes(target, new)
        else:
            backup = write_in_place(target, new, before)
            err.print(f"kept the original as {escape(str(backup))}")
    except InPlaceRefused as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}")
        raise typer.Exit(ExitCode.USAGE) from None
    except OSError as exc:
        err.print(f"[bold red]error:[/] cannot write {escape(str(target))}: {exc.strerror}")
        raise typer.Exit(ExitCode.USAGE) from None
    err.print(f"wrote {escape(str(target))}")


def fix(
    path: Annotated[Path, typer.Argument(help="The bibliography to correct (.bib, .ris, .csv).")],
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the corrected copy here.")
    ] = None,
    in_place: Annotated[
        bool, typer.Option("--in-place", help="Overwrite PATH, keeping PATH.bak (.bak.1, …).")
    ] = False,
    diff: Annotated[
        bool, typer.Option("--diff", help="Print a unified diff; write nothing.")
    ] = False,
    only: Annotated[
        str | None, typer.Option("--only", help=f"Fields to correct, of {','.join(FIELDS)}.")
    ] = None,
    interactive: Annotated[
        bool, typer.Option("--interactive", help="Ask before each change.")
    ] = False,
    comments: Annotated[
        bool, typer.Option("--comments/--no-comments", help="`% auditor:` lines on findings.")
    ] = True,
    upgrade: Annotated[
        bool,
        typer.Option(
            "--upgrade/--no-upgrade", help="With --complete: add a preprint's published DOI."
        ),
    ] = True,
    complete: Annotated[
        bool,
        typer.Option("--complete", help="Also fill in a missing venue, volume, pages or DOI."),
    ] = False,
    config: Annotated[str | None, typer.Option("--config", help="Config file.")] = None,
    offline: Annotated[
        bool | None, typer.Option("--offline/--online", help="Never open a socket.")
    ] = None,
    snapshot: Annotated[
        list[str] | None,
        typer.Option("--snapshot", help="Snapshot Parquet of register records (repeat)."),
    ] = None,
    cache_dir: Annotated[
        str | None, typer.Option("--cache-dir", help="Register response cache.")
    ] = None,
) -> None:
    """Audit PATH, then correct from the register records what the audit makes certain."""
    err = console(stderr=True)
    if in_place and out is not None:
        err.print("[bold red]error:[/] give --out or --in-place, not both")
        raise typer.Exit(ExitCode.USAGE)
    fields = tuple(f.strip() for f in (only or "").split(",") if f.strip())
    unknown = sorted(set(fields) - set(FIELDS))
    if unknown:
        err.print(f"[bold red]error:[/] --only: unknown field {escape(unknown[0])!r}")
        raise typer.Exit(ExitCode.USAGE)
    # The whole pipeline (and the editors, the loader) only when there is work.
    from auditor.fix.bibtex_edit import note_line
    from auditor.fix.changes import plan_fixes
    from auditor.fix.writing import InPlaceRefused, check_writable, read_state
    from auditor.load import detect_format
    from auditor.pipeline import run_audit

    flags = {"offline": offline, "snapshots": tuple(snapshot or ()), "cache_dir": cache_dir}
    try:
        data = path.read_bytes()
        before = read_state(path, data)
        if in_place:
            check_writable(path)
        text, codec, bom = _decode(data, str(path))
        fmt = detect_format(str(path), text[:4096])
        if fmt not in _EDITABLE:
            err.print(
                f"[bold red]error:[/] {escape(str(path))}: auditor fix edits BibTeX, RIS and CSV "
                f"files, not {fmt} (run auditor audit for its findings)"
            )
            raise typer.Exit(ExitCode.USAGE)
        from auditor.registers import registry

        settings = load_settings(
            flags, config=config, inputs=[str(path)], registers=registry.settings_defaults()
        )
        result = asyncio.run(run_audit([str(path)], settings))
    except OSError as exc:
        err.print(f"[bold red]error:[/] {escape(str(path))}: {escape(exc.strerror or str(exc))}")
        raise typer.Exit(ExitCode.USAGE) from None
    except (InputError, ConfigError, InPlaceRefused) as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}")
        raise typer.Exit(ExitCode.USAGE) from None
    plan = plan_fixes(result, only=fields, upgrade_preprints=upgrade, complete=complete)
    accept: Callable[[Change], bool] = _Asker(err) if interactive else (lambda _c: True)
    applied = _apply(str(path), fmt, text, plan, comments, accept)
    try:
        new = bom + applied.text.encode(codec)
    except UnicodeEncodeError:
        new = b""
    if not new and fmt == "bibtex":
        # A name like Dvořák does not fit Latin-1: write the new values as LaTeX escapes (the
        # changes already accepted, asked again of no one) so every other byte stays as it was.
        made = applied.made
        again = _apply(str(path), fmt, text, plan, comments, lambda c: c in made, latex=True)
        with contextlib.suppress(UnicodeEncodeError):
            new, applied = again.text.encode(codec), again
    if not new:
        new = applied.text.encode("utf-8")
        err.print(f"warning: {escape(str(path))} was Latin-1; the corrected copy is UTF-8")
    for change, why in applied.skipped:
        err.print(f"not changed: {_shown(change.key)} {change.field}: {escape(why)}")
    if diff:
        sys.stdout.writelines(
            difflib.unified_diff(
                text.splitlines(keepends=True),
                applied.text.splitlines(keepends=True),
                fromfile=str(path),
                tofile=str(_target(path, out, in_place)),
            )
        )
    else:
        _write(err, _target(path, out, in_place), new, before if in_place else None)
    entries = len({c.row_id for c in applied.made})
    err.print(f"{len(applied.made)} changes in {entries} entries; {len(plan.notes)} findings noted")
    for note in plan.notes:
        err.print(f"  {_shown(note.key)}: {escape(note_line(note.text)[2:])}")
    raise typer.Exit(ExitCode.OK)


def register(app: typer.Typer) -> None:
    """Add `fix` to the CLI."""
    app.command("fix")(fix)
