"""`auditor fix`: certain corrections only, every other byte as written, findings as comments."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from auditor import tables
from auditor.cli import app
from auditor.fix.bibtex_spans import scan

from .fixtures import BIB, RECORDS, write_snapshot


@pytest.fixture
def workdir(isolated: Path, tmp_path: Path) -> Path:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    write_snapshot(tmp_path / "snap.parquet")
    return tmp_path


def _fix(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        app, ["fix", "refs.bib", "--offline", "--snapshot", "snap.parquet", *args]
    )
    return result.exit_code, result.output


def _entries(text: str) -> dict[str, str]:
    return {e.key: text[e.start : e.closer + 1] for e in scan(text)}


def _verdicts(path: str) -> dict[str, str]:
    result = CliRunner().invoke(
        app,
        ["audit", path, "--offline", "--snapshot", "snap.parquet", "--out", "re", "--quiet"],
    )
    assert result.exit_code in (0, 1), result.output
    table = pd.read_csv("re/verdicts.csv", encoding="utf-8-sig")
    return dict(zip(table["key"], table["verdict"], strict=True))


def test_fix_corrects_year_and_author_order_and_nothing_else(workdir: Path) -> None:
    code, output = _fix("--out", "fixed.bib")
    assert code == 0, output
    fixed = (workdir / "fixed.bib").read_text(encoding="utf-8")
    before, after = _entries(BIB), _entries(fixed)
    # Leading comment and @string byte-identical.
    head = '% Thesis bibliography: kept by hand, do not reformat.\n@string{nat = "Nature"}\n'
    assert fixed.startswith(head)
    # An entry with nothing to fix is byte-identical; so is a preprint without a finding.
    assert after["lecun2015"] == before["lecun2015"]
    assert after["vaswani2017"] == before["vaswani2017"]
    # Wrong year corrected in place, braces kept; the missing pages are not filled in.
    assert after["he2016wrongyear"] == before["he2016wrongyear"].replace("2019", "2016")
    # Author order corrected from the register, in the entry's own quotes and field-name case.
    authors = 'Author = "Silver, David and Huang, Aja and Maddison, Chris J.",'
    assert authors in after["silver2016order"]
    assert "Year = 2016," in after["silver2016order"]
    assert "Volume" not in after["silver2016order"]  # missing, not wrong: only with --complete
    # A chimeric entry is not rewritten: a comment above it names the finding.
    assert after["chimera2020"] == before["chimera2020"]
    chimeric = "% auditor: RESOLVES-BUT-DIFFERS: the record for 10.1038/nature14539 has another"
    assert chimeric in fixed
    # Same title, but none of the cited authors wrote the record's work: nothing is certain.
    assert after["who2015"] == before["who2015"]
    assert "% auditor: RESOLVES-BUT-DIFFERS: none of the cited authors" in fixed
    assert after["ghost2021"] == before["ghost2021"]
    assert "% auditor: DOES-NOT-RESOLVE" in fixed
    # Every other byte as written: only the two faulty entries and the comment lines differ.
    kept = [line for line in fixed.splitlines() if not line.startswith("% auditor:")]
    rest = "\n".join(kept) + "\n"
    for key in ("he2016wrongyear", "silver2016order"):
        rest = rest.replace(after[key], before[key])
    assert rest == BIB
    # Re-audited, the entries whose only faults were year or author order now match.
    verdicts = _verdicts("fixed.bib")
    assert verdicts["he2016wrongyear"] == "RESOLVES-AND-MATCHES"
    assert verdicts["silver2016order"] == "RESOLVES-AND-MATCHES"
    assert verdicts["chimera2020"] == "RESOLVES-BUT-DIFFERS"
    # The source itself was never touched.
    assert (workdir / "refs.bib").read_text(encoding="utf-8") == BIB


def test_complete_fills_in_missing_fields_and_upgrades_preprints(workdir: Path) -> None:
    code, output = _fix("--out", "fixed.bib", "--complete")
    assert code == 0, output
    after = _entries((workdir / "fixed.bib").read_text(encoding="utf-8"))
    assert after["lecun2015"] == _entries(BIB)["lecun2015"]
    # Missing pages added in the entry's layout (aligned as `doi`); a venue that differs: not v1's
    assert "  pages   = {770--778},\n}" in after["he2016wrongyear"]
    assert "booktitle = {CVPR}" in after["he2016wrongyear"]
    assert 'Volume = "529"' in after["silver2016order"]
    # A preprint gets its published DOI; its arXiv id stays; the # concatenation is untouched.
    assert "doi    = {10.5555/nips.2017.attention}" in after["vaswani2017"]
    assert "eprint = {1706.03762}" in after["vaswani2017"]
    assert 'note   = "Preprint " # "version"' in after["vaswani2017"]


def test_fix_is_idempotent_and_comments_are_not_repeated(workdir: Path) -> None:
    assert _fix("--in-place")[0] == 0
    once = (workdir / "refs.bib").read_text(encoding="utf-8")
    assert (workdir / "refs.bib.bak").read_text(encoding="utf-8") == BIB
    assert _fix("--in-place")[0] == 0
    assert (workdir / "refs.bib").read_text(encoding="utf-8") == once
    assert once.count("% auditor:") == 3


def test_diff_only_and_no_comments(workdir: Path) -> None:
    code, output = _fix("--diff", "--only", "year", "--no-comments")
    assert code == 0
    assert "-  year    = {2019}," in output and "+  year    = {2016}," in output
    assert "Silver, David" not in output and "% auditor" not in output
    assert not (workdir / "refs.fixed.bib").exists()
    assert _fix("--only", "colour")[0] == 2
    assert _fix("--in-place", "--out", "x.bib")[0] == 2


def test_no_upgrade_keeps_preprints_as_they_are(workdir: Path) -> None:
    assert _fix("--no-upgrade", "--complete")[0] == 0
    fixed = (workdir / "refs.fixed.bib").read_text(encoding="utf-8")
    assert _entries(fixed)["vaswani2017"] == _entries(BIB)["vaswani2017"]


def test_interactive_asks_per_change(workdir: Path) -> None:
    # he2016wrongyear: year (n), pages (y); silver2016order: author (a = all authors), then q.
    result = CliRunner().invoke(
        app,
        ["fix", "refs.bib", "--offline", "--snapshot", "snap.parquet", "--interactive"]
        + ["--complete"],
        input="n\ny\na\nq\n",
    )
    assert result.exit_code == 0, result.output
    fixed = _entries((workdir / "refs.fixed.bib").read_text(encoding="utf-8"))
    assert "year    = {2019}," in fixed["he2016wrongyear"]  # declined
    assert "pages   = {770--778}" in fixed["he2016wrongyear"]  # accepted
    assert "Silver, David and Huang, Aja" in fixed["silver2016order"]  # all of this kind
    assert "Year = 2016," in fixed["silver2016order"] and "Volume" not in fixed["silver2016order"]
    # the question reads as written: Rich markup must not eat `[y]`, `[n]`, `[a]`, `[q]`
    assert "accept? [y]es, [n]o, [a]ll of this kind, [q]uit [y/n/a/q]" in result.output


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32"])
def test_a_utf16_or_utf32_bibliography_is_fixed_and_written_back_as_it_was(
    workdir: Path, codec: str
) -> None:
    # JabRef writes UTF-16; the loader reads it, so the editor must too (it found no entry).
    data = BIB.encode(codec)
    (workdir / "refs.bib").write_bytes(data)
    code, output = _fix("--out", "fixed.bib")
    assert code == 0, output
    assert "entry not found" not in output
    fixed = (workdir / "fixed.bib").read_bytes()
    assert fixed[:4] == data[:4]  # the same byte-order mark (or none), the same width
    text = fixed.decode(codec).removeprefix("\ufeff")
    assert "year    = {2016}," in _entries(text)["he2016wrongyear"]
    assert _entries(text)["lecun2015"] == _entries(BIB)["lecun2015"]


def test_a_format_fix_cannot_edit_is_refused_before_any_audit(workdir: Path) -> None:
    (workdir / "refs.nbib").write_text("PMID- 31452104\nTI  - A title.\nDP  - 2019\n")
    result = CliRunner().invoke(app, ["fix", "refs.nbib", "--offline"])
    assert result.exit_code == 2
    assert "not medline" in result.output and "Traceback" not in result.output
    assert not (workdir / "refs.fixed.nbib").exists()


def test_a_latin1_file_stays_latin1_when_a_new_name_does_not_fit_it(workdir: Path) -> None:
    # Dvořák has no Latin-1 form: the new value is written as LaTeX, the file is not re-encoded.
    record = {
        **RECORDS[0],
        "identifier": "10.5555/dvorak",
        "doi": "10.5555/dvorak",
        "title": "Symphonies from the new world",
        "authors": ["Antonín Dvořák", "José Müller"],
        "surnames": ["Dvořák", "Müller"],
        "year": 1893,
    }
    pq.write_table(tables.from_rows([record], tables.RECORDS), workdir / "snap.parquet")
    kept = "@misc{caf\xe9, title = {Caf\xe9 au lait}, author = {M\xfcller, Jos\xe9}}\r\n"
    cited = (
        "@article{dvorak,\r\n  title = {Symphonies from the new world},\r\n"
        "  author = {M\xfcller, Jos\xe9 and Dvorak, Antonin},\r\n  journal = {Nature},\r\n"
        "  year = {1893},\r\n  volume = {521},\r\n  pages = {436--444},\r\n"
        "  doi = {10.5555/dvorak},\r\n}\r\n"
    )
    (workdir / "refs.bib").write_bytes((kept + cited).encode("latin-1"))
    code, output = _fix("--out", "fixed.bib", "--only", "author")
    assert code == 0, output
    assert "UTF-8" not in output and "WARNING" not in output
    fixed = (workdir / "fixed.bib").read_bytes()
    assert fixed.startswith(kept.encode("latin-1"))  # the untouched entry, byte for byte
    assert b"author = {Dvo\\v{r}\\'ak, Anton{\\'\\i}n and M\\\"uller, Jos\\'e}," in fixed


def test_a_retracted_work_gets_a_comment_and_is_not_rewritten(workdir: Path) -> None:
    notice = {"type": "retraction", "relation": "updated_by", "date": "2020-01-02"}
    retracted = {**RECORDS[0], "updates": [{**notice, "doi": "10.1038/retraction.1"}]}
    rows = [retracted, *RECORDS[1:]]
    pq.write_table(tables.from_rows(rows, tables.RECORDS), workdir / "snap.parquet")
    code, output = _fix("--out", "fixed.bib", "--complete")
    assert code == 0, output
    fixed = (workdir / "fixed.bib").read_text(encoding="utf-8")
    assert _entries(fixed)["lecun2015"] == _entries(BIB)["lecun2015"]
    line = (
        "% auditor: RETRACTED: the crossref record for 10.1038/nature14539 says this work was "
        "retracted (2020-01-02, notice 10.1038/retraction.1); not rewritten\n@article{lecun2015,"
    )
    assert line in fixed
    # the chimeric entry cites another work under that DOI: its note says so, not the retraction
    assert (
        "% auditor: RESOLVES-BUT-DIFFERS: the record for 10.1038/nature14539 has another" in fixed
    )
