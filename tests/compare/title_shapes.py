"""Titles in the shapes real bibliographies and register bodies have, and the ways a citation
changes them, for the equivalence tests of `auditor.compare.title_columns`.

The seeds are written for these tests in the shapes of `../shared/realdata` (Crossref JATS
markup and entities, arXiv TeX, British spelling, compounds, subtitles, notice labels, Greek,
Chinese); none is copied from it.
"""

from __future__ import annotations

import random

__all__ = ["SEEDS", "mutations", "pairs_of"]

SEEDS = [
    "Deep residual learning for image recognition",
    "Attention is all you need",
    "BERT: Pre-training of deep bidirectional transformers for language understanding",
    "Optimisation of colour models in the visual centre",
    "Modelling the behaviour of labelled data under ageing",
    "Haemoglobin levels in paediatric anaemia: a cohort study",
    "Oesophageal cancer and oedema after surgery",
    "Self-supervised pre-training of visual features",
    "The state-of-the-art in input/output scheduling",
    "What makes a good explanation? Evidence from user studies",
    "A survey of graph neural networks (Extended Abstract)",
    "Learning $\\alpha$-divergences with {N}ormalizing flows",
    "${{\\mathrm {Latent}}}$ diffusion models",
    "Effect of <i>Streptococcus agalactiae</i> on H<sub>2</sub>O uptake",
    "Cats &amp; dogs &#x2013; a comparison",
    "Tom & Jerry; an analysis",
    "RETRACTED: Growth hormone secretagogue increases muscle strength",
    "Retracted article: Frequency of hot Jupiters toward the bulge",
    "Expression of concern - An RNA thermometer dictates toxin production",
    "Withdrawn. A study of nothing",
    "Single-molecule FRET studies on α-synuclein oligomerization",
    "Parkinson’s disease genetically related mutants",
    "Über die Elektrodynamik bewegter Körper",
    "深度学习在图像识别中的应用",
    "基于深度学习的文本分类方法研究",
    "Construction of DNA codes by using algebraic number theory",
    "Adaptive precision solvers for sparse linear systems",
    "Proceedings of the 2015 International Workshop on Data-Intensive Computing - DISCS '15",
    "Eating your own dog food",
    "An assistive device for smoking.",
    "U.S. health policy, 1990-2000",
    "Catalogue of analogue dialogue programmes",
    "Whilst travelling towards the theatre",
    "Signalling pathways and channelling of fuel",
    "On the the repeated repeated words",
    "x",
    "A",
    "100 years of data",
    "snake_case and under_scores",
    "Tabs\tand\nnewlines in a title",
    "Non\u00a0breaking\u2003spaces",
    "ﬁnite ﬁelds and ligatures",
    "Ｆｕｌｌｗｉｄｔｈ letters",
    "Quantum error correction [Invited paper]",
    "The role of β-catenin (and TCF) in signalling",
    "GPT-4 technical report",
    "Are we there yet? ",
    "Part one. Part two",
    "Organised analyses of catalysed reactions",
    "vs. the rest",
]

_BRITISH = {
    "color": "colour", "center": "centre", "modeling": "modelling", "optimization": "optimisation",
    "behavior": "behaviour", "hemoglobin": "haemoglobin", "program": "programme", "gray": "grey",
    "analyze": "analyse", "labeled": "labelled", "toward": "towards", "versus": "vs",
}  # fmt: skip


def _words(title: str) -> list[str]:
    return title.split(" ")


def _edits(title: str, rng: random.Random) -> list[str]:
    words = _words(title)
    k = rng.randrange(len(words))
    changed = [*words[:k], "xylophone", *words[k + 1 :]]
    added = [*words[:k], "novel", *words[k:]]
    dropped = words[:k] + words[k + 1 :]
    swapped = words[::-1]
    doubled = [*words[: k + 1], words[k], *words[k + 1 :]]
    return [" ".join(w) for w in (changed, added, dropped, swapped, doubled)]


def _spellings(title: str) -> list[str]:
    lower = title.lower()
    british = " ".join(_BRITISH.get(w, w) for w in lower.split(" "))
    return [title.upper(), lower, title.title(), british, lower.replace("ize", "ise")]


def _punctuation(title: str, rng: random.Random) -> list[str]:
    k = rng.randrange(len(title) + 1)
    return [
        title[:k] + "," + title[k:],
        title + ".",
        title.replace(" ", "-", 1),
        title.replace("-", ""),
        title.replace("-", " "),
        title.replace(" ", "/", 1),
        title.replace(" ", "  "),
        " " + title + " ",
        "'" + title + "'",
        title.replace(" ", "_", 1),
    ]


def _around(title: str) -> list[str | None]:
    main = title.split(":")[0]
    return [
        title + ": A study",
        title + " - a review",
        title + " \u2013 a review",
        title + "? Evidence from trials",
        title + " (Student Abstract)",
        title + ". Part Two",
        main,
        "RETRACTED: " + title,
        "Withdrawn - " + title,
        title.replace("alpha", "α").replace("beta", "β"),
        title.replace(" ", " $\\alpha$ ", 1),
        title.replace(" ", " \\emph{x} ", 1),
        title.replace(" ", " <i>", 1) + "</i>",
        title.replace(" ", " &amp; ", 1),
        title.replace("e", "é", 1),
        title.replace(" ", " \u2014 ", 1),
        title.replace(" ", "\t", 1),
        title.replace(" ", "\x1c", 1),
        "",
        "   ",
        "!!!",
        None,
    ]


def mutations(title: str, rng: random.Random) -> list[str | None]:
    """Changed copies of `title`: a word changed, added, dropped or doubled; case; spelling;
    punctuation and hyphens; subtitles and notes; notice labels; Greek, TeX, markup, non-ASCII
    and control characters; empty and null."""
    if not title.strip():
        return [title]
    out: list[str | None] = []
    out += _edits(title, rng)
    out += _spellings(title)
    out += _punctuation(title, rng)
    out += _around(title)
    return out


def pairs_of(titles: list[str], seed: int = 7) -> list[tuple[str | None, str | None]]:
    """Each title with itself, with its mutations (both ways round), and with another title."""
    rng = random.Random(seed)
    out: list[tuple[str | None, str | None]] = []
    for k, title in enumerate(titles):
        out.append((title, title))
        out.append((title, titles[(k + 1) % len(titles)]))
        changed = mutations(title, rng)
        out += [(title, m) for m in changed] + [(m, title) for m in changed]
        out.append((rng.choice(changed), rng.choice(changed)))
    return out
