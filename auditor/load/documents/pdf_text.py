"""Text with layout from a PDF (pdfminer.six, MIT): one `Line` per printed line.

pdfminer interprets each page without its layout analysis (we need only the characters and
their boxes); characters are clustered into lines by their top edge, and a space is put where
the gap between two characters exceeds `_X_TOLERANCE` (TeX writes no space glyphs; a looser
tolerance runs the words of tightly justified lines together). Each page is read column by
column: a vertical gutter (a band near the middle that no character crosses, with text on both
sides) splits it into two columns, read left then right. A line's `x0` is measured from its
column's left edge (so a hanging indent is seen in either column), and `gap` is the space above
it beyond the column's usual line spacing. A line's `marks` are its superscript citation
markers, read from its characters' sizes and baselines (`superscripts`). TeX's accents drawn
over a letter are composed into it (`accents`).

Raises `InputError` naming the file for a PDF pdfminer cannot read, an encrypted one it cannot
decrypt without a password, one with no text layer (a scan), and one past a `DocumentLimits` cap
checked here: pages, a page's size, a page's characters (counted as pdfminer draws them, so a
50 MB line is refused at the cap, not built), form XObjects nested too deep (a form that draws
itself) (`pdf_device`). Memory and time are bounded around this reader (`pdf_guard`).
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterable, Sequence
from statistics import median
from typing import NamedTuple

from auditor.errors import InputError
from auditor.load.documents.accents import accented
from auditor.load.documents.clean import ligatures
from auditor.load.documents.limits import SETTINGS, DocumentLimits
from auditor.load.documents.line_numbers import margin_numbers
from auditor.load.documents.lines import Line
from auditor.load.documents.pdf_device import (
    OverCap,
    bounded_interpreter,
    check_size,
    counting_aggregator,
)
from auditor.load.documents.superscripts import superscript_marks

__all__ = ["pdf_lines"]

_X_TOLERANCE = 1.5
_Y_TOLERANCE = 3.0


class _Char(NamedTuple):
    x0: float
    x1: float
    top: float
    text: str
    size: float = 0.0
    base: float = 0.0  # the baseline (text rise included), down from the page's top


def pdf_lines(data: bytes, path: str, limits: DocumentLimits | None = None) -> list[Line]:
    """Every printed line of the PDF `data` (file `path`), page by page, columns in order."""
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.psexceptions import PSException

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    lines: list[Line] = []
    try:
        for number, width, chars in _pages(data, limits or DocumentLimits()):
            lines.extend(_page_lines(chars, width, number))
    except OverCap as exc:
        raise InputError(f"{path}: {exc}: not read") from None
    except (PDFPasswordIncorrect, PDFEncryptionError) as exc:
        raise InputError(
            f"{path}: encrypted PDF: save a copy without a password and run again"
        ) from exc
    # a broken file raises pdfminer's errors, or plain Python ones from deep inside it
    except (
        PSException, ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError,
        ZeroDivisionError, OverflowError,
    ) as exc:  # fmt: skip
        raise InputError(f"{path}: not a readable PDF ({type(exc).__name__})") from exc
    if not any(ln.text.strip() for ln in lines):
        raise InputError(f"{path}: no text layer: run OCR first")
    return lines


def _pages(data: bytes, limits: DocumentLimits) -> Iterable[tuple[int, float, list[_Char]]]:
    """`(page number, width, characters)` of each page, tops measured from the page's top."""
    from pdfminer.layout import LTChar
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
    from pdfminer.pdfpage import PDFPage

    manager = PDFResourceManager(caching=True)
    device = counting_aggregator(manager, limits.pdf_page_chars)
    interpreter = bounded_interpreter(PDFPageInterpreter, limits.pdf_content_bytes)(manager, device)
    for number, page in enumerate(PDFPage.get_pages(io.BytesIO(data)), start=1):
        if number > limits.pdf_pages:
            raise OverCap(
                f"more than {limits.pdf_pages:,} pages, the cap ({SETTINGS['pdf_pages']})"
            )
        check_size(page, number, limits.pdf_page_points)
        interpreter.process_page(page)
        layout = device.get_result()
        height = float(layout.y1)
        chars = [
            _Char(
                float(o.x0), float(o.x1), height - float(o.y1), o.get_text(), float(o.size),
                height - device.baselines.get(id(o), float(o.y0)),
            )
            for o in layout
            if isinstance(o, LTChar) and o.upright
        ]  # fmt: skip
        yield number, float(layout.x1), chars


def _page_lines(chars: list[_Char], width: float, page: int) -> list[Line]:
    out: list[Line] = []
    if numbered := margin_numbers(chars):  # a review copy's line numbers are no one's text
        chars = [c for i, c in enumerate(chars) if i not in numbered]
    if not chars:
        return out
    furniture = _furniture(chars, width)
    gutter = _gutter([c for c in chars if round(c.top) not in furniture], width)
    if gutter is None:
        raw = _cluster(chars)
        if raw:
            out.extend(_lines(raw, min(r.x0 for r in raw), page, start=0))
        return out
    # A line that crosses the gutter (a title, an abstract, a float set full width) spans both
    # columns: the page is read band by band between such lines, each band left then right.
    lo, hi = gutter
    mid = (lo + hi) / 2
    across = _spanning_tops(chars, mid)
    spanning = sorted({c.top for c in chars if round(c.top) in across})
    bands = _bands(spanning)
    # A page number between the columns, or any line wholly inside the gutter, is read after
    # both columns, at the page's end where page numbers are dropped, not between a
    # reference's last line in the left column and its continuation in the right.
    outside = {round(c.top) for c in chars if c.x0 < lo - 1 or c.x1 > hi + 1} - furniture
    groups: dict[tuple[int, int], list[_Char]] = {}
    for c in chars:
        at, spans = _band_of(c.top, bands)
        if spans:
            side = 2
        elif round(c.top) not in outside:
            at, side = len(bands), 3
        else:
            side = 0 if (c.x0 + c.x1) / 2 < mid else 1
        groups.setdefault((at, side), []).append(c)
    lefts: dict[int, float] = {}
    for (_, side), members in sorted(groups.items()):
        raw = _cluster(members)
        if not raw:
            continue
        left = lefts.setdefault(side, min(r.x0 for r in raw))
        out.extend(_lines(raw, min(left, min(r.x0 for r in raw)), page, start=len(out)))
    return out


def _furniture(chars: Sequence[_Char], width: float) -> set[int]:
    """The (rounded) top of the page's first or last line where it is short and stands near
    the page's middle: a page number, which belongs to no column (and would otherwise narrow
    the gutter)."""
    rows: dict[int, list[_Char]] = {}
    for c in chars:
        rows.setdefault(round(c.top), []).append(c)
    out = set()
    for top in (min(rows), max(rows)):
        row = rows[top]
        short = sum(1 for c in row if c.text.strip()) <= _FURNITURE_CHARS
        if short and all(width * 0.35 <= c.x0 and c.x1 <= width * 0.65 for c in row):
            out.add(top)
    return out


_FURNITURE_CHARS = 6


def _bands(spanning: Sequence[float]) -> list[tuple[float, float, bool]]:
    """`[(top, bottom, spans)]`: the page cut at the spanning lines' tops (each its own band)."""
    out: list[tuple[float, float, bool]] = []
    edge = float("-inf")
    for top in spanning:
        if out and out[-1][2] and top - out[-1][1] <= _Y_TOLERANCE:
            out[-1] = (out[-1][0], top, True)
            continue
        out.append((edge, top - _Y_TOLERANCE, False))
        out.append((top - _Y_TOLERANCE, top, True))
    out.append((out[-1][1] if out else edge, float("inf"), False))
    return out


def _band_of(top: float, bands: Sequence[tuple[float, float, bool]]) -> tuple[int, bool]:
    """`(index, spans)` of the band holding a character whose top is `top`."""
    for i, (upper, lower, spans) in enumerate(bands):
        if spans and upper <= top <= lower + _Y_TOLERANCE:
            return i, True
        if not spans and upper < top <= lower:
            return i, False
    return len(bands) - 1, False


def _cluster(chars: Sequence[_Char]) -> list[_Row]:
    """Each line: characters within `_Y_TOLERANCE` of a line's top, left to right, a space
    where the gap exceeds `_X_TOLERANCE`, and its raised citation markers."""
    rows: list[list[_Char]] = []
    for c in sorted(chars, key=lambda c: c.top):
        if rows and c.top - rows[-1][0].top <= _Y_TOLERANCE:
            rows[-1].append(c)
        else:
            rows.append([c])
    out = []
    for glyphs in rows:
        glyphs.sort(key=lambda c: c.x0)
        row = glyphs
        if fixes := accented(glyphs):
            row = [c._replace(text=fixes.get(i, c.text)) for i, c in enumerate(glyphs)]
            row = [c for c in row if c.text]
        parts: list[str] = []
        prev: _Char | None = None
        for c in row:
            if prev is not None and c.x0 - prev.x1 > _X_TOLERANCE and c.text != " ":
                parts.append(" ")
            parts.append(c.text)
            prev = c
        text = " ".join("".join(parts).split())
        if text:
            out.append(_Row(row[0].x0, row[0].top, text, superscript_marks(row)))
    return out


class _Row(NamedTuple):
    x0: float
    top: float
    text: str
    marks: tuple[str, ...]


def _lines(raw: list[_Row], col_left: float, page: int, start: int) -> list[Line]:
    steps = [b.top - a.top for a, b in zip(raw, raw[1:], strict=False)]
    leading = median([s for s in steps if s > 0] or [12.0])
    out: list[Line] = []
    prev_top: float | None = None
    for x0, top, text, marks in raw:
        extra = 0.0 if prev_top is None else (top - prev_top) - leading
        prev_top = top
        out.append(
            Line(
                text=ligatures(text),
                number=start + len(out) + 1,
                page=page,
                x0=x0 - col_left,
                gap=extra if extra > 0.3 * leading else 0.0,
                marks=marks,
            )
        )
    return out


def _spanning_tops(chars: Sequence[_Char], centre: float) -> set[int]:
    """The (rounded) tops of lines that run across `centre` from one column into the other.

    The line must run on, word space by word space, well into both sides: a column's overfull
    line (a long DOI) that ends in the gutter, or a page number, spans nothing.
    """
    crossing = {round(c.top) for c in chars if c.x0 < centre + 4 and c.x1 > centre - 4}
    if not crossing:
        return crossing
    by_top: dict[int, list[_Char]] = {}
    for c in chars:
        if round(c.top) in crossing:
            by_top.setdefault(round(c.top), []).append(c)
    out = set()
    for top, row in by_top.items():
        row.sort(key=lambda c: c.x0)
        near = [c for c in row if centre - _SPAN_REACH <= c.x1 and c.x0 <= centre + _SPAN_REACH]
        joined = all(b.x0 - a.x1 <= _WORD_SPACE for a, b in zip(near, near[1:], strict=False))
        if joined and near and near[0].x0 <= centre - 20 and near[-1].x1 >= centre + 20:
            out.add(top)
    return out


_SPAN_REACH = 40.0
_WORD_SPACE = 6.0


def _gutter(chars: Sequence[_Char], width: float) -> tuple[float, float] | None:
    """`(left, right)` of the gutter between the page's two text columns, `None` for one.

    The gutter is a band at least 6 pt wide, centred between 35% and 65% of the page width,
    that as few lines cross as any such band: a full-width title or abstract above the columns
    crosses it, so up to a tenth of the page's lines may. A fifth of the characters or more
    must lie on either side. The right column's hanging labels just left of it move it to
    their left (`_past_labels`).
    """
    step = 2.0
    bins = int(width / step) + 1
    lines: list[set[int]] = [set() for _ in range(bins)]
    for c in chars:
        for b in range(max(0, int(c.x0 / step)), min(bins, int(c.x1 / step) + 1)):
            lines[b].add(round(c.top))
    covered = [len(tops) for tops in lines]
    allowance = max(2, len({round(c.top) for c in chars}) // 10)
    # The emptiest band wins, not the widest: a right column's hanging labels (`[1094]` set
    # out left of its text) leave a wide band that only their lines cross, beside the gutter.
    best, best_end = _widest_run(covered, 0, width, step)
    for most in range(1, allowance + 1):
        if best * step >= 6:
            break
        best, best_end = _widest_run(covered, most, width, step)
    if best * step < 6:
        return None
    centre = (best_end - best / 2 + 0.5) * step
    # The lines that cross the gutter's middle span both columns; without them the gutter is
    # empty, and its edges are where the columns' own characters stop.
    # (a window, not a point: a centred title may have a word space just at the middle; a
    # page number or an overfull line in it is no column's edge either)
    crossing = {round(c.top) for c in chars if c.x0 < centre + 4 and c.x1 > centre - 4}
    body = [c for c in chars if round(c.top) not in crossing]
    left_edge = max((c.x1 for c in body if c.x1 <= centre), default=0.0)
    right_edge = min((c.x0 for c in body if c.x0 >= centre), default=width)
    if right_edge - left_edge < 6 or any(c.x0 < centre < c.x1 for c in body):
        return None
    left = sum(1 for c in chars if c.x1 <= centre)
    if min(left, len(chars) - left) < 0.2 * len(chars):
        return None
    return _past_labels(body, covered, left_edge, right_edge, step)


def _past_labels(
    body: Sequence[_Char], covered: Sequence[int], left_edge: float, right_edge: float, step: float
) -> tuple[float, float]:
    """The gutter `(left_edge, right_edge)`, or the one left of the strip just before it when
    that strip holds only the right column's hanging labels (`21.`, `[7]`, each on a line that
    runs on past the gutter): with labels of one width the band between them and their text
    is emptier and wider than a narrow gutter, and the labels would join the left column."""
    end = int(left_edge / step)
    start = end
    while start > 0 and covered[start - 1] > 0 and (end - start) * step < _LABEL_STRIP:
        start -= 1
    if start == 0 or covered[start - 1] > 0:
        return left_edge, right_edge
    strip = [c for c in body if c.x0 >= start * step - 0.5 and c.x1 <= left_edge + 0.5]
    labels: dict[int, str] = {}
    for c in sorted(strip, key=lambda c: c.x0):
        labels[round(c.top)] = labels.get(round(c.top), "") + c.text
    runs_on = {round(c.top) for c in body if c.x0 >= right_edge - 0.5}
    if len(labels) < 2 or not all(
        _LABEL_RE.fullmatch(text) and top in runs_on for top, text in labels.items()
    ):
        return left_edge, right_edge
    before = max((c.x1 for c in body if c.x1 < start * step), default=0.0)
    return before, min(c.x0 for c in strip)


_LABEL_STRIP = 30.0
_LABEL_RE = re.compile(r"\[\d{1,4}\]|\d{1,4}\.|\(\d{1,4}\)")


def _widest_run(covered: Sequence[int], most: int, width: float, step: float) -> tuple[int, int]:
    """`(bins, last bin)` of the widest run of bins that at most `most` lines cross, centred
    between 35% and 65% of the page width."""
    lo, hi = width * 0.35, width * 0.65
    best, best_end, run = 0, 0, 0
    for b, count in enumerate(covered):
        run = run + 1 if count <= most else 0
        mid = (b - run / 2 + 0.5) * step
        if run > best and lo <= mid <= hi:
            best, best_end = run, b
    return best, best_end
