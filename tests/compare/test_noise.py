"""Placeholders and noise generated entries carry (#25), and real names and venues left alone."""

from __future__ import annotations

import pytest

from auditor.compare.noise import is_placeholder_name, venue_holds_citation


@pytest.mark.parametrize(
    "name",
    ["Firstname Lastname", "Lastname, Firstname", "John Doe", "Doe, Jane", "X", "A.", "Author 1",
     "Author2", "Name1 Surname1", "First1 Last1", "Anonymous"],
)  # fmt: skip
def test_placeholders(name: str) -> None:
    assert is_placeholder_name(name)


@pytest.mark.parametrize(
    "name",
    ["Jane Smith", "Smith, John", "Xu, X.", "X. Li", "Ng, Andrew Y.", "Li", "王", "Ö. Öz",
     "Yoshua Bengio", "Lastname-Jones, Ann", "Firstova, Olga"],
)  # fmt: skip
def test_real_names_are_not_placeholders(name: str) -> None:
    assert not is_placeholder_name(name)


@pytest.mark.parametrize(
    "venue",
    [
        "Vaswani, A. and Shazeer, N. Attention is all you need. In Advances in Neural "
        "Information Processing Systems, pages 5998--6008, 2017",
        "Devlin, J., Chang, M.-W. BERT. In NAACL, 2019",
        "He et al. Deep residual learning. In CVPR, 2016",
        "Deep residual learning for image recognition. In CVPR, pp. 770-778",
    ],
)
def test_a_whole_citation_in_the_venue_field(venue: str) -> None:
    assert venue_holds_citation(venue)


@pytest.mark.parametrize(
    "venue",
    [
        "Proceedings of the 2017 Conference on Empirical Methods in Natural Language Processing",
        "Advances in Neural Information Processing Systems 30",
        "Proc. IEEE Conf. Comput. Vis. Pattern Recognit. (CVPR), pp. 770-778",
        "Lecture Notes in Computer Science, vol. 9351, Springer, 2015",
        "Journal of Machine Learning Research",
        "Findings of the Association for Computational Linguistics: EMNLP 2020",
        None,
        "",
    ],
)
def test_real_venues_are_not_citations(venue: str | None) -> None:
    assert not venue_holds_citation(venue)
