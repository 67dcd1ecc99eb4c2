"""Quarto, R Markdown and manubot manuscripts, and bibliographies given beside them (#25)."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.errors import InputError
from auditor.load import load_files
from auditor.load.manuscript import is_manuscript
from auditor.load.manuscript_reader import read_manuscript

BIB = "".join(
    f"@article{{{key},\n  title = {{{key.title()}}},\n  author = {{A. Author}},\n"
    f"  journal = {{J}},\n  year = {{2020}}\n}}\n\n"
    for key in ("smith2020", "jones2019", "lee2021", "kim2018")
)


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def test_qmd_front_matter_list_include_and_crossrefs(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "report.qmd": (
                '---\ntitle: "Report"\nformat: html\nbibliography:\n  - refs.bib\n'
                '  - "more.bib"\n---\n\n## Intro {#sec-intro}\n\n'
                "As shown in @fig-plot and @tbl-data [see @smith2020, p. 3; @jones2019].\n"
                "{{< include _methods.qmd >}}\n\n```{r}\n#| label: fig-plot\nx <- '@notakey'\n```\n"
                "Inline `@code` is code. <!-- @hidden -->\n@eq:one and @sec:two are crossrefs.\n"
                "Follow https://medium.com/@writer for more.\n"
            ),
            "_methods.qmd": "Methods follow @lee2021 and @{kim2018}.\n",
            "refs.bib": BIB,
            "more.bib": "",
        },
    )
    manuscript = read_manuscript(str(tmp_path / "report.qmd"))
    assert [(c.key, Path(c.path).name, c.line) for c in manuscript.citations] == [
        ("smith2020", "report.qmd", 11),
        ("jones2019", "report.qmd", 11),
        ("lee2021", "_methods.qmd", 1),
        ("kim2018", "_methods.qmd", 1),
    ]
    assert [Path(b).name for b in manuscript.bibliographies] == ["refs.bib", "more.bib"]


def test_quarto_project_bibliography_in_quarto_yml(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "_quarto.yml": "project:\n  type: book\nbibliography: references.bib\n",
            "references.bib": BIB,
            "chapters/intro.qmd": "# Intro\n\nSee @jones2019.\n",
        },
    )
    outcome = load_files([str(tmp_path / "chapters" / "intro.qmd")])
    assert outcome.table["key"].to_pylist() == ["jones2019"]


def test_a_bibliography_set_by_an_output_format(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "_quarto.yml": "format:\n  html:\n    bibliography: [refs.bib]\n  pdf: default\n",
            "refs.bib": BIB,
            "index.qmd": "Text @lee2021.\n",
        },
    )
    assert load_files([str(tmp_path / "index.qmd")]).table["key"].to_pylist() == ["lee2021"]


def test_rmd_string_bibliography_and_bookdown_refs(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "paper.Rmd": (
                "---\ntitle: 'x'\noutput: bookdown::pdf_document2\nbibliography: refs.bib\n---\n"
                "See Figure \\@ref(fig:cars) and @kim2018. Write to me@example.org.\n"
            ),
            "refs.bib": BIB,
        },
    )
    assert is_manuscript("paper.Rmd") and is_manuscript("x.QMD")
    assert load_files([str(tmp_path / "paper.Rmd")]).table["key"].to_pylist() == ["kim2018"]


def test_bad_front_matter_is_a_warning_not_a_traceback(tmp_path: Path) -> None:
    _write(tmp_path, {"x.qmd": "---\nbibliography: [a.bib\n---\n@kim2018\n", "r.bib": BIB})
    manuscript = read_manuscript(str(tmp_path / "x.qmd"))
    assert [p.kind for p in manuscript.problems] == ["yaml"]
    outcome = load_files([str(tmp_path / "x.qmd"), str(tmp_path / "r.bib")])
    assert outcome.table["key"].to_pylist() == ["kim2018"]


def test_command_line_bibliographies_serve_a_manuscript_that_names_none(tmp_path: Path) -> None:
    # manubot: content/*.md cite by key, the bibliography is given on the command line
    _write(
        tmp_path,
        {
            "content/02.introduction.md": "## Introduction\n\nAs in [@lee2021; @smith2020].\n",
            "content/manual-references.bib": BIB,
            "paper.aux": "\\relax\n\\abx@aux@cite{0}{jones2019}\n\\abx@aux@cite{0}{ghost}\n",
        },
    )
    bib = str(tmp_path / "content" / "manual-references.bib")
    md = load_files([str(tmp_path / "content" / "02.introduction.md"), bib])
    assert md.table["key"].to_pylist() == ["lee2021", "smith2020"]
    assert any("never cited" in p.message for p in md.problems)
    aux = load_files([str(tmp_path / "paper.aux"), bib]).table
    assert aux["key"].to_pylist() == ["jones2019", "ghost"]
    assert aux["row_reason"].to_pylist()[1] == "missing_entry"
    with pytest.raises(InputError, match="give the .bib files on the command line"):
        load_files([str(tmp_path / "paper.aux")])
