"""`auditor serve`: both contracts over HTTP, signed answers, and an upload page.

Binds to loopback (`127.0.0.1`) unless `--host` says otherwise, and then only with `--tokens`
(a service others can reach lets in only its own people); `--port 0` picks a free port.
The first line on stdout is `listening on http://HOST:PORT`. Settings come from the same layers
as `auditor audit` (config file, `AUDITOR_*` environment, a few flags).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Annotated, Any

import typer

from auditor.commands.options import AUDIT_FLAGS, SettingFlag, given, settings_flags
from auditor.errors import ConfigError
from auditor.exitcodes import ExitCode
from auditor.settings import load_settings


async def _run(settings_flags: dict[str, object], config: str | None, host: str, port: int) -> None:
    from auditor.registers import registry
    from auditor.serve.app import serve as start
    from auditor.serve.gates import is_loopback

    settings = load_settings(settings_flags, config=config, registers=registry.settings_defaults())
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)

    def ready(url: str) -> None:
        typer.echo(f"listening on {url}")
        if not is_loopback(host):
            typer.echo(
                f"note: bound to {host}, not loopback: only holders of a token are let in",
                err=True,
            )

    running = await start(settings, host, port, ready)
    try:
        await stop.wait()
    finally:
        await running.cleanup()


#: Settings of `auditor audit` that a server takes too (registers, tiers, transport, legs).
_SHARED = frozenset(
    {
        "snapshots", "cache_dir", "offline", "refresh", "mailto", "ncbi_email", "ncbi_api_key",
        "pmid_leg", "doi_leg", "arxiv_leg", "crossref_url", "eutils_url", "arxiv_url", "doi_url",
        "handle_url", "cache_ttl_days", "batching", "crossref_batch_size", "ncbi_rate",
        "timeout", "max_retries",
    }
)  # fmt: skip

#: The flags of `auditor serve` that set a `Settings` field.
SERVE_FLAGS: tuple[SettingFlag, ...] = (
    *(flag for flag in AUDIT_FLAGS if flag.name in _SHARED),
    SettingFlag("signing_key", str, "Ed25519 private key (PEM) signing every answer."),
    SettingFlag("precheck_interval", float, "Seconds between two /precheck calls of a caller."),
    SettingFlag("precheck_daily", int, "/precheck calls per caller per UTC day."),
    SettingFlag("caller_concurrency", int, "Register lookups in flight per caller."),
    SettingFlag("upload_max_bytes", int, "Largest upload the page at / accepts."),
    SettingFlag(
        "allow_host",
        list[str],
        "A Host name to answer besides the bound address (repeat).",
        ("--allow-host",),
    ),
    SettingFlag(
        "allow_origin",
        list[str],
        "A web origin allowed to call, with CORS (repeat).",
        ("--allow-origin",),
    ),
    SettingFlag(
        "serve_tokens",
        str,
        "File of bearer tokens (NAME TOKEN a line); needed beyond loopback.",
        ("--tokens",),
    ),
    SettingFlag("check_daily", int, "/check calls per client per UTC day."),
    SettingFlag("client_timeout", float, "Seconds a client may take to send a head or body."),
    SettingFlag("client_connections", int, "Open connections per client address."),
    SettingFlag("client_queue", int, "Requests of one client in flight; more get 429."),
)


@settings_flags(SERVE_FLAGS)
def serve(
    host: Annotated[str, typer.Option(help="Address to bind (loopback unless you say so).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="TCP port; 0 picks a free one.")] = 8000,
    config: Annotated[str | None, typer.Option(help="Config file (auditor.toml shape).")] = None,
    **settings: Any,
) -> None:
    """Serve the reference-check and citation-overlap contracts and the upload page over HTTP."""
    from auditor.signing import SigningError  # cryptography, only when serving

    if not 0 <= port <= 65535:
        typer.echo(f"error: --port {port}: not a TCP port", err=True)
        raise typer.Exit(ExitCode.USAGE)
    try:
        asyncio.run(_run(given(settings), config, host, port))
    except (ConfigError, SigningError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(ExitCode.USAGE) from None
    except OSError as exc:
        typer.echo(f"error: cannot listen on {host}:{port}: {exc.strerror or exc}", err=True)
        raise typer.Exit(ExitCode.USAGE) from None


def register(app: typer.Typer) -> None:
    """Add `serve` to the CLI."""
    app.command("serve")(serve)
