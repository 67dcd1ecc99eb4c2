"""`auditor emulator serve`: the loopback register emulator from the command line.

Serves a corpus folder (see `auditor.emulator.Corpus.from_dir`) on 127.0.0.1 and prints the
`AUDITOR_*_URL` settings that point the auditor at it. Only loopback is ever bound.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from auditor.exitcodes import ExitCode

# The emulator (aiohttp) is imported by the commands that run it, not by `auditor --help`.
if TYPE_CHECKING:
    from auditor.emulator import Corpus, EmulatorConfig

_USAGE = ExitCode.USAGE

emulator_app = typer.Typer(
    name="emulator",
    help="Loopback register emulator (Crossref, E-utilities, arXiv, doi.org, Handle) for tests "
    "and demos.",
    no_args_is_help=True,
)


def parse_rate_limit(text: str) -> tuple[str, tuple[int, float]]:
    """`crossref=10/1` → ("crossref", (10, 1.0)); `ValueError` naming the problem otherwise."""
    from auditor.emulator import SERVICES

    service, sep, spec = text.partition("=")
    count, slash, per = spec.partition("/")
    if not sep or not slash or service not in SERVICES:
        raise ValueError(f"--rate-limit expects SERVICE=COUNT/SECONDS with SERVICE in {SERVICES}")
    try:
        limit = (int(count), float(per))
    except ValueError as exc:
        raise ValueError(f"--rate-limit {text!r}: COUNT and SECONDS must be numbers") from exc
    if limit[0] < 1 or limit[1] <= 0:
        raise ValueError(f"--rate-limit {text!r}: COUNT and SECONDS must be positive")
    return service, limit


def parse_fault(text: str) -> tuple[str, str]:
    """`10.1/x=5xx` → ("10.1/x", "5xx"); the last `=` splits, so ids may contain `=`."""
    from auditor.emulator import FAULT_KINDS

    ident, sep, kind = text.rpartition("=")
    if not sep or not ident or kind not in FAULT_KINDS:
        raise ValueError(f"--fault expects IDENTIFIER=KIND with KIND in {FAULT_KINDS}")
    return ident, kind


def build_config(
    latency: float,
    rate_limits: list[str],
    published_limits: bool,
    faults: list[str],
    fault_rate: float,
    seed: int,
    down: list[str],
) -> EmulatorConfig:
    """An `EmulatorConfig` from the flags; `ValueError` naming the bad flag value."""
    from auditor.emulator import PUBLISHED_LIMITS, EmulatorConfig

    limits = dict(PUBLISHED_LIMITS) if published_limits else {}
    limits.update(parse_rate_limit(r) for r in rate_limits)
    return EmulatorConfig(
        latency=latency,
        rate_limits=limits,
        faults=dict(parse_fault(f) for f in faults),
        fault_rate=fault_rate,
        seed=seed,
        down=set(down),
    )


async def _serve(corpus: Corpus, config: EmulatorConfig, port: int, exit_after: float) -> None:
    from auditor.emulator import start_emulator

    emu = await start_emulator(corpus, config, port)
    try:
        for name, url in emu.base_urls.items():
            typer.echo(f"AUDITOR_{name.upper()}={url}")
        typer.echo(f"serving on {emu.origin} (Ctrl-C to stop)", err=True)
        if exit_after > 0:
            await asyncio.sleep(exit_after)
        else:
            await asyncio.Event().wait()  # until interrupted
    finally:
        await emu.close()
        counts = ", ".join(f"{k}={v}" for k, v in sorted(emu.counts.items()) if v)
        typer.echo(f"requests: {counts or 'none'}; rate-limit 429s: {emu.count_429}", err=True)


@emulator_app.command("serve")
def serve(
    corpus: Annotated[Path, typer.Option(help="Corpus folder (corpus.json or <section>.json).")],
    port: Annotated[int, typer.Option(help="Port on 127.0.0.1 (0 = any free port).")] = 8080,
    latency: Annotated[float, typer.Option(help="Seconds added to every answer.")] = 0.0,
    rate_limit: Annotated[
        list[str] | None,
        typer.Option(help="SERVICE=COUNT/SECONDS, enforced with 429 + Retry-After (repeatable)."),
    ] = None,
    published_limits: Annotated[
        bool, typer.Option(help="Enforce Crossref 10/1s, NCBI 3/1s and arXiv 1/3s.")
    ] = False,
    fault: Annotated[
        list[str] | None, typer.Option(help="IDENTIFIER=KIND fault on every request naming it.")
    ] = None,
    fault_rate: Annotated[float, typer.Option(help="Probability of a transient fault.")] = 0.0,
    seed: Annotated[int, typer.Option(help="Seed of the transient faults.")] = 0,
    down: Annotated[
        list[str] | None, typer.Option(help="Service answering 503 to everything (repeatable).")
    ] = None,
    exit_after: Annotated[
        float, typer.Option(help="Stop after this many seconds (0 = run until interrupted).")
    ] = 0.0,
) -> None:
    """Serve the register emulator on 127.0.0.1 and print the AUDITOR_*_URL settings for it."""
    from auditor.emulator import Corpus

    try:
        loaded = Corpus.from_dir(corpus)
        config = build_config(
            latency, rate_limit or [], published_limits, fault or [], fault_rate, seed, down or []
        )
    except (OSError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(_USAGE) from exc
    try:
        asyncio.run(_serve(loaded, config, port, exit_after))
    except KeyboardInterrupt:
        pass
    except OSError as exc:  # port in use
        typer.echo(f"error: cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}", err=True)
        raise typer.Exit(_USAGE) from exc


@emulator_app.command("generate")
def generate(
    out: Annotated[Path, typer.Argument(help="Folder for corpus.json and references.bib.")],
    dois: Annotated[int, typer.Option(help="DOI references.")] = 300,
    pmids: Annotated[int, typer.Option(help="PMID references.")] = 150,
    arxiv_ids: Annotated[int, typer.Option(help="arXiv references.")] = 50,
    missing: Annotated[float, typer.Option(help="Fraction of each kind absent.")] = 0.05,
    seed: Annotated[int, typer.Option(help="Generator seed.")] = 0,
) -> None:
    """Write a generated corpus and a bibliography citing it (for demos and benchmarks)."""
    if not 0.0 <= missing <= 1.0 or min(dois, pmids, arxiv_ids) < 0:
        typer.echo("error: --missing must be within 0..1 and counts non-negative", err=True)
        raise typer.Exit(_USAGE)
    from auditor.emulator.synthetic import synthetic, to_bibtex

    gen = synthetic(dois, pmids, arxiv_ids, missing=missing, seed=seed)
    try:
        gen.corpus.write_dir(out)
        (out / "references.bib").write_text(to_bibtex(gen.references), encoding="utf-8")
    except OSError as exc:
        typer.echo(f"error: cannot write {out}: {exc.strerror or exc}", err=True)
        raise typer.Exit(_USAGE) from exc
    absent = sum(not r.exists for r in gen.references)
    typer.echo(
        f"{out / 'corpus.json'}, {out / 'references.bib'}: "
        f"{len(gen.references)} references, {absent} absent"
    )


def register(app: typer.Typer) -> None:
    """Add `auditor emulator …` to the CLI."""
    app.add_typer(emulator_app)
