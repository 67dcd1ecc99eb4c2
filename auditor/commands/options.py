"""Flags that set a `Settings` field, declared once as a table and added to a command as options.

A command decorated with `settings_flags(TABLE)` takes `**settings`: every flag of the table the
user gave arrives there under its field name, ready for `load_settings`, so no command restates
its flags as a dict. `--help` and the README list them like any other option.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

import typer

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class SettingFlag:
    """One flag that sets the `Settings` field `name`."""

    name: str
    """The `Settings` field (and the keyword the command receives)."""
    kind: Any
    """The flag's value type (`str`, `int`, `float`, `bool`, `list[str]`)."""
    help: str = ""
    decls: tuple[str, ...] = ()
    """Typer declarations when not `--<name-with-dashes>` (`--offline/--online`)."""


#: The settings `auditor audit` takes as flags (the others: config file and environment).
AUDIT_FLAGS: tuple[SettingFlag, ...] = (
    SettingFlag("out", str, "Report folder (default: reports/<stem>/)."),
    SettingFlag(
        "report",
        list[str],
        "Reports to write (repeat or comma list): parquet, csv, checklist, html, json, junit"
        " (default: all but junit; above 50,000 rows no verdicts.csv).",
    ),
    SettingFlag("encoding", str, "Input encoding (default: detect)."),
    SettingFlag(
        "grobid_url",
        str,
        "GROBID server to read PDFs with (default: built-in reader).",
        ("--grobid",),
    ),
    SettingFlag(
        "snapshots", list[str], "Snapshot Parquet of register records (repeat).", ("--snapshot",)
    ),
    SettingFlag("cache_dir", str, "Register response cache."),
    SettingFlag("offline", bool, "Never open a socket.", ("--offline/--online",)),
    SettingFlag("refresh", bool, "Bypass the cache.", ("--refresh",)),
    SettingFlag("mailto", str, "Contact sent to Crossref (its User-Agent etiquette)."),
    SettingFlag("ncbi_email", str, "Email sent to NCBI."),
    SettingFlag("ncbi_api_key", str, "NCBI API key."),
    SettingFlag(
        "pmid_leg",
        bool,
        "Check PMIDs against PubMed (off: NOT COVERED, leg_closed).",
        ("--pmid-leg/--no-pmid-leg",),
    ),
    SettingFlag(
        "doi_leg",
        bool,
        "Check DOIs against Crossref and the DOI system (off: NOT COVERED, leg_closed).",
        ("--doi-leg/--no-doi-leg",),
    ),
    SettingFlag(
        "arxiv_leg",
        bool,
        "Check arXiv ids against arXiv (off: NOT COVERED, leg_closed).",
        ("--arxiv-leg/--no-arxiv-leg",),
    ),
    SettingFlag("crossref_url", str, "Crossref REST base URL."),
    SettingFlag("eutils_url", str, "NCBI E-utilities base URL."),
    SettingFlag("arxiv_url", str, "arXiv API base URL."),
    SettingFlag("doi_url", str, "DOI system (doiRA, CSL) base URL."),
    SettingFlag("datacite_url", str, "DataCite REST base URL."),
    SettingFlag("handle_url", str, "Handle API base URL."),
    SettingFlag("cache_ttl_days", float, "Cache entry lifetime."),
    SettingFlag("batching", bool, "Many ids per request.", ("--batching/--no-batching",)),
    SettingFlag("crossref_batch_size", int, "DOIs per Crossref filter request."),
    SettingFlag("ncbi_rate", float, "NCBI requests/s."),
    SettingFlag("timeout", float, "Seconds one request attempt may take, connect to last byte."),
    SettingFlag("max_retries", int, "Retries on 429/5xx/resets."),
    SettingFlag(
        "retry_budget", float, "Seconds a register may lose to failures and waits per batch."
    ),
    SettingFlag("criteria", str, "Criteria id deciding the verdicts (default: auditor/v2)."),
    SettingFlag(
        "fail_on",
        str,
        "Comma list of what fails the run: verdicts, RETRACTED, P0-P3, reason codes, none.",
    ),
    SettingFlag(
        "fail_on_unchecked", bool, "Exit 3 when rows are UNCHECKED.", ("--fail-on-unchecked",)
    ),
    SettingFlag("journal_map", str, "Extra Chinese journal bridge rows (CSV)."),
    SettingFlag("signing_key", str, "Ed25519 private key for --sign (made on first use)."),
    SettingFlag("engine", str, "local, or dask: partitions on a Dask cluster."),
    SettingFlag("scheduler", str, "Dask scheduler address (default: a local cluster)."),
    SettingFlag("partition_rows", int, "Rows of one cluster task."),
    SettingFlag("workers", int, "Worker processes of a local Dask cluster."),
    SettingFlag("threads", int, "Threads per worker of a local Dask cluster."),
)


def flags_named(*names: str) -> tuple[SettingFlag, ...]:
    """The rows of `AUDIT_FLAGS` for `names`, in that order (a command taking fewer settings)."""
    table = {flag.name: flag for flag in AUDIT_FLAGS}
    return tuple(table[name] for name in names)


#: The settings `auditor check` takes as flags.
CHECK_FLAGS = flags_named("offline", "snapshots", "cache_dir", "mailto", "criteria")


def _parameter(flag: SettingFlag) -> inspect.Parameter:
    option = typer.Option(*flag.decls, help=flag.help or None, show_default=False)
    return inspect.Parameter(
        flag.name,
        inspect.Parameter.KEYWORD_ONLY,
        default=None,
        annotation=Annotated[flag.kind | None, option],
    )


def settings_flags(table: Sequence[SettingFlag]) -> Callable[[F], F]:
    """Give a command taking `**settings` one option per row of `table` (after its own)."""

    def add(command: F) -> F:
        signature = inspect.signature(command, eval_str=True)
        own = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
        added = [_parameter(flag) for flag in table]
        command.__signature__ = signature.replace(parameters=[*own, *added])  # type: ignore[attr-defined]
        command.__annotations__ = {
            **{p.name: p.annotation for p in own},
            **{p.name: p.annotation for p in added},
            "return": signature.return_annotation,
        }
        return command

    return add


def given(settings: dict[str, Any]) -> dict[str, Any]:
    """The flags the user gave (Typer passes `None` or an empty list for the others)."""
    return {name: value for name, value in settings.items() if value not in (None, [], ())}
