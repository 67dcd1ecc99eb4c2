"""Tests of `auditor.text`: `normalize_text` and the Chinese-aware title form."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.text import (
    han_title_form,
    han_titles_equal,
    has_han,
    normalize_many,
    normalize_text,
)
from tests.properties import examples

TRICKY = "ΣσςAa \u0301\u0327İ\x00-_'.ǅ宫Ⅻ²\u3000"
PROEXC = "宫颈腺癌中ProEXC和PRMT5的表达及其临床意义"
GATE = "合成引文核验闸的确定性评估方法研究"


@pytest.mark.parametrize(
    "variant",
    [
        PROEXC,
        "宫颈腺癌中ＰｒｏＥＸＣ和ＰＲＭＴ５的表达及其临床意义",
        PROEXC + "。",
        "宫颈腺癌中 ProEXC 和 PRMT5 的表达及其临床意义",
        f"《{PROEXC}》",
        "宫颈腺癌中ＰｒｏＥＸＣ和ＰＲＭＴ５的表达及其临床意义。",
    ],
)
def test_proexc_variants_share_one_form(variant: str) -> None:
    assert han_title_form(variant) == PROEXC


@pytest.mark.parametrize(
    "variant",
    [GATE + ".", GATE + "．", f"“{GATE}”", f"‘{GATE}’", GATE + "\u3000", f"《{GATE}》。"],
)
def test_gate_title_variants_share_one_form(variant: str) -> None:
    assert han_title_form(variant) == GATE


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("ER+乳腺癌患者的预后分析", "ER-乳腺癌患者的预后分析"),
        ("CD4+T细胞计数与预后", "CD4−T细胞计数与预后"),
        ("生存率提高4.5%的临床意义", "生存率提高45%的临床意义"),
        ("剂量2²的研究", "剂量22的研究"),
        ("Straße治疗研究", "Strasse治疗研究"),
        ("治疗是否有效？", "治疗是否有效"),
        ("PD L1蛋白表达", "PDL 1蛋白表达"),
        ("P53蛋白表达", "p53蛋白表达"),
        ("宫颈癌筛查研究", "宮頸癌篩查研究"),
        ("宫颈癌及癌前病变组织hTERC基因表达及其临床意义", PROEXC),
    ],
)
def test_distinct_titles_stay_distinct(a: str, b: str) -> None:
    assert han_titles_equal(a, b) is False
    assert han_titles_equal(b, a) is False


def test_wrapper_only_stripped_when_it_encloses_the_whole_title() -> None:
    assert han_title_form("《红楼梦》与《金瓶梅》") == "《红楼梦》与《金瓶梅》"
    assert han_title_form("《《红楼梦》研究》") == "《红楼梦》研究"


def test_matching_and_unverifiable() -> None:
    fullwidth = "宫颈腺癌中ＰｒｏＥＸＣ和ＰＲＭＴ５的表达及其临床意义。"
    assert han_titles_equal(fullwidth, PROEXC) is True
    assert han_titles_equal(PROEXC, fullwidth) is True
    assert han_titles_equal("Editorial", "Editorial") is True
    assert han_titles_equal("", PROEXC) is None
    assert han_titles_equal(PROEXC, "。") is None
    assert han_titles_equal(None, None) is None
    assert han_titles_equal(PROEXC, "[Expression of ProEXC and PRMT5 in cervical cancer].") is None


def test_has_han() -> None:
    assert has_han("abc 中 def")
    assert has_han("\U00020000")  # Extension B
    assert not has_han("ひらがな カタカナ")
    assert not has_han("")
    assert not has_han(None)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("  Héllo,  Wörld!  ", "hello world"),
        ("O'Brien", "obrien"),
        ("Foltyn\u2010Dumitru", "foltyndumitru"),
        ("x² ﬁne", "x2 fine"),
        ("Straße", "straße"),
        ("Tab\there\nnewline\u3000ideo", "tab here newline ideo"),
        ("宫颈 腺癌", "宫颈 腺癌"),
        ("Ωμέγα", "ωμεγα"),
        ("?!—", ""),
        ("", ""),
        (None, ""),
    ],
)
def test_normalize_text(raw: str | None, expected: str) -> None:
    assert normalize_text(raw) == expected


def test_regex_classes_are_the_criteria_classes() -> None:
    """`normalize_text` relies on `\\w` = L* ∪ N* ∪ {_} and `\\s` = `str.isspace`, everywhere."""
    import re
    import sys
    import unicodedata

    word, space = re.compile(r"\w"), re.compile(r"\s")
    for cp in range(sys.maxunicode + 1):
        ch = chr(cp)
        assert bool(word.match(ch)) == (unicodedata.category(ch)[0] in "LN" or ch == "_"), hex(cp)
        assert bool(space.match(ch)) == ch.isspace(), hex(cp)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(list(TRICKY)) | st.characters())))
def test_normalize_many_is_normalize_text(values: list[str]) -> None:
    assert normalize_many(values) == [normalize_text(v) for v in values]


def test_normalize_many_keeps_final_sigma_context_per_string() -> None:
    values = ["ΟΔΟΣ", "Σ", "ΣA", "\u0301Σ"]
    assert normalize_many(values) == [normalize_text(v) for v in values]
