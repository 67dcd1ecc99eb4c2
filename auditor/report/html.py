"""`report.html`: one self-contained page a librarian can read, sort, filter and print.

The page fetches nothing (inline CSS and JS, a Content-Security-Policy that forbids any request),
reads fully without JavaScript (rows expand with `<details>`), and escapes every string from a
bibliography or register: the one Jinja2 template runs with autoescape on (control characters
shown as `\\xNN`), and this module hands it plain strings and numbers, never markup. Word
differences are computed here as `(text, differs)` segments so the template marks them without
building HTML from data.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jinja2
import pyarrow.compute as pc

from auditor import tables
from auditor.alerts import ALERT_HELP, ALERTS
from auditor.checklist import links_for
from auditor.registers.updates import CONCERN_TYPES, CORRECTION_TYPES, RETRACTION_TYPES
from auditor.report.interface import ReportFormat, atomic_write_text
from auditor.report.rows import NO_REGISTER, authors_parsed
from auditor.report.view import ReportView
from auditor.report.words import VERDICT_HELP, reason_text, update_text

__all__ = [
    "HUMAN_RESULTS",
    "TEMPLATES",
    "HtmlReport",
    "checklist_item",
    "diff_segments",
    "render_html",
    "summary_context",
]

#: What a person can record for a checklist item in the page (exported as `human_result`).
HUMAN_RESULTS = ("correct as cited", "wrong", "fixed", "cannot tell")

_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_TOKENS = re.compile(r"\w+|\s+|[^\w\s]+")
_CSS_SLUG = re.compile(r"[^a-z0-9]+")

#: C0 controls but tab, line feed and carriage return; DEL; C1 controls (CSI, OSC …).
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _visible(value: Any) -> Any:
    """A value the template prints, its control characters shown as `\\xNN` (#37): ESC and BEL
    from a document or a register would be live again in a terminal or a CI log that shows
    the page's source, and HTML forbids them anyway."""
    if isinstance(value, str):
        return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", value)
    return value


#: The page templates (`templates/`); autoescaped.
TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("auditor.report", "templates"),
    autoescape=True,  # every value is untrusted text unless proven otherwise
    finalize=_visible,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def _tokens(text: str) -> list[str]:
    """Words, spaces and punctuation; Han text splits per character (it has no spaces)."""
    out: list[str] = []
    for tok in _TOKENS.findall(text):
        if _HAN.search(tok):
            out.extend(tok)
        else:
            out.append(tok)
    return out


def _word(tok: str) -> str | None:
    return tok.casefold() if tok.strip() and any(c.isalnum() for c in tok) else None


def diff_segments(text: str | None, other: str | None) -> list[tuple[str, bool]]:
    """`text` cut into `(segment, differs)`: a word differs when `other` lacks it (casefolded).

    Spaces and punctuation never differ. With no `other` to compare against nothing differs.
    """
    if not text:
        return []
    if other is None:
        return [(text, False)]
    theirs = {w for w in map(_word, _tokens(other)) if w}
    tokens = _tokens(text)
    words = [_word(tok) for tok in tokens]
    flags: list[bool | None] = [None if w is None else w not in theirs for w in words]
    # A space or punctuation between two differing words is marked with them, so a changed
    # phrase reads as one highlight; elsewhere it is never marked.
    resolved: list[bool] = []
    for i, flag in enumerate(flags):
        if flag is None:
            before = next((f for f in reversed(flags[:i]) if f is not None), False)
            after = next((f for f in flags[i + 1 :] if f is not None), False)
            flag = bool(before and after)
        resolved.append(flag)
    segments: list[tuple[str, bool]] = []
    for tok, differs in zip(tokens, resolved, strict=True):
        if segments and segments[-1][1] == differs:
            segments[-1] = (segments[-1][0] + tok, differs)
        else:
            segments.append((tok, differs))
    return segments


def _slug(value: str | None) -> str:
    return _CSS_SLUG.sub("-", (value or "none").lower()).strip("-")


def _safe_links(links: list[str] | None) -> list[str]:
    """Only `https://` links are clickable: an item's links may come from other stages."""
    return [link for link in links or [] if link.lower().startswith("https://")]


def _own_link(row: dict[str, Any]) -> list[str]:
    """The page of the identifier the row was checked by (doi.org, PubMed or arXiv)."""
    id_type, identifier = row.get("id_type"), row.get("identifier")
    if id_type in ("doi", "pmid", "arxiv") and identifier:
        return links_for(**{id_type: identifier})
    return []


def _fmt_score(score: float | None) -> str:
    return "" if score is None or score != score else f"{score:.2f}"


def _match_word(value: bool | None) -> str:
    return {True: "match", False: "differs", None: "not compared"}[value]


def _printed_at(row: dict[str, Any]) -> str:
    """`page 3, [12]`: where a reference read from a document was printed."""
    parts = []
    if row.get("source_page") is not None:
        parts.append(f"page {row['source_page']}")
    if row.get("source_label"):
        parts.append(f"[{row['source_label']}]")
    return ", ".join(parts)


def _parsed_text(names: list[dict[str, str | None] | None] | None) -> str:
    """The parsed names of a row for a person: `Berg (particle van der; given Anna)`; `""` when
    the source gave no structure."""
    out = []
    for name in names or []:
        if not name or not name.get("family"):
            out.append("?")
            continue
        parts = [f"{k} {name[k]}" for k in ("particle", "given", "suffix") if name.get(k)]
        out.append(f"{name['family']} ({'; '.join(parts)})" if parts else str(name["family"]))
    return "; ".join(out) if any(o != "?" for o in out) else ""


def _row_view(
    row: dict[str, Any],
    record: dict[str, Any],
    links: list[str],
    parsed: list[dict[str, str | None] | None] | None = None,
) -> dict[str, Any]:
    """What the template needs for one reference row (`parsed`: its `author_names`)."""
    claimed, registered = row.get("title_claimed"), row.get("title_register")
    compared = registered is not None
    authors_claimed = row.get("authors_claimed") or []
    authors_register = row.get("authors_register") or []
    return {
        "row_id": row["row_id"],
        "key": row.get("key") or "",
        "path": row["source_path"],
        "line": row.get("source_line"),
        "verdict": row["verdict"],
        "verdict_slug": _slug(row["verdict"]),
        "reason": row.get("reason") or "",
        "reason_text": reason_text(row.get("reason")),
        "register": row.get("register") or NO_REGISTER,
        "tier": row.get("tier") or "",
        "retrieved_at": row.get("retrieved_at") or "",
        "priority": row.get("priority") or "",
        "id_type": row.get("id_type") or "",
        "identifier": row.get("identifier") or row.get("id_raw") or "",
        "link": links[0] if links else None,
        "title": claimed or "(no title)",
        "reference_text": row.get("reference_text") or "",
        "printed_at": _printed_at(row),
        "fields": [
            {
                "name": "title",
                "claimed": diff_segments(claimed, registered if compared else None),
                "register": diff_segments(registered, claimed) if compared else [],
                "match": _match_word(row.get("title_match")),
                "score": _fmt_score(row.get("title_score")),
            },
            {
                "name": "authors",
                "claimed": [(a, False) for a in ["; ".join(authors_claimed)] if a],
                "parsed": _parsed_text(parsed),
                "register": [(a, False) for a in ["; ".join(authors_register)] if a],
                "match": _match_word(row.get("authors_match")),
                "score": "",
            },
            {
                "name": "year",
                "claimed": [(str(row["year_claimed"]), False)]
                if row.get("year_claimed") is not None
                else [],
                "register": [(str(row["year_register"]), False)]
                if row.get("year_register") is not None
                else [],
                "match": _match_word(row.get("year_match")),
                "score": "",
            },
            {
                "name": "venue",
                "claimed": [(row["venue_claimed"], False)] if row.get("venue_claimed") else [],
                "register": [(row["venue_register"], False)] if row.get("venue_register") else [],
                "match": _match_word(row.get("venue_match")),
                "score": "",
            },
        ],
        "findings": [reason_text(f) for f in row.get("findings") or []],
        "criteria_id": row.get("criteria_id") or "",
        "compared": compared,
        "record": {
            "status": record.get("status") or row.get("record_status") or "",
            "container": record.get("container_title") or "",
            "volume": record.get("volume") or "",
            "pages": record.get("pages") or "",
            "agency": record.get("agency") or row.get("agency") or "",
            "digest": record.get("body_digest") or "",
        },
        "group_id": row.get("group_id"),
        "updates": [update_text(u) for u in row.get("updates") or []],
        "update_badge": _update_badge(row.get("updates") or []),
        "searched": list(row.get("searched") or []),
        "nearest": list(row.get("nearest") or []),
    }


def _update_badge(updates: list[dict[str, Any]]) -> str:
    """The most serious update type of a row, for the verdict column (`retraction`, …)."""
    for kinds in (RETRACTION_TYPES, CONCERN_TYPES, CORRECTION_TYPES):
        for update in updates:
            if update.get("type") in kinds:
                notice = update.get("relation") == "update_to"
                return f"notice of {update['type']}" if notice else str(update["type"])
    return "updated"


def checklist_item(item: dict[str, Any]) -> dict[str, Any]:
    """What the template needs for one checklist item (a `CHECKLIST` row as a dict)."""
    return {
        **item,
        "links": _safe_links(item["links"]),
        "authors": "; ".join(item.get("cited_authors") or []),
        "sources": ", ".join(item.get("sources_tried") or []),
        "outcome_slug": _slug(item.get("outcome")),
    }


def summary_context(view: ReportView) -> dict[str, Any]:
    """The context of the page's head and counts (`_header`, `_counts`): run, criteria, counts
    by verdict (with the chart's shares), by register, and the alert labels' counts."""
    result, counts = view.result, view.totals
    total = max(counts["rows"], 1)
    chart = [
        {
            "verdict": name,
            "slug": _slug(name),
            "count": n,
            "pct": round(100 * n / total, 1),
            "help": VERDICT_HELP.get(name, ""),
        }
        for name, n in counts["by_verdict"].items()
    ]
    labels = pc.value_counts(view.alerts.drop_null()).to_pylist()  # few rows carry one
    alerted = {row["values"]: row["counts"] for row in labels}
    return {
        "run": result.run,
        "criteria_id": result.criteria_id,
        "totals": counts,
        "chart": chart,
        "registers": counts["by_register"],
        "alerts": [
            {"label": label, "count": n, "help": ALERT_HELP[label], "slug": _slug(label)}
            for label in ALERTS.values()
            if (n := alerted.get(label, 0))
        ],
    }


def _view(view: ReportView) -> dict[str, Any]:
    """The whole template context."""
    result, verdicts, counts = view.result, view.rows, view.totals
    parsed = authors_parsed(result)
    together = zip(
        verdicts.to_pylist(),
        view.relied_records().to_pylist(),
        view.alerts.to_pylist(),
        strict=True,
    )
    rows = [
        {**_row_view(row, record, _own_link(row), parsed.get(row["row_id"])), "alert": alert}
        for row, record, alert in together
    ]
    files = [
        {**f, "entries": [r for r in rows if r["path"] == f["path"]]} for f in counts["by_file"]
    ]
    keys = {row["row_id"]: row.get("key") for row in verdicts.to_pylist()}
    groups: dict[int, list[dict[str, Any]]] = {}
    for dup in result.duplicates.to_pylist():
        groups.setdefault(dup["group_id"], []).append(
            {**dup, "key": dup.get("key") or keys.get(dup["row_id"]) or ""}
        )
    checklist = [checklist_item(item) for item in result.checklist.to_pylist()]
    return {
        **summary_context(view),
        "files": files,
        "several_files": len(files) > 1,
        "duplicates": sorted(groups.items()),
        "checklist": checklist,
        "verdict_names": list(tables.OUTCOMES),
        "human_results": HUMAN_RESULTS,
        "priorities": ["P0", "P1", "P2", "P3"],
    }


def render_html(view: ReportView) -> str:
    """The report page as text."""
    return TEMPLATES.get_template("report.html.j2").render(**_view(view))


class HtmlReport(ReportFormat):
    """Writes `report.html`."""

    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Write `report.html` atomically."""
        return [atomic_write_text(out_dir / "report.html", render_html(view))]
