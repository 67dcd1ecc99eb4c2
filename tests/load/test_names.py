"""Author-list splitting: names kept as written, BibTeX's own parse beside them, comma lists."""

from __future__ import annotations

import pytest

from auditor.load.names import clean_author_list, family_given_names, split_bibtex_authors


def _row(
    family: str | None,
    given: str | None = None,
    particle: str | None = None,
    suffix: str | None = None,
) -> dict[str, str | None]:
    return {"family": family, "given": given, "particle": particle, "suffix": suffix}


@pytest.mark.parametrize(
    ("raw", "authors", "et_al"),
    [
        ("Smith, John and Doe, Jane", ["Smith, John", "Doe, Jane"], False),
        ("John Smith AND Jane Doe", ["John Smith", "Jane Doe"], False),
        ("{World Health Organization}", ["World Health Organization"], False),
        ("{Barnes and Noble} and Smith, J.", ["Barnes and Noble", "Smith, J."], False),
        ("von Last, Jr, First", ["von Last, Jr, First"], False),
        ("Smith, J. and others", ["Smith, J."], True),
        (r"M{\"u}ller, H.", ["Müller, H."], False),
        ("Anderson, A.\n    and Brandon, B.", ["Anderson, A.", "Brandon, B."], False),
        ("", [], False),
        ("Sandra Andersen", ["Sandra Andersen"], False),
        (r"Kurt G{\"o}del", ["Kurt Gödel"], False),
        ("{ACM} {Special Interest Group}", ["ACM Special Interest Group"], False),
    ],
)
def test_split_bibtex_authors(raw: str, authors: list[str], et_al: bool) -> None:
    names = split_bibtex_authors(raw)
    assert (names.authors, names.et_al) == (authors, et_al)
    assert names.comma_names is None


@pytest.mark.parametrize(
    ("raw", "written", "parsed"),
    [
        # issue #22: nothing is reordered; v1 reads the last token of these.
        ("Paul S. de Vries", "Paul S. de Vries", _row("Vries", "Paul S.", "de")),
        (
            "Walderi Monteiro da Silva Junior",
            "Walderi Monteiro da Silva Junior",
            _row("Silva Junior", "Walderi Monteiro", "da"),
        ),
        ("Ludwig van Beethoven", "Ludwig van Beethoven", _row("Beethoven", "Ludwig", "van")),
        (
            r"Charles Louis de la Vall{\'e}e Poussin",
            "Charles Louis de la Vallée Poussin",
            _row("Vallée Poussin", "Charles Louis", "de la"),
        ),
        ("Anna~van~der~Berg", "Anna van der Berg", _row("Berg", "Anna", "van der")),
        ("van der Berg, Anna", "van der Berg, Anna", _row("Berg", "Anna", "van der")),
        ("Vries, Paul S. de", "Vries, Paul S. de", _row("Vries", "Paul S.", "de")),
        ("von Last, Jr, First", "von Last, Jr, First", _row("Last", "First", "von", "Jr")),
        (r"Frank G. {Bennett, Jr.}", "Frank G. Bennett, Jr.", _row("Bennett, Jr.", "Frank G.")),
        ("Jean {de la Fontaine}", "Jean de la Fontaine", _row("de la Fontaine", "Jean")),
        (
            "Martin Luther King Jr.",
            "Martin Luther King Jr.",
            _row("King", "Martin Luther", None, "Jr."),
        ),
        (r"Bogdan Filipi{\v c}", "Bogdan Filipič", _row("Filipič", "Bogdan")),
        (r"Karel \v{C}apek", "Karel Čapek", _row("Čapek", "Karel")),
        (r"Kurt {G\"o}del", "Kurt Gödel", _row("Gödel", "Kurt")),
        (r"{\'E}mile Zola", "Émile Zola", _row("Zola", "Émile")),
        (
            "{World Health Organization}",
            "World Health Organization",
            _row("World Health Organization"),
        ),
        ("jean dupont", "jean dupont", _row("dupont", None, "jean")),
    ],
)
def test_names_as_written_and_as_bibtex_splits_them(
    raw: str, written: str, parsed: dict[str, str | None]
) -> None:
    names = split_bibtex_authors(raw)
    assert names.authors == [written]
    assert names.parsed == [parsed]


def test_accent_tilde_is_not_a_tie_and_et_al_is_not_a_particle() -> None:
    names = split_bibtex_authors(r"Jo\~ao Carreira and David Jones et al")
    assert (names.authors, names.et_al) == (["João Carreira", "David Jones"], True)
    tied = split_bibtex_authors(r"Jo\~ao Carreira and Jones, D.~et~al.")
    assert (tied.authors, tied.et_al) == (["João Carreira", "Jones, D."], True)


@pytest.mark.parametrize(
    ("raw", "written", "meant", "et_al"),
    [
        (
            "Alice Brown, Carl Davis, and Eve Fox",
            ["Alice Brown, Carl Davis", "Eve Fox"],
            ["Alice Brown", "Carl Davis", "Eve Fox"],
            False,
        ),
        (
            "Alice Brown, Carl Davis, Eve Fox",
            ["Alice Brown, Carl Davis, Eve Fox"],
            ["Alice Brown", "Carl Davis", "Eve Fox"],
            False,
        ),
        (
            "A. Brown, Carl Davis and Eve Fox",
            ["A. Brown, Carl Davis", "Eve Fox"],
            ["A. Brown", "Carl Davis", "Eve Fox"],
            False,
        ),
        ("J. Smith, K. Lee", ["J. Smith, K. Lee"], ["J. Smith", "K. Lee"], False),
        (
            "Alice Brown, Carl Davis, et al.",
            ["Alice Brown, Carl Davis"],
            ["Alice Brown", "Carl Davis"],
            True,
        ),
        (
            "Alice Brown, Carl Davis and et al",
            ["Alice Brown, Carl Davis"],
            ["Alice Brown", "Carl Davis"],
            True,
        ),
    ],
)
def test_comma_separated_lists_are_read_both_ways(
    raw: str, written: list[str], meant: list[str], et_al: bool
) -> None:
    names = split_bibtex_authors(raw)
    assert names.authors == written  # BibTeX's literal reading, which v1 keeps
    assert names.comma_names == meant  # what auditor/v2 reads
    assert names.et_al is et_al
    assert [p["family"] for p in names.parsed if p] == [m.split()[-1] for m in meant]


@pytest.mark.parametrize(
    "raw",
    [
        "Vries, Paul S. de",
        "Garcia Marquez, Gabriel Jose",
        "van der Berg, Anna Maria and Smith, John",
        "Smith, J., and Doe, K.",
        "von Last, Jr, First",
        "King, Jr., Martin Luther",
        "Smith J, et al.",
        "Frank G. {Bennett, Jr.}",
        "{Barnes, Noble and Sons} and Doe, Jane",
        "Silva Junior, Walderi Monteiro da and Paul S. de Vries",
        # Ambiguous: `Last, First` with a compound family name has this shape too.
        "Alice Brown, Carl Davis and Eve Fox",
        "Garcia Marquez, Gabriel Jose and John Smith",
    ],
)
def test_single_names_with_commas_are_no_comma_list(raw: str) -> None:
    assert split_bibtex_authors(raw).comma_names is None


def test_clean_author_list_et_al_forms() -> None:
    assert clean_author_list(["Smith J", "", "et al."]) == (["Smith J"], True)
    assert clean_author_list(["Smith J, et al."]) == (["Smith J"], True)
    assert clean_author_list(["Betty Ford", "Peter Etten"]) == (
        ["Betty Ford", "Peter Etten"],
        False,
    )


def test_family_given_names_of_tagged_formats() -> None:
    assert family_given_names(["de Vries, Paul S.", "Smith JA", "King, Martin Luther, Jr."]) == [
        _row("Vries", "Paul S.", "de"),
        None,
        _row("King", "Martin Luther", None, "Jr."),
    ]
    assert family_given_names(["Smith JA", "World Health Organization"]) is None
