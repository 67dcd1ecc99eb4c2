"""Text with layout from a PDF (pdfminer.six, MIT): one `Line` per printed line.

pdfminer interprets each page without its layout analysis (we need only the characters and
their boxes); characters are clustered into lines by their top edge, and a space is put where
the gap between two characters exceeds `_X_TOLERANCE` (TeX writes no space glyphs; a looser
tolerance runs the words of tightly justified lines together). Each page is read column by
column: a vertical gutter (a band near the middle that no character crosses, with text on both
sides) splits it into two columns, read left then right. A line's `x0` is measured from its
column's left edge (so a hanging indent is seen in either column), and `gap` is the space above
it beyond the column's usual line spacing.

Raises `InputError` naming the file for a PDF pdfminer cannot read, an encrypted one it cannot
decrypt without a password, and one with no text layer (a scan).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable, Sequence
from statistics import median
from typing import NamedTuple

from auditor.errors import InputError
from auditor.load.documents.clean import ligatures
from auditor.load.documents.lines import Line

__all__ = ["pdf_lines"]

_X_TOLERANCE = 1.5
_Y_TOLERANCE = 3.0
_MAX_PAGES = 2000


class _Char(NamedTuple):
    x0: float
    x1: float
    top: float
    text: str


def pdf_lines(data: bytes, path: str) -> list[Line]:
    """Every printed line of the PDF `data` (file `path`), page by page, columns in order."""
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.psexceptions import PSException

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    lines: list[Line] = []
    try:
        for number, width, chars in _pages(data):
            lines.extend(_page_lines(chars, width, number))
    except (PDFPasswordIncorrect, PDFEncryptionError) as exc:
        raise InputError(
            f"{path}: encrypted PDF: save a copy without a password and run again"
        ) from exc
    # a broken file raises pdfminer's errors, or plain Python ones from deep inside it
    except (PSException, ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        raise InputError(f"{path}: not a readable PDF ({type(exc).__name__})") from exc
    if not any(ln.text.strip() for ln in lines):
        raise InputError(f"{path}: no text layer: run OCR first")
    return lines


def _pages(data: bytes) -> Iterable[tuple[int, float, list[_Char]]]:
    """`(page number, width, characters)` of each page, tops measured from the page's top."""
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.layout import LTChar
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
    from pdfminer.pdfpage import PDFPage

    manager = PDFResourceManager(caching=True)
    device = PDFPageAggregator(manager, laparams=None)
    interpreter = PDFPageInterpreter(manager, device)
    for number, page in enumerate(PDFPage.get_pages(io.BytesIO(data)), start=1):
        if number > _MAX_PAGES:
            break
        interpreter.process_page(page)
        layout = device.get_result()
        height = float(layout.y1)
        chars = [
            _Char(float(o.x0), float(o.x1), height - float(o.y1), o.get_text())
            for o in layout
            if isinstance(o, LTChar) and o.upright
        ]
        yield number, float(layout.x1), chars


def _page_lines(chars: list[_Char], width: float, page: int) -> list[Line]:
    out: list[Line] = []
    if not chars:
        return out
    columns = _columns(chars, width)
    for left, right in columns:
        inside = [c for c in chars if left <= (c.x0 + c.x1) / 2 < right]
        raw = _cluster(inside)
        if raw:
            col_left = min(x0 for x0, _, _ in raw)
            out.extend(_lines(raw, col_left, page, start=len(out)))
    return out


def _cluster(chars: Sequence[_Char]) -> list[tuple[float, float, str]]:
    """`(x0, top, text)` of each line: characters within `_Y_TOLERANCE` of a line's top, left
    to right, a space where the gap exceeds `_X_TOLERANCE`."""
    rows: list[list[_Char]] = []
    for c in sorted(chars, key=lambda c: c.top):
        if rows and c.top - rows[-1][0].top <= _Y_TOLERANCE:
            rows[-1].append(c)
        else:
            rows.append([c])
    out = []
    for row in rows:
        row.sort(key=lambda c: c.x0)
        parts: list[str] = []
        prev: _Char | None = None
        for c in row:
            if prev is not None and c.x0 - prev.x1 > _X_TOLERANCE and c.text != " ":
                parts.append(" ")
            parts.append(c.text)
            prev = c
        text = " ".join("".join(parts).split())
        if text:
            out.append((row[0].x0, row[0].top, text))
    return out


def _lines(
    raw: list[tuple[float, float, str]], col_left: float, page: int, start: int
) -> list[Line]:
    steps = [b[1] - a[1] for a, b in zip(raw, raw[1:], strict=False)]
    leading = median([s for s in steps if s > 0] or [12.0])
    out: list[Line] = []
    prev_top: float | None = None
    for x0, top, text in raw:
        extra = 0.0 if prev_top is None else (top - prev_top) - leading
        prev_top = top
        out.append(
            Line(
                text=ligatures(text),
                number=start + len(out) + 1,
                page=page,
                x0=x0 - col_left,
                gap=extra if extra > 0.3 * leading else 0.0,
            )
        )
    return out


def _columns(chars: Sequence[_Char], width: float) -> list[tuple[float, float]]:
    """`[(left, right)]` of the page's text columns: one, or two split at an empty gutter.

    The gutter is the widest band (at least 6 pt) that no character crosses, centred between
    35% and 65% of the page width, with at least a fifth of the characters on either side.
    """
    step = 2.0
    bins = int(width / step) + 1
    covered = [0] * bins
    for c in chars:
        for b in range(max(0, int(c.x0 / step)), min(bins, int(c.x1 / step) + 1)):
            covered[b] += 1
    lo, hi = width * 0.35, width * 0.65
    best, best_mid, run = 0, 0.0, 0
    for b in range(bins):
        run = run + 1 if covered[b] == 0 else 0
        mid = (b - run / 2 + 0.5) * step
        if run > best and lo <= mid <= hi:
            best, best_mid = run, mid
    if best * step < 6:
        return [(0.0, width)]
    left = sum(1 for c in chars if c.x1 <= best_mid)
    if min(left, len(chars) - left) < 0.2 * len(chars):
        return [(0.0, width)]
    return [(0.0, best_mid), (best_mid, width)]
