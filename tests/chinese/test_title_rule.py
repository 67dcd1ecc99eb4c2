"""The cases' title pairs, decided by the waterfall over loopback (cited title vs CSL title)."""

from __future__ import annotations

import pytest

from tests.chinese.conftest import waterfall
from tests.chinese.helpers import TITLE, csl, refs, verdicts_for

D = "10.5555/t"
T2 = "合成引文核验闸的确定性评估方法研究"


async def _decide(registers, corpus, cited: str, registered: str) -> str:
    corpus.agencies["10.5555"] = "ISTIC"
    corpus.csl[D] = csl(D, title=registered)
    references = refs({"title": cited, "doi": D, "language": "zh"})
    result = await waterfall(registers.settings(), references, verdicts_for(references))
    return result.outcomes["reason_code"].to_pylist()[0]


@pytest.mark.parametrize(
    ("cited", "registered"),
    [
        ("宫颈腺癌中ＰｒｏＥＸＣ和ＰＲＭＴ５的表达及其临床意义", TITLE),
        (f"{TITLE}。", TITLE),
        ("宫颈腺癌中 ProEXC 和 PRMT5 的表达及其临床意义", TITLE),
        (f"《{TITLE}》", TITLE),
        (f"{T2}.", T2),
        (f"{T2}．", T2),
        (f"“{T2}”", T2),
        (f"‘{T2}’", T2),
        (f"{T2}\u3000", T2),
        (TITLE, "宫颈腺癌中ＰｒｏＥＸＣ和ＰＲＭＴ５的表达及其临床意义。"),  # other direction
    ],
)
async def test_variants_verify(registers, corpus, cited, registered):
    assert await _decide(registers, corpus, cited, registered) == "DOI_TITLE_VERIFIED"


@pytest.mark.parametrize(
    ("cited", "registered"),
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
        ("《红楼梦》与《金瓶梅》", "红楼梦》与《金瓶梅"),
        ("宫颈癌及癌前病变组织hTERC基因表达及其临床意义", TITLE),
    ],
)
async def test_distinct_pairs_are_mismatch(registers, corpus, cited, registered):
    assert await _decide(registers, corpus, cited, registered) == "DOI_TITLE_MISMATCH"
