"""Style peculiarities the reference-string reader misread (issue 35 item 1), each on a
real-shaped string."""

from __future__ import annotations

from auditor.load.documents.people import split_authors
from auditor.load.documents.refstring import parse


def test_inverted_authors_joined_by_comma_and_are_two_authors() -> None:
    r = parse("Price, E., and Zhou, S. Sparse models are robust. In ICML, 2021.", model=False)
    assert r.authors == ["Price, E.", "Zhou, S"]
    assert r.title == "Sparse models are robust"


def test_arxiv_and_biorxiv_are_the_venue_not_the_title() -> None:
    for venue in ("In arXiv, 2021.", "arXiv preprint arXiv:2105.05233, 2021.", "In bioRxiv, 2021."):
        r = parse(f"A. Smith and B. Jones. Diffusion models beat GANs. {venue}", model=False)
        assert r.title == "Diffusion models beat GANs"
        assert r.container_title is not None and "rxiv" in r.container_title.lower()


def test_accented_initials_start_a_siam_list() -> None:
    r = parse(
        "É. Moulines and F. Bach, Non-asymptotic analysis of stochastic approximation,"
        " in NeurIPS, 2011.",
        model=False,
    )
    assert r.authors == ["É. Moulines", "F. Bach"]
    assert r.title == "Non-asymptotic analysis of stochastic approximation"
    assert split_authors("Á. Kovács and É. Moulines") == (["Á. Kovács", "É. Moulines"], False)


def test_siam_full_dotted_capital_name_after_and() -> None:
    r = parse(
        "A. Darwiche and İsmail İlkan Ceylan, Efficient inference in models, in UAI, 2020.",
        model=False,
    )
    assert r.authors == ["A. Darwiche", "İsmail İlkan Ceylan"]
    assert r.title == "Efficient inference in models"
    assert r.container_title == "UAI"


def test_title_ends_before_a_workshop_venue_without_a_full_stop() -> None:
    r = parse(
        "A. Smith and B. Jones. Learning to rank Workshop on Learning to Rank for IR, 2009.",
        model=False,
    )
    assert r.title == "Learning to rank"
    assert r.container_title == "Workshop on Learning to Rank for IR"


def test_a_title_holding_workshop_on_keeps_it() -> None:
    r = parse("A. Smith. Report of the Workshop on Deep Learning. In Proc. ICML, 2019.")
    assert r.title == "Report of the Workshop on Deep Learning"


def test_tex_accent_leftovers_are_put_on_their_letters() -> None:
    for name in ("M. \\vZitnik", "M. \\v{Z}itnik", "M. {\\v Z}itnik"):
        r = parse(f"{name} and J. Leskovec. Predicting multicellular function. Bioinf., 2017.")
        assert r.authors == ["M. Žitnik", "J. Leskovec"], name
    assert parse('B. M\\"uller. A title. In ICML, 2020.').authors == ["B. Müller"]


def test_vancouver_name_with_an_entity_is_one_author() -> None:
    r = parse("d&apos;Amore F, Smith J. A study of things. Nature. 2019;5:1-10.", model=False)
    assert r.authors == ["d'Amore, F", "Smith, J"]


def test_entities_are_decoded_once() -> None:
    r = parse("Smith J, Jones K. Ham &amp;apos; eggs. Nature. 2019;5:1-10.", model=False)
    assert r.title is not None and "&apos;" in r.title
