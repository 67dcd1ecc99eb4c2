"""The BibTeX splitter: blocks, recovery from broken entries, and sameness with bibtexparser.

bibtexparser v2's splitter was the reference the loader's behaviour was built and tested on;
`test_same_blocks_as_bibtexparser` checks ours against it on generated and mutated text
(bibtexparser is a test dependency only).
"""

from __future__ import annotations

import logging
import random

import pytest

from auditor.load.bibtex_blocks import Entry, Failed, Macro, split_blocks

bibtexparser = pytest.importorskip("bibtexparser")
model = pytest.importorskip("bibtexparser.model")


def test_entries_macros_comments_and_preambles() -> None:
    text = (
        "intro text\n"
        "@String{ jo = {J. Foo} }\n"
        '@preamble{ "\\newcommand{\\x}{y}" }\n'
        "@comment{ anything {nested} }\n"
        '@Article{k1,\n  title = {A {B} c},\n  journal = jo # " 2",\n  year = 2001,\n}\n'
        '@misc(k2, note = "a, (b)")\n'
        "@book{k3}\n"
    )
    assert split_blocks(text) == [
        Macro(2, "jo", "{J. Foo}"),
        Entry(
            5,
            "article",
            "k1",
            [("title", "{A {B} c}"), ("journal", 'jo # " 2"'), ("year", "2001")],
            frozenset(),
        ),  # fmt: skip
        Entry(10, "misc", "k2", [("note", '"a, (b)"')], frozenset()),
        Entry(11, "book", "k3", [], frozenset()),
    ]


def test_duplicate_fields_quote_escape_and_backslashes() -> None:
    text = '@a{k, title = "x {"} y", Title = {a \\} b}, title = {z}}'
    [entry] = split_blocks(text)
    assert entry == Entry(
        1, "a", "k", [("title", '"x {"} y"'), ("Title", "{a \\} b}"), ("title", "{z}")],
        frozenset({"title"}),
    )  # fmt: skip


def test_unclosed_brace_stops_at_the_next_line_start_entry() -> None:
    text = "@article{a,\n  title = {Open,\n  year = 2000\n\n@article{b, title = {B}}\n"
    assert split_blocks(text) == [
        Failed(
            1,
            "@article{a,\n  title = {Open,\n  year = 2000\n",
            "Unexpected block start: `@article`. Was still looking for field-value closing `}` ",
        ),
        Entry(5, "article", "b", [("title", "{B}")], frozenset()),
    ]


def test_missing_equals_and_missing_comma_are_failed_blocks() -> None:
    blocks = split_blocks("@a{k, title {x}}\n@b{k2 title = 1}\n@c{k3, year}\n@d{k4, y = 1}")
    assert [type(b) for b in blocks] == [Failed, Failed, Failed, Entry]
    assert [b.reason for b in blocks[:3]] == [  # type: ignore[union-attr]
        "Expected a `=` after entry key, but found `{`.",
        "Expected comma after entry key, but found =",
        "Expected a `=` after entry key `year`, but found the end of the entry (`}`).",
    ]
    assert blocks[3] == Entry(4, "d", "k4", [("y", "1")], frozenset())


def test_end_of_file_inside_an_entry() -> None:
    assert split_blocks("@a{k, title = {x") == [
        Failed(1, "@a{k, title = {x", "Unexpectedly reached end of file.")
    ]


def test_deep_nesting_and_at_signs_inside_values() -> None:
    deep = "{" * 12 + "x" + "}" * 12
    text = f"@a{{k, title = {deep}, note = {{mail me@home{{x}}}}, em@il = {{y}}}}"
    [entry] = split_blocks(text)
    assert entry.fields == [("title", deep), ("note", "{mail me@home{x}}"), ("em@il", "{y}")]


def _reference(text: str) -> list[object]:
    """bibtexparser's blocks in our shapes."""
    out: list[object] = []
    for b in bibtexparser.parse_string(text, parse_stack=[]).blocks:
        dups: frozenset[str] = frozenset()
        if isinstance(b, model.DuplicateBlockKeyBlock):
            b = b.ignore_error_block
        if isinstance(b, model.DuplicateFieldKeyBlock):
            dups, b = frozenset(b.duplicate_keys), b.ignore_error_block
        if isinstance(b, model.Entry):
            fields = [(f.key, f.value) for f in b.fields]
            out.append(Entry(b.start_line + 1, b.entry_type, b.key, fields, dups))
        elif isinstance(b, model.String):
            out.append(Macro(b.start_line + 1, b.key, b.value))
        elif isinstance(b, model.ParsingFailedBlock):
            out.append(Failed(b.start_line + 1, b.raw, b.error.abort_reason))
    return out


_PIECES = [
    "@article{", "@book(", "@string{", "@comment{", "@preamble{", "@STRING(", "@{", "@misc {",
    "\n@inproceedings{", "{", "}", "(", ")", '"', ",", "=", "#", "\\", "\n", " ", "\t", "a",
    "key", "title", '{"}', '\\"', "\\{", "\\}", "\n  @book{", "%", "x@y", "@foo", "\r\n",
    "author = {A and B}", ", year = 2000", "}\n", "\\\\", " = {x}", ' = "y, z"', "{{{{{{{x}}}}}}}",
]  # fmt: skip
_ENTRY = '@article{k{i},\n  title = {A {B} c},\n  author = "D and E",\n  year = 2001,\n}\n'


def _generated(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 40)))
    text = list("".join(_ENTRY.replace("{i}", str(i)) for i in range(3)))
    for _ in range(rng.randint(1, 4)):
        text.insert(rng.randrange(len(text) + 1), rng.choice(_PIECES))
    return "".join(text)


def test_same_blocks_as_bibtexparser() -> None:
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)
    rng = random.Random(12)
    for _ in range(1500):
        text = _generated(rng)
        ours, theirs = split_blocks(text), _reference(text)
        if "\\\n" in text:  # bibtexparser does not count a newline right after a backslash
            ours = [b._replace(line=0) for b in ours]
            theirs = [b._replace(line=0) for b in theirs]  # type: ignore[attr-defined]
        assert ours == theirs, text
