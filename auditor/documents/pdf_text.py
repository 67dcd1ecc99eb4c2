"""Text with layout from a PDF (pdfplumber on pdfminer.six, MIT): one `Line` per printed line.

Each page is read column by column: a vertical gutter (a band near the middle that no character
crosses, with text on both sides) splits it into two columns, read left then right. A line's
`x0` is measured from its column's left edge (so a hanging indent is seen in either column),
and `gap` is the space above it beyond the column's usual line spacing.

Raises `InputError` naming the file for a PDF pdfminer cannot open, an encrypted one it cannot
decrypt without a password, and one with no text layer (a scan).
"""

from __future__ import annotations

import io
import logging
from statistics import median
from typing import Any

from auditor.documents.clean import ligatures
from auditor.documents.lines import Line
from auditor.errors import InputError

__all__ = ["pdf_lines"]

#: pdfminer joins characters into words within this horizontal distance; its default (3 pt)
#: runs the words of tightly justified TeX lines together.
_X_TOLERANCE = 1.5
_MAX_PAGES = 2000


def pdf_lines(data: bytes, path: str) -> list[Line]:
    """Every printed line of the PDF `data` (file `path`), page by page, columns in order."""
    import pdfplumber
    from pdfplumber.utils.exceptions import PdfminerException

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    lines: list[Line] = []
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            for page in pdf.pages[:_MAX_PAGES]:
                lines.extend(_page_lines(page))
    # pdfplumber wraps pdfminer's errors; a broken file may also raise plain Python errors
    except (PdfminerException, ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        raise _unreadable(exc, path) from exc
    if not any(ln.text.strip() for ln in lines):
        raise InputError(f"{path}: no text layer: run OCR first")
    return lines


def _unreadable(exc: Exception, path: str) -> InputError:
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect

    causes = [exc, *(a for a in exc.args if isinstance(a, BaseException))]
    if exc.__cause__ is not None:
        causes.append(exc.__cause__)
    if any(isinstance(c, (PDFPasswordIncorrect, PDFEncryptionError)) for c in causes):
        return InputError(f"{path}: encrypted PDF: save a copy without a password and run again")
    return InputError(f"{path}: not a readable PDF ({type(causes[-1]).__name__})")


def _page_lines(page: Any) -> list[Line]:
    chars = page.chars
    if not chars:
        return []
    out: list[Line] = []
    for left, right in _columns(chars, float(page.width)):
        crop = page.crop((left, 0, right, float(page.height)), strict=False)
        raw = crop.extract_text_lines(x_tolerance=_X_TOLERANCE, return_chars=False)
        if not raw:
            continue
        col_left = min(float(r["x0"]) for r in raw)
        out.extend(_lines(raw, col_left, int(page.page_number)))
    return out


def _lines(raw: list[dict[str, Any]], col_left: float, page: int) -> list[Line]:
    steps = [float(b["top"]) - float(a["top"]) for a, b in zip(raw, raw[1:], strict=False)]
    leading = median([s for s in steps if s > 0] or [12.0])
    out: list[Line] = []
    prev_top: float | None = None
    for r in raw:
        top = float(r["top"])
        extra = 0.0 if prev_top is None else (top - prev_top) - leading
        prev_top = top
        out.append(
            Line(
                text=ligatures(str(r["text"])).rstrip(),
                number=len(out) + 1,
                page=page,
                x0=float(r["x0"]) - col_left,
                gap=extra if extra > 0.3 * leading else 0.0,
            )
        )
    return out


def _columns(chars: list[dict[str, Any]], width: float) -> list[tuple[float, float]]:
    """`[(left, right)]` of the page's text columns: one, or two split at an empty gutter.

    The gutter is the widest band (at least 6 pt) that no character crosses, centred between
    35% and 65% of the page width, with at least a fifth of the characters on either side.
    """
    step = 2.0
    bins = int(width / step) + 1
    covered = [0] * bins
    for c in chars:
        for b in range(
            max(0, int(float(c["x0"]) / step)), min(bins, int(float(c["x1"]) / step) + 1)
        ):
            covered[b] += 1
    lo, hi = int(width * 0.35 / step), int(width * 0.65 / step)
    best, best_mid, run = 0, 0.0, 0
    for b in range(bins):
        run = run + 1 if covered[b] == 0 else 0
        mid = (b - run / 2 + 0.5) * step
        if run > best and lo * step <= mid <= hi * step:
            best, best_mid = run, mid
    if best * step < 6:
        return [(0.0, width)]
    left = sum(1 for c in chars if float(c["x1"]) <= best_mid)
    if min(left, len(chars) - left) < 0.2 * len(chars):
        return [(0.0, width)]
    return [(0.0, best_mid), (best_mid, width)]
