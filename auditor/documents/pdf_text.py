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
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.pdfparser import PDFSyntaxError

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    try:
        pdf = pdfplumber.open(io.BytesIO(data))
    except (PDFPasswordIncorrect, PDFEncryptionError) as exc:
        raise InputError(f"{path}: encrypted PDF: save a copy without a password") from exc
    except (PDFSyntaxError, ValueError, TypeError, KeyError, AttributeError) as exc:
        raise InputError(f"{path}: not a readable PDF ({type(exc).__name__})") from exc
    lines: list[Line] = []
    try:
        with pdf:
            for page in pdf.pages[:_MAX_PAGES]:
                lines.extend(_page_lines(page))
    except (PDFPasswordIncorrect, PDFEncryptionError) as exc:
        raise InputError(f"{path}: encrypted PDF: save a copy without a password") from exc
    except (PDFSyntaxError, ValueError, TypeError, KeyError, AttributeError) as exc:
        raise InputError(f"{path}: not a readable PDF ({type(exc).__name__})") from exc
    if not any(ln.text.strip() for ln in lines):
        raise InputError(f"{path}: no text layer: run OCR first")
    return lines


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
    """`[(left, right)]` of the page's text columns: one, or two split at an empty gutter."""
    lo, hi = width * 0.3, width * 0.7
    step = 2.0
    bins = int((hi - lo) / step) + 1
    covered = [0] * bins
    left_n = right_n = 0
    for c in chars:
        x0, x1 = float(c["x0"]), float(c["x1"])
        if x1 < lo:
            left_n += 1
            continue
        if x0 > hi:
            right_n += 1
            continue
        for b in range(max(0, int((x0 - lo) / step)), min(bins, int((x1 - lo) / step) + 1)):
            covered[b] += 1
    if left_n < 0.2 * len(chars) or right_n < 0.2 * len(chars):
        return [(0.0, width)]
    # the widest run of empty bins: a gutter at least 6 pt wide
    best, run, best_end = 0, 0, 0
    for b, n in enumerate(covered):
        run = run + 1 if n == 0 else 0
        if run > best:
            best, best_end = run, b
    if best * step < 6:
        return [(0.0, width)]
    mid = lo + (best_end - best / 2 + 0.5) * step
    return [(0.0, mid), (mid, width)]
