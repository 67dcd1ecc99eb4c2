"""The source editors: only the changed values move; layout, line endings and style are kept."""

from __future__ import annotations

from auditor.fix.bibtex_edit import edit_bibtex, note_line
from auditor.fix.bibtex_spans import scan
from auditor.fix.changes import Change, Note
from auditor.fix.csv_edit import edit_csv
from auditor.fix.ris_edit import edit_ris


def _change(field: str, value: str | list[str], line: int = 1, key: str = "k") -> Change:
    return Change(0, "x", line, key, field, value, None, "test")


def test_scanner_reads_braces_quotes_parentheses_and_skips_comment_lines() -> None:
    text = (
        "%@article{commented, title={no}}\n"
        "@comment{ @article{inside, title={no}} }\n"
        "@preamble{ {\\newcommand{\\x}{y}} }\n"
        '@book(b1, title = "A {"}quoted{"} title", year = 1999, publisher = pub # { Press })\n'
    )
    entries = scan(text)
    assert [e.key for e in entries] == ["b1"]
    book = entries[0]
    assert book.line == 4
    assert book.get("title").style == "quote"  # type: ignore[union-attr]
    assert book.get("year").inner(text) == "1999"  # type: ignore[union-attr]
    assert book.get("publisher").style == "concat"  # type: ignore[union-attr]


def test_bibtex_keeps_crlf_and_writes_latex_when_the_file_does() -> None:
    text = '@article{k,\r\n  author = {Fran{\\c{c}}ois, A.},\r\n  year = "2001"\r\n}\r\n'
    applied = edit_bibtex(
        text,
        [_change("author", ["Müller, Jürgen", "Ångström, Anders"]), _change("year", "2002")],
    )
    assert '  year = "2002"\r\n' in applied.text
    assert 'M\\"uller, J\\"urgen and \\r{A}ngstr\\"om, Anders' in applied.text
    assert applied.text.count("\r\n") == text.count("\r\n")


def test_bibtex_writes_unicode_when_the_file_does_and_escapes_specials() -> None:
    text = "@article{k,\n  author = {Müller, J.},\n  year = {2001}\n}\n"
    applied = edit_bibtex(text, [_change("venue", "Science & Society"), _change("doi", "10.1/a_b")])
    assert "  year = {2001},\n  journal = {Science \\& Society},\n  doi  = {10.1/a_b}\n}" in (
        applied.text
    )


def test_bibtex_note_line_is_one_safe_comment() -> None:
    assert note_line("two\nlines @ here\x1b[31m") == "% auditor: two lines (at) here [31m"
    text = "% auditor: old finding\n@article{k,\n  year = {1}\n}\n"
    applied = edit_bibtex(text, [], [Note(0, "x", 2, "k", "new finding")])
    assert applied.text == "% auditor: new finding\n@article{k,\n  year = {1}\n}\n"


def test_ris_replaces_and_adds_tags_inside_the_record_only() -> None:
    text = (
        "TY  - JOUR\r\nAU  - Huang, Aja\r\nAU  - Silver, David\r\nPY  - 2015/01/28/\r\n"
        "TI  - Go\r\nER  - \r\n\r\nTY  - JOUR\r\nTI  - Other\r\nER  - \r\n"
    )
    applied = edit_ris(
        text,
        [
            _change("author", ["Silver, David", "Huang, Aja"]),
            _change("year", "2016"),
            _change("pages", "484-489"),
            _change("doi", "10.1038/nature16961"),
            _change("eprint", "1234.5678"),
        ],
    )
    assert applied.text == (
        "TY  - JOUR\r\nAU  - Silver, David\r\nAU  - Huang, Aja\r\nPY  - 2016/01/28/\r\n"
        "TI  - Go\r\nSP  - 484\r\nEP  - 489\r\nDO  - 10.1038/nature16961\r\nER  - \r\n"
        "\r\nTY  - JOUR\r\nTI  - Other\r\nER  - \r\n"
    )
    assert [c.field for c, _ in applied.skipped] == ["eprint"]


def test_csv_changes_cells_and_adds_a_missing_column() -> None:
    text = "key;title;year\nk;A title;2019\nm;Other;2001\n"
    applied = edit_csv(text, [_change("year", "2016", line=2), _change("doi", "10.1/x", line=2)])
    assert applied.text == "key;title;year;doi\nk;A title;2016;10.1/x\nm;Other;2001\n"
