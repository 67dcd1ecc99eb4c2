"""Identifiers in BibTeX entries: publisher URLs, DBLP's `ee` and CoRR, `[pmid]`, shapes, and
never from commentary or a crossref parent."""

from __future__ import annotations

import pytest

from auditor.load.bibtex import BibtexLoader
from auditor.load.ids import doi_in_url, ids_in_text, pmid_shape_ok


@pytest.mark.parametrize(
    ("url", "doi"),
    [
        ("http://doi.wiley.com/10.1002/anie.200001", "10.1002/anie.200001"),
        ("http://pubs.acs.org/doi/abs/10.1021/ja00001a001", "10.1021/ja00001a001"),
        ("http://doi.acm.org/10.1145/1234.5678", "10.1145/1234.5678"),
        ("https://dl.acm.org/doi/pdf/10.1145/3.4", "10.1145/3.4"),
        (
            "https://iopscience.iop.org/article/10.1088/1742-6596/1234/1/012001/pdf",
            "10.1088/1742-6596/1234/1/012001",
        ),
        ("http://doi.ieeecomputersociety.org/10.1109/TPAMI.2010.1", "10.1109/TPAMI.2010.1"),
        (
            "https://onlinelibrary.wiley.com/doi/full/10.1111/j.1467-9868.2005.00503.x/abstract",
            "10.1111/j.1467-9868.2005.00503.x",
        ),
        ("https://link.springer.com/content/pdf/10.1007%2Fs10107-0.pdf", "10.1007/s10107-0"),
        (
            "https://journals.plos.org/plosone/article?id=10.1371/journal.pone.0001",
            "10.1371/journal.pone.0001",
        ),
        ("https://www.sciencedirect.com/science/article/pii/S0377221700001", None),
        ("https://example.org/v10.2/paper.pdf", None),
    ],
)
def test_doi_in_publisher_urls(url: str, doi: str | None) -> None:
    assert doi_in_url(url) == doi


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("see 10.1000/xyz.", {"doi": "10.1000/xyz"}),
        ("26957754[pmid]", {"pmid": "26957754"}),
        ("PMID: 26957754", {"pmid": "26957754"}),
        ("PMID: 123456789", {}),  # nine digits: no PMID PubMed has issued
        ("version 10.2 of 2001/2", {}),
        ("https://dl.acm.org/doi/10.1145/3.4 cited", {"doi": "10.1145/3.4"}),
    ],
)
def test_ids_in_text(text: str, found: dict[str, str]) -> None:
    assert ids_in_text(text) == found


def test_pmid_shape() -> None:
    assert pmid_shape_ok("1") and pmid_shape_ok("26957754")
    assert not pmid_shape_ok("012345") and not pmid_shape_ok("123456789")


_ENTRIES = r"""
@article{wiley, title={W}, url={http://doi.wiley.com/10.1002/anie.200001}}
@inproceedings{acm, title={A}, doi={http://doi.acm.org/10.1145/1234.5678}}
@article{dblp, title={D}, journal={CoRR}, volume={abs/1104.5069}}
@article{dblpee, title={E}, ee={https://arxiv.org/abs/1706.03762}}
@article{ee2, title={F}, ee={http://pubs.acs.org/doi/abs/10.1021/ja00001a001}}
@article{note, title={N}, note={26957754[pmid]}}
@article{bare, title={B}, note={10.1000/bare.doi}}
@article{how, title={H}, howpublished={\url{https://doi.org/10.1000/how}}}
@article{eprintdoi, title={P}, eprint={10.1000/eprint}}
@article{annote, title={Q}, annote={criticized in https://doi.org/10.1000/critic, PMID: 1234}}
@article{annotation, title={R}, annotation={a reply to 10.1000/reply},
  abstract={We build on arXiv:1706.03762 and doi:10.1000/abstract}, review={10.1000/rev},
  comment={PMID: 4321}}
@article{longpmid, title={L}, pmid={123456789}}
"""


def test_identifier_fields_and_never_commentary() -> None:
    rows, _ = BibtexLoader().load(_ENTRIES, "ids.bib")
    c = rows.columns
    got = {
        k: (d, p, a) for k, d, p, a in zip(c["key"], c["doi"], c["pmid"], c["arxiv"], strict=True)
    }
    assert got["wiley"] == ("10.1002/anie.200001", None, None)
    assert got["acm"] == ("10.1145/1234.5678", None, None)
    assert got["dblp"] == (None, None, "1104.5069")
    assert got["dblpee"] == (None, None, "https://arxiv.org/abs/1706.03762")
    assert got["ee2"] == ("10.1021/ja00001a001", None, None)
    assert got["note"] == (None, "26957754", None)
    assert got["bare"] == ("10.1000/bare.doi", None, None)
    assert got["how"] == ("10.1000/how", None, None)
    assert got["eprintdoi"] == ("10.1000/eprint", None, None)
    assert got["annote"] == (None, None, None)
    assert got["annotation"] == (None, None, None)
    long_warnings = c["warnings"][c["key"].index("longpmid")]
    assert long_warnings == ["pmid '123456789' is not 1-8 digits"]
