"""Duplicates inside an audit: references that are the same work under several keys.

Two references are linked when they share a normalized DOI, PMID or arXiv id (version ignored),
or a normalized URL (the citation-overlap contract's rule), or when a register record already
fetched ties them: an arXiv record whose `doi` names a DOI also cited (`published_version`: the
preprint and its journal article) or a PubMed record whose `doi` is also cited (`doi`). Links are
closed transitively into groups. No register is asked anything here.

Everything is computed over whole columns (Arrow compute, NumPy): a million references cost a
few column passes, not a million Python objects.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor import tables
from auditor.overlap.urls import normalize_url

__all__ = ["BASES", "attach_group_ids", "find_duplicates"]

BASES: tuple[str, ...] = ("doi", "pmid", "arxiv", "published_version", "url")
"""Basis codes of the `duplicates` table, strongest first: a member's row names the strongest."""

_ARXIV_VERSION = re.compile(r"v\d+$", re.IGNORECASE)
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", re.IGNORECASE)
# The same rules for Arrow's RE2, used on ASCII text only, where both engines agree.
_ARXIV_VERSION_RE2 = r"v[0-9]+$"
_DOI_PREFIX_RE2 = r"(?i)^(?:https?://(?:dx\.)?doi\.org/|doi:)"


def _sub(values: pa.Array, pattern: re.Pattern[str], re2: str) -> pa.Array:
    """`pattern.sub("", value)` of every value: RE2 on ASCII text, Python's `re` on the rest.

    RE2's case folding and `\\d` differ from Python's on some non-ASCII text (`ſ`, `K`,
    Unicode digits); identifiers are nearly all ASCII, so only the few others take `re`.
    """
    out = pc.replace_substring_regex(values, re2, "")
    other = pc.fill_null(pc.invert(pc.string_is_ascii(values)), False)
    if not pc.any(other).as_py():
        return out
    exact = [pattern.sub("", v) for v in values.filter(other).to_pylist()]
    return pc.replace_with_mask(out, other, pa.array(exact, pa.string()))


def _doi(values: pa.Array) -> pa.Array:
    # DOIs are case-insensitive (DOI Handbook §2.4); the column is normalized, this is a backstop.
    trimmed = pc.utf8_trim_whitespace(values)
    # A bare DOI (`10.…`) has no prefix to remove: only the others pay for the regex.
    prefixed = pc.fill_null(pc.invert(pc.starts_with(trimmed, "10.")), False)
    if pc.any(prefixed).as_py():
        unprefixed = _sub(trimmed.filter(prefixed), _DOI_PREFIX, _DOI_PREFIX_RE2)
        trimmed = pc.replace_with_mask(trimmed, prefixed, unprefixed)
    return pc.utf8_lower(trimmed)


def _arxiv(values: pa.Array) -> pa.Array:
    lowered = pc.utf8_lower(pc.utf8_trim_whitespace(values))
    return _sub(lowered, _ARXIV_VERSION, _ARXIV_VERSION_RE2)


def _url(value: str) -> str | None:
    """The normalized URL, or None for a non-web URL or a site's bare home page.

    A home page (`https://www.cnki.net/`) names a site, not a work: two references giving it
    are not thereby the same work.
    """
    value = value.strip()
    if not value.lower().startswith(("http://", "https://")):
        return None
    try:
        normal = normalize_url(value)
    except ValueError:
        return None
    parts = urlsplit(normal)
    return None if parts.path == "/" and not parts.query else normal


def _urls(values: pa.Array) -> pa.Array:
    """`_url` of every value, computed once per distinct URL."""
    distinct = pc.unique(values.drop_null())
    normal = pa.array([_url(v) for v in distinct.to_pylist()], pa.string())
    return pc.take(normal, pc.index_in(values, value_set=distinct))


def _constant(value: str, length: int) -> pa.Array:
    return pa.repeat(pa.scalar(value, pa.string()), length)


def _links(row_id: pa.Array, basis: str, value: pa.Array) -> pa.Table:
    """(row_id, basis, value) rows of the non-empty values."""
    keep = pc.fill_null(pc.greater(pc.binary_length(value), 0), False)
    rows = row_id.filter(keep)
    return pa.table(
        {"row_id": rows, "basis": _constant(basis, len(rows)), "value": value.filter(keep)}
    )


def _keys(references: pa.Table) -> pa.Table:
    """Long table (row_id, basis, value): every comparable value of every reference."""
    refs = references.select(["row_id", "id_type", "identifier", "doi", "pmid", "arxiv", "url"])
    column = {name: refs[name].combine_chunks() for name in refs.column_names}
    # `identifier` repeats the typed id; it also covers loaders that filled only that column.
    for kind in ("doi", "pmid", "arxiv"):
        typed = pc.fill_null(pc.equal(column["id_type"], kind), False)
        column[kind] = pc.coalesce(column[kind], pc.if_else(typed, column["identifier"], None))
    normal = {
        "doi": _doi(column["doi"]),
        "pmid": pc.utf8_trim_whitespace(column["pmid"]),
        "arxiv": _arxiv(column["arxiv"]),
        "url": _urls(column["url"]),
    }
    return pa.concat_tables([_links(column["row_id"], kind, normal[kind]) for kind in normal])


def _record_dois(keys: pa.Table, records: pa.Table) -> list[tuple[str, pa.Table]]:
    """For arXiv (basis `published_version`) and PubMed (basis `doi`) citations whose record was
    found with a DOI: the basis and the `(row_id, value, record_doi)` rows joining them."""
    found = records.select(["id_type", "identifier", "status", "doi"])
    is_found = pc.fill_null(pc.equal(found["status"], tables.RecordStatus.FOUND.value), False)
    found = found.filter(pc.and_(is_found, pc.is_valid(found["doi"])))
    out = []
    for kind, basis in (("arxiv", "published_version"), ("pmid", "doi")):
        recs = found.filter(pc.equal(found["id_type"], kind))
        if recs.num_rows == 0:
            continue
        identifier = recs["identifier"].combine_chunks()
        recs = pa.table(
            {
                "identifier": _arxiv(identifier) if kind == "arxiv" else identifier,
                "record_doi": _doi(recs["doi"].combine_chunks()),
            }
        )
        cited = keys.filter(pc.equal(keys["basis"], kind)).select(["row_id", "value"])
        out.append(
            (basis, cited.join(recs, keys="value", right_keys="identifier", join_type="inner"))
        )
    return out


def _record_links(keys: pa.Table, records: pa.Table) -> list[pa.Table]:
    """(row_id, basis, value) rows that put a cited id's record DOI beside the DOI citations."""
    dois = keys.filter(pc.equal(keys["basis"], "doi"))
    frames = []
    for basis, linked in _record_dois(keys, records):
        # The row citing the arXiv/PubMed id joins the rows citing the DOI its record names.
        record_doi = linked["record_doi"].combine_chunks()
        also_cited = dois.filter(pc.is_in(dois["value"], value_set=record_doi))
        if also_cited.num_rows == 0:
            continue
        # Every linked row counts once the kind links anything (the rule as first written).
        # Unlike a cited value, a record's DOI is kept even when empty (the rule as written).
        rows = linked["row_id"]
        frames.append(
            pa.table({"row_id": rows, "basis": _constant(basis, len(rows)), "value": record_doi})
        )
        frames.append(also_cited.set_column(1, "basis", _constant(basis, also_cited.num_rows)))
    return frames


def _components(rows: np.ndarray, groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct rows ascending, the smallest row of each one's connected component).

    Rows sharing a group are connected. Minimum labels flow through the groups, with pointer
    jumping, until nothing changes: a few passes over the arrays for real data.
    """
    distinct, node = np.unique(rows, return_inverse=True)
    label = np.arange(len(distinct))
    size = int(groups.max()) + 1
    while True:
        group_min = np.full(size, len(distinct))
        np.minimum.at(group_min, groups, label[node])
        new = label.copy()
        np.minimum.at(new, node, group_min[groups])
        new = new[new]
        if np.array_equal(new, label):
            return distinct, distinct[label]
        label = new


def find_duplicates(references: pa.Table, records: pa.Table) -> pa.Table:
    """The `tables.DUPLICATES` table of `references`: one row per (group, member).

    Groups have at least two references; `group_id` counts 1.. in order of each group's first
    row, members follow in `row_id` order. `basis`/`value` name the strongest shared value (see
    `BASES`) that the member has in common with another member of its group. `records` is the
    resolve stage's table (only `found` records with a `doi` matter). Returns an empty table
    when nothing is duplicated; never touches the network.
    """
    keys = _keys(references)
    links = pa.concat_tables([keys, *_record_links(keys, records)])
    if links.num_rows == 0:
        return tables.empty(tables.DUPLICATES)
    # One integer per (basis, value): value code × bases + basis rank (its strength).
    encoded = pc.dictionary_encode(links["value"].combine_chunks())
    rank = pc.index_in(links["basis"], value_set=pa.array(BASES)).to_numpy()
    link = encoded.indices.to_numpy().astype(np.int64) * len(BASES) + rank
    rows = links["row_id"].to_numpy()
    order = np.lexsort((rows, link))
    link, rows = link[order], rows[order]
    fresh = np.r_[True, (link[1:] != link[:-1]) | (rows[1:] != rows[:-1])]
    link, rows = link[fresh], rows[fresh]
    group = np.cumsum(np.r_[True, link[1:] != link[:-1]]) - 1
    # Only a value held by two or more different rows links anything.
    shared = np.bincount(group)[group] >= 2
    if not shared.any():
        return tables.empty(tables.DUPLICATES)
    link, rows = link[shared], rows[shared]
    distinct, root = _components(rows, np.unique(group[shared], return_inverse=True)[1])
    # Each member names its strongest basis, then its smallest value (in code-point order).
    code, strength = np.divmod(link, len(BASES))
    used, slot = np.unique(code, return_inverse=True)
    texts = encoded.dictionary.take(pa.array(used))
    alphabetical = np.empty(len(used), np.int64)
    alphabetical[pc.array_sort_indices(texts).to_numpy()] = np.arange(len(used))
    best = np.lexsort((alphabetical[slot], strength, rows))
    best = best[np.r_[True, rows[best][1:] != rows[best][:-1]]]
    group_id = np.unique(root, return_inverse=True)[1].astype(np.int32) + 1
    order = np.lexsort((distinct, group_id))
    chosen = best[order]
    at = pc.index_in(pa.array(distinct[order]), value_set=references["row_id"])
    return pa.Table.from_arrays(
        [
            pa.array(group_id[order]),
            pa.array(distinct[order]),
            references["key"].take(at),
            pa.array(BASES).take(pa.array(strength[chosen])),
            texts.take(pa.array(slot[chosen])),
        ],
        schema=tables.DUPLICATES,
    )


def attach_group_ids(verdicts: pa.Table, duplicates: pa.Table) -> pa.Table:
    """`verdicts` with `group_id` set from `duplicates` (null for rows in no group)."""
    group_of = dict(
        zip(
            duplicates.column("row_id").to_pylist(),
            duplicates.column("group_id").to_pylist(),
            strict=True,
        )
    )
    ids = [group_of.get(r) for r in verdicts.column("row_id").to_pylist()]
    index = verdicts.schema.get_field_index("group_id")
    return verdicts.set_column(index, "group_id", pa.array(ids, type=pa.int32()))


def cluster_links(references: pa.Table, records: pa.Table) -> pa.Table:
    """(row_id, basis, value) of every value `find_duplicates` could link `references` by, for
    hash-partitioning a cluster run by value (`auditor.partitions.dupes`).

    The reference's own normalized values (bases `doi`, `pmid`, `arxiv`, `url`), plus the record
    DOIs of its found arXiv records (basis `published_version`) and PubMed records (basis
    `pmid_record`: `find_duplicates` links these under `doi` once one of them is also cited).
    Two rows can share a group only if they share a `(basis, value)` here, or a record DOI of
    one is another's `doi` value.
    """
    keys = _keys(references)
    frames = [keys]
    for basis, linked in _record_dois(keys, records):
        rows = linked["row_id"]
        value = linked["record_doi"]
        named = "pmid_record" if basis == "doi" else basis
        frames.append(
            pa.table({"row_id": rows, "basis": _constant(named, len(rows)), "value": value})
        )
    return pa.concat_tables(frames)
