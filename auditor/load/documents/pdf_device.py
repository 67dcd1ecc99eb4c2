"""pdfminer's page interpreter and layout device, bounded: what `pdf_text` reads pages with.

Each refuses a page past a `DocumentLimits` cap as pdfminer draws it, raising `OverCap`
(its message names the cap): content past `pdf_content_bytes` before it is lexed, characters
past `pdf_page_chars` as they are drawn, form XObjects nested past `_MAX_FORM_DEPTH`, and a
page larger than `pdf_page_points` (`check_size`). The device also keeps each character's
baseline with its text rise, which pdfminer's own characters leave out, and reads the dashes
and ligatures of TeX's bitmap fonts.
"""

from __future__ import annotations

from typing import Any

from auditor.load.documents.limits import SETTINGS

__all__ = ["OverCap", "bounded_interpreter", "check_size", "counting_aggregator"]

#: Form XObjects open inside one another (real files nest a handful; a loop nests forever).
_MAX_FORM_DEPTH = 32
#: The codes below 32 of TeX's T1 (Cork) encoding that name no glyph pdfminer knows in a
#: bitmap (Type 3) font: what pdftex embeds for `\usepackage[T1]{fontenc}` without cm-super.
#: Unmapped, a page range reads `886(cid:21)892` and a superscript run `2(cid:21)4`.
_CORK = {21: "–", 22: "—", 27: "ff", 28: "fi", 29: "fl", 30: "ffi", 31: "ffl"}


class OverCap(Exception):
    """A page passed a cap while pdfminer drew it (its message says which)."""


def check_size(page: object, number: int, cap: float) -> None:
    """Raise `OverCap` when page `number`'s media or crop box is over `cap` points a side."""
    for box in (getattr(page, "mediabox", None), getattr(page, "cropbox", None)):
        if not box or len(box) != 4:
            continue
        width, height = abs(float(box[2]) - float(box[0])), abs(float(box[3]) - float(box[1]))
        if max(width, height) > cap:
            raise OverCap(
                f"page {number} is {width:,.0f} × {height:,.0f} points, past the cap of "
                f"{cap:,.0f} ({SETTINGS['pdf_page_points']})"
            )


def bounded_interpreter(base: Any, cap: int) -> Any:
    """pdfminer's interpreter, refusing content past `cap` bytes before it lexes it (its
    lexer copies a long string once per 4 KiB read: a 50 MB line would take hours)."""
    from pdfminer.pdftypes import PDFStream, resolve1

    class Bounded(base):  # type: ignore[misc]
        def execute(self, streams: Any) -> None:
            size = 0
            for stream in streams:
                stream = resolve1(stream)
                if isinstance(stream, PDFStream):
                    size += len(stream.get_data())
            if size > cap:
                raise OverCap(
                    f"{size:,} bytes of content in one page or form, past the cap of {cap:,} "
                    f"({SETTINGS['pdf_content_bytes']})"
                )
            super().execute(streams)

    return Bounded


def counting_aggregator(manager: Any, chars_cap: int) -> Any:
    """pdfminer's page aggregator, counting the characters it is handed (each becomes an
    object: a 50 MB line would be 50 million of them) and the forms open inside one another.

    A bitmap font's dashes and ligatures get their letters (`_CORK`). Its `baselines` map
    the `id` of each character of the page it last drew to its baseline in points up from the
    page's foot."""
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.pdffont import PDFType3Font

    class Counted(PDFPageAggregator):
        chars = 0
        forms = 0
        # each character's baseline, by the `id` of its LTChar: pdfminer keeps no text rise
        # (`Ts`), the way some writers raise a superscript (`superscripts`)
        baselines: dict[int, float]

        def begin_page(self, page: Any, ctm: Any) -> None:
            self.chars = self.forms = 0
            self.baselines = {}
            super().begin_page(page, ctm)

        def render_char(
            self, matrix: Any, font: Any, fontsize: float, scaling: float, rise: float,
            *args: Any,
        ) -> float:  # fmt: skip
            self.chars += 1
            if self.chars > chars_cap:
                raise OverCap(
                    f"more than {chars_cap:,} characters on one page, the cap "
                    f"({SETTINGS['pdf_page_chars']})"
                )
            width: float = super().render_char(matrix, font, fontsize, scaling, rise, *args)
            item = self.cur_item._objs[-1]
            self.baselines[id(item)] = float(matrix[3] * rise + matrix[5])
            return width

        def handle_undefined_char(self, font: Any, cid: int) -> str:
            if isinstance(font, PDFType3Font) and cid in _CORK:
                return _CORK[cid]
            return str(super().handle_undefined_char(font, cid))

        def begin_figure(self, name: str, bbox: Any, matrix: Any) -> None:
            self.forms += 1
            if self.forms > _MAX_FORM_DEPTH:
                raise OverCap(f"form XObjects nest deeper than {_MAX_FORM_DEPTH} (a loop?)")
            super().begin_figure(name, bbox, matrix)

        def end_figure(self, name: str) -> None:
            self.forms -= 1
            super().end_figure(name)

    return Counted(manager, laparams=None)
