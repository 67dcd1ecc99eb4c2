"""Cited and never cited, in bodies that cite by superscript, `(n)` and `[n]` (#35 item 3).

One article of 60 references is rendered by the real tools, each form from the same text:
- pandoc + citeproc with Debian's CSL styles (Nature, AMA, Vancouver, Vancouver superscript,
  Science, PNAS, BMJ, ACS, AIP, Angewandte, RSC, Elsevier numbered, IEEE for `[n]`), one
  column and two, and Nature, AMA and Vancouver as Word files, Nature as OpenDocument and as
  plain text (`-t plain`: Unicode superscript digits, `^(2–4)` where there are none);
- pdflatex + BibTeX with natbib's `super` option (unsrtnat) and the `cite` package's
  `superscript` option (unsrt), two columns and one, and a line-numbered manuscript (`lineno`)
  with `hyperref` links.

References 1-54 (by key) are cited, some several times and in runs that the styles compress into
ranges (`3–7`); 55-60 never are (`nocite`; in the LaTeX forms `\\nocite` stands mid-body, so
their numbers fall between cited ones). The body is full of numbers that are no marker: years,
pages, tables, sections, counts, numbered equations, exponents (`10^5`, `R^2`, `cm^2`), the
authors' affiliation marks and a footnote. Each reference's title carries its key's number
(`Study 17 ...`), so rows are paired with keys exactly; in the styles that print no title
(AIP, Angewandte, RSC), by their number, which citeproc gives in order of first citation.

Counted per form: rows read; cited references marked cited; never-cited ones reported so;
**false "never cited"** (a cited reference reported uncited: the error that matters); rows on
which nothing is claimed. Needs pandoc 2.11+, pdflatex and bibtex (texlive-latex-recommended,
-latex-extra) and `citation-style-language-styles`; renders go to `benchmarks/data/markers/`
(ignored by git). Usage: `PYTHONPATH=$PWD python benchmarks/markers.py [--only NAME ...]`.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from auditor.load import load_files
from auditor.load.documents.cited import NOT_CITED

DATA = Path(__file__).parent / "data" / "markers"
CSL_DIR = Path("/usr/share/citation-style-language/styles")
CITED, TOTAL = 54, 60
_STUDY_RE = re.compile(r"Study (\d+) ")


@dataclass(frozen=True)
class Form:
    """One rendering: `tool` is `csl` (pandoc) or `bst` (pdflatex)."""

    name: str
    tool: str
    style: str
    columns: int = 1
    package: str = ""
    out: str = "pdf"


FORMS = [
    Form("nature", "csl", "nature"),
    Form("nature-2col", "csl", "nature", columns=2),
    Form("ama", "csl", "american-medical-association"),
    Form("vancouver", "csl", "vancouver"),
    Form("vancouver-superscript", "csl", "vancouver-superscript"),
    Form("ieee", "csl", "ieee"),
    Form("science", "csl", "science"),
    Form("pnas", "csl", "pnas"),
    Form("bmj", "csl", "bmj"),
    Form("acs", "csl", "american-chemical-society"),
    Form("aip", "csl", "american-institute-of-physics"),
    Form("angewandte", "csl", "angewandte-chemie"),
    Form("rsc", "csl", "royal-society-of-chemistry"),
    Form("elsevier-numbered", "csl", "elsevier-with-titles"),
    Form("nature-docx", "csl", "nature", out="docx"),
    Form("ama-docx", "csl", "american-medical-association", out="docx"),
    Form("vancouver-docx", "csl", "vancouver", out="docx"),
    Form("nature-odt", "csl", "nature", out="odt"),
    Form("nature-txt", "csl", "nature", out="txt"),
    Form("natbib-super-2col", "bst", "unsrtnat", 2, r"\usepackage[super,sort&compress]{natbib}"),
    Form("cite-superscript", "bst", "unsrt", 1, r"\usepackage[superscript]{cite}"),
    Form(
        "natbib-super-lineno-hyperref",
        "bst",
        "unsrtnat",
        1,
        r"\usepackage[super,sort&compress]{natbib}\usepackage{lineno}\linenumbers"
        r"\usepackage[colorlinks]{hyperref}",
    ),
]

# pieces of the body: ("t", text), ("c", keys), ("n", keys never cited), ("m", TeX math),
# ("e", a numbered equation), ("f", a footnote)
Piece = tuple[str, object]


def _key(n: int) -> str:
    return f"k{n:02d}"


def bib() -> str:
    """The 60 references, each title naming its number."""
    rng = random.Random(35)
    surnames = ["Smith", "Lee", "Park", "Zhou", "Wu", "Kim", "Garcia", "Novak", "Okafor", "Berg"]
    journals = ["Nature", "Science", "Cell", "The Lancet", "PLOS ONE", "Physical Review Letters"]
    out = []
    for n in range(1, TOTAL + 1):
        a, b = rng.sample(surnames, 2)
        out.append(
            f"@article{{{_key(n)}, author = {{{a}, Ann and {b}, Bo}}, "
            f"title = {{Study {n} of how references are marked in print}}, "
            f"journal = {{{rng.choice(journals)}}}, volume = {{{rng.randint(1, 600)}}}, "
            f"pages = {{{(p := rng.randint(1, 900))}--{p + rng.randint(2, 20)}}}, "
            f"year = {{{rng.randint(1990, 2024)}}}}}\n"
        )
    return "".join(out)


def body() -> list[list[Piece]]:
    """Paragraphs citing 1-54 in order (some again, some in runs), distractors between."""
    rng = random.Random(3)
    paragraphs: list[list[Piece]] = []
    n = 1
    distractors: list[list[Piece]] = [
        [("t", "In 2019 and again in 2021 the field grew, and 57 cases were seen.")],
        [("t", "Table 58 and page 56 of the survey list the 59 sites of Section 55.")],
        [
            ("t", "The rate was "),
            ("m", r"10^{5}"),
            ("t", " per litre, with "),
            ("m", "R^{2}"),
            ("t", " of 0.60 over 55 "),
            ("m", r"\mathrm{cm}^{2}"),
            ("t", "."),
        ],  # fmt: skip
        [
            ("t", "The model is"),
            ("e", r"y_{i} = \alpha + \beta x_{i} + \varepsilon_{i}"),
            ("t", "and it is fitted as in Eq. (1) for 60 days."),
        ],  # fmt: skip
        [
            ("t", "Every sample was counted twice"),
            ("f", "Counts were made blind."),
            ("t", " (n = 56), and 58 of them agreed."),
        ],  # fmt: skip
        [
            ("t", "A second model is"),
            ("e", r"z = \gamma y + \delta"),
            ("t", "with Figure 2 and Eq. (2) giving its 57 parameters."),
        ],  # fmt: skip
    ]
    nocite = iter(range(CITED + 1, TOTAL + 1))
    while n <= CITED:
        sentences: list[Piece] = []
        for _ in range(3):
            if n > CITED:
                break
            run = min(rng.choice([1, 1, 1, 2, 3, 5]), CITED - n + 1)
            keys = [_key(k) for k in range(n, n + run)]
            if n > 6 and rng.random() < 0.3:
                keys.append(_key(rng.randint(1, n - 1)))
            n += run
            sentences += [("t", f"Markers were studied in {rng.randint(12, 99)} ways"), ("c", keys)]
            sentences.append(("t", ". "))
        if n > 20 and (k := next(nocite, None)) is not None:
            sentences.append(("n", [_key(k)]))
        paragraphs.append(sentences)
        if distractors and rng.random() < 0.6:
            paragraphs.append(distractors.pop(0))
    paragraphs += distractors
    paragraphs.append([("n", [_key(k) for k in nocite])])
    return paragraphs


def markdown(paragraphs: list[list[Piece]]) -> str:
    """The body as pandoc Markdown (uncited keys in `nocite`)."""
    never = [k for p in paragraphs for kind, v in p if kind == "n" for k in v]  # type: ignore[attr-defined]
    out = [
        "---",
        "title: How references are marked",
        "author: Ann Smith^1,2^ and Bo Jones^3^",
        "nocite: '" + ", ".join(f"@{k}" for k in never) + "'",
        "---",
        "",
        "# Introduction",
        "",
    ]
    for p in paragraphs:
        text = ""
        for kind, v in p:
            if kind == "t":
                text += str(v)
            elif kind == "c":
                text += " [" + "; ".join(f"@{k}" for k in v) + "]"  # type: ignore[attr-defined]
            elif kind == "m":
                text += f"${v}$"
            elif kind == "e":
                text += f"\n\\begin{{equation}}{v}\\end{{equation}}\n"
            elif kind == "f":
                text += f"^[{v}]"
        out += [text, ""]
    out += ["# References", ""]
    return "\n".join(out)


def latex(paragraphs: list[list[Piece]], form: Form) -> str:
    """The body as a LaTeX article (`\\nocite` where the piece stands)."""
    cols = ",twocolumn" if form.columns == 2 else ""
    out = [
        f"\\documentclass[10pt{cols}]{{article}}",
        "\\usepackage[T1]{fontenc}\\usepackage{amsmath}",
        form.package,
        "\\title{How references are marked}",
        "\\author{Ann Smith\\textsuperscript{1,2} and Bo Jones\\textsuperscript{3}}",
        "\\begin{document}\\maketitle",
        "\\section{Introduction}",
    ]
    for p in paragraphs:
        text = ""
        for kind, v in p:
            if kind == "t":
                text += str(v)
            elif kind == "c":
                text += "\\cite{" + ",".join(v) + "}"  # type: ignore[arg-type]
            elif kind == "n":
                text += "\\nocite{" + ",".join(v) + "}"  # type: ignore[arg-type]
            elif kind == "m":
                text += f"${v}$"
            elif kind == "e":
                text += f"\n\\begin{{equation}}{v}\\end{{equation}}\n"
            elif kind == "f":
                text += f"\\footnote{{{v}}}"
        out += [text, ""]
    out += [f"\\bibliographystyle{{{form.style}}}", "\\bibliography{refs}", "\\end{document}"]
    return "\n".join(out)


def render(form: Form) -> Path:
    """The PDF (or Word file) of `form`, made once under `DATA`."""
    work = DATA / form.name
    pdf = work / f"doc.{form.out}"
    if pdf.exists():
        return pdf
    work.mkdir(parents=True, exist_ok=True)
    (work / "refs.bib").write_text(bib(), encoding="utf-8")
    if form.tool == "csl":
        (work / "doc.md").write_text(markdown(body()), encoding="utf-8")
        extra = ["-V", "classoption=twocolumn"] if form.columns == 2 else []
        extra += ["-t", "plain"] if form.out == "txt" else []
        csl = CSL_DIR / f"{form.style}.csl"
        cmd = ["pandoc", "doc.md", "--citeproc", f"--csl={csl}", "--bibliography=refs.bib"]
        subprocess.run([*cmd, *extra, "-o", pdf.name], cwd=work, check=True, timeout=600)
    else:
        (work / "doc.tex").write_text(latex(body(), form), encoding="utf-8")
        tex = ["pdflatex", "-interaction=batchmode", "doc.tex"]
        for step in (tex, ["bibtex", "doc"], tex, tex):
            subprocess.run(step, cwd=work, capture_output=True, check=False, timeout=600)
    if not pdf.exists():
        raise SystemExit(f"{form.name}: no PDF made (see {work})")
    return pdf


def score(form: Form) -> dict[str, object]:
    """What the reader says of each reference of `form`'s PDF, against the truth."""
    rows = load_files([str(render(form))]).table.to_pylist()
    counts = dict.fromkeys(
        ["cited_marked", "uncited_reported", "false_uncited", "cited_no_claim", "unaligned"], 0
    )
    seen = set()
    for r in rows:
        m = _STUDY_RE.search(r["reference_text"] or "")
        label = str(r["source_label"] or "")
        if m:
            n = int(m.group(1))
        elif form.tool == "csl" and label.isdigit():
            # a style printing no titles: citeproc numbers 1-54 in order of first citation
            # (the body cites them in key order) and the uncited after them
            n = int(label)
        else:
            counts["unaligned"] += 1
            continue
        seen.add(n)
        uncited = NOT_CITED in (r["warnings"] or [])
        if n <= CITED:
            counts["cited_marked"] += r["cited_at"] is not None
            counts["false_uncited"] += uncited
            counts["cited_no_claim"] += r["cited_at"] is None and not uncited
        else:
            counts["uncited_reported"] += uncited
    return {"form": form.name, "rows": len(rows), "keys_read": len(seen), **counts}


def main() -> None:
    """Render and score every form (or `--only` some); print one JSON line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--fresh", action="store_true", help="render again")
    args = parser.parse_args()
    for form in FORMS:
        if args.only and form.name not in args.only:
            continue
        if args.fresh:
            shutil.rmtree(DATA / form.name, ignore_errors=True)
        result = score(form)
        print(json.dumps({**result, "cited": CITED, "uncited": TOTAL - CITED}))


if __name__ == "__main__":
    main()
