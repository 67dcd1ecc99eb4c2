"""LaTeX manuscripts as they really come: key lists over lines, capitalised and multicite
commands, `\\input file`, `\\jobname`, `filecontents`, a missing `anthology.bib` (#25)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.load import load_files
from auditor.load.manuscript_reader import read_manuscript
from auditor.load.tex_source import TexSource

BIB = """@article{alpha2019,
  title = {Alpha},
  author = {Ann Alpha},
  journal = {J},
  year = {2019}
}

@article{beta2020,
  title = {Beta},
  author = {Bo Beta},
  journal = {J},
  year = {2020}
}

@article{gamma2021,
  title = {Gamma},
  author = {Gil Gamma},
  journal = {J},
  year = {2021}
}

@article{delta2022,
  title = {Delta},
  author = {Di Delta},
  journal = {J},
  year = {2022}
}
"""


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def _cited(path: Path) -> list[tuple[str, int]]:
    return [(c.key, c.line) for c in read_manuscript(str(path)).citations]


def test_key_lists_spanning_lines_are_read_as_tex_reads_them(tmp_path: Path) -> None:
    # the shapes of a thesis chapter: one key a line, a `%` at each line end, the command and
    # its braces on different lines
    _write(
        tmp_path,
        {
            "thesis.tex": (
                "\\documentclass{report}\n\\begin{document}\n"
                "Prior work~\\citep{alpha2019,\n    beta2020,\n    gamma2021}.\n"
                "Also \\cite{alpha2019,%\n  delta2022%\n}.\n"
                "And \\citet\n  [p.~4]\n  {gamma2021} again; \\citeauthor{be%\n  ta2020}.\n"
                "\\bibliography{refs}\n\\end{document}\n"
            ),
            "refs.bib": BIB,
        },
    )
    assert _cited(tmp_path / "thesis.tex") == [
        ("alpha2019", 3),
        ("beta2020", 4),
        ("gamma2021", 5),
        ("delta2022", 7),
    ]
    outcome = load_files([str(tmp_path / "thesis.tex")])
    assert outcome.table["key"].to_pylist() == ["alpha2019", "beta2020", "gamma2021", "delta2022"]
    assert not any("never cited" in p.message for p in outcome.problems)


def test_capitalised_starred_and_multicite_commands(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "paper.tex": (
                "\\usepackage[backend=biber]{biblatex}\n\\addbibresource{refs.bib}\n"
                "\\Citet{alpha2019} and \\Citep*[see][]{beta2020}. \\Citeauthor{gamma2021}\n"
                "\\Citealt{delta2022} \\Citealp{alpha2019} \\Cite{beta2020} \\Parencite{x1}\n"
                "\\Textcite{x2} \\Footcite{x3} \\Smartcite{x4} \\Autocite*{x5}\n"
                "\\cites[p.~1]{m1}[p.~2]{m2} \\parencites(see)(){m3}[ch.~2]{m4,m5}\n"
                "\\Textcites{m6}\n  {m7}\\relax{notakey}\n"
                "\\citefield{m8}{title} \\citestyle{authoryear}\n"
            ),
            "refs.bib": BIB,
        },
    )
    keys = [k for k, _ in _cited(tmp_path / "paper.tex")]
    assert keys == [
        "alpha2019", "beta2020", "gamma2021", "delta2022",
        "x1", "x2", "x3", "x4", "x5", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8",
    ]  # fmt: skip


def test_a_key_that_cannot_be_read_is_a_warning_with_file_and_line(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "paper.tex": (
                "\\newcommand{\\mycite}[1]{\\citep{#1}}\n"
                "See \\cite{alpha2019, \\mykey}.\n\\bibliography{refs}\n\\cite{beta2020,\n\n"
            ),
            "refs.bib": BIB,
        },
    )
    manuscript = read_manuscript(str(tmp_path / "paper.tex"))
    assert [c.key for c in manuscript.citations] == ["alpha2019"]
    warned = {(Path(p.path).name, p.line): p.message for p in manuscript.problems}
    assert "'\\mykey' cannot be read" in warned[("paper.tex", 2)]
    assert "never closes" in warned[("paper.tex", 4)]


def test_comment_rules_follow_tex(tmp_path: Path) -> None:
    source = TexSource("a 50\\% b % gone\nline \\\\% gone too\n  \\cite{k}\n")
    assert source.text == "a 50\\% b line \\\\\\cite{k}\n"
    assert source.line_at(source.text.index("\\cite")) == 3


def test_input_without_braces_and_a_distribution_file(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "main.tex": (
                "\\input glyphtounicode\n\\input chapters/intro\n\\input{chapters/end.tex}\n"
                "\\bibliography{refs}\n"
            ),
            "chapters/intro.tex": "\\cite{beta2020}\n",
            "chapters/end.tex": "\\cite{alpha2019}\n",
            "refs.bib": BIB,
        },
    )
    manuscript = read_manuscript(str(tmp_path / "main.tex"))
    assert [(c.key, Path(c.path).name) for c in manuscript.citations] == [
        ("beta2020", "intro.tex"),
        ("alpha2019", "end.tex"),
    ]
    assert [(p.line, "glyphtounicode.tex not found" in p.message) for p in manuscript.problems] == [
        (1, True)
    ]


def test_one_missing_bibliography_warns_and_the_others_are_audited(tmp_path: Path) -> None:
    # the ACL template: `anthology.bib` is not shipped with the paper
    _write(
        tmp_path,
        {
            "acl_latex.tex": (
                "\\documentclass[11pt]{article}\n\\usepackage[review]{acl}\n"
                "\\begin{document}\n\\citet{alpha2019} \\citep{Gusfield:97}\n"
                "\\bibliography{anthology,custom}\n\\end{document}\n"
            ),
            "custom.bib": BIB,
        },
    )
    outcome = load_files([str(tmp_path / "acl_latex.tex")])
    assert outcome.table["key"].to_pylist() == ["alpha2019", "Gusfield:97"]
    assert outcome.table["row_reason"].to_pylist()[1] == "missing_entry"
    missing = [p for p in outcome.problems if "anthology.bib not found" in p.message]
    assert [(Path(p.path).name, p.line, p.severity) for p in missing] == [
        ("acl_latex.tex", 5, "warning")
    ]


def test_jobname_and_filecontents_bibliographies(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "article.tex": "\\addbibresource{\\jobname.bib}\n\\autocite{gamma2021}\n",
            "article.bib": BIB,
            "standalone.tex": (
                "\\begin{filecontents*}[overwrite]{\\jobname.bib}\n"
                "@article{inline2023,\n  title = {Inline},\n  author = {Ida Inline},\n"
                "  journal = {J},\n  year = {2023}\n}\n\\end{filecontents*}\n"
                "\\documentclass{article}\n\\begin{filecontents}{other.bib}\n"
                "@misc{other,\n title={X}\n}\n\\end{filecontents}\n"
                "\\begin{document}\n\\cite{inline2023}\n\\bibliography{standalone}\n"
                "\\end{document}\n"
            ),
        },
    )
    assert load_files([str(tmp_path / "article.tex")]).table["key"].to_pylist() == ["gamma2021"]
    table = load_files([str(tmp_path / "standalone.tex")]).table.to_pydict()
    assert table["key"] == ["inline2023"]
    assert table["title"] == ["Inline"]
    assert table["source_line"] == [2]  # the line in standalone.tex
    assert table["source_path"][0].endswith("standalone.tex (filecontents standalone.bib)")


@pytest.mark.parametrize("text", ["\\cite", "\\cite{", "\\cites[a]", "\\input", "\\cite[{]"])
def test_truncated_commands_never_raise(tmp_path: Path, text: str) -> None:
    (tmp_path / "t.tex").write_text(text)
    read_manuscript(str(tmp_path / "t.tex"))


def test_definitions_settings_comment_and_verbatim_are_not_citations(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "p.tex": (
                "\\DeclareCiteCommand{\\mycite}{}{}{}\n\\renewcommand{\\citesetup}{x}\n"
                "\\makeatletter\\renewcommand\\@cite[2]{[{#1\\if@tempswa , #2\\fi}]}\n"
                "\\begin{comment}\n\\cite{hidden}\n\\end{comment}\n"
                "\\begin{verbatim}\n\\cite{shown}\n\\end{verbatim}\n"
                "\\bibentry{alpha2019} and \\fullcite{beta2020}\n\\bibliography{refs}\n"
            ),
            "refs.bib": BIB,
        },
    )
    manuscript = read_manuscript(str(tmp_path / "p.tex"))
    assert [(c.key, c.line) for c in manuscript.citations] == [
        ("alpha2019", 10),
        ("beta2020", 10),
    ]
    assert manuscript.problems == []


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="\\{}[]()%*,\n a1citeCinputbibliography#@", max_size=120))
def test_any_text_reads_without_raising(text: str) -> None:
    source = TexSource(text)
    for command in source.commands(frozenset({"input", "bibliography"})):
        for _group, start in command.groups:
            assert 1 <= source.line_at(start) <= text.count("\n") + 1


def test_aux_and_bbl_warn_for_a_missing_bibdata_file(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "thesis.aux": "\\relax\n\\citation{alpha2019}\n\\bibdata{anthology,refs}\n",
            "thesis.bbl": "\\begin{thebibliography}{1}\n\\bibitem{alpha2019} A.\n",
            "refs.bib": BIB,
        },
    )
    for name in ("thesis.aux", "thesis.bbl"):
        outcome = load_files([str(tmp_path / name)])
        assert outcome.table["key"].to_pylist() == ["alpha2019"]
        warned = [p for p in outcome.problems if "anthology.bib not found" in p.message]
        assert [(Path(p.path).name, p.severity) for p in warned] == [("thesis.aux", "warning")]


def test_a_percent_inside_a_url_is_no_comment() -> None:
    source = TexSource("see \\url{http://x.org/a%20b} and \\cite{k} % gone\n\\cite{m}\n")
    assert source.text == "see \\url{http://x.org/a%20b} and \\cite{k} \\cite{m}\n"


def test_import_and_subimport(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "main.tex": "\\import{parts/}{one}\n\\bibliography{refs}\n",
            "parts/one.tex": "\\cite{alpha2019}\n\\subimport{sub/}{two.tex}\n",
            "parts/sub/two.tex": "\\cite{beta2020}\n",
            "refs.bib": BIB,
        },
    )
    manuscript = read_manuscript(str(tmp_path / "main.tex"))
    assert [(c.key, Path(c.path).name) for c in manuscript.citations] == [
        ("alpha2019", "one.tex"),
        ("beta2020", "two.tex"),
    ]
    assert manuscript.problems == []


def test_windows_line_ends_and_a_biblatex_resource_without_its_suffix(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB)
    (tmp_path / "w.tex").write_bytes(
        b"\\addbibresource{refs}\r\n\\cite\r\n  {alpha2019,%\r\n beta2020}\r\n"
    )
    manuscript = read_manuscript(str(tmp_path / "w.tex"))
    assert [(c.key, c.line) for c in manuscript.citations] == [("alpha2019", 3), ("beta2020", 4)]
    assert [Path(b).name for b in manuscript.bibliographies] == ["refs.bib"]
