"""The text reader with the model: certain rules first, the model where the rules guess (#35)."""

from __future__ import annotations

import pytest

from auditor.load.documents import merge
from auditor.load.documents import model_fields as model_fields_module
from auditor.load.documents.model_fields import ModelFields, model_fields
from auditor.load.documents.refstring import parse
from auditor.unreadable import WEAK_BELOW


def test_the_model_reads_what_the_rules_split_wrongly() -> None:
    # no year after the names, no quotes, commas between fields: the rules guess the split
    text = "Heidegger M., Être et temps, Gallimard, Paris, 1986."
    rules, both = parse(text, model=False), parse(text)
    assert rules.title != "Être et temps"
    assert both.title == "Être et temps"
    assert both.authors == ["Heidegger, M"] and both.year == 1986
    assert both.confidence["title"] >= WEAK_BELOW


def test_where_the_readers_agree_the_rules_text_stays_as_sure_as_the_surer() -> None:
    text = "Smith, J. A., & Jones, B. (2021). A study of things. Journal of Stuff, 3(2), 1-9."
    rules, both = parse(text, model=False), parse(text)
    assert (both.title, both.authors, both.year) == (rules.title, rules.authors, rules.year)
    assert both.authors == ["Smith, J. A.", "Jones, B."]  # the rules' stops, not the model's
    for field, value in rules.confidence.items():
        assert both.confidence[field] >= value


def test_a_quoted_title_is_the_rules_whatever_the_model_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = ModelFields(authors="J. Smith,", title="Other", confidence={"title": 1.0, "authors": 1})
    monkeypatch.setattr(merge, "model_fields", lambda rest: fake)
    ref = parse('[1] J. Smith, "A quoted title," in Proc. X, 2020.')
    assert ref.title == "A quoted title" and ref.confidence["title"] >= 0.9


def test_a_doubting_model_keeps_a_marked_split_but_makes_it_weak(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "Lee, A. (2021). Right title here. In ICML."
    fake = ModelFields(authors="Lee, A.", title="Wrong", confidence={"title": 0.8, "authors": 0.99})
    monkeypatch.setattr(merge, "model_fields", lambda rest: fake)
    ref = parse(text)
    assert ref.title == "Right title here"  # a marked split, and the model not sure enough
    assert ref.confidence["title"] == pytest.approx(0.2)  # no surer than the model's doubt
    assert ref.confidence["title"] < WEAK_BELOW
    sure = ModelFields(authors="Lee, A.", title="Wrong", confidence={"title": 0.95, "authors": 1})
    monkeypatch.setattr(merge, "model_fields", lambda rest: sure)
    assert parse(text).title == "Wrong"  # a sure model overrules


def test_without_a_model_the_rules_read_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model_fields_module.crf, "read", lambda text: None)
    text = "Heidegger M., Être et temps, Gallimard, Paris, 1986."
    assert parse(text) == parse(text, model=False)


def test_a_string_without_names_or_a_date_stays_weak() -> None:
    got = model_fields("Some words without any marks whatsoever in them")
    assert got is not None and got.authors is None and got.year is None
    assert all(c < WEAK_BELOW for c in got.confidence.values())
    assert parse("Some words without any marks whatsoever in them").confidence["title"] < 0.5


def test_model_fields_strip_the_in_and_the_closing_stop() -> None:
    got = model_fields("Smith, J., & Lee, K. (2019). Learning to read references. In ICML 2019.")
    assert got is not None
    assert got.title == "Learning to read references"
    assert got.authors == "Smith, J., & Lee, K."
    assert got.container_title is not None and not got.container_title.lower().startswith("in")
    assert set(got.confidence) >= {"title", "authors", "year"}


def test_titles_alike_but_for_a_tail_are_one_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "Lee, A. (2023). Drivlme: A large-scale driving benchmark, 2023. In arXiv."
    fake = ModelFields(
        authors="Lee, A.",
        title="Drivlme: A large-scale driving benchmark",
        confidence={"title": 0.85, "authors": 0.99},
    )
    monkeypatch.setattr(merge, "model_fields", lambda rest: fake)
    ref = parse(text)
    assert ref.title == parse(text, model=False).title  # the rules' text stays
    assert ref.confidence["title"] >= 0.85  # and the two readers agree: no doubt
