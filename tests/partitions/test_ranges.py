"""A large BibTeX file cut into byte ranges reads, range by range, as the same rows (lines, keys,
warnings, errors) the whole file gives; a file whose ranges could read otherwise is not cut."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.load import load_files
from auditor.partitions.plan import Piece
from auditor.partitions.ranges import count_range, cut_ranges, load_range, ranges_agree
from auditor.partitions.read import ReadOptions
from tests.properties import examples

_OPTIONS = ReadOptions()

_GOOD = (
    "@article{{k{n},\n  title = {{Work number {n} on {{Nested}} braces}},\n"
    "  author = {{Doe, Jane and Roe, R.}},\n  year = {{2020}},\n  doi = {{10.1000/w{n}}},\n}}\n"
)
_SNIPPETS = [
    _GOOD,
    "% a comment line with a brace {{\n",
    "%@article{{commented{n}, title = {{Not read}}}}\n",
    "@comment{{jabref-meta: databaseType:bibtex;}}\n",
    "@book(p{n}, title = {{In parentheses}}, year = 1999)\n",
    "@article{{b{n}, title = {{Broken {{ never closed}},\n  year = {{2001}},\n",
    "stray text between entries with a }} and a {{\n",
    "@misc{{v{n}, title = {{A value\n% kept inside a value\n  that runs on}}, year = {{2002}}}}\n",
    "@article{{k1, title = {{Same key as another}}, year = {{2003}}}}\n",
    "  @inproceedings{{i{n}, title = {{Indented, Ünïcode ∑}}, booktitle = {{Conf}}}}\n",
    '@article{{q{n}, title = "Quoted {{"}} value", year = 2004}}\n',
    '@preamble{{"\\newcommand{{\\x}}{{x}}"}}\n',
]


def _text(picks: list[int]) -> str:
    return "".join(_SNIPPETS[p].format(n=n) for n, p in enumerate(picks))


def _piece(path: Path, start: int, end: int, line: int) -> Piece:
    return Piece(
        0, (str(path),), first_line=line, byte_range=(start, end), first_of_file=start == 0
    )


def _rows(table: pa.Table) -> list[dict[str, Any]]:
    return table.drop_columns(["row_id"]).to_pylist()


def _ranges_read_as_whole(path: Path, target: int, fmt: str = "bibtex") -> bool:
    """Whether the file was cut; when it was and the ranges agree, they read as the whole."""
    cuts = cut_ranges(str(path), target, fmt)
    if not cuts:
        return False
    size = path.stat().st_size
    assert cuts[0][0] == 0 and cuts[-1][1] == size
    assert all(a[1] == b[0] for a, b in zip(cuts, cuts[1:], strict=False))
    pieces = [_piece(path, s, e, line) for s, e, line in cuts]
    counted = [count_range(p, _OPTIONS, size) for p in pieces]
    if not ranges_agree(counted):
        return False
    whole = load_files([str(path)])
    parts = [load_range(p, _OPTIONS) for p in pieces]
    assert [r for part in parts for r in _rows(part.table)] == _rows(whole.table)
    assert [c[0] for c in counted] == [p.table.num_rows for p in parts]
    assert parts[0].inputs[0].sha256 == whole.inputs[0].sha256
    assert all(p.inputs[0].sha256 == "" for p in parts[1:])
    return True


def test_a_file_of_entries_is_cut_and_reads_as_a_whole(tmp_path: Path) -> None:
    path = tmp_path / "big.bib"
    path.write_text("% Encoding: UTF-8\n" + _text([0, 1, 4, 7, 9, 10] * 10 + [3]))
    assert _ranges_read_as_whole(path, 600)
    assert len(cut_ranges(str(path), 600)) >= 5
    # A cut starts a line of an entry; never a comment, a preamble or a `@comment`.
    data = path.read_bytes()
    for start, _end, line in cut_ranges(str(path), 600)[1:]:
        assert data[start:].lstrip(b" ").startswith((b"@article", b"@book", b"@misc", b"@inpro"))
        assert data[:start].count(b"\n") + 1 == line


def test_a_url_naming_crossref_does_not_keep_a_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "url.bib"
    entry = "@misc{{u{n}, title = {{Via Crossref}}, url = {{https://api.crossref.org/w/{n}}}}}\n"
    path.write_text("".join(entry.format(n=n) for n in range(20)))
    assert _ranges_read_as_whole(path, 300)


def test_a_byte_order_mark_stays_with_the_first_range(tmp_path: Path) -> None:
    path = tmp_path / "bom.bib"
    path.write_bytes(b"\xef\xbb\xbf" + _text([0] * 12).encode())
    assert _ranges_read_as_whole(path, 400)


def test_files_that_need_the_whole_database_are_not_cut(tmp_path: Path) -> None:
    body = _text([0] * 20)
    cases = {
        "macros.bib": '@string{jcp = "J. Chem. Phys."}\n' + body,
        "crossref.bib": body + "@inbook{c1, crossref = {k0}, title = {Part}}\n",
        "crossref2.bib": body + "@inbook{c1, CrossRef\n  = {k0}, title = {Part}}\n",
        "latin1.bib": body.replace("Work", "Wörk"),
        "utf16.bib": body,
    }
    for name, text in cases.items():
        path = tmp_path / name
        if name == "latin1.bib":
            path.write_bytes(text.encode("latin-1"))
        elif name == "utf16.bib":
            path.write_bytes(text.encode("utf-16"))
        else:
            path.write_text(text)
        assert cut_ranges(str(path), 300) == [], name


def test_a_key_in_two_ranges_keeps_the_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "dup.bib"
    path.write_text(_text([8] + [0] * 20 + [8]))
    cuts = cut_ranges(str(path), 300)
    assert len(cuts) > 1
    size = path.stat().st_size
    counted = [count_range(_piece(path, s, e, line), _OPTIONS, size) for s, e, line in cuts]
    assert not ranges_agree(counted)


def test_an_entry_cut_off_by_its_range_keeps_the_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "open.bib"
    # An unclosed `@comment{` swallows what follows in the whole file; its range ends early.
    path.write_text(_text([0] * 6) + "@comment{ open\n" + _text([0] * 6))
    cuts = cut_ranges(str(path), 200)
    size = path.stat().st_size
    counted = [count_range(_piece(path, s, e, line), _OPTIONS, size) for s, e, line in cuts]
    if len(cuts) > 1:
        assert not ranges_agree(counted) or _ranges_read_as_whole(path, 200)


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.integers(0, len(_SNIPPETS) - 1), min_size=1, max_size=40),
    st.integers(50, 900),
)
def test_any_file_cut_anywhere_reads_as_a_whole(
    tmp_path_factory: Any, picks: list[int], target: int
) -> None:
    path = tmp_path_factory.mktemp("r") / "any.bib"
    path.write_text(_text(picks))
    _ranges_read_as_whole(path, target)


def test_a_range_piece_is_a_bibliography_piece() -> None:
    piece = dataclasses.replace(Piece(0, ("a.bib",)), byte_range=(10, 20), first_line=3)
    assert not piece.is_table


_RIS = [
    "TY  - JOUR\nID  - r{n}\nTI  - Record {n} of a screening\nAU  - Doe, Jane\n"
    "PY  - 2020///\nDO  - 10.1000/ris.{n}\nER  - \n\n",
    "TY  - BOOK\nTI  - Left open {n}\nAU  - Roe, R.\n\n",
    "stray text {n} outside a record\n",
    "TY  - JOUR\nTI  - Ünïcode title {n}\nZZ  - an unknown tag\nER  - \n",
    "ER  - \n",
]
_MEDLINE = [
    "PMID- {n}\nOWN - NLM\nTI  - Medline record {n} with a title that runs\n"
    "      onto a second line.\nFAU - Doe, Jane\nAU  - Doe J\nDP  - 2016\n"
    "LID - 10.1000/med.{n} [doi]\n\n",
    "TI  - A record without its PMID line {n}\nAU  - Roe R\n\n",
    "\n\n",
]


@settings(max_examples=examples(100), deadline=None)
@given(
    st.sampled_from(["ris", "medline"]),
    st.lists(st.integers(0, 4), min_size=1, max_size=40),
    st.integers(40, 700),
    st.booleans(),
)
def test_ris_and_medline_cut_anywhere_read_as_a_whole(
    tmp_path_factory: Any, fmt: str, picks: list[int], target: int, crlf: bool
) -> None:
    snippets = _RIS if fmt == "ris" else _MEDLINE
    text = "".join(snippets[p % len(snippets)].format(n=n) for n, p in enumerate(picks))
    path = tmp_path_factory.mktemp("t") / ("any.ris" if fmt == "ris" else "any.nbib")
    path.write_bytes(text.replace("\n", "\r\n" if crlf else "\n").encode())
    _ranges_read_as_whole(path, target, fmt)


def test_a_ris_and_a_medline_file_are_cut_at_their_records(tmp_path: Path) -> None:
    for fmt, snippets, name in (("ris", _RIS, "a.ris"), ("medline", _MEDLINE, "a.nbib")):
        path = tmp_path / name
        path.write_text("".join(snippets[n % 2].format(n=n) for n in range(30)))
        assert _ranges_read_as_whole(path, 300, fmt), fmt
        assert len(cut_ranges(str(path), 300, fmt)) >= 5
        odd = tmp_path / ("odd-" + name)
        odd.write_text(path.read_text().replace("Doe", "Do\re", 1), newline="")
        assert cut_ranges(str(odd), 300, fmt) == []  # a lone CR: lines would count otherwise
