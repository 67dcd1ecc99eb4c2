"""Cleaning printed lines and cutting a section into references."""

from __future__ import annotations

from auditor.load.documents.clean import drop_running, join, ligatures, vocabulary
from auditor.load.documents.lines import Line
from auditor.load.documents.sections import references_section
from auditor.load.documents.split import split_references


def test_ligatures_and_hyphenation() -> None:
    assert ligatures("eﬃcient ﬁne") == "efficient fine"
    assert join(["Jamie Mor-", "genstern and"]) == "Jamie Morgenstern and"
    assert join(["Pin-", "Yu Chen"]) == "Pin-Yu Chen"
    assert join(["instance-", "aware nets"]) == "instance-aware nets"
    words = vocabulary(["the multi-scale idea", "a multiscale view"])
    assert join(["multi-", "scale"], words) == "multiscale"
    assert join(["see https://x.org/", "a/b"]) == "see https://x.org/a/b"


def test_running_headers_and_page_numbers_are_dropped() -> None:
    lines = []
    for page in range(1, 5):
        lines += [
            Line("Journal of Tests, vol. 3", 1, page),
            Line(f"body {page}", 2, page),
            Line(str(page), 3, page),
        ]
    assert [ln.text for ln in drop_running(lines)] == ["body 1", "body 2", "body 3", "body 4"]


def test_section_by_heading_variants_and_end() -> None:
    for heading in ("References", "7 Bibliography", "Literature Cited", "参考文献", "Références:"):
        lines = [
            Line("Intro", 1),
            Line(heading, 2),
            Line("[1] A.", 3),
            Line("Appendix A", 4, para_break=True),
        ]
        section = references_section(lines)
        assert section is not None and [ln.text for ln in section] == ["[1] A."], heading


def test_section_without_heading_is_the_trailing_numbered_list() -> None:
    lines = [Line("Some text 1. with", 1), *(Line(f"[{n}] Ref {n}.", n + 1) for n in (1, 2, 3))]
    section = references_section(lines)
    assert section is not None and section[0].text == "[1] Ref 1."
    assert references_section([Line("just prose", 1)]) is None


def test_numbered_split_ignores_a_number_that_is_not_the_next() -> None:
    lines = [Line(t, i) for i, t in enumerate(["1. A, B. T1. J,", "2020. 12 pages.", "2. C. T2."])]
    pieces = split_references(lines)
    assert [p.text for p in pieces] == ["1. A, B. T1. J, 2020. 12 pages.", "2. C. T2."]


def test_hanging_indent_and_gaps_split_author_year() -> None:
    lines = [
        Line("Abbas, M. (2022). A title that", 1, 1, 0.0),
        Line("goes on. In KDD.", 2, 1, 10.0),
        Line("Bao, J. (2021). Short. In X.", 3, 1, 0.0),
        Line("Chen, T. (2020). Another", 4, 1, 0.0),
        Line("one. In Y.", 5, 1, 10.0),
    ]
    pieces = split_references(lines)
    assert [p.text for p in pieces] == [
        "Abbas, M. (2022). A title that goes on. In KDD.",
        "Bao, J. (2021). Short. In X.",
        "Chen, T. (2020). Another one. In Y.",
    ]
