"""Inputs with no references exit 2 naming them; folders are walked only with `--recursive`."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.errors import InputError
from auditor.exitcodes import ExitCode
from auditor.load import load_files
from auditor.load.inputs import expand_paths

BIB = """@article{lecun2015deep,
  author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},
  title = {Deep learning}, journal = {Nature}, year = {2015}, doi = {10.1038/nature14539},
}
"""


def _run(tmp_path: Path, *args: str) -> tuple[int, str]:
    argv = [*args, "--offline", "--cache-dir", str(tmp_path / "cache")]
    result = CliRunner().invoke(app, argv, env={"AUDITOR_OUT": str(tmp_path / "out")})
    return result.exit_code, result.output


@pytest.mark.parametrize("text", ["", "\n\n", "% only a comment\n", "@comment{nothing here}\n"])
def test_an_empty_bibliography_exits_2_naming_it(tmp_path: Path, text: str) -> None:
    empty = tmp_path / "empty.bib"
    empty.write_text(text, encoding="utf-8")
    code, output = _run(tmp_path, "audit", str(empty))
    assert code == ExitCode.USAGE, output
    assert f"no references in {empty}" in output
    assert not (tmp_path / "out").exists()  # nothing written for nothing checked
    loaded = CliRunner().invoke(app, ["load", str(empty)], env={})
    assert loaded.exit_code == ExitCode.USAGE and f"no references in {empty}" in loaded.output


def test_an_empty_file_beside_a_full_one_is_a_warning(tmp_path: Path) -> None:
    (tmp_path / "empty.ris").write_text("", encoding="utf-8")
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    outcome = load_files([str(tmp_path / "refs.bib"), str(tmp_path / "empty.ris")])
    assert outcome.table.num_rows == 1
    [problem] = [p for p in outcome.problems if p.path.endswith("empty.ris")]
    assert problem.severity == "warning" and problem.message == "no references in this file"
    with pytest.raises(InputError, match="no references in"):
        load_files([str(tmp_path / "empty.ris")])


def test_a_folder_is_refused_without_recursive_and_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "theses"
    folder.mkdir()
    (folder / "a.bib").write_text(BIB, encoding="utf-8")
    code, output = _run(tmp_path, "audit", str(folder))
    assert code == ExitCode.USAGE, output
    assert "is a folder; pass --recursive" in output
    assert "Traceback" not in output


def test_recursive_walks_bibliographies_sorted_skipping_hidden_and_other_files(
    tmp_path: Path,
) -> None:
    root = tmp_path / "theses"
    for name in (
        "b/z.ris",
        "b/a.bib",
        "a.bib",
        ".git/x.bib",
        "b/.hidden.bib",
        "notes.txt",
        "paper.tex",
        "refs.parquet",
        "c/d/deep.nbib",
    ):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x", encoding="utf-8")
    found = [
        Path(p).relative_to(root).as_posix() for p in expand_paths([str(root)], recursive=True)
    ]
    assert found == ["a.bib", "b/a.bib", "b/z.ris", "c/d/deep.nbib"]
    # a file named directly is kept whatever its kind; repeats are read once
    again = expand_paths([str(root / "a.bib"), str(root), str(root / "notes.txt")], recursive=True)
    assert again[0] == str(root / "a.bib") and again.count(str(root / "a.bib")) == 1
    assert again[-1] == str(root / "notes.txt")


def test_a_latex_root_file_in_a_folder_stands_for_the_bibliographies_it_names(
    tmp_path: Path,
) -> None:
    root = tmp_path / "submissions"
    (root / "paper").mkdir(parents=True)
    (root / "paper" / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\\cite{lecun2015deep}\n"
        "\\input{chapter}\n\\bibliography{refs}\n\\end{document}\n",
        encoding="utf-8",
    )
    (root / "paper" / "chapter.tex").write_text("More \\cite{x}.\n", encoding="utf-8")
    (root / "paper" / "refs.bib").write_text(BIB, encoding="utf-8")
    (root / "paper" / "unused.bib").write_text(BIB, encoding="utf-8")
    (root / "list.bib").write_text(BIB, encoding="utf-8")
    found = [
        Path(p).relative_to(root).as_posix() for p in expand_paths([str(root)], recursive=True)
    ]
    # the chapter is read through the root file; the bibliography no manuscript names stays
    assert found == ["list.bib", "paper/main.tex", "paper/unused.bib"]


def test_a_folder_with_no_bibliography_is_no_references(tmp_path: Path) -> None:
    (tmp_path / "nothing").mkdir()
    (tmp_path / "nothing" / "readme.txt").write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="no references in .*nothing"):
        expand_paths([str(tmp_path / "nothing")], recursive=True)


def test_recursive_audit_reads_every_file_and_reports_in_the_folders_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "submissions"
    (folder / "two").mkdir(parents=True)
    (folder / "one.bib").write_text(BIB, encoding="utf-8")
    (folder / "two" / "two.bib").write_text(BIB.replace("lecun2015deep", "other"), encoding="utf-8")
    argv = ["audit", "submissions", "--recursive", "--offline", "--cache-dir", "cache", "--quiet"]
    result = CliRunner().invoke(app, argv, env={})
    assert result.exit_code in (ExitCode.OK, ExitCode.INCOMPLETE), result.output
    verdicts = (tmp_path / "reports" / "submissions" / "verdicts.csv").read_text(encoding="utf-8")
    assert "lecun2015deep" in verdicts and "other" in verdicts


def test_recursive_picks_up_submitted_documents_not_plain_text(tmp_path: Path) -> None:
    root = tmp_path / "submissions"
    root.mkdir()
    for name in ("paper.pdf", "thesis.docx", "essay.odt", "README.txt", "refs.bib"):
        (root / name).write_bytes(b"x")
    found = [Path(p).name for p in expand_paths([str(root)], recursive=True)]
    assert found == ["essay.odt", "paper.pdf", "refs.bib", "thesis.docx"]
