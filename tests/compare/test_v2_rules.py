"""auditor/v2's named rules, one at a time, on the cases the criteria name."""

from __future__ import annotations

import pytest

from auditor.compare import v2
from auditor.errors import Reason

REGISTER = "Attention Is All You Need for Neural Machine Translation"


@pytest.mark.parametrize(
    "claimed",
    [
        "attention is all you need for neural machine translation",
        "Attention is all you need for neural machine translation.",
        "Attention Is All You Need for <i>Neural</i> Machine Translation",
        "Attention Is All You Need for Neural-Machine Translation",
        "Attention Is All You Need for Neural Machine Translation: A Study of Heads",
        "Attention Is All You Need for Neural Machine Translation (Student Abstract)",
    ],
)
def test_title_forms_do_not_differ(claimed: str) -> None:
    assert v2.title_rule(claimed, REGISTER).match is True


def test_title_spelling_and_compounds() -> None:
    assert v2.title_rule("Optimisation of colour models", "Optimization of color models").match
    assert v2.title_rule("Self supervised pre-training", "Self-Supervised Pretraining").match
    assert v2.title_rule("The state of the art", "The state-of-the-art").match
    assert v2.title_rule("Modelling behaviour", "Modeling behavior").match
    assert v2.title_rule("Learning $\\alpha$-divergences", "Learning α-Divergences").match


@pytest.mark.parametrize(
    "claimed",
    [
        "Attention Is All You Need for Neural Speech Translation",  # changed
        "Attention Is All You Need for Neural Machine Translation Models",  # added
        "Attention Is All You Need for Machine Translation",  # dropped
        "Attention Is All You Ned for Neural Machine Translation",  # misspelt
    ],
)
def test_one_word_is_a_near_miss(claimed: str) -> None:
    got = v2.title_rule(claimed, REGISTER)
    assert got.match is False and got.finding == Reason.TITLE_NEAR_MISS


def test_other_title_differs_and_empty_is_named() -> None:
    assert v2.title_rule("Deep residual learning", REGISTER).finding == Reason.TITLE_DIFFERS
    assert v2.title_rule("", REGISTER).finding == Reason.TITLE_EMPTY


SURNAMES = ["Vaswani", "Shazeer", "Parmar", "Uszkoreit"]


@pytest.mark.parametrize(
    "claimed",
    [
        ["Vaswani A", "Shazeer N", "Parmar N", "Uszkoreit J"],  # Vancouver (KI-2)
        ["A. Vaswani", "N. Shazeer", "N. Parmar", "J. Uszkoreit"],
        ["Vaswani, Ashish", "Shazeer, Noam", "Parmar, Niki", "Uszkoreit, Jakob"],
        ["Ashish Vaswani", "Noam Shazeer", "and others"],
        ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit"],
    ],
)
def test_name_forms_never_differ_alone(claimed: list[str]) -> None:
    et_al = "and others" in claimed
    assert v2.authors_rule(claimed, et_al, SURNAMES).match is True


@pytest.mark.parametrize(
    ("claimed", "register"),
    [
        (["Anna van der Berg"], ["van der Berg"]),  # KI-1
        (["van der Berg, A."], ["Berg"]),
        (["Ana Foltyn-Dumitru"], ["Foltyn\u2010Dumitru"]),  # hyphen code points
        (["A. Dumitru"], ["Foltyn-Dumitru"]),
        (["José Müller"], ["Muller"]),
        (["Jose Mueller"], ["Müller"]),
        (["张伟"], ["张"]),  # KI-3
        (["張·偉"], ["張偉"]),  # punctuation inside a Han name, as the register's keys drop it
        ([":𪹥"], [":𪹥"]),  # a name written exactly as the register's (found by hypothesis)
        (["Zhang Wei"], ["Zhang"]),
        (["Wei Zhang"], ["Zhang"]),
        (["O'Brien, P."], ["OBrien"]),
        (["Martin Luther King Jr."], ["King"]),
        (["John Smith III"], ["Smith"]),
        (["James J Jun"], ["Jun"]),
        (["Amartya Sen"], ["Sen"]),
    ],
)
def test_particles_hyphens_diacritics_cjk(claimed: list[str], register: list[str]) -> None:
    assert v2.authors_rule(claimed, False, register).match is True


@pytest.mark.parametrize(
    ("claimed", "et_al", "finding"),
    [
        (["Noam Shazeer", "Ashish Vaswani", "Niki Parmar", "Jakob Uszkoreit"], False,
         Reason.AUTHORS_REORDERED),
        (["Geoffrey Hinton", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit"], False,
         Reason.AUTHORS_FIRST_DIFFERS),
        (["Ashish Vaswani", "Noam Shazeer", "Ilya Sutskever"], True,
         Reason.AUTHORS_NOT_IN_REGISTER),
        (["Ashish Vaswani", "Jakob Uszkoreit"], False, Reason.AUTHORS_TRUNCATED),
        (["Ashish Vaswani", "Niki Parmar"], False, Reason.AUTHORS_TRUNCATED),
        # issue 39 item 3: `and others` stands for the tail, not for Shazeer between two named
        (["Ashish Vaswani", "Niki Parmar"], True, Reason.AUTHORS_MIDDLE_MISSING),
        (["Ashish Vaswani", "Niki Parmar", "et al."], False, Reason.AUTHORS_MIDDLE_MISSING),
        (["John Doe", "Noam Shazeer"], False, Reason.AUTHORS_PLACEHOLDER),
        (["Author Name"], False, Reason.AUTHORS_PLACEHOLDER),
        (["A. Author"], False, Reason.AUTHORS_PLACEHOLDER),
        (["Anonymous"], False, Reason.AUTHORS_PLACEHOLDER),
        (["et al."], True, Reason.AUTHORS_PLACEHOLDER),
    ],
)  # fmt: skip
def test_author_list_findings(claimed: list[str], et_al: bool, finding: Reason) -> None:
    got = v2.authors_rule(claimed, et_al, SURNAMES)
    assert got.match is False and got.finding == finding


def test_a_prefix_of_a_long_list_is_how_citations_shorten() -> None:
    register = [f"Author{i}" for i in range(9)]
    assert v2.authors_rule([f"A. Author{i}" for i in range(8)], False, register).match
    assert v2.authors_rule(["Ashish Vaswani"], False, SURNAMES).match
    # a register list cut at ten names: the citation's further authors are not a finding
    register = [f"Author{i}" for i in range(10)]
    assert v2.authors_rule([f"A. Author{i}" for i in range(14)], False, register).match


def test_authors_not_compared_without_register_authors() -> None:
    assert v2.authors_rule(["Ann Lee"], False, []).compared is False
    assert v2.authors_rule(["Ann Lee"], False, [""]).compared is False
    assert v2.authors_rule([], False, SURNAMES).compared is False


@pytest.mark.parametrize(
    ("claimed", "register"),
    [
        ("NeurIPS", "Advances in Neural Information Processing Systems"),
        ("NIPS", "NeurIPS"),
        ("Proc. of CVPR", "2023 IEEE/CVF Conference on Computer Vision and Pattern Recognition"),
        ("J. Mach. Learn. Res.", "Journal of Machine Learning Research"),
        ("Mach. Learn.", "Machine Learning"),
        ("Proc. Natl. Acad. Sci. U.S.A.", "Proceedings of the National Academy of Sciences"),
        ("IEEE Trans. Pattern Anal. Mach. Intell.",
         "IEEE Transactions on Pattern Analysis and Machine Intelligence"),
        ("Nat. Commun.", "Nature Communications"),
        ("PRL", "Physical Review Letters"),
        ("Proceedings of the AAAI Conference on Artificial Intelligence", "AAAI"),
    ],
)  # fmt: skip
def test_venue_names_of_one_venue_agree(claimed: str, register: str) -> None:
    assert v2.venue_rule(claimed, register, register_is_preprint=False, by_title=False).match


@pytest.mark.parametrize(
    ("claimed", "register"),
    [
        ("ICML", "NeurIPS"),
        ("International Conference on Machine Learning", "Neural Information Processing Systems"),
        ("Conference on Reward Learning and Alignment", "CVPR"),
        ("Journal of Neural Architecture and Optimization", "AAAI"),
        ("Nature", "Science"),
    ],
)  # fmt: skip
def test_another_venue_differs(claimed: str, register: str) -> None:
    got = v2.venue_rule(claimed, register, register_is_preprint=False, by_title=False)
    assert got.match is False and got.finding == Reason.VENUE_DIFFERS


def test_venue_not_compared_without_both_sides_or_for_a_preprint_claim() -> None:
    for claimed, register in (("ICML", None), (None, "ICML"), ("arXiv preprint", "ICML")):
        got = v2.venue_rule(claimed, register, register_is_preprint=False, by_title=False)
        assert got.compared is False


def test_preprint_as_published_only_for_a_work_found_by_title() -> None:
    got = v2.venue_rule("ICML", "CoRR", register_is_preprint=True, by_title=True)
    assert got.finding == Reason.PREPRINT_AS_PUBLISHED
    # cited by its arXiv id: the arXiv record may not name the published version
    assert v2.venue_rule("ICML", None, register_is_preprint=True, by_title=False).compared is False
    assert v2.is_preprint_record("dblp", None, "CoRR")
    assert v2.is_preprint_record("crossref", "posted-content", None)
    assert not v2.is_preprint_record("crossref", "journal-article", "Nature")


def test_year_rules() -> None:
    assert v2.year_rule(2031, [2022], 2026).finding == Reason.YEAR_FUTURE
    assert v2.year_rule(2027, [2027], 2026).match  # an issue dated next year the register holds
    assert v2.year_rule(2023, [2022], 2026).match  # within the tolerance (KI-8 and the like)
    assert v2.year_rule(2024, [2021, 2024], 2026).match  # print year among the dates
    assert v2.year_rule(2019, [2021, 2022], 2026).finding == Reason.YEAR_DIFFERS
    assert v2.year_rule(None, [2021], 2026).compared is False
    assert v2.year_rule(2021, [None], 2026).compared is False


def test_arxiv_history() -> None:
    assert v2.year_rule(2022, [2026], 2026, arxiv=True).finding == Reason.ARXIV_YEAR_CONTRADICTED
    assert v2.year_rule(2019, [2017, 2018], 2026, arxiv=True).match  # published version's year
    assert v2.arxiv_version_rule("2310.01362v5", 3).finding == Reason.ARXIV_VERSION_UNKNOWN
    assert v2.arxiv_version_rule("2310.01362v2", 3).match
    assert v2.arxiv_version_rule("2310.01362", 3).compared is False


@pytest.mark.parametrize(
    ("claimed", "register"),
    [
        ("International Conference on Quantum Machine Learning", "ICML"),
        ("International Journal of Representation Learning", "ICML"),
        ("Conference on Disentangled Representations", "ICLR"),
        ("ACM Workshop on Neural Architecture Design", "NeurIPS"),
    ],
)
def test_an_invented_venue_is_not_a_known_one_it_resembles(claimed: str, register: str) -> None:
    got = v2.venue_rule(claimed, register, register_is_preprint=False, by_title=False)
    assert got.finding == Reason.VENUE_DIFFERS


def test_a_known_venue_spelt_out_or_abbreviated_agrees() -> None:
    for claimed in (
        "Proc. Int. Conf. Mach. Learn.",
        "ICML 2021",
        "Intl. Conf. on Machine Learning",
    ):
        assert v2.venue_rule(claimed, "ICML", register_is_preprint=False, by_title=False).match
    # a register that gives a series title: a shared word with the cited venue is enough
    got = v2.venue_rule("ECCV", "Lecture Notes in Computer Science", register_is_preprint=False,
                        by_title=False)  # fmt: skip
    assert got.match


def test_search_rows_are_recognised_by_the_stage_s_id_type() -> None:
    from auditor.search import answers

    assert v2.SEARCH_ID_TYPE == answers.SEARCH_ID_TYPE


# ------------------------------------------------------------ arXiv journal_ref as the venue


@pytest.mark.parametrize(
    ("claimed", "journal_ref"),
    [
        ("NeurIPS", "ICML 2019"),
        ("International Conference on Learning Representations", "CVPR 2021"),
        ("Journal of Hydrology", "Geomorphology 120 (2010) 1-12"),
    ],
)
def test_a_venue_the_journal_ref_contradicts_differs(claimed, journal_ref):
    got = v2.journal_ref_rule(claimed, journal_ref)
    assert (got.compared, got.match, got.finding) == (True, False, "venue_differs")


@pytest.mark.parametrize(
    ("claimed", "journal_ref"),
    [
        ("ICML", "Proceedings of the 36th International Conference on Machine Learning, "
         "PMLR 97:1-10, 2019"),
        ("Advances in Neural Information Processing Systems", "NeurIPS 2020"),
        ("Physical Review B", "Phys. Rev. B 85, 115117 (2012)"),  # real Atom shapes
        ("Acta Astronautica", "ActaAstron.56:1-50,2006"),
        ("The Astrophysical Journal", "Astrophys.J. 650 (2006) 1-10"),
        ("Monthly Notices of the Royal Astronomical Society", "Mon.Not.Roy.Astron.Soc.373:1,2006"),
        ("Journal of High Energy Physics", "JHEP 0801:001,2008"),
    ],
)  # fmt: skip
def test_the_journal_ref_written_as_authors_write_it_agrees(claimed, journal_ref):
    got = v2.journal_ref_rule(claimed, journal_ref)
    assert (got.compared, got.match) == (True, True)


@pytest.mark.parametrize(
    ("claimed", "journal_ref"),
    [
        ("ICML", None),  # no journal_ref: a preprint later published is common
        ("ICML", ""),
        ("arXiv preprint arXiv:1706.03762", "NeurIPS 2017"),  # cited as the preprint
        ("ICML", "NeurIPS 2019 Workshop on Deep Learning"),  # a workshop is not the venue
        ("ICML", "Submitted to NeurIPS 2019"),
        ("TPAMI", "CVPR 2016"),  # the journal version of a conference paper, one arXiv id
        ("CVPR", "IEEE Transactions on Pattern Analysis and Machine Intelligence 40 (2018)"),
        ("ICML", "Extended version of the ICLR 2019 paper"),
        ("ICML", "10 pages, 4 figures"),  # not a venue at all: nothing to compare with
        ("Journal of Foo Studies", "12 pages, 3 figures"),
        ("ICML", "PMLR 97:1-10, 2019"),  # ICML's series, in words the table does not know
        ("Proceedings of Machine Learning Research", "ICML 2019"),
    ],
)
def test_no_settled_journal_ref_says_nothing(claimed, journal_ref):
    assert v2.journal_ref_rule(claimed, journal_ref).compared is False
