"""BibTeX loading on a hand-written fixture with every feature the issue names."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.load import load_files
from auditor.load.bibtex import BibtexLoader

FIXTURE = Path(__file__).parent / "fixtures" / "features.bib"


@pytest.fixture(scope="module")
def rows() -> dict[str, list[dict[str, object]]]:
    table = load_files([str(FIXTURE)]).table
    by_key: dict[str, list[dict[str, object]]] = {}
    for row in table.to_pylist():
        by_key.setdefault(str(row["key"]), []).append(row)
    return by_key


def one(rows: dict[str, list[dict[str, object]]], key: str) -> dict[str, object]:
    (row,) = rows[key]
    return row


def test_every_entry_is_one_row_in_file_order() -> None:
    outcome = load_files([str(FIXTURE)])
    t = outcome.table
    assert t.num_rows == 16  # @string/@preamble/@comment are not entries
    assert t.column("row_id").to_pylist() == list(range(16))
    lines = t.column("source_line").to_pylist()
    assert lines == sorted(lines)
    assert lines[0] == 7  # the line of `@article{mueller2019,`
    assert set(t.column("source_format").to_pylist()) == {"bibtex"}
    assert outcome.inputs[0].rows == 16 and outcome.inputs[0].format == "bibtex"


def test_latex_decoded_and_protective_braces_removed(rows) -> None:
    row = one(rows, "who2020")
    assert row["title"] == "Global report on α-thalassaemia screening"
    first = rows["mueller2019"][0]
    assert first["title"] == "The DNA of Müller's in vivo cells"
    assert first["authors"] == ["Müller, Hans", "García, José"]
    assert one(rows, "beethoven1810")["title"] == "Symphonies — and other Works"


def test_string_macros_concatenation_and_months(rows) -> None:
    first = rows["mueller2019"][0]
    assert first["container_title"] == "Nature Communications"
    assert first["year"] == 2019
    assert first["pages"] == "101-110"
    assert one(rows, "who2020")["container_title"] == "Bulletin of the Journal of Chemical Physics"


def test_authors_corporate_von_and_et_al(rows) -> None:
    first = rows["mueller2019"][0]
    assert first["authors_et_al"] is True
    assert "others" not in first["authors"]
    assert one(rows, "who2020")["authors"] == ["World Health Organization", "Barnes and Noble"]
    row = one(rows, "beethoven1810")
    # As written (LaTeX rendered, nothing reordered); BibTeX's own split beside it.
    assert row["authors"] == ["van Beethoven, Jr, Ludwig", "Jean de la Fontaine", "Čapek, Karel"]
    assert row["author_names"] == [
        {"family": "Beethoven", "given": "Ludwig", "particle": "van", "suffix": "Jr"},
        {"family": "de la Fontaine", "given": "Jean", "particle": None, "suffix": None},
        {"family": "Čapek", "given": "Karel", "particle": None, "suffix": None},
    ]


def test_crossref_inheritance(rows) -> None:
    row = one(rows, "beethoven1810")
    assert row["year"] == 1810
    assert row["container_title"] == "Proceedings of the Vienna Congress"


def test_duplicate_keys_both_kept_and_flagged(rows) -> None:
    dups = rows["mueller2019"]
    assert len(dups) == 2
    assert all(any("duplicate key" in w for w in d["warnings"]) for d in dups)
    assert dups[1]["title"] == "A second entry under the same key"


def test_broken_entry_reported_with_its_line_and_the_rest_loads(rows) -> None:
    outcome = load_files([str(FIXTURE)])
    broken = one(rows, "broken")
    assert broken["row_state"] == "INVALID" and broken["row_reason"] == "parse_error"
    assert broken["parse_error"] and broken["source_line"] == 89
    errors = [p for p in outcome.problems if p.severity == "error"]
    assert [(p.path, p.line) for p in errors] == [(str(FIXTURE), 89)]
    assert one(rows, "last")["title"] == "Still loaded after the broken one"


@pytest.mark.parametrize(
    ("key", "id_type", "identifier", "id_raw"),
    [
        ("who2020", "doi", "10.2471/blt.19.000000", "http://dx.doi.org/10.2471/BLT.19.000000"),
        ("beethoven1810", "arxiv", "1706.03762", "1706.03762v5"),
        ("oldarxiv", "arxiv", "math.GT/0309136", "math.GT/0309136"),
        ("pubmednote", "pmid", "12345678", "12345678"),
        ("pubmedurl", "pmid", "23456789", "https://pubmed.ncbi.nlm.nih.gov/23456789/"),
        ("arxivdoi", "arxiv", "1706.03762", "10.48550/arXiv.1706.03762"),
        ("arxivurl", "arxiv", "1810.04805", "https://arxiv.org/pdf/1810.04805v2.pdf"),
        ("doiprefix", "doi", "10.1000/xyz.123", "doi:10.1000/XYZ.123"),
        ("last", "doi", "10.1000/last", "10.1000/last"),
    ],
)
def test_identifiers_found_wherever_users_put_them(rows, key, id_type, identifier, id_raw) -> None:
    row = one(rows, key)
    assert (row["id_type"], row["identifier"], row["id_raw"]) == (id_type, identifier, id_raw)
    assert row["row_state"] is None


def test_first_entry_doi_url_in_doi_field(rows) -> None:
    first = rows["mueller2019"][0]
    assert (first["id_type"], first["identifier"]) == ("doi", "10.1038/s41467-019-0001-x")


@pytest.mark.parametrize(
    ("key", "state", "reason"),
    [
        ("notitle", "INVALID", "missing_title"),
        ("noid", "NOT COVERED", "no_identifier"),
        ("pmidcontradiction", "INVALID", "type_contradiction"),
    ],
)
def test_early_row_states(rows, key, state, reason) -> None:
    row = one(rows, key)
    assert (row["row_state"], row["row_reason"]) == (state, reason)


def test_biblatex_eprinttype_pubmed(tmp_path: Path) -> None:
    path = tmp_path / "b.bib"
    path.write_text("@article{k, title={T}, eprint={123456}, eprinttype={pubmed}}\n")
    row = load_files([str(path)]).table.to_pylist()[0]
    assert (row["id_type"], row["identifier"]) == ("pmid", "123456")


def test_loader_never_raises_on_garbage() -> None:
    rows, problems = BibtexLoader().load("@article{x, title = {a} junk, year=2}\n@@@{", "g.bib")
    assert len(rows) >= 1
    assert isinstance(problems, list)


def test_latin1_file_is_decoded(tmp_path: Path) -> None:
    path = tmp_path / "latin1.bib"
    path.write_bytes("@article{k, title = {Caf\u00e9 na\u00efve}, year = 2000}\n".encode("latin-1"))
    row = load_files([str(path)]).table.to_pylist()[0]
    assert row["title"] == "Café naïve"


def test_utf8_bom_file(tmp_path: Path) -> None:
    path = tmp_path / "bom.bib"
    path.write_bytes(b"\xef\xbb\xbf@article{k, title = {Gr\xc3\xbc\xc3\x9fe}, doi = {10.1000/x}}\n")
    row = load_files([str(path)]).table.to_pylist()[0]
    assert (row["key"], row["title"], row["identifier"]) == ("k", "Grüße", "10.1000/x")


def test_string_doubling_bomb_is_an_entry_error_not_memory_error(tmp_path: Path) -> None:
    path = tmp_path / "bomb.bib"
    macros = "".join(f"@string{{m{i} = m{i - 1} # m{i - 1}}}\n" for i in range(1, 41))
    path.write_text(
        '@string{m0 = "ab"}\n'
        + macros
        + "@article{boom, title = m40}\n@article{ok, title={Fine}}\n"
    )
    outcome = load_files([str(path)])
    boom, ok = outcome.table.to_pylist()
    assert boom["key"] == "boom" and boom["row_state"] == "INVALID"
    assert "'m40' (line 41) expands past 100,000 characters" in boom["parse_error"]
    assert ok["title"] == "Fine" and ok["row_state"] != "INVALID"
    assert [(p.line, p.severity) for p in outcome.problems] == [(42, "error")]


def test_twenty_thousand_duplicate_keys_stay_linear(tmp_path: Path) -> None:
    path = tmp_path / "dups.bib"
    path.write_text("".join(f"@article{{same, title={{T {i}}}}}\n" for i in range(20_000)))
    outcome = load_files([str(path)])
    assert outcome.table.num_rows == 20_000
    warnings = outcome.table.column("warnings").to_pylist()
    assert warnings[5] == ["duplicate key 'same' (also on line 1, 2, 3 and 19,996 more)"]
    # five lines, then one line for the rest of that kind
    assert len(outcome.problems) == 6
    assert outcome.problems[-1].message.startswith("duplicate key: 19,995 more like this")


def test_crossref_chain_is_bounded() -> None:
    chain = (
        "".join(f"@book{{p{i}, title={{T{i}}}, crossref={{p{i + 1}}}}}\n" for i in range(30))
        + "@book{p30, title={Top}, publisher={P}}\n"
    )
    rows, problems = BibtexLoader().load(chain, "c.bib")
    assert rows.columns["title"][0] == "T0"
    assert "crossref chain longer than 8: not followed" in rows.columns["warnings"][0]


def test_crossref_child_never_inherits_the_parents_identifiers() -> None:
    text = (
        "@inproceedings{child, title={A chapter}, crossref={proc}}\n"
        "@proceedings{proc, title={The Volume}, year={2001}, doi={10.1000/volume},"
        " url={https://doi.org/10.1000/volume}, note={PMID: 123}}\n"
    )
    rows, _ = BibtexLoader().load(text, "x.bib")
    cols = rows.columns
    assert (cols["container_title"][0], cols["year"][0]) == ("The Volume", 2001)
    assert (cols["doi"][0], cols["url"][0], cols["pmid"][0]) == (None, None, None)
    assert cols["doi"][1] == "10.1000/volume"


def test_files_in_one_run_are_one_database(tmp_path: Path) -> None:
    journals = tmp_path / "journals.bib"
    journals.write_text(
        "@string{ejor = {European Journal of Operational Research}}\n"
        "@string{filipic = {Filipi{\\v c}, Bogdan}}\n"
        "@proceedings{proc, title={Proceedings of X}, year={1999}}\n"
    )
    refs = tmp_path / "refs.bib"
    refs.write_text(
        "\n@article{a, author = filipic # { and Doe, John}, title={T}, journal=ejor}\n"
        "@inproceedings{b, title={U}, crossref={proc}}\n"
    )
    outcome = load_files([str(journals), str(refs)])
    _proc, a, b = outcome.table.to_pylist()
    assert a["authors"] == ["Filipič, Bogdan", "Doe, John"]
    assert a["container_title"] == "European Journal of Operational Research"
    assert (a["source_path"], a["source_line"]) == (str(refs), 2)
    assert (b["container_title"], b["year"], b["source_line"]) == ("Proceedings of X", 1999, 3)
    assert outcome.problems == ()


def test_duplicate_key_across_files_names_the_other_file(tmp_path: Path) -> None:
    one, two = tmp_path / "one.bib", tmp_path / "two.bib"
    one.write_text("@article{k, title={A}}\n")
    two.write_text("@article{k, title={B}}\n")
    warnings = load_files([str(one), str(two)]).table.column("warnings").to_pylist()
    assert warnings == [
        [f"duplicate key 'k' (also on line {two}:1)"],
        [f"duplicate key 'k' (also on line {one}:1)"],
    ]


def test_percent_lines_outside_entries_are_comments() -> None:
    text = (
        "% a comment\n%@article{gone, title={Commented out}}\n"
        "@article{kept, title={Kept},\n% between fields\n  abstract={Line one\n% of patients},\n"
        "  year={2001}}\n  %  @book{gone2, title={Also out}}\n@article{last, title={After}}\n"
    )
    rows, problems = BibtexLoader().load(text, "c.bib")
    assert rows.columns["key"] == ["kept", "last"]
    assert rows.columns["source_line"] == [3, 9]
    assert rows.columns["year"] == [2001, None]
    assert problems == []


def test_biblatex_subtitle_is_joined_and_the_title_kept_as_written(tmp_path: Path) -> None:
    # biblatex prints `title`, then `subtitle`: the work's title is both (#25)
    bib = tmp_path / "s.bib"
    bib.write_text(
        "@book{shore,\n  title = {Twice-Born, Once Conceived},\n"
        "  subtitle = {Meaning Construction and Cultural Cognition},\n  year = {1991}\n}\n"
        "@inbook{part,\n  title = {A Chapter},\n  crossref = {shore}\n}\n"
    )
    table = load_files([str(bib)]).table.to_pydict()
    assert table["title"] == [
        "Twice-Born, Once Conceived: Meaning Construction and Cultural Cognition",
        "A Chapter",  # the parent's subtitle is its `booksubtitle`, not the chapter's
    ]
    assert table["title_as_written"] == ["Twice-Born, Once Conceived", None]
