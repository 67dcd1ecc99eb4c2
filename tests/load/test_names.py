"""Author-list splitting: depth-0 `and`, corporate authors, et al."""

from __future__ import annotations

import pytest

from auditor.load.names import clean_author_list, split_bibtex_authors


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
        ("Jean {de la Fontaine}", ["de la Fontaine, Jean"], False),
        (
            "Jean {de la Fontaine} and {World Health Organization}",
            ["de la Fontaine, Jean", "World Health Organization"],
            False,
        ),
        (r"Kurt G{\"o}del", ["Kurt Gödel"], False),
        (
            "{ACM} {Special Interest Group}",
            ["Special Interest Group, ACM"],
            False,
        ),  # `and` inside a word is not a separator
    ],
)
def test_split_bibtex_authors(raw: str, authors: list[str], et_al: bool) -> None:
    assert split_bibtex_authors(raw) == (authors, et_al)


def test_clean_author_list_et_al_forms() -> None:
    assert clean_author_list(["Smith J", "", "et al."]) == (["Smith J"], True)
    assert clean_author_list(["Smith J, et al."]) == (["Smith J"], True)
    assert clean_author_list(["Betty Ford", "Peter Etten"]) == (
        ["Betty Ford", "Peter Etten"],
        False,
    )


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        (r"Bogdan Filipi{\v c}", "Bogdan Filipič"),
        (r"Frank G. {Bennett, Jr.}", "Bennett, Jr., Frank G."),
        ("Ludwig van Beethoven", "van Beethoven, Ludwig"),
        (r"Charles Louis de la Vall{\'e}e Poussin", "de la Vallée Poussin, Charles Louis"),
        ("Anna~van~der~Berg", "van der Berg, Anna"),
        ("van der Berg, Anna", "van der Berg, Anna"),
        (r"Karel \v{C}apek", "Karel Čapek"),
        (r"Kurt {G\"o}del", "Kurt Gödel"),
        (r"{\'E}mile Zola", "Émile Zola"),
        ("{World Health Organization}", "World Health Organization"),
        ("jean dupont", "jean dupont"),
    ],
)
def test_names_as_bibtex_splits_them(raw: str, name: str) -> None:
    assert split_bibtex_authors(raw) == ([name], False)


def test_accent_tilde_is_not_a_tie_and_et_al_is_not_a_particle() -> None:
    assert split_bibtex_authors(r"Jo\~ao Carreira and David Jones et al") == (
        ["João Carreira", "David Jones"],
        True,
    )
