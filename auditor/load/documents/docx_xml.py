"""The parts of a Word `.docx` the readers need: paragraphs, field instructions, `b:Sources`.

A `.docx` is a zip of XML parts, read under the `DocumentLimits` (`zip_xml`: inflated bytes
counted while inflating, no DTD or entity, a capped depth; a capped number of fields).
`read_docx` gives the body's paragraphs in order (each line break inside a paragraph starts a
new line, as Zotero's bibliography field writes one entry per line), every field instruction
(`w:instrText` runs between a field's begin and separate marks, or a `w:fldSimple`), with the
paragraph it sits in and the paragraphs its result spans (a bibliography field's result is the
printed list), the tagged content controls (`w:sdt`: Mendeley Cite and Citavi keep their data
or markers in the tag) with the paragraphs they span, and the `customXml` parts that hold Word's
own `b:Sources`.

Raises `InputError` naming the file for a zip that is not a Word document or passes a cap.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from auditor.errors import InputError
from auditor.load.documents.limits import SETTINGS, DocumentLimits
from auditor.load.documents.superscripts import read_mark
from auditor.load.documents.zip_xml import Budget, read_xml

__all__ = ["DocxParts", "Paragraph", "check_fields", "read_docx"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MAX_PARTS = 2000


@dataclass(frozen=True)
class Paragraph:
    """One body paragraph: its lines (split at line breaks) and style."""

    number: int
    lines: tuple[str, ...]
    style: str
    marks: tuple[tuple[str, ...], ...] = ()
    """Each line's superscript citation markers (`w:vertAlign` superscript runs that read as
    `1,2` or `3–7` after a word) and doubts (`superscripts.read_mark`)."""


@dataclass
class DocxParts:
    """What `read_docx` found."""

    paragraphs: list[Paragraph] = field(default_factory=list)
    instructions: list[tuple[int, str, str]] = field(default_factory=list)
    """`(paragraph number, instruction text, base64 field data)` in document order."""
    results: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Instruction index → `(first, last)` paragraph of the field's result (separate to end)."""
    controls: list[tuple[str, int, int]] = field(default_factory=list)
    """`(tag, first paragraph, last paragraph)` of each tagged content control, in order."""
    sources: list[Element] = field(default_factory=list)
    """The `b:Sources` roots of the `customXml` parts (Word's own citation sources)."""


def read_docx(data: bytes, path: str, limits: DocumentLimits | None = None) -> DocxParts:
    """The paragraphs, fields and sources of the `.docx` `data` (file `path`)."""
    budget = Budget(limits or DocumentLimits())
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError) as exc:
        raise InputError(f"{path}: not a Word .docx (not a zip archive)") from exc
    with archive:
        names = archive.namelist()
        if "word/document.xml" not in names or len(names) > _MAX_PARTS:
            raise InputError(f"{path}: not a Word .docx (no word/document.xml)")
        parts = DocxParts()
        _read_body(read_xml(archive, "word/document.xml", path, budget), parts)
        check_fields(len(parts.instructions) + len(parts.controls), path, budget.limits)
        for name in names:
            if name.startswith("customXml/item") and name.endswith(".xml") and "Props" not in name:
                root = read_xml(archive, name, path, budget)
                if root.tag.endswith("}Sources"):
                    parts.sources.append(root)
    return parts


def check_fields(count: int, path: str, limits: DocumentLimits) -> None:
    """`InputError` when a file holds more fields than `limits` allow (each is a JSON or XML
    record read on its own: 100,000 of them are a trap, not a thesis)."""
    if count > limits.fields:
        raise InputError(
            f"{path}: {count:,} citation fields, past the cap of {limits.fields:,} "
            f"({SETTINGS['fields']}): not read"
        )


def _read_body(root: Element | None, parts: DocxParts) -> None:
    body = root.find(f"{_W}body") if root is not None else None
    if body is None:
        return
    # open complex fields, innermost last: [instruction pieces, field data, its index once read]
    stack: list[_Open] = []
    numbers: dict[int, int] = {}
    for number, p in enumerate(body.iter(f"{_W}p"), start=1):
        numbers[id(p)] = number
        style_el = p.find(f"{_W}pPr/{_W}pStyle")
        style = style_el.get(f"{_W}val", "") if style_el is not None else ""
        lines: list[str] = [""]
        raised: list[list[tuple[int, int]]] = [[]]  # each line's superscript spans
        sup = False
        for el in p.iter():
            tag = el.tag
            if tag == f"{_W}r":
                align = el.find(f"{_W}rPr/{_W}vertAlign")
                sup = align is not None and align.get(f"{_W}val") == "superscript"
            elif tag == f"{_W}t":
                start = len(lines[-1])
                lines[-1] += el.text or ""
                if sup:
                    _extend(raised[-1], start, len(lines[-1]))
            elif tag in (f"{_W}br", f"{_W}cr"):
                lines.append("")
                raised.append([])
            elif tag == f"{_W}tab":
                lines[-1] += "\t"
            elif tag == f"{_W}fldChar":
                _field_mark(el, number, stack, parts)
            elif tag == f"{_W}instrText" and stack and stack[-1].index is None:
                stack[-1].pieces.append(el.text or "")
            elif tag == f"{_W}fldSimple":
                parts.results[len(parts.instructions)] = (number, number)
                parts.instructions.append((number, el.get(f"{_W}instr", "").strip(), ""))
            elif tag == f"{_W}sdt":
                _control(el, number, number, parts)
        marks = tuple(
            tuple(m for a, b in spans if (m := read_mark(line[:a], line[a:b])))
            for line, spans in zip(lines, raised, strict=True)
        )
        parts.paragraphs.append(Paragraph(number, tuple(lines), style, marks))
    for sdt in body.iter(f"{_W}sdt"):
        inside = [numbers[id(q)] for q in sdt.iter(f"{_W}p") if id(q) in numbers]
        if inside:  # a block-level control (an inline one was taken with its paragraph)
            _control(sdt, min(inside), max(inside), parts)
    parts.controls.sort(key=lambda c: c[1])


def _extend(spans: list[tuple[int, int]], start: int, end: int) -> None:
    """Add `start:end` to `spans`, joined to the last span if it ends there (a marker may
    be split across runs)."""
    if spans and spans[-1][1] == start:
        spans[-1] = (spans[-1][0], end)
    elif end > start:
        spans.append((start, end))


def _control(sdt: Element, first: int, last: int, parts: DocxParts) -> None:
    tag = sdt.find(f"{_W}sdtPr/{_W}tag")
    value = tag.get(f"{_W}val", "") if tag is not None else ""
    if value:
        parts.controls.append((value, first, last))


@dataclass
class _Open:
    """A complex field being read: its instruction pieces, field data, and (once the
    instruction is complete) its index in `DocxParts.instructions`."""

    pieces: list[str]
    data: str
    index: int | None = None
    result_from: int | None = None


def _field_mark(el: Element, number: int, stack: list[_Open], parts: DocxParts) -> None:
    """A complex field's begin, separate or end mark: the instruction is complete at the first
    separate (or at the end of a field without a result); the result runs from the separate to
    the end."""
    kind = el.get(f"{_W}fldCharType")
    if kind == "begin":
        fld = el.find(f"{_W}fldData")
        stack.append(_Open([], (fld.text or "") if fld is not None else ""))
    elif stack and kind in ("separate", "end"):
        top = stack[-1]
        if top.index is None:
            top.index = len(parts.instructions)
            parts.instructions.append((number, "".join(top.pieces).strip(), top.data))
        if kind == "separate" and top.result_from is None:
            top.result_from = number
        if kind == "end":
            if top.result_from is not None:
                parts.results[top.index] = (top.result_from, number)
            stack.pop()
