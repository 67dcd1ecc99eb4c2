"""The generated bibliography and corpus agree: the missing fraction is exactly what is absent."""

from __future__ import annotations

from pathlib import Path

from auditor.classify import classify
from auditor.emulator.synthetic import synthetic, to_bibtex
from auditor.load import load_files


def test_counts_missing_fraction_and_spares() -> None:
    gen = synthetic(n_doi=40, n_pmid=20, n_arxiv=20, missing=0.1, spares=2)
    kinds = [r.kind for r in gen.references]
    assert (kinds.count("doi"), kinds.count("pmid"), kinds.count("arxiv")) == (40, 20, 20)
    absent = [r for r in gen.references if not r.exists]
    assert len(absent) == 8
    corpus = gen.corpus
    for ref in gen.references:
        held = {
            "doi": ref.identifier.lower() in corpus.crossref,
            "pmid": ref.identifier in corpus.pubmed,
            "arxiv": ref.identifier in corpus.arxiv,
        }[ref.kind]
        assert held == ref.exists
    assert all(len(v) == 2 for v in gen.spares.values())
    assert gen.spares["doi"][0].lower() in corpus.crossref
    cited = {r.identifier for r in gen.references}
    assert not cited & {s for v in gen.spares.values() for s in v}


def test_same_seed_same_bibliography() -> None:
    assert synthetic(seed=4).references == synthetic(seed=4).references
    assert synthetic(seed=4).references != synthetic(seed=5).references


def test_bibtex_loads_and_classifies_every_identifier(tmp_path: Path) -> None:
    gen = synthetic(n_doi=6, n_pmid=4, n_arxiv=3)
    path = tmp_path / "gen.bib"
    path.write_text(to_bibtex(gen.references), encoding="utf-8")
    table = classify(load_files([str(path)]).table)
    rows = table.select(["key", "id_type", "identifier", "row_state"]).to_pylist()
    assert [(r["id_type"], r["identifier"]) for r in rows] == [
        (ref.kind, ref.identifier) for ref in gen.references
    ]
    assert {r["row_state"] for r in rows} == {None}
