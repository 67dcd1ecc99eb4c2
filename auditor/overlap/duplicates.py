"""Duplicates inside an audit: references that are the same work under several keys.

Two references are linked when they share a normalized DOI, PMID or arXiv id (version ignored),
or a normalized URL (the citation-overlap contract's rule), or when a register record already
fetched ties them: an arXiv record whose `doi` names a DOI also cited (`published_version`: the
preprint and its journal article) or a PubMed record whose `doi` is also cited (`doi`). Links are
closed transitively into groups. No register is asked anything here.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pandas as pd
import pyarrow as pa

from auditor import tables
from auditor.overlap.urls import normalize_url

__all__ = ["BASES", "attach_group_ids", "find_duplicates"]

BASES: tuple[str, ...] = ("doi", "pmid", "arxiv", "published_version", "url")
"""Basis codes of the `duplicates` table, strongest first: a member's row names the strongest."""

_ARXIV_VERSION = re.compile(r"v\d+$", re.IGNORECASE)
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", re.IGNORECASE)


def _doi(values: pd.Series) -> pd.Series:
    # DOIs are case-insensitive (DOI Handbook §2.4); the column is normalized, this is a backstop.
    return values.str.strip().str.replace(_DOI_PREFIX, "", regex=True).str.lower()


def _arxiv(values: pd.Series) -> pd.Series:
    return values.str.strip().str.lower().str.replace(_ARXIV_VERSION, "", regex=True)


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


def _keys(references: pa.Table) -> pd.DataFrame:
    """Long frame (row_id, basis, value): every comparable value of every reference."""
    cols = ["row_id", "id_type", "identifier", "doi", "pmid", "arxiv", "url"]
    refs = references.select(cols).to_pandas()
    # `identifier` repeats the typed id; it also covers loaders that filled only that column.
    for kind in ("doi", "pmid", "arxiv"):
        typed = refs["identifier"].where(refs["id_type"] == kind)
        refs[kind] = refs[kind].fillna(typed)
    refs["doi"] = _doi(refs["doi"].astype("string"))
    refs["pmid"] = refs["pmid"].astype("string").str.strip()
    refs["arxiv"] = _arxiv(refs["arxiv"].astype("string"))
    refs["url"] = refs["url"].map(_url, na_action="ignore").astype("string")
    long = refs.melt(id_vars="row_id", value_vars=["doi", "pmid", "arxiv", "url"], var_name="basis")
    long = long[long["value"].notna() & (long["value"] != "")]
    return long.astype({"value": str})


def _record_links(keys: pd.DataFrame, records: pa.Table) -> pd.DataFrame:
    """(row_id, basis, value) pairs that put a cited id's record DOI beside the DOI citations."""
    found = records.select(["id_type", "identifier", "status", "doi"]).to_pandas()
    found = found[(found["status"] == tables.RecordStatus.FOUND) & found["doi"].notna()]
    frames = []
    for kind, basis in (("arxiv", "published_version"), ("pmid", "doi")):
        recs = found[found["id_type"] == kind].copy()
        if recs.empty:
            continue
        recs["identifier"] = _arxiv(recs["identifier"]) if kind == "arxiv" else recs["identifier"]
        recs["record_doi"] = _doi(recs["doi"].astype("string"))
        cited = keys[keys["basis"] == kind].merge(
            recs[["identifier", "record_doi"]], left_on="value", right_on="identifier"
        )
        # The row citing the arXiv/PubMed id joins the rows citing the DOI its record names.
        linked = cited[["row_id", "record_doi"]].rename(columns={"record_doi": "value"})
        dois = keys[(keys["basis"] == "doi") & keys["value"].isin(linked["value"])]
        if dois.empty:
            continue
        pairs = pd.concat([linked, dois[["row_id", "value"]]]).drop_duplicates()
        frames.append(pairs.assign(basis=basis))
    if not frames:
        return pd.DataFrame(columns=["row_id", "basis", "value"])
    return pd.concat(frames, ignore_index=True)[["row_id", "basis", "value"]]


def _groups(links: pd.DataFrame) -> dict[int, int]:
    """row_id → smallest row_id of its group, by union-find over rows sharing (basis, value)."""
    parent: dict[int, int] = {}

    def find(i: int) -> int:
        parent.setdefault(i, i)
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for rows in links.groupby(["basis", "value"], sort=False)["row_id"]:
        first, *rest = (int(r) for r in rows[1])
        for other in rest:
            a, b = find(first), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {row: find(row) for row in list(parent)}


def find_duplicates(references: pa.Table, records: pa.Table) -> pa.Table:
    """The `tables.DUPLICATES` table of `references`: one row per (group, member).

    Groups have at least two references; `group_id` counts 1.. in order of each group's first
    row, members follow in `row_id` order. `basis`/`value` name the strongest shared value (see
    `BASES`) that the member has in common with another member of its group. `records` is the
    resolve stage's table (only `found` records with a `doi` matter). Returns an empty table
    when nothing is duplicated; never touches the network.
    """
    keys = _keys(references)
    links = pd.concat([keys, _record_links(keys, records)], ignore_index=True)
    # Only a value held by two or more different rows links anything.
    links = links.drop_duplicates()
    shared = links[links.groupby(["basis", "value"])["row_id"].transform("nunique") >= 2]
    if shared.empty:
        return tables.empty(tables.DUPLICATES)
    root = _groups(shared)
    shared = shared.assign(root=shared["row_id"].map(root))
    # Strongest basis first, so `first()` picks it for each member.
    shared = shared.assign(rank=shared["basis"].map(BASES.index)).sort_values(["rank", "value"])
    members = shared.groupby("row_id", sort=True).first().reset_index()
    order = {r: i + 1 for i, r in enumerate(sorted(members["root"].unique()))}
    members["group_id"] = members["root"].map(order)
    ref_keys = references.select(["row_id", "key"]).to_pandas().set_index("row_id")["key"]
    members["key"] = members["row_id"].map(ref_keys)
    members = members.sort_values(["group_id", "row_id"])
    return pa.Table.from_pandas(
        members[["group_id", "row_id", "key", "basis", "value"]],
        schema=tables.DUPLICATES,
        preserve_index=False,
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
