"""Hypothesis properties: nothing escapes the identifier parser or the loaders; idempotence."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auditor import tables
from auditor.classify import classify, normalize_identifier
from auditor.load.bibtex import BibtexLoader
from auditor.load.csv import CsvLoader
from auditor.load.latex import latex_to_unicode
from auditor.load.names import split_bibtex_authors
from auditor.load.ris import RisLoader
from tests.properties import examples

_DECLARED = st.one_of(st.none(), st.sampled_from(["doi", "pmid", "arxiv", "isbn", "", "DOI"]))
_ID_LIKE = st.one_of(
    st.text(max_size=40),
    st.from_regex(r"10\.\d{4,9}/[!-~]{1,20}", fullmatch=True),
    st.from_regex(r"\d{2}(0[1-9]|1[0-2])\.\d{4,5}(v\d)?", fullmatch=True),
    st.from_regex(r"[a-z-]{2,8}(\.[A-Z]{2})?/\d{7}(v\d)?", fullmatch=True),
    st.from_regex(r"(https://doi\.org/|doi:|arXiv:|PMID: )?[0-9.]{1,12}", fullmatch=True),
)
_BIB_ALPHABET = st.sampled_from([*'@{}(),=#"\\ \n%abtkeyitlr01$~-', "article", "title", "and"])


@settings(deadline=None)
@given(_ID_LIKE, _DECLARED)
def test_normalize_identifier_total_and_idempotent(raw: str, declared: str | None) -> None:
    id_type, ident, reason = normalize_identifier(raw, declared)
    assert (id_type is None) == (ident is None) == (reason is not None)
    if id_type is not None:
        assert normalize_identifier(ident, id_type) == (id_type, ident, None)
        assert normalize_identifier(ident) == (id_type, ident, None)


@settings(deadline=None)
@given(st.text(max_size=200))
def test_latex_never_raises(text: str) -> None:
    out = latex_to_unicode(text)
    assert isinstance(out, str)
    assert latex_to_unicode(text) == out


@settings(deadline=None)
@given(st.text(max_size=200))
def test_author_split_never_raises(text: str) -> None:
    names = split_bibtex_authors(text)
    assert all(isinstance(a, str) and a for a in names.authors)
    assert isinstance(names.et_al, bool)
    assert len(names.parsed) == len(names.comma_names or names.authors)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=300), st.lists(_BIB_ALPHABET, max_size=80).map("".join)))
def test_bibtex_loader_never_raises(text: str) -> None:
    rows, problems = BibtexLoader().load(text, "h.bib")
    assert len(set(map(len, rows.columns.values()))) <= 1
    assert all(p.path == "h.bib" for p in problems)


@settings(max_examples=examples(150), deadline=None)
@given(st.text(alphabet=st.sampled_from(list("TYAUIER -12\n xPD")), max_size=300))
def test_ris_loader_never_raises(text: str) -> None:
    RisLoader().load(text, "h.ris")


@settings(max_examples=examples(150), deadline=None)
@given(st.text(alphabet=st.sampled_from(list('title,doi;"\n\r x1\t')), max_size=300))
def test_csv_loader_never_raises(text: str) -> None:
    CsvLoader().load(text, "h.csv")


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.fixed_dictionaries(
            {},
            optional={
                "title": st.one_of(st.none(), st.text(max_size=5)),
                "doi": _ID_LIKE,
                "pmid": _ID_LIKE,
                "arxiv": _ID_LIKE,
                "id_raw": _ID_LIKE,
                "declared_type": _DECLARED,
                "parse_error": st.one_of(st.none(), st.just("bad")),
            },
        ),
        max_size=6,
    ),
    st.sets(st.sampled_from(["doi", "pmid", "arxiv"])),
)
def test_classify_idempotent(rows: list[dict[str, object]], legs: set[str]) -> None:
    full = [{"row_id": i, "source_path": "p", **r} for i, r in enumerate(rows)]
    table = tables.from_rows(full, tables.REFERENCES)
    once = classify(table, closed_legs=frozenset(legs))
    assert classify(once, closed_legs=frozenset(legs)).equals(once)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400), st.sampled_from([".bib", ".ris", ".csv", ".txt"]))
def test_load_files_on_any_bytes_gives_a_table_or_input_error(data: bytes, suffix: str) -> None:
    import tempfile
    from pathlib import Path

    from auditor.errors import InputError
    from auditor.load import load_files

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"any{suffix}"
        path.write_bytes(data)
        try:
            outcome = load_files([str(path)])
        except InputError as exc:
            assert str(path) in str(exc)  # only an undecodable CSV may refuse, naming the file
            return
        t = outcome.table
        assert t.schema == tables.REFERENCES
        assert t.column("row_id").to_pylist() == list(range(t.num_rows))
        assert classify(t).equals(t)  # load_files already classified: a re-run changes nothing
