"""Find the references section of a document's lines.

The section starts after the last heading line that names it (References, Bibliography,
Literature Cited, Works Cited, Reference List, Sources, Références, Bibliographie, Literatur,
Literaturverzeichnis, Bibliografía, Referencias, Bibliografia, Riferimenti bibliografici,
Referências, Литература, 参考文献, 文献; numbered `7 References` or `References:` too), and ends
at the next heading that starts an appendix or supplement. A heading is a short line of its
own. Without a heading, the trailing run of numbered entries (`[1]`, `1.`, `(1)` counting up
to the end) is the section. `None` when neither is found.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from auditor.load.documents.lines import Line

__all__ = ["body_and_section", "is_heading", "references_section"]

_HEADING_RE = re.compile(
    r"^\s*(?:[#*_=]+\s*)?(?:(?:\d{1,2}|[IVX]{1,4}|[A-Z])[.)]?\s+)?"
    r"(?:references?(?:\s+(?:list|cited))?|bibliography|literature\s+cited|works\s+cited|"
    r"sources|cited\s+literature|références(?:\s+bibliographiques)?|bibliographie|literatur|"
    r"literaturverzeichnis|bibliograf[ií]a|referencias(?:\s+bibliogr[aá]ficas)?|"
    r"riferimenti(?:\s+bibliografici)?|refer[eê]ncias(?:\s+bibliogr[aá]ficas)?|литература|"
    r"список\s+литературы|参考文献|参 考 文 献|文献|引用文献)\s*[:.]?\s*(?:[#*_=]+)?\s*$",
    re.IGNORECASE,
)
_END_RE = re.compile(
    r"^\s*(?:[#*_=]+\s*)?(?:(?:[A-Z]|\d{1,2})[.)]?\s+)?"
    r"(?:appendix|appendices|supplementary|supplemental|annex|anhang|anexo|附录|"
    r"a\s+proofs?|checklist|author\s+contributions|acknowledge?ments?)\b.{0,60}$",
    re.IGNORECASE,
)
_NUMBERED_RES = (
    re.compile(r"^\s*\[(\d{1,4})\]"),
    re.compile(r"^\s*(\d{1,4})\.\s"),
    re.compile(r"^\s*\((\d{1,4})\)\s"),
)


def is_heading(line: Line) -> bool:
    """Whether `line` is a references heading."""
    return len(line.text) < 60 and bool(_HEADING_RE.match(line.text))


def references_section(lines: Sequence[Line]) -> list[Line] | None:
    """The lines of the references section (heading excluded), or `None` if there is none."""
    return body_and_section(lines)[1]


def body_and_section(lines: Sequence[Line]) -> tuple[list[Line], list[Line] | None]:
    """`(the lines before the references section, the section)`; `(lines, None)` without one."""
    start = next((i for i in range(len(lines) - 1, -1, -1) if is_heading(lines[i])), None)
    if start is not None:
        rest = list(lines[start + 1 :])
        end = next((i for i, line in enumerate(rest) if _is_end(line) and i > 0), len(rest))
        return list(lines[:start]), rest[:end] or None
    section = _trailing_numbered(lines)
    return list(lines[: len(lines) - len(section)] if section else lines), section


def _is_end(line: Line) -> bool:
    if not _END_RE.match(line.text) or len(line.text) > 70:
        return False
    return line.heading or line.para_break or line.gap > 0 or line.page is not None


def _trailing_numbered(lines: Sequence[Line]) -> list[Line] | None:
    """The last run of lines labelled 1, 2, 3, … that runs to the end of the document."""
    for pattern in _NUMBERED_RES:
        numbers = [
            (i, int(m.group(1))) for i, ln in enumerate(lines) if (m := pattern.match(ln.text))
        ]
        starts = [i for i, n in numbers if n == 1]
        for first in reversed(starts):
            expected, count = 1, 0
            for i, n in numbers:
                if i < first:
                    continue
                if n == expected:
                    expected, count = expected + 1, count + 1
            if count >= 3:
                return list(lines[first:])
    return None
