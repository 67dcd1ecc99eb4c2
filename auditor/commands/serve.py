"""`auditor serve`: both contracts over HTTP, signed answers, and an upload page.

Binds to loopback (`127.0.0.1`) unless `--host` says otherwise; `--port 0` picks a free port.
The first line on stdout is `listening on http://HOST:PORT`. Settings come from the same layers
as `auditor audit` (config file, `AUDITOR_*` environment, a few flags).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import signal
from typing import Annotated

import typer

from auditor.errors import ConfigError
from auditor.exitcodes import ExitCode
from auditor.settings import load_settings
from auditor.signing import SigningError


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


async def _run(settings_flags: dict[str, object], config: str | None, host: str, port: int) -> None:
    from auditor.serve.app import serve as start

    settings = load_settings(settings_flags, config=config)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)

    def ready(url: str) -> None:
        typer.echo(f"listening on {url}")
        if not _loopback(host):
            typer.echo(
                f"warning: bound to {host}, not loopback: anyone who can reach this address "
                "can use the service and its register allowance",
                err=True,
            )

    runner = await start(settings, host, port, ready)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()


def serve(
    host: Annotated[str, typer.Option(help="Address to bind (loopback unless you say so).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="TCP port; 0 picks a free one.")] = 8000,
    config: Annotated[str | None, typer.Option(help="Config file (auditor.toml shape).")] = None,
    offline: Annotated[
        bool | None, typer.Option("--offline/--online", help="Never open a socket to a register.")
    ] = None,
    snapshot: Annotated[
        list[str] | None, typer.Option(help="Snapshot Parquet of register records (repeat).")
    ] = None,
    cache_dir: Annotated[str | None, typer.Option(help="Register response cache.")] = None,
    mailto: Annotated[str | None, typer.Option(help="Contact sent to Crossref.")] = None,
    signing_key: Annotated[
        str | None, typer.Option(help="Ed25519 private key (PEM); made on first use.")
    ] = None,
) -> None:
    """Serve the reference-check and citation-overlap contracts and the upload page over HTTP."""
    flags: dict[str, object] = {
        "offline": offline,
        "snapshots": tuple(snapshot or ()),
        "cache_dir": cache_dir,
        "mailto": mailto,
        "signing_key": signing_key,
    }
    if not 0 <= port <= 65535:
        typer.echo(f"error: --port {port}: not a TCP port", err=True)
        raise typer.Exit(ExitCode.USAGE)
    try:
        asyncio.run(_run(flags, config, host, port))
    except (ConfigError, SigningError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(ExitCode.USAGE) from None
    except OSError as exc:
        typer.echo(f"error: cannot listen on {host}:{port}: {exc.strerror or exc}", err=True)
        raise typer.Exit(ExitCode.USAGE) from None


def register(app: typer.Typer) -> None:
    """Add `serve` to the CLI."""
    app.command("serve")(serve)
