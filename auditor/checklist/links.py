"""The pages a person can click to check an item: doi.org, PubMed and arXiv abstract pages."""

from __future__ import annotations

from urllib.parse import quote

import pyarrow as pa
import pyarrow.compute as pc

from auditor import column_idioms

__all__ = ["link_column", "links_for", "row_links"]


def links_for(
    doi: str | None = None, pmid: str | None = None, arxiv: str | None = None
) -> list[str]:
    """Pages a person can click to check: doi.org, PubMed and arXiv abstract pages.

    Identifiers are untrusted text: each is percent-encoded into its URL path (a DOI keeps its
    `/`, which doi.org expects), so no identifier can change the host or add a query. A PMID that
    is not all digits gets no link.
    """
    links: list[str] = []
    if doi and doi.strip():
        links.append("https://doi.org/" + quote(doi.strip(), safe="/"))
    if pmid and pmid.strip().isdigit():
        links.append(f"https://pubmed.ncbi.nlm.nih.gov/{pmid.strip()}/")
    if arxiv and arxiv.strip():
        links.append("https://arxiv.org/abs/" + quote(arxiv.strip(), safe="/"))
    return links


_PAGE = {"doi": "https://doi.org/", "arxiv": "https://arxiv.org/abs/"}
_PUBMED = "https://pubmed.ncbi.nlm.nih.gov/"


def link_column(kind: str, values: pa.Array) -> pa.Array:
    """`links_for(**{kind: value})` of every value: its one link, or null for none."""
    stripped = column_idioms.strip(values)
    if kind == "pmid":
        page = pc.binary_join_element_wise(_PUBMED, stripped, "/", "")
        return pc.if_else(column_idioms.digits(stripped), page, None)
    page = pc.binary_join_element_wise(_PAGE[kind], column_idioms.quoted(stripped), "")
    return pc.if_else(column_idioms.truthy(stripped), page, None)


def row_links(refs: pa.Table, verdicts: pa.Table) -> pa.Array:
    """Links for every identifier each row names; the checked identifier's link first."""
    id_type, identifier = verdicts["id_type"], verdicts["identifier"]
    link = {}
    for kind in ("doi", "pmid", "arxiv"):
        own = pc.and_(
            pc.fill_null(pc.equal(id_type, kind), False), column_idioms.truthy(identifier)
        )
        link[kind] = link_column(kind, pc.if_else(own, identifier, refs[kind]))
    pmid_first = pc.fill_null(pc.equal(id_type, "pmid"), False)
    arxiv_first = pc.fill_null(pc.equal(id_type, "arxiv"), False)
    # doi, pmid, arxiv, with the checked type moved to the front.
    return column_idioms.concat_lists(
        column_idioms.singletons(
            pc.if_else(
                pmid_first, link["pmid"], pc.if_else(arxiv_first, link["arxiv"], link["doi"])
            )
        ),
        column_idioms.singletons(
            pc.if_else(pc.or_(pmid_first, arxiv_first), link["doi"], link["pmid"])
        ),
        column_idioms.singletons(pc.if_else(arxiv_first, link["pmid"], link["arxiv"])),
    )
