"""The cited rows of a manuscript: manubot's citations by identifier beside missing entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.errors import InputError
from auditor.load import load_files
from auditor.load.citation_tags import identifier_key

BIB = """@article{lecun2015deep,
  author  = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},
  title   = {Deep learning},
  journal = {Nature},
  year    = {2015},
  doi     = {10.1038/nature14539},
}
"""

#: A manubot `content/` file: keys by identifier, a tag, a plain missing key, a bibliography key.
INTRO = """## Introduction

Deep learning [@doi:10.1126/science.aaf5675; @lecun2015deep].
Cited in text @PMID:25648772 and [see @arxiv:1407.3561v2, p. 3].
A book [@isbn:9780262035613], a page @url:https://github.com/manubot/rootstock and
an item @wikidata:Q56458321 and [@pmcid:PMC4304851].
A tag [@tag:deep-review], a missing key [@smith2020], and a pandoc-crossref @fig:one.
Again [@doi:10.1126/science.aaf5675].
"""


def _load(tmp: Path, criteria: str = "auditor/v2", bib: bool = True) -> dict[str, list[object]]:
    (tmp / "content").mkdir()
    md = tmp / "content" / "01.intro.md"
    md.write_text(INTRO, encoding="utf-8")
    paths = [str(md)]
    if bib:
        (tmp / "refs.bib").write_text(BIB, encoding="utf-8")
        paths.append(str(tmp / "refs.bib"))
    table: dict[str, list[object]] = load_files(paths, criteria=criteria).table.to_pydict()
    return table


def test_keys_by_identifier_are_rows_of_their_identifier_in_citation_order(tmp_path: Path) -> None:
    table = _load(tmp_path)
    md = str(tmp_path / "content" / "01.intro.md")
    assert table["key"] == [
        "doi:10.1126/science.aaf5675",
        "lecun2015deep",
        "PMID:25648772",
        "arxiv:1407.3561v2",
        "isbn:9780262035613",
        "url:https://github.com/manubot/rootstock",
        "wikidata:Q56458321",
        "pmcid:PMC4304851",
        "tag:deep-review",
        "smith2020",
    ]  # each key once (its first citation), the bibliography's entry in its place
    assert table["row_id"] == list(range(10))
    assert table["declared_type"] == [
        "doi", None, "pmid", "arxiv", "isbn", "url", "wikidata", "pmcid", None, None
    ]  # fmt: skip
    assert table["id_raw"][:8] == [
        "10.1126/science.aaf5675",
        "10.1038/nature14539",
        "25648772",
        "1407.3561v2",  # as written: the version is kept for display
        "9780262035613",
        "https://github.com/manubot/rootstock",
        "Q56458321",
        "PMC4304851",
    ]
    assert table["id_type"][:4] == ["doi", "doi", "pmid", "arxiv"]
    assert table["identifier"][:4] == [
        "10.1126/science.aaf5675",
        "10.1038/nature14539",
        "25648772",
        "1407.3561",
    ]
    by_id = [0, 2, 3]
    assert [table["row_state"][i] for i in by_id] == [None] * 3  # to be looked up
    assert [table["title"][i] for i in by_id] == [None] * 3  # nothing claimed but the id
    assert table["row_state"][4:8] == ["NOT COVERED"] * 4
    assert table["row_reason"][4:8] == ["unsupported_type"] * 4
    assert table["row_state"][8:] == ["INVALID", "INVALID"]
    assert table["row_reason"][8:] == ["missing_entry", "missing_entry"]
    lines = [3, 3, 4, 4, 5, 5, 6, 6, 7, 7]
    assert table["cited_at"] == [f"{md}:{n}" for n in lines]
    manuscript_rows = [i for i in range(10) if i != 1]
    assert all(table["source_path"][i] == md for i in manuscript_rows)
    assert all(table["source_format"][i] == "manuscript" for i in manuscript_rows)
    assert [table["source_line"][i] for i in manuscript_rows] == [3, 4, 4, 5, 5, 6, 6, 7, 7]
    assert (table["source_format"][1], table["source_line"][1]) == ("bibtex", 1)


def test_under_v1_a_key_by_identifier_is_invalid_missing_title(tmp_path: Path) -> None:
    table = _load(tmp_path, criteria="reference-resolution/v1")
    assert table["row_state"][:8] == ["INVALID", None, *["INVALID"] * 6]
    assert table["row_reason"][:8] == ["missing_title", None, *["missing_title"] * 6]
    assert table["row_reason"][8:] == ["missing_entry", "missing_entry"]


def test_a_manuscript_citing_by_identifier_needs_no_bibliography(tmp_path: Path) -> None:
    table = _load(tmp_path, bib=False)
    assert table["key"][:2] == ["doi:10.1126/science.aaf5675", "lecun2015deep"]
    assert table["row_reason"][1] == "missing_entry"  # no bibliography holds it
    only_keys = tmp_path / "plain.md"
    only_keys.write_text("As shown [@smith2020].\n", encoding="utf-8")
    with pytest.raises(InputError, match="names no bibliography"):
        load_files([str(only_keys)])


def test_closed_legs_reach_the_rows_by_identifier(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("[@doi:10.1038/nature14539; @pmid:1]\n", encoding="utf-8")
    table = load_files([str(tmp_path / "a.md")], closed_legs=frozenset({"doi"})).table
    assert table["row_reason"].to_pylist() == ["leg_closed", None]


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("doi:10.1/x", ("doi", "10.1/x")),
        ("DOI:10.1/x", ("doi", "10.1/x")),
        ("Wikidata:Q1", ("wikidata", "Q1")),
        ("url:https://a.org/b:c", ("url", "https://a.org/b:c")),
        ("doi:", None),
        ("tag:deep-review", None),
        ("raw:conversation", None),
        ("smith2020", None),
        ("doi10.1/x", None),
    ],
)
def test_identifier_key(key: str, expected: tuple[str, str] | None) -> None:
    assert identifier_key(key) == expected


def test_manubot_prefix_aliases() -> None:
    assert identifier_key("pubmed:25648772") == ("pmid", "25648772")
    assert identifier_key("PMC:PMC4304851") == ("pmcid", "PMC4304851")
    assert identifier_key("https://example.org/a") == ("url", "https://example.org/a")


def test_a_tag_the_tags_file_maps_to_an_identifier_is_audited_by_it(tmp_path: Path) -> None:
    content = tmp_path / "content"
    content.mkdir()
    (content / "citation-tags.tsv").write_text(
        "tag\tcitation\ndeep-review\tdoi:10.1098/rsif.2017.0387\nnote\traw:conversation\n",
        encoding="utf-8",
    )
    md = content / "02.main.md"
    md.write_text("[@tag:deep-review; @tag:note; @tag:unknown]\n", encoding="utf-8")
    table = load_files([str(md)]).table.to_pydict()  # tags only: no bibliography needed
    assert table["key"] == ["tag:deep-review", "tag:note", "tag:unknown"]
    assert table["declared_type"][0] == "doi" and table["id_raw"][0] == "10.1098/rsif.2017.0387"
    assert table["identifier"][0] == "10.1098/rsif.2017.0387" and table["row_state"][0] is None
    assert table["row_reason"][1:] == ["missing_entry", "missing_entry"]
    assert "maps it to 'raw:conversation'" in table["parse_error"][1]
    # A tags file elsewhere (not beside the manuscript) defines nothing for it.
    other = tmp_path / "elsewhere.md"
    other.write_text("[@tag:deep-review]\n", encoding="utf-8")
    assert load_files([str(other)]).table["row_reason"].to_pylist() == ["missing_entry"]


def test_a_tags_file_too_large_or_not_utf8_never_fails_the_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from auditor.load import citation_tags

    (tmp_path / "citation-tags.tsv").write_bytes(b"t\xff\tdoi:10.1000/a\nbig\tdoi:10.1000/b\n")
    md = tmp_path / "a.md"
    md.write_text("[@tag:big]\n", encoding="utf-8")
    assert load_files([str(md)]).table["identifier"].to_pylist() == ["10.1000/b"]
    monkeypatch.setattr(citation_tags, "_MAX_TAGS_BYTES", 8)
    assert load_files([str(md)]).table["row_reason"].to_pylist() == ["missing_entry"]


def test_in_latex_a_key_by_identifier_with_no_entry_is_still_missing(tmp_path: Path) -> None:
    # LaTeX prints [?] for it: only Markdown (manubot) fetches metadata by identifier
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    tex = tmp_path / "paper.tex"
    tex.write_text(
        "\\cite{doi:10.1038/nature14539,lecun2015deep}\n\\bibliography{refs}\n", encoding="utf-8"
    )
    table = load_files([str(tex)]).table
    assert table["key"].to_pylist() == ["doi:10.1038/nature14539", "lecun2015deep"]
    assert table["row_reason"].to_pylist() == ["missing_entry", None]
    (tmp_path / "only.tex").write_text("\\cite{doi:10.1038/nature14539}\n", encoding="utf-8")
    with pytest.raises(InputError, match="names no bibliography"):
        load_files([str(tmp_path / "only.tex")])


def test_two_manuscripts_citing_one_key_each_get_their_own_entry(tmp_path: Path) -> None:
    # An editor's folder: two papers cite `lecun2015deep`, each from its own refs.bib.
    paths = []
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "refs.bib").write_text(BIB, encoding="utf-8")
        tex = tmp_path / name / "paper.tex"
        tex.write_text("\\cite{lecun2015deep}\n\\bibliography{refs}\n", encoding="utf-8")
        paths.append(str(tex))
    table = load_files(paths).table.to_pydict()
    assert table["source_path"] == [str(tmp_path / n / "refs.bib") for n in ("one", "two")]
    assert table["cited_at"] == [str(tmp_path / n / "paper.tex") + ":1" for n in ("one", "two")]
