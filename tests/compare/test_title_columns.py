"""The column form of the title rule decides every pair it takes exactly as `title_rule` does:
the same `Field`, its score equal to the bit. Real titles (`../shared/realdata`, when present),
real-shaped titles and their mutations (`title_shapes`), random strings."""

from __future__ import annotations

import json
import logging
import random
import re
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.compare import plain_titles, title_columns, word_edits
from auditor.compare.title_columns import decide_pairs, title_decisions
from auditor.compare.v2 import Field, title_rule
from auditor.errors import InputError
from auditor.load import load_files
from tests.compare.title_shapes import SEEDS, pairs_of
from tests.missing_fixtures import REALDATA, needs
from tests.properties import examples

Pairs = Sequence[tuple[str | None, str | None]]


def _identical(a: Field | None, b: Field) -> bool:
    """Equal fields, the finding of the same type, the score equal to the bit."""
    if a is None or a != b or type(a.finding) is not type(b.finding):
        return False
    if a.score is None or b.score is None:
        return a.score is b.score
    return type(a.score) is float and a.score.hex() == b.score.hex()


def _mismatches(pairs: Pairs) -> tuple[list[tuple[object, ...]], int]:
    """The pairs the column form decides otherwise than `title_rule`, and how many it decided."""
    claimed, register = [c for c, _ in pairs], [r for _, r in pairs]
    got = title_decisions(pa.array(claimed, pa.string()), pa.array(register, pa.string()))
    wrong = []
    for k, (c, r) in enumerate(pairs):
        if got.decided[k] and not _identical(got.field(k), title_rule(c, r)):
            wrong.append((c, r, got.field(k), title_rule(c, r)))
    return wrong, int(got.decided.sum())


def _rule(claimed: Sequence[str | None], register: Sequence[str | None]) -> list[Field]:
    return [title_rule(c, r) for c, r in zip(claimed, register, strict=True)]


def test_real_shaped_titles_and_their_mutations_are_decided_as_the_rule_decides() -> None:
    pairs = pairs_of(SEEDS)
    wrong, decided = _mismatches(pairs)
    assert wrong == []
    # The column form takes a good share (else this test would check little) but not all:
    # markup, TeX, subtitles, non-ASCII and empty titles are the rule's.
    assert len(pairs) // 5 < decided < len(pairs)


def test_decide_pairs_is_title_rule_and_leaves_only_the_unproved_pairs_to_the_rule() -> None:
    pairs = pairs_of(SEEDS, seed=11)
    claimed, register = [c for c, _ in pairs], [r for _, r in pairs]
    asked: list[tuple[str | None, str | None]] = []

    def rule(c: Sequence[str | None], r: Sequence[str | None]) -> list[Field]:
        asked.extend(zip(c, r, strict=True))
        return _rule(c, r)

    got = decide_pairs(claimed, register, rule)
    want = _rule(claimed, register)
    assert all(_identical(g, w) for g, w in zip(got, want, strict=True))
    decided = title_decisions(pa.array(claimed, pa.string()), pa.array(register, pa.string()))
    assert asked == [p for p, d in zip(pairs, decided.decided, strict=True) if not d]
    assert any(c is None for c, _ in asked) and len(asked) < len(pairs)


def test_a_short_answer_of_the_rule_is_an_error_not_a_shifted_column() -> None:
    with pytest.raises(ValueError, match="decisions of"):
        decide_pairs(["a b", None], ["a b", "c"], lambda c, r: [])


def test_plain_pairs_are_the_column_form_s_and_the_others_are_not() -> None:
    pairs = [
        ("Deep residual learning", "deep residual learning."),
        ("Self-supervised pretraining", "self supervised pre-training"),
        ("Optimisation of colour", "optimization of color"),
        ("A b c d", "a b x d"),
        ("Deep learning", "Learning to rank with trees"),
        ("Deep learning: a survey", "Deep learning"),  # the same by the subtitle rule
        ("Deep learning", "Deep-learning (Student Abstract)"),
        ("RETRACTED: Deep learning", "Deep learning"),
        ("Deep <i>learning</i>", "Deep learning"),
        ("Deep learning $x$", "Deep learning"),
        ("Déep learning", "Deep learning"),
        ("!!!", "Deep learning"),
        (None, "Deep learning"),
        ("Deep learning", None),
    ]
    got = title_decisions(
        pa.array([c for c, _ in pairs], pa.string()), pa.array([r for _, r in pairs], pa.string())
    )
    assert got.decided.tolist() == [True] * 7 + [False] * 7
    assert [got.field(k) for k in range(7)] == _rule(
        [c for c, _ in pairs[:7]], [r for _, r in pairs[:7]]
    )
    assert [got.field(k).match for k in range(7)] == [True] * 3 + [False] * 2 + [True] * 2  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "broken",
    [
        pytest.param((plain_titles, "_SPELLING_RULE_WORDS", "^$"), id="spelling-rules-skipped"),
        pytest.param((plain_titles, "_NOTICE_WORDS", "^$"), id="notice-labels-taken"),
        pytest.param((plain_titles, "_SEPARATORS", "^$"), id="subtitles-taken"),
        pytest.param((word_edits, "NEAR_MISS_MAX_WORDS", 1), id="near-miss-off-by-one"),
    ],
)
def test_the_check_catches_a_column_form_that_differs(
    broken: tuple[object, str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(*broken)
    wrong, _ = _mismatches(pairs_of(SEEDS))
    assert wrong


def test_a_wrong_score_is_caught_to_the_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    real = plain_titles.common_words
    monkeypatch.setattr(
        plain_titles,
        "common_words",
        lambda w, a, b: (lambda s: (s[0], s[1] + (s[0] > 1)))(real(w, a, b)),
    )
    wrong, _ = _mismatches(pairs_of(SEEDS))
    assert wrong and all(w[2].score != w[3].score for w in wrong)


# -- real titles ---------------------------------------------------------------------------------

_JSON_TITLE = re.compile(
    r'"(?:title|container-title|original-title|subtitle|short-title)"\s*:\s*\[?\s*"((?:[^"\\]|\\.)*)"'
)
_XML_TITLE = re.compile(r"<((?:\w+:)?(?:title|ArticleTitle|BookTitle))\b[^>]*>(.*?)</\1>", re.S)


def _body_titles(root: Path) -> set[str]:
    out: set[str] = set()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        text = path.read_text("utf-8", "replace")
        for match in _JSON_TITLE.finditer(text):
            try:
                out.add(json.loads(f'"{match.group(1)}"'))
            except json.JSONDecodeError:
                out.add(match.group(1))
        out.update(m.group(2) for m in _XML_TITLE.finditer(text))
    return out


def _bib_titles(root: Path) -> set[str]:
    logging.getLogger("bibtexparser").setLevel(logging.ERROR)
    out: set[str] = set()
    for path in sorted(root.rglob("*")):
        if path.suffix not in {".bib", ".ris", ".txt", ".csv"}:
            continue
        try:
            table = load_files([str(path)]).table
        except InputError:
            continue
        out.update(t for t in table.column("title").to_pylist() if t)
    return out


@needs(REALDATA)
def test_every_real_title_and_its_mutations_are_decided_as_the_rule_decides() -> None:
    titles = sorted(_bib_titles(REALDATA / "bibs") | _body_titles(REALDATA / "bodies"))
    assert len(titles) > 300
    pairs = pairs_of(titles, seed=3)
    wrong, decided = _mismatches(pairs)
    assert wrong == []
    assert decided > len(pairs) // 5


# -- random strings ------------------------------------------------------------------------------

_CHARS = st.sampled_from(
    list("abcdeilnorstyzAEIRT0123456789 -/:.,?!()[]'\"_<>&;$\\{}#\t\n")
    + ["é", "α", "β", "\u2013", "\u2014", "\u00a0", "\x1c", "ß", "İ", "\u212a", "ﬁ", "中"]
)
_WORDS = st.sampled_from(
    [
        "colour", "color", "centre", "modelling", "modeling", "labelled", "organise",
        "organize", "analyse", "analyze", "haemoglobin", "oedema", "vs", "versus", "grey",
        "pre", "training", "pretraining", "state", "of", "the", "art", "retracted", "withdrawn",
        "deep", "learning", "a", "an", "is", "ise", "ys", "ae", "oe", "ll", "l", "alpha", "α",
        "Deep", "LEARNING", "x2", "2", "tumour", "whilst", "amongst", "travelling", "signalling",
    ]
)  # fmt: skip
_SEPS = st.sampled_from([" ", " ", " ", "-", "/", ": ", " - ", ". ", "? ", ", ", "  ", "_"])


@st.composite
def _titles(draw: st.DrawFn) -> str | None:
    if draw(st.integers(0, 19)) == 0:
        return None
    if draw(st.booleans()):
        return draw(st.text(_CHARS, max_size=40))
    words = draw(st.lists(_WORDS, min_size=0, max_size=8))
    seps = draw(st.lists(_SEPS, min_size=len(words), max_size=len(words)))
    return "".join(w + s for w, s in zip(words, seps, strict=True)).strip(" ")


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(st.tuples(_titles(), _titles()), min_size=1, max_size=30))
def test_random_pairs_are_decided_as_the_rule_decides(
    pairs: list[tuple[str | None, str | None]],
) -> None:
    # Each claimed title against its own register title and the next pair's (a shared word set).
    shifted = [(c, pairs[(k + 1) % len(pairs)][1]) for k, (c, _) in enumerate(pairs)]
    wrong, _ = _mismatches(pairs + shifted)
    assert wrong == []


def _edited(words: list[str], edits: list[tuple[int, int, str]]) -> list[str]:
    out = list(words)
    for kind, at, word in edits:
        k = at % (len(out) + 1)
        if kind == 0:
            out.insert(k, word)
        elif out and kind == 1:
            del out[k % len(out)]
        elif out:
            out[k % len(out)] = word
    return out


@settings(max_examples=examples(400), deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from("abc"), max_size=30),
            st.lists(st.tuples(st.integers(0, 2), st.integers(0, 40), st.sampled_from("abcd"))),
        ),
        min_size=1,
        max_size=20,
    )
)
def test_word_edits_near_the_near_miss_bound_are_counted_as_the_rule_counts(
    cases: list[tuple[list[str], list[tuple[int, int, str]]]],
) -> None:
    # Few distinct words and a few edits: distances of 0 to 4, where the bound of 2 is decided.
    pairs: list[tuple[str | None, str | None]] = [
        (" ".join(w), " ".join(_edited(w, e))) for w, e in cases
    ]
    wrong, _ = _mismatches(pairs)
    assert wrong == []


def test_long_titles_past_the_banded_lengths_are_decided_as_the_rule_decides() -> None:
    rng = random.Random(13)
    base = [rng.choice(["deep", "learning", "model", "data", "graph"]) for _ in range(240)]
    lengths = (11, 12, 13, 23, 24, 25, 47, 48, 49, 95, 96, 97, 98, 150, 240)
    edits = ([], [(2, 5, "x")], [(0, 1, "y"), (1, 7, "")], [(2, 3, "z")] * 3)
    pairs: list[tuple[str | None, str | None]] = [
        (" ".join(base[:n]), " ".join(_edited(base[:n], e))) for n in lengths for e in edits
    ]
    wrong, decided = _mismatches(pairs)
    assert wrong == [] and decided == len(pairs)


def test_decide_rows_gives_each_row_the_rule_s_field_each_distinct_pair_asked_once() -> None:
    pairs = pairs_of(SEEDS, seed=17)
    rows = pairs + pairs[::3] + [(None, None), (None, None), ("", None), (None, "")]
    claimed = pa.array([c for c, _ in rows], pa.string())
    register = pa.array([r for _, r in rows], pa.string())
    asked: list[tuple[str | None, str | None]] = []

    def rule(c: Sequence[str | None], r: Sequence[str | None]) -> list[Field]:
        asked.extend(zip(c, r, strict=True))
        return _rule(c, r)

    got = title_columns.decide_rows(claimed, register, rule)
    assert len(asked) == len(set(asked)) and set(asked) >= {(None, None), ("", None)}
    by_rule = dict(zip(got.left.tolist(), got.fields, strict=True))
    for k, (c, r) in enumerate(rows):
        mine = got.decisions.field(k) if got.decisions.decided[k] else by_rule[k]
        assert _identical(mine, title_rule(c, r)), (c, r)
    kinds = got.decisions.kinds()[got.decisions.decided]
    findings = [title_columns.FINDINGS[k] for k in kinds.tolist()]
    assert findings == [f.finding for f in (got.decisions.field(k) for k in range(len(rows))) if f]


def test_shares_of_a_few_pairs_and_strings_decide_as_one_share(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pairs = pairs_of(SEEDS[:12], seed=19)
    claimed = pa.array([c for c, _ in pairs], pa.string())
    register = pa.array([r for _, r in pairs], pa.string())
    whole = title_columns.decide_rows(claimed, register, _rule)
    monkeypatch.setattr(title_columns, "_PAIRS", 7)
    monkeypatch.setattr(title_columns, "_SHARE", 3)
    shared = title_columns.decide_rows(claimed, register, _rule)
    for name in ("decided", "same", "near", "score"):
        assert getattr(whole.decisions, name).tolist() == getattr(shared.decisions, name).tolist()
    assert shared.left.tolist() == whole.left.tolist() and shared.fields == whole.fields
    wrong, decided = _mismatches(pairs)
    assert wrong == [] and decided > len(pairs) // 5
