"""The editor's screening view: `submissions.csv`/`.parquet`, the index, one report per manuscript,
and what changed since the previous run (`auditor audit … --pipeline editor`, offline against the
sample snapshot)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.report.submissions_table import folder_names
from auditor.vocabulary import OUTCOMES

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "load" / "documents"))
from minipdf import pdf_bytes  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[2] / "sample_bibs"
BIB = (SAMPLES / "thesis.bib").read_text(encoding="utf-8")

#: Printed references with DOIs the sample snapshot holds (and one it calls fabricated).
PRINTED = [
    "[1] Y. LeCun, Y. Bengio and G. Hinton. Deep learning. Nature, 521:436-444, 2015. "
    "doi:10.1038/nature14539",
    "[2] A. Nobody. A fabricated paper. Nature, 2021. doi:10.1038/s41586-021-99999-9",
    "[3] A. J. Wakefield et al. Ileal-lymphoid-nodular hyperplasia. The Lancet, 1998. "
    "doi:10.1016/S0140-6736(97)11096-0",
]


def _entries(bib: str) -> list[str]:
    """The sample's entries, each as written (the `@string` line kept apart)."""
    return ["@" + part for part in bib.split("\n@")[1:] if not part.startswith("string")]


ENTRIES = _entries(BIB)
HEAD = '@string{plos = "PLoS ONE"}\n'


def _pdf(path: Path, lines: list[str]) -> None:
    path.write_bytes(pdf_bytes([[(72, 740 - 14 * i, t) for i, t in enumerate(lines)]]))


def _docx(path: Path, lines: list[str]) -> None:
    docx = pytest.importorskip("docx")
    document = docx.Document()
    document.add_paragraph("Body text of the manuscript.")
    document.add_heading("References", level=1)
    for line in lines:
        document.add_paragraph(line)
    document.save(str(path))


def _folder(root: Path) -> list[str]:
    """Twenty submissions in `root/submissions`: five each of BibTeX, TeX with its .bib, PDF and
    DOCX, each with a different part of the sample; returns the paths to audit."""
    sub = root / "submissions"
    sub.mkdir()
    args = []
    for n in range(5):
        (sub / f"bib{n}.bib").write_text(HEAD + "\n".join(ENTRIES[n : n + 4 + n]), "utf-8")
        args.append(f"submissions/bib{n}.bib")
        tex = sub / f"tex{n}"
        tex.mkdir()
        (tex / "refs.bib").write_text(HEAD + "\n".join(ENTRIES[n + 1 : n + 6]), "utf-8")
        keys = [e.split("{", 1)[1].split(",", 1)[0] for e in ENTRIES[n + 1 : n + 4]]
        cites = " ".join(f"\\cite{{{k}}}" for k in keys)
        (tex / "paper.tex").write_text(
            f"\\documentclass{{article}}\n\\begin{{document}}\n{cites}\n"
            "\\bibliography{refs}\n\\end{document}\n",
            "utf-8",
        )
        args.append(f"submissions/tex{n}/paper.tex")
        _pdf(sub / f"pdf{n}.pdf", ["References", *PRINTED[: 1 + n % 3]])
        args.append(f"submissions/pdf{n}.pdf")
        _docx(sub / f"docx{n}.docx", PRINTED[n % 3 :])
        args.append(f"submissions/docx{n}.docx")
    return args


@pytest.fixture
def screening(isolated: Path) -> Path:
    """A cleared environment in `tmp_path`, answering from the sample snapshot offline."""
    shutil.copy(SAMPLES / "snapshot.parquet", isolated / "snapshot.parquet")
    (isolated / "auditor.toml").write_text('snapshots = ["snapshot.parquet"]\n', "utf-8")
    return isolated


def _audit(paths: list[str]) -> None:
    args = [
        "audit",
        *paths,
        "--recursive",
        "--pipeline",
        "editor",
        "--offline",
        "--out",
        "out",
        "--quiet",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("named", ["each file", "the folder"])
def test_twenty_mixed_submissions_count_as_their_verdicts(screening: Path, named: str) -> None:
    paths = _folder(screening)
    _audit(paths if named == "each file" else ["submissions"])
    out = screening / "out"
    table = pd.read_csv(out / "submissions.csv", encoding="utf-8-sig")
    assert len(table) == 20
    verdicts = pd.read_parquet(out / "verdicts.parquet")
    assert table["source_path"].nunique() == 20
    assert set(table["source_path"]) == set(verdicts["source_path"])
    for row in table.to_dict("records"):
        mine = verdicts[verdicts["source_path"] == row["source_path"]]
        assert row["references"] == len(mine)
        assert row["cited"] == mine["cited_at"].notna().sum()
        for verdict in OUTCOMES:
            assert row[verdict] == (mine["verdict"] == verdict).sum(), (row, verdict)
        assert row["retracted"] == (mine["alert"] == "RETRACTED").sum()
        missing = mine["verdict"].isin(["DOES-NOT-RESOLVE", "NOT FOUND"]).sum()
        assert row["not_found"] == missing
        worst = sorted(p for p in mine["priority"].dropna())
        assert (row["worst_priority"] if isinstance(row["worst_priority"], str) else None) == (
            worst[0] if worst else None
        )
        own = pd.read_parquet(out / Path(row["report"]).parent / "verdicts.parquet")
        assert own["source_path"].unique().tolist() == [row["source_path"]]
        assert (out / row["report"]).is_file()
    # every kind of input is there and gave rows; worst first
    assert {Path(p).suffix for p in table["source_path"]} == {".bib", ".pdf", ".docx"}
    assert table["references"].min() > 0
    papers = table[table["source_path"].str.endswith("/refs.bib")]
    assert len(papers) == 5 and (papers["cited"] == 3).all()  # read through paper.tex
    ranks = [p if isinstance(p, str) else "P9" for p in table["worst_priority"]]
    assert ranks == sorted(ranks)
    assert pd.read_parquet(out / "submissions.parquet").shape == table.shape
    assert table["changes"].isna().all()  # a first run has nothing to compare


def test_a_rerun_shows_what_changed_per_manuscript(screening: Path) -> None:
    sub = screening / "submissions"
    sub.mkdir()
    (sub / "a.bib").write_text(HEAD + "\n".join(ENTRIES[:3]), "utf-8")
    (sub / "b.bib").write_text(HEAD + "\n".join(ENTRIES[:2]), "utf-8")
    _audit(["submissions/a.bib", "submissions/b.bib"])
    revised = ENTRIES[0].replace("Deep learning", "Deep learning of something else entirely")
    (sub / "a.bib").write_text(HEAD + "\n".join([revised, ENTRIES[1], ENTRIES[3]]), "utf-8")
    (sub / "c.bib").write_text(HEAD + ENTRIES[0], "utf-8")
    _audit(["submissions/a.bib", "submissions/b.bib", "submissions/c.bib"])
    table = pd.read_csv(screening / "out" / "submissions.csv", encoding="utf-8-sig")
    changes = dict(zip(table["source_path"], table["changes"], strict=True))
    assert changes["submissions/b.bib"] == "unchanged"
    assert changes["submissions/c.bib"] == "new submission"
    a = changes["submissions/a.bib"]
    assert "lecun2015deep: RESOLVES-AND-MATCHES→RESOLVES-BUT-DIFFERS" in a
    added = ENTRIES[3].split("{", 1)[1].split(",", 1)[0]
    removed = ENTRIES[2].split("{", 1)[1].split(",", 1)[0]
    assert f"added: {added}" in a and f"removed: {removed}" in a
    assert "RESOLVES-BUT-DIFFERS 0→1" in a or "RESOLVES-BUT-DIFFERS" in a
    page = (screening / "out" / "submissions.html").read_text("utf-8")
    assert "lecun2015deep: RESOLVES-AND-MATCHES→RESOLVES-BUT-DIFFERS" in page


def test_a_hostile_file_name_and_title_are_escaped_and_defused(screening: Path) -> None:
    sub = screening / "submissions"
    sub.mkdir()
    name = "<script>alert(1)<b onmouseover=x>.bib"  # a file name may hold anything but `/`
    hostile = ENTRIES[0].replace("Deep learning", "<img src=x onerror=alert(2)>")
    (sub / name).write_text(HEAD + hostile, "utf-8")
    _audit([f"submissions/{name}"])
    out = screening / "out"
    index = (out / "submissions.html").read_text("utf-8")
    assert "<script>" not in index and "<b onmouseover" not in index
    assert "&lt;script&gt;alert(1)&lt;b onmouseover=x&gt;.bib" in index
    table = pd.read_csv(out / "submissions.csv", encoding="utf-8-sig")
    assert table["source_path"][0] == f"submissions/{name}"
    folder = (out / table["report"][0]).parent
    assert folder.parent == out / "manuscripts" and "<" not in folder.name
    page = (out / table["report"][0]).read_text("utf-8")
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(2)&gt;" in page


def test_a_file_name_that_starts_a_formula_is_defused_in_the_csv(screening: Path) -> None:
    sub = screening / "=cmd"
    sub.mkdir()
    (sub / "a.bib").write_text(HEAD + ENTRIES[0], "utf-8")
    _audit(["=cmd/a.bib"])
    text = (screening / "out" / "submissions.csv").read_text("utf-8-sig")
    assert '\n"\'=cmd/a.bib"' in text or "\n'=cmd/a.bib" in text


def test_folder_names_are_safe_and_distinct() -> None:
    names = folder_names(["../../etc/passwd", "a/refs.bib", "b/refs.bib", "c/REFS.bib", ".."])
    assert all("/" not in n and "\\" not in n and not n.startswith(".") for n in names.values())
    assert len(set(names.values())) == 5
    assert names["a/refs.bib"] == "a_refs.bib"
    twice = folder_names(["x/refs.bib", "y/refs.bib", "refs.bib"])
    assert len({n.lower() for n in twice.values()}) == 3
    assert folder_names(["only/one.bib"]) == {"only/one.bib": "one.bib"}
