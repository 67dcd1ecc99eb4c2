"""From the loaded bibliographies to the references a manuscript cites.

The audit of a manuscript checks exactly the cited entries, in order of first citation, each
carrying where it was first cited (`cited_at`, beside its own `.bib` line). A cited key that no
bibliography holds is a row of its own, at the citing line (`source_format` `manuscript`). A
manubot key by identifier (`@doi:10.1126/science.aaf5675`, `@pmid:…`, `@arxiv:…`, `@isbn:…`,
`@url:…`, `@wikidata:…`, `@pmcid:…`; `auditor.load.citation_tags`) holds its identifier alone
and is audited by it (manubot fetches the metadata itself), and so does a `@tag:` key that the
`citation-tags.tsv` beside the manuscript maps to one. Any other such key is INVALID, reason
`missing_entry`: a defect of the manuscript (LaTeX prints `[?]`) and a finding under the default
policy.
Entries never cited are not audited; one warning lists them.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa

from auditor import tables
from auditor.classify import MANUSCRIPT_FORMAT, classify
from auditor.errors import Reason
from auditor.load.citation_tags import TAGS_FILE, identifier_key, is_manubot_key, tag_target
from auditor.load.interface import Problem
from auditor.load.manuscript import Manuscript
from auditor.tables import DEFAULT_CRITERIA, RowState

__all__ = ["select_cited"]

#: How many uncited keys the warning names before it only counts.
_SHOWN = 10


def select_cited(
    table: pa.Table,
    manuscripts: Sequence[Manuscript],
    keep_all: Sequence[str] = (),
    *,
    closed_legs: frozenset[str] = frozenset(),
    criteria: str = DEFAULT_CRITERIA,
) -> tuple[pa.Table, list[Problem]]:
    """The rows of `table` cited by `manuscripts` (first citation first), with one row per cited
    key no row holds, in its place in that order; rows whose `source_path` is in `keep_all`
    (bibliographies named on the command line beside the manuscript) are kept whole, after the
    cited ones.

    A key no row holds is a citation by identifier when a Markdown file cites it so
    (`auditor.load.citation_tags`, a `@tag:` through its tags file too): its row
    holds the identifier alone and is classified with `closed_legs` under `criteria`
    (`auditor.classify`); any other such key is INVALID, reason `missing_entry`.
    `row_id` is renumbered 0..n-1 in the new order; `cited_at` is `path:line` of the first
    citation. A key is matched exactly (BibTeX keys are case-sensitive to biber; BibTeX itself
    warns on case-only differences), and the first entry holding a duplicated key is the one
    BibTeX uses.
    """
    keys = table["key"].to_pylist()
    paths = table["source_path"].to_pylist()
    order, cited_at, made = _cited(table.num_rows, keys, paths, manuscripts)
    taken = {i for i in order if i < table.num_rows}
    cite_all = any(m.cite_all for m in manuscripts)
    kept = set(keep_all)
    for index in range(table.num_rows):
        if index not in taken and (cite_all or paths[index] in kept):
            taken.add(index)
            order.append(index)
            cited_at.append(None)
    problems = _uncited_warning(keys, taken, manuscripts)
    if made:
        rows = tables.from_rows(made, tables.REFERENCES)
        table = pa.concat_tables(
            [table, classify(rows, closed_legs=closed_legs, criteria=criteria)]
        )
    selected = table.take(pa.array(order, pa.int64())) if order else table.slice(0, 0)
    selected = selected.set_column(
        selected.schema.get_field_index("cited_at"),
        tables.REFERENCES.field("cited_at"),
        pa.array(cited_at, pa.string()),
    )
    renumbered = pa.array(range(selected.num_rows), pa.int64())
    return selected.set_column(0, tables.REFERENCES.field("row_id"), renumbered), problems


def _first_rows(keys: list[str | None], paths: list[str], among: set[str] | None) -> dict[str, int]:
    """The first row holding each key, among the rows read from `among` (`None`: all)."""
    first_row: dict[str, int] = {}
    for position, (key, path) in enumerate(zip(keys, paths, strict=True)):
        if key is not None and (among is None or path in among):
            first_row.setdefault(key, position)
    return first_row


def _cited(
    n: int, keys: list[str | None], paths: list[str], manuscripts: Sequence[Manuscript]
) -> tuple[list[int], list[str | None], list[dict[str, object]]]:
    """`(order, cited_at, made)`: the cited rows in order of first citation, where each was
    first cited, and the rows made for cited keys no row holds (their index: `n` onwards).

    A manuscript's key is looked up in the bibliographies it names first, then in all: two
    manuscripts of one run (an editor's folder) that cite the same key each get the entry of
    their own bibliography, while chapters sharing one bibliography share its rows.
    """
    every = _first_rows(keys, paths, None)
    first_row = every
    order: list[int] = []
    cited_at: list[str | None] = []
    made: list[dict[str, object]] = []
    seen: set[int] = set()
    tags: dict[str, dict[str, str]] = {}  # the tags files read, by path
    for manuscript in manuscripts:
        own = set(manuscript.bibliographies) & set(paths)
        first_row = {**every, **_first_rows(keys, paths, own)} if own else every
        for citation in manuscript.citations:
            found = first_row.get(citation.key)
            if found is not None and found in seen:
                continue  # cited before (another manuscript of the same run)
            where = f"{citation.path}:{citation.line}"
            if found is None:
                # Its row stands where it is cited: index past the table's own rows.
                first_row[citation.key] = every[citation.key] = found = n + len(made)
                made.append(_manuscript_row(citation.key, citation.path, citation.line, tags))
            seen.add(found)
            order.append(found)
            cited_at.append(where)
    return order, cited_at, made


def _manuscript_row(
    key: str, path: str, line: int, tags: dict[str, dict[str, str]]
) -> dict[str, object]:
    """The row of a cited key no bibliography holds: its identifier alone (the key's own, or
    the one its `@tag:` stands for in the tags file beside `path`), or `missing_entry`."""
    where = f"{path}:{line}"
    row: dict[str, object] = {
        "row_id": 0,
        "source_path": path,
        "source_line": line,
        "source_format": MANUSCRIPT_FORMAT,
        "key": key,
        "cited_at": where,
        "warnings": [],
    }
    target = tag_target(key, path, tags) if is_manubot_key(key, path) else None
    named = identifier_key(target or key) if is_manubot_key(key, path) else None
    if named is not None:
        row["declared_type"], row["id_raw"] = named
        return row
    row["row_state"] = RowState.INVALID.value
    row["row_reason"] = Reason.MISSING_ENTRY.value
    row["parse_error"] = f"cited at {where}, but no bibliography holds the key {key!r}" + (
        f" ({TAGS_FILE} maps it to {target!r}, which is no identifier)" if target else ""
    )
    return row


def _uncited_warning(
    keys: list[str | None], taken: set[int], manuscripts: Sequence[Manuscript]
) -> list[Problem]:
    uncited = [k for i, k in enumerate(keys) if i not in taken and k is not None]
    if not uncited:
        return []
    shown = ", ".join(uncited[:_SHOWN]) + (
        f", … ({len(uncited)} in all)" if len(uncited) > _SHOWN else ""
    )
    names = ", ".join(m.path for m in manuscripts)
    return [
        Problem(
            names,
            None,
            f"{len(uncited)} bibliography entries are never cited in {names} and were not "
            f"audited: {shown}",
            severity="warning",
        )
    ]
