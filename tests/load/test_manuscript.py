"""A manuscript as input: the cited entries, in order of first citation, and the missing keys."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from auditor.errors import InputError
from auditor.load import load_files
from auditor.load.manuscript_reader import read_manuscript
from auditor.policy import DEFAULT_FAIL_ON, parse_fail_on

FIXTURES = Path(__file__).parent / "fixtures" / "manuscript"

CITED_ORDER = [
    "lecun2015deep",
    "krizhevsky2012imagenet",
    "vaswani2017attention",
    "goodfellow2014generative",
    "kingma2014adam",
    "srivastava2014dropout",
    "hinton2006fast",
    "bengio2013representation",
    "he2016deep",
    "silver2016mastering",
    "ioffe2015batch",
]


def test_tex_cites_follow_input_and_skip_comments() -> None:
    manuscript = read_manuscript(str(FIXTURES / "paper.tex"))
    keys = [c.key for c in manuscript.citations]
    assert keys == [*CITED_ORDER[:9], "ghost2024missing", *CITED_ORDER[9:]]
    assert "commentedout" not in keys and "alsocommented" not in keys
    assert [Path(b).name for b in manuscript.bibliographies] == ["refs.bib", "extra.bib"]
    first = {c.key: (Path(c.path).name, c.line) for c in manuscript.citations}
    assert first["lecun2015deep"] == ("paper.tex", 5)
    assert first["kingma2014adam"] == ("methods.tex", 2)
    assert first["bengio2013representation"] == ("methods.tex", 3)


def test_audit_table_holds_exactly_the_cited_entries_and_the_missing_key() -> None:
    outcome = load_files([str(FIXTURES / "paper.tex")])
    table = outcome.table.to_pydict()
    # The missing key keeps its place in first-citation order (paper.tex:9, before silver2016).
    assert table["key"] == [*CITED_ORDER[:9], "ghost2024missing", *CITED_ORDER[9:]]
    assert table["row_id"] == list(range(len(CITED_ORDER) + 1))
    # Each row keeps its own .bib line and says where it was first cited.
    assert Path(table["source_path"][0]).name == "refs.bib"
    assert table["cited_at"][0].endswith("paper.tex:5")
    missing = 9
    assert table["row_state"][missing] == "INVALID"
    assert table["row_reason"][missing] == "missing_entry"
    assert table["source_path"][missing].endswith("paper.tex")
    assert table["source_line"][missing] == 9
    warnings = [p.message for p in outcome.problems if p.severity == "warning"]
    assert any("never cited" in w and "uncited2001" in w and "alsocommented" in w for w in warnings)


def test_nocite_star_audits_every_entry() -> None:
    tmp = FIXTURES / "paper.tex"
    text = tmp.read_text().replace(r"\nocite{ioffe2015batch}", r"\nocite{*}")
    assert text != tmp.read_text()
    other = tmp.with_name("all.tex")
    other.write_text(text)
    try:
        keys = load_files([str(other)]).table["key"].to_pylist()
    finally:
        other.unlink()
    assert "uncited2001" in keys and "alsocommented" in keys and "ghost2024missing" in keys


def test_aux_and_markdown() -> None:
    aux = load_files([str(FIXTURES / "paper.aux")]).table["key"].to_pylist()
    assert aux == ["lecun2015deep", "he2016deep", "ghost2024missing", "hinton2006fast"]
    md = load_files([str(FIXTURES / "paper.md")]).table["key"].to_pylist()
    assert md == ["lecun2015deep", "he2016deep", "kingma2014adam", "ghost2024missing"]


def test_bbl_reads_keys_and_the_sibling_aux(tmp_path: Path) -> None:
    for name in ("refs.bib", "extra.bib", "paper.aux"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    (tmp_path / "paper.bbl").write_text(
        "\\begin{thebibliography}{2}\n\\bibitem[LeCun et~al.(2015)]{lecun2015deep}\nY. LeCun.\n"
        "\\bibitem{hinton2006fast}\nG. Hinton.\n\\end{thebibliography}\n"
    )
    keys = load_files([str(tmp_path / "paper.bbl")]).table["key"].to_pylist()
    assert keys == ["lecun2015deep", "hinton2006fast"]


def test_bad_manuscripts_name_the_file_and_line(tmp_path: Path) -> None:
    lone = tmp_path / "lone.tex"
    lone.write_text("\\cite{a}\n")
    assert read_manuscript(str(lone)).bibliographies == []
    with pytest.raises(InputError, match="names no bibliography"):
        load_files([str(lone)])
    broken = tmp_path / "broken.tex"
    broken.write_text("x\n\\bibliography{nowhere}\n")
    warned = read_manuscript(str(broken)).problems
    assert [(p.line, p.severity) for p in warned] == [(2, "warning")]
    assert "nowhere.bib not found" in warned[0].message
    with pytest.raises(InputError, match=r"broken.tex: no bibliography found .*nowhere.bib"):
        load_files([str(broken)])
    cycle = tmp_path / "cycle.tex"
    cycle.write_text("\\input{cycle}\n\\bibliography{x}\n")
    with pytest.raises(InputError, match="nested deeper"):
        read_manuscript(str(cycle))


def test_missing_entry_is_a_finding_by_default() -> None:
    policy = parse_fail_on(DEFAULT_FAIL_ON)
    assert "missing_entry" in policy.reasons
