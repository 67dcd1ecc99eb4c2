"""A large CSV file cut into byte ranges reads, range by range, as the rows (lines, cells,
warnings, `row_id`s as the cluster numbers them) and problems the whole file gives; a file
whose ranges could read otherwise is not cut."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.load import load_files
from auditor.partitions import csv_ranges
from auditor.partitions.csv_ranges import cut_csv
from auditor.partitions.plan import Piece, with_counts
from auditor.partitions.ranges import count_range, cut_ranges, load_range, ranges_agree
from auditor.partitions.read import ReadOptions, read_piece
from tests.properties import examples

_CELLS = st.sampled_from(
    [
        "",
        "plain",
        "Doe, Jane; Roe, R.",
        'a "quoted" word',
        "two\nlines",
        "crlf\r\ninside",
        '"',
        ",;\t",
        "Ünïcode ∑ title",
        "2020",
        "circa 1999",
        "10.1000/x.1",
        "  padded  ",
        "\n",
    ]
)
_HEADERS = [
    ["key", "title", "authors", "year", "doi"],
    ["Title", "Authors", "Year"],
    ["key", "doi", "journal"],  # no title, authors or year: header warnings
    ["EID", "Title", "Author full names", "Year", "Source title", "Page start", "Page end"],
]


def _pieces(path: Path, cuts: list[tuple[int, int, int]]) -> list[Piece]:
    return [
        Piece(0, (str(path),), first_line=line, byte_range=(s, e), first_of_file=s == 0)
        for s, e, line in cuts
    ]


def _ranges_read_as_whole(path: Path, target: int, options: ReadOptions | None = None) -> bool:
    """Whether the file was cut; when it was and the ranges agree, they read as the whole."""
    options = options or ReadOptions()
    cuts = cut_ranges(str(path), target, "csv")
    if not cuts:
        return False
    size = path.stat().st_size
    assert cuts[0][0] == 0 and cuts[-1][1] == size
    assert all(a[1] == b[0] for a, b in zip(cuts, cuts[1:], strict=False))
    data = path.read_bytes()
    assert all(data[:s].count(b"\n") + 1 == line for s, _, line in cuts)
    counted = [count_range(p, options, size) for p in _pieces(path, cuts)]
    if not ranges_agree(counted):
        return False
    whole = load_files([str(path)], csv_map=options.csv_map)
    # The cluster numbers each range's rows on from the ranges before it (`with_counts`).
    pieces = with_counts(_pieces(path, cuts), [c[0] for c in counted])
    parts = [read_piece(p, options) for p in pieces]
    assert [r for part in parts for r in part.table.to_pylist()] == whole.table.to_pylist()
    problems = [q for part in parts for q in part.problems]
    if not any("more like this" in q.message for q in whole.problems):
        assert problems == list(whole.problems)  # beyond 5 of a kind, each range counts its own
    assert parts[0].inputs[0].sha256 == whole.inputs[0].sha256
    assert all(p.inputs[0].sha256 == "" for p in parts[1:])
    return True


def _table(header: list[str], rows: list[list[str]], delimiter: str, quote_all: bool) -> str:
    out = io.StringIO(newline="")
    quoting = csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL
    writer = csv.writer(out, delimiter=delimiter, quoting=quoting, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        if row == ["<blank>"]:
            out.write("\n" if delimiter != "," else ",,\n")
        else:
            writer.writerow(row)
    return out.getvalue()


@settings(max_examples=examples(200), deadline=None)
@given(
    st.sampled_from(_HEADERS),
    st.lists(
        st.one_of(st.lists(_CELLS, min_size=1, max_size=7), st.just(["<blank>"])),
        min_size=2,
        max_size=40,
    ),
    st.sampled_from([",", ";", "\t"]),
    st.booleans(),
    st.sampled_from(["", "\r\n", "bom", "no-final-newline"]),
    st.integers(10, 300),
    st.sampled_from([1, 16, 64, 4 << 20]),
)
def test_any_table_cut_anywhere_reads_as_a_whole(
    tmp_path_factory: Any,
    header: list[str],
    rows: list[list[str]],
    delimiter: str,
    quote_all: bool,
    variant: str,
    target: int,
    chunk: int,
) -> None:
    text = _table(header, rows, delimiter, quote_all)
    if variant == "\r\n":
        text = text.replace("\n", "\r\n").replace("\r\r\n", "\r\n")
    elif variant == "no-final-newline":
        text = text.removesuffix("\n")
    data = text.encode()
    if variant == "bom":
        data = b"\xef\xbb\xbf" + data
    path = tmp_path_factory.mktemp("c") / "any.csv"
    path.write_bytes(data)
    if b"\r" in data.replace(b"\r\n", b""):
        assert cut_csv(str(path), target) == []  # a lone CR: the `csv` module counts it a line
        return
    _ranges_read_as_whole(path, target)
    # Small chunks end inside quoted cells: the scan carries the open record into the next,
    # and cuts where one chunk does.
    saved, csv_ranges._CHUNK = csv_ranges._CHUNK, chunk
    try:
        small = cut_csv(str(path), target)
    finally:
        csv_ranges._CHUNK = saved
    assert small == cut_csv(str(path), target)


def _records(n: int) -> str:
    return "".join(
        f'k{i},"Work {i}, on ranges","Doe, J.; Roe, R.",2020,"10.1000/r.{i}"\n'
        if i % 3
        else f'k{i},"A title\nthat runs on ""quoted""",Doe J.,2019,\n'
        for i in range(n)
    )


def test_a_table_is_cut_before_records_outside_quotes(tmp_path: Path) -> None:
    path = tmp_path / "big.csv"
    path.write_text("key,title,authors,year,doi\n" + _records(40) + "\n\n")
    assert _ranges_read_as_whole(path, 200)
    cuts = cut_csv(str(path), 200)
    assert len(cuts) >= 10
    data = path.read_bytes()
    for start, _end, _line in cuts[1:]:
        assert data[start - 1 : start] == b"\n" and data[:start].count(b'"') % 2 == 0
        assert data[start:].startswith(b"k")


def test_a_column_map_applies_to_every_range(tmp_path: Path) -> None:
    path = tmp_path / "mapped.csv"
    path.write_text(
        "Ref,Headline,Writers,When\n"
        + "".join(f'r{i},"Title {i}, mapped",Doe J.,{2000 + i}\n' for i in range(30))
    )
    options = ReadOptions(csv_map={"key": "Ref", "title": "Headline", "year": "When"})
    assert _ranges_read_as_whole(path, 100, options)
    piece = _pieces(path, cut_csv(str(path), 100))[-1]
    assert load_range(piece, options).table["title"].to_pylist() == ["Title 29, mapped"]


def test_tables_that_could_read_otherwise_are_not_cut(tmp_path: Path) -> None:
    body = _records(30)
    cases: dict[str, bytes] = {
        "midcell.csv": ('key,title\nk0,a 5" disk\n' + body).encode(),
        "space.csv": ('key,title\nk0, "spaced"\n' + body).encode(),
        "after.csv": ('key,title\nk0,"closed" then\n' + body).encode(),
        "open.csv": ('key,title\n"never closed\n' + body).encode(),
        "lonecr.csv": ("key,title\r" + body).encode(),
        "nul.csv": ("key,title\n" + body + "k9,\x00\n").encode(),
        "latin1.csv": ("key,title\n" + body.replace("Work", "Wörk")).encode("latin-1"),
        "utf16.csv": ("key,title\n" + body).encode("utf-16"),
        "list.txt": ("key,title\n" + body).encode(),
        "wos.csv": ("PT\tAU\tTI\tSO\tPY\n" + "J\tDoe, J\tA title\tJ Test\t2020\n" * 40).encode(),
    }
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        assert cut_csv(str(path), 100) == [], name
        assert cut_ranges(str(path), 100, "csv") == [], name


def test_a_range_that_runs_on_keeps_the_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "ok.csv"
    path.write_text("key,title\n" + _records(20))
    cuts = cut_csv(str(path), 200)
    size = path.stat().st_size
    pieces = _pieces(path, cuts)
    assert ranges_agree([count_range(p, ReadOptions(), size) for p in pieces])
    # A range ending inside a quoted cell (not one `cut_csv` gives) is not clean.
    data = path.read_bytes()
    inside = data.index(b"A title\n") + len(b"A title\n")
    bad = [(0, inside, 1), (inside, size, data[:inside].count(b"\n") + 1)]
    assert not ranges_agree([count_range(p, ReadOptions(), size) for p in _pieces(path, bad)])


def test_a_scan_in_small_chunks_holds_only_the_open_record(tmp_path: Path) -> None:
    # Records of one length and chunks of 13 bytes (and the rest of a line): every chunk ends
    # inside a quoted cell. The scan carries only the record left open, so a field limit
    # above the longest record (not above the file) still lets it cut.
    path = tmp_path / "fixed.csv"
    rows = "".join(f'k{n:04d},"Work {n:04d}, on ""ranges""\nof CSV",2020\n' for n in range(300))
    path.write_text("key,title,year\n" + rows)
    whole = cut_csv(str(path), 500)
    saved, csv_ranges._CHUNK = csv_ranges._CHUNK, 13
    limit = csv.field_size_limit(1000)
    try:
        assert cut_csv(str(path), 500) == whole and len(whole) > 10
        path.write_text("key,title\n" + _records(3) + f'k,"{"x" * 1000}"\n' + _records(9))
        assert cut_csv(str(path), 100) == []  # a record as long as the limit: the file is whole
    finally:
        csv_ranges._CHUNK = saved
        csv.field_size_limit(limit)
