"""A manuscript reads only inside its own folder tree (#37, item 3).

Each hostile manuscript is built here: the file it names outside its folder holds a key and a
title that must never reach the result, and the naming command must come back as a finding with
its file and line.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from auditor.errors import InputError
from auditor.load import load_files
from auditor.load.manuscript import Manuscript
from auditor.load.manuscript_reader import read_manuscript
from auditor.load.manuscript_tree import outside
from auditor.load.markdown_manuscript import MAX_YAML_ALIASES

SECRET = "@article{secret1,\n  title = {Secret Title From Elsewhere},\n  author = {A. B},\n}\n"
BIB = "@article{inside1,\n  title = {Inside Title},\n  author = {C. D},\n  year = {2020}\n}\n"


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    """`paper/` (the manuscript's folder, with `refs.bib`) and `elsewhere/` beside it, holding
    a bibliography and a chapter that cites `secret1`."""
    paper, elsewhere = tmp_path / "paper", tmp_path / "elsewhere"
    paper.mkdir()
    elsewhere.mkdir()
    (paper / "refs.bib").write_text(BIB)
    (elsewhere / "secret.bib").write_text(SECRET)
    (elsewhere / "chapter.tex").write_text("\\cite{secret1}\n")
    (elsewhere / "chapter.qmd").write_text("See @secret1.\n")
    (elsewhere / "x.aux").write_text("\\citation{secret1}\n")
    return paper, elsewhere


def _findings(manuscript: Manuscript) -> list[tuple[str, int | None]]:
    return [
        (Path(p.path).name, p.line)
        for p in manuscript.problems
        if p.kind == "outside the manuscript"
    ]


def _nothing_read(manuscript: Manuscript) -> None:
    assert all("elsewhere" not in b for b in manuscript.bibliographies), manuscript.bibliographies
    assert "secret1" not in [c.key for c in manuscript.citations]


def test_outside_checks_absolute_climbing_and_links(tmp_path: Path) -> None:
    paper, elsewhere = _tree(tmp_path)
    root = paper.resolve()
    assert outside(root, paper, "refs.bib") is None
    assert outside(root, paper, "sub/../refs.bib") is None
    assert outside(root, paper, str(elsewhere / "secret.bib")) == "an absolute path"
    assert outside(root, paper, "C:\\refs.bib") == "an absolute path"
    assert outside(root, paper, "../elsewhere/secret.bib") == "a path that climbs out with `..`"
    (paper / "link.bib").symlink_to(elsewhere / "secret.bib")
    (paper / "linked").symlink_to(elsewhere, target_is_directory=True)
    assert outside(root, paper, "link.bib") == "a symbolic link that points outside"
    assert outside(root, paper, "linked/secret.bib") == "a symbolic link that points outside"


def test_latex_names_outside_its_folder_are_findings_not_reads(tmp_path: Path) -> None:
    paper, elsewhere = _tree(tmp_path)
    (paper / "link.bib").symlink_to(elsewhere / "secret.bib")
    (paper / "linked").symlink_to(elsewhere, target_is_directory=True)
    (paper / "main.tex").write_text(
        "\\cite{inside1}\n"
        f"\\input{{{elsewhere / 'chapter'}}}\n"
        "\\include{../elsewhere/chapter}\n"
        "\\input{linked/chapter}\n"
        f"\\import{{{elsewhere}/}}{{chapter}}\n"
        "\\subimport{../elsewhere/}{chapter}\n"
        f"\\bibliography{{refs,{elsewhere / 'secret'},../elsewhere/secret,link}}\n"
        f"\\addbibresource{{{elsewhere / 'secret.bib'}}}\n"
        "\\addbibresource{../elsewhere/secret}\n"
    )
    manuscript = read_manuscript(str(paper / "main.tex"))
    _nothing_read(manuscript)
    assert [Path(b).name for b in manuscript.bibliographies] == ["refs.bib"]
    # one finding for each place a file outside is named, with its line
    assert _findings(manuscript) == [
        ("main.tex", 2),
        ("main.tex", 3),
        ("main.tex", 4),
        ("main.tex", 5),
        ("main.tex", 6),
        ("main.tex", 7),
        ("main.tex", 7),
        ("main.tex", 7),
        ("main.tex", 8),
        ("main.tex", 9),
    ]
    assert all("not read" in p.message for p in manuscript.problems)


def test_aux_bbl_and_bcf_names_outside_are_findings(tmp_path: Path) -> None:
    paper, elsewhere = _tree(tmp_path)
    (paper / "main.aux").write_text(
        "\\citation{inside1}\n"
        f"\\bibdata{{refs,{elsewhere / 'secret'}}}\n"
        "\\@input{../elsewhere/x.aux}\n"
    )
    manuscript = read_manuscript(str(paper / "main.aux"))
    _nothing_read(manuscript)
    assert _findings(manuscript) == [("main.aux", 2), ("main.aux", 3)]
    # biber's control file, and a `.bbl` whose sibling `.aux` is a link out
    (paper / "b.bbl").write_text("\\entry{inside1}\n")
    (paper / "b.aux").symlink_to(elsewhere / "x.aux")
    (paper / "b.bcf").write_text(
        f"<bcf:datasource type='file'>{elsewhere / 'secret.bib'}</bcf:datasource>"
    )
    bbl = read_manuscript(str(paper / "b.bbl"))
    _nothing_read(bbl)
    assert [name for name, _ in _findings(bbl)] == ["b.bbl", "b.bcf"]


def test_markdown_names_outside_its_folder_are_findings(tmp_path: Path) -> None:
    paper, elsewhere = _tree(tmp_path)
    (paper / "link.qmd").symlink_to(elsewhere / "chapter.qmd")
    (paper / "paper.qmd").write_text(
        "---\ntitle: x\nbibliography:\n"
        f"  - refs.bib\n  - {elsewhere / 'secret.bib'}\n  - ../elsewhere/secret.bib\n---\n"
        "See @inside1.\n"
        "{{< include ../elsewhere/chapter.qmd >}}\n"
        f"{{{{< include {elsewhere / 'chapter.qmd'} >}}}}\n"
        "{{< include link.qmd >}}\n"
    )
    manuscript = read_manuscript(str(paper / "paper.qmd"))
    _nothing_read(manuscript)
    assert [Path(b).name for b in manuscript.bibliographies] == ["refs.bib"]
    assert _findings(manuscript) == [
        ("paper.qmd", 3),
        ("paper.qmd", 3),
        ("paper.qmd", 9),
        ("paper.qmd", 10),
        ("paper.qmd", 11),
    ]


def test_metadata_files_that_link_out_or_name_out_are_findings(tmp_path: Path) -> None:
    paper, elsewhere = _tree(tmp_path)
    (elsewhere / "_metadata.yml").write_text("bibliography: secret.bib\n")
    (paper / "_metadata.yml").symlink_to(elsewhere / "_metadata.yml")
    (paper / "a.qmd").write_text("See @inside1.\n")
    manuscript = read_manuscript(str(paper / "a.qmd"))
    _nothing_read(manuscript)
    assert _findings(manuscript) == [("_metadata.yml", None)]
    (paper / "_metadata.yml").unlink()
    (paper / "_quarto.yml").write_text(f"bibliography: {elsewhere / 'secret.bib'}\n")
    manuscript = read_manuscript(str(paper / "a.qmd"))
    _nothing_read(manuscript)
    assert _findings(manuscript) == [("_quarto.yml", 1)]


def test_a_quarto_project_above_is_the_tree_but_within_bounds_the_search(tmp_path: Path) -> None:
    (tmp_path / "_quarto.yml").write_text("bibliography: refs.bib\n")
    (tmp_path / "refs.bib").write_text(BIB)
    (tmp_path / "chapters").mkdir()
    (tmp_path / "chapters" / "intro.qmd").write_text("See @inside1.\n")
    path = str(tmp_path / "chapters" / "intro.qmd")
    assert [Path(b).name for b in read_manuscript(path).bibliographies] == ["refs.bib"]
    # the service: nothing above the upload's own folder is looked at
    bounded = read_manuscript(path, within=tmp_path / "chapters")
    assert bounded.bibliographies == [] and bounded.problems == []


def test_a_file_given_on_the_command_line_is_the_bibliography_named_outside(
    tmp_path: Path,
) -> None:
    paper, elsewhere = _tree(tmp_path)
    (paper / "main.tex").write_text("\\cite{secret1}\n\\bibliography{../elsewhere/secret}\n")
    with pytest.raises(InputError, match="outside the manuscript's folder"):
        load_files([str(paper / "main.tex")])
    # the user names it: it is read, as the manuscript's bibliography, with no finding left
    outcome = load_files([str(paper / "main.tex"), str(elsewhere / "secret.bib")])
    assert outcome.table["key"].to_pylist() == ["secret1"]
    assert not [p for p in outcome.problems if p.kind == "outside the manuscript"]


def test_only_the_inside_bibliography_is_audited(tmp_path: Path) -> None:
    paper, elsewhere = _tree(tmp_path)
    (paper / "main.tex").write_text(
        "\\cite{inside1,secret1}\n\\bibliography{refs,../elsewhere/secret}\n"
    )
    outcome = load_files([str(paper / "main.tex")])
    assert "Secret Title From Elsewhere" not in str(outcome.table.to_pylist())
    assert [p.kind for p in outcome.problems if p.kind == "outside the manuscript"] == [
        "outside the manuscript"
    ]


def test_include_loops_are_capped_with_a_message(tmp_path: Path) -> None:
    (tmp_path / "a.tex").write_text("\\input{b}\n")
    (tmp_path / "b.tex").write_text("\\input{a}\n")
    (tmp_path / "a.qmd").write_text("{{< include a.qmd >}}\n")
    with pytest.raises(InputError, match="nested deeper"):
        read_manuscript(str(tmp_path / "a.tex"))
    with pytest.raises(InputError, match="nested deeper"):
        read_manuscript(str(tmp_path / "a.qmd"))
    # a fan-out (each file including the next twice) stops at the file count, not at 2**16
    for i in range(16):
        (tmp_path / f"f{i}.tex").write_text(f"\\input{{f{i + 1}}}\n\\input{{f{i + 1}}}\n")
    (tmp_path / "f16.tex").write_text("\\cite{x}\n")
    with pytest.raises(InputError, match="more than 500 included files"):
        read_manuscript(str(tmp_path / "f0.tex"))


def _bomb_front_matter(levels: int, width: int = 9) -> str:
    lines = ["a0: &a0 {" + ", ".join(f"k{i}: v" for i in range(width)) + "}"]
    for level in range(1, levels + 1):
        merged = ", ".join(f"*a{level - 1}" for _ in range(width))
        lines.append(f"a{level}: &a{level} {{<<: [{merged}], m{level}: v}}")
    return "\n".join(lines)


def test_a_yaml_merge_bomb_is_read_once(tmp_path: Path) -> None:
    # nine merges a level, ten levels (90 aliases, under the cap): 9**10 key copies on a PyYAML
    # before 6.0.4 (a hang, yaml/pyyaml#897); `pyproject.toml` asks for 6.0.4, which copies
    # each merged key once
    front = _bomb_front_matter(10)
    (tmp_path / "refs.bib").write_text(BIB)
    (tmp_path / "bomb.qmd").write_text(f"---\n{front}\nbibliography: refs.bib\n---\n@inside1\n")
    manuscript = read_manuscript(str(tmp_path / "bomb.qmd"))
    assert manuscript.problems == []
    assert [Path(b).name for b in manuscript.bibliographies] == ["refs.bib"]


def test_a_yaml_alias_flood_is_a_warning(tmp_path: Path) -> None:
    aliases = ", ".join(["*x"] * (MAX_YAML_ALIASES + 1))
    (tmp_path / "flood.md").write_text(
        f"---\nx: &x [a, b]\nbibliography: refs.bib\ny: [{aliases}]\n---\n[@inside1]\n"
    )
    manuscript = read_manuscript(str(tmp_path / "flood.md"))
    assert [p.kind for p in manuscript.problems] == ["yaml"]
    assert "aliases" in manuscript.problems[0].message
    # a few aliases, as metadata uses them, are read
    (tmp_path / "refs.bib").write_text(BIB)
    (tmp_path / "few.md").write_text(
        "---\nbase: &b {toc: true}\nformat: {html: *b, pdf: *b}\nbibliography: refs.bib\n---\n"
        "[@inside1]\n"
    )
    assert [Path(b).name for b in read_manuscript(str(tmp_path / "few.md")).bibliographies] == [
        "refs.bib"
    ]


def test_a_manuscript_behind_a_linked_folder_reads_its_own_tree(tmp_path: Path) -> None:
    # the user's own layout: `work/paper` is a link to the real folder; the tree is that folder
    real = tmp_path / "real"
    real.mkdir()
    (real / "refs.bib").write_text(BIB)
    (real / "main.tex").write_text("\\cite{inside1}\n\\bibliography{refs}\n")
    (tmp_path / "work").mkdir()
    os.symlink(real, tmp_path / "work" / "paper", target_is_directory=True)
    outcome = load_files([str(tmp_path / "work" / "paper" / "main.tex")])
    assert outcome.table["key"].to_pylist() == ["inside1"]
    assert not outcome.problems


def test_a_citation_tags_file_linking_out_is_not_read(tmp_path: Path) -> None:
    paper, elsewhere = _tree(tmp_path)
    (elsewhere / "citation-tags.tsv").write_text("tag\tcitation\nx\tdoi:10.1000/secret\n")
    (paper / "citation-tags.tsv").symlink_to(elsewhere / "citation-tags.tsv")
    (paper / "a.md").write_text("[@tag:x]\n")
    table = load_files([str(paper / "a.md")]).table
    assert table["row_reason"].to_pylist() == ["missing_entry"]
    assert "10.1000/secret" not in str(table.to_pylist())
