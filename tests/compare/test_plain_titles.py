"""The words of plain titles over a column are `title_words`' (the rest of the equivalence is in
`test_title_columns`): here the spelling filter, which must pass every word a rule changes."""

from __future__ import annotations

import random

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.compare import plain_titles
from auditor.compare.forms import american_word, title_words
from tests.properties import examples


@settings(max_examples=examples(500), deadline=None)
@given(st.text(st.sampled_from("aeilosyzdgnrtmcbh"), min_size=1, max_size=14))
def test_a_word_the_spelling_filter_passes_over_keeps_its_spelling(word: str) -> None:
    words = pa.array([word], pa.string())
    assert plain_titles._american(words).to_pylist() == [american_word(word)]


def test_the_spelling_filter_passes_every_word_a_rule_changes() -> None:
    rng = random.Random(5)
    stems = ["organ", "optim", "real", "catal", "anal", "model", "travel", "h", "an", "leuk", "x"]
    ends = ["ise", "ised", "isation", "yse", "ysed", "ling", "led", "aemia", "aem", "e", "ing"]
    words = [s + e for s in stems for e in ends] + ["oesophagus", "oedema", "colour", "vs"]
    words += [
        "".join(rng.choice("aeiloszy") for _ in range(rng.randrange(2, 9))) for _ in range(500)
    ]
    got = plain_titles._american(pa.array(words, pa.string())).to_pylist()
    assert got == [american_word(w) for w in words]
    assert sum(g != w for g, w in zip(got, words, strict=True)) > 20


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.text(st.sampled_from("ab -/.,:'_Z9"), max_size=20), min_size=1, max_size=20))
def test_words_of_plain_strings_are_title_words(strings: list[str]) -> None:
    column = pa.array(strings, pa.string())
    plain, _, _ = plain_titles.plain_strings(column)
    words = plain_titles.read_words([column.filter(pa.array(plain))])
    kept = [s for s, p in zip(strings, plain.tolist(), strict=True) if p]
    spelt = words.spelt.to_pylist()
    codes, offsets = words.codes.tolist(), words.offsets.tolist()
    got = [tuple(spelt[c] for c in codes[offsets[k] : offsets[k + 1]]) for k in range(len(kept))]
    assert got == [title_words(s) for s in kept]
