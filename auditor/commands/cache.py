"""`auditor cache stats|clear|export-snapshot OUT.parquet`: look after the record cache.

The cache holds definitive register answers across runs (see `auditor.transport.cache`).
`export-snapshot` writes them as a snapshot Parquet file that a later run can use with
`--snapshot OUT.parquet --offline`: that is how a CI job becomes deterministic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from auditor.errors import ConfigError
from auditor.exitcodes import ExitCode
from auditor.settings import Settings, load_settings

if TYPE_CHECKING:
    from auditor.transport.cache import RecordCache

_USAGE = ExitCode.USAGE

cache_app = typer.Typer(
    name="cache",
    help="Show, clear or export the cache of register records.",
    no_args_is_help=True,
)

CacheDir = Annotated[
    str | None, typer.Option("--cache-dir", help="Cache folder (default: the user cache dir).")
]
Config = Annotated[str | None, typer.Option("--config", help="Config file (auditor.toml).")]


def _settings(cache_dir: str | None, config: str | None) -> Settings:
    try:
        from auditor.registers import registry

        return load_settings(
            {"cache_dir": cache_dir}, config=config, registers=registry.settings_defaults()
        )
    except ConfigError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(_USAGE) from None


def _open(settings: Settings) -> RecordCache:
    from auditor.transport.cache import RecordCache  # pyarrow, only when a command runs

    return RecordCache.open(settings.cache_dir, ttl_days=settings.cache_ttl_days)


@cache_app.command("stats")
def stats(cache_dir: CacheDir = None, config: Config = None) -> None:
    """Print the cache folder, its entry count, size and entries per register."""
    cache = _open(_settings(cache_dir, config))
    try:
        info = cache.stats()
    finally:
        cache.close()
    typer.echo(f"cache: {info.path}")
    typer.echo(f"entries: {info.entries}")
    typer.echo(f"size: {info.size_bytes} bytes")
    for register, count in sorted(info.by_register.items()):
        typer.echo(f"  {register}: {count}")


@cache_app.command("clear")
def clear(cache_dir: CacheDir = None, config: Config = None) -> None:
    """Remove every cached record."""
    cache = _open(_settings(cache_dir, config))
    try:
        removed = cache.clear()
    finally:
        cache.close()
    typer.echo(f"removed {removed} entries from {cache.path}")


@cache_app.command("export-snapshot")
def export_snapshot(
    out: Annotated[str, typer.Argument(help="Snapshot Parquet file to write.")],
    cache_dir: CacheDir = None,
    config: Config = None,
) -> None:
    """Write every unexpired cached record as a snapshot Parquet file (atomically)."""
    cache = _open(_settings(cache_dir, config))
    try:
        rows = list(cache.rows())
    finally:
        cache.close()
    if not rows:
        # Create an output file only when there is something to write.
        typer.echo("the cache is empty: nothing exported", err=True)
        raise typer.Exit(ExitCode.FINDINGS)
    from auditor.transport.snapshot import write_snapshot

    count = write_snapshot(rows, out)
    typer.echo(f"wrote {count} records to {out}")


def register(app: typer.Typer) -> None:
    """Add `cache` to the CLI."""
    app.add_typer(cache_app, name="cache")
