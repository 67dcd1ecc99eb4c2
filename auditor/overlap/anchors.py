"""Hyperlinks in supplied article HTML, with where they are, per the citation-overlap contract.

The HTML is parsed with the standard library's `html.parser` and never executed. Recorded: only
completed `<a href>` elements (start tag and end tag both seen), whose href resolves, against the
citation URL, to an HTTPS target other than the page itself. Ignored: links inside `script`,
`style` and `template`, comments, fragment-only hrefs, non-HTTPS targets, an anchor still open at
the end of the document or when another `<a>` starts (malformed HTML can hide links, as the
contract warns). Each anchor keeps the one-based line and zero-based column of its start tag in
the supplied HTML, and its text with whitespace collapsed, capped at 256 characters.

Where `html.parser` departs from the HTML tokenizer in ways that matter here, `_AnchorParser`
follows the tokenizer: attribute values decode character references in attribute mode
(`?a=1&not=2` stays as written), start tags end at the first `>` outside quotes, a comment never
closed runs to the end of the document, and `<![…` is a bogus comment. The same overrides keep
parsing linear: stock `html.parser` retries an unterminated construct from every later `<`,
which took minutes on 128 KiB of `<a ` (see `tests/overlap/test_anchors.py`).
"""

from __future__ import annotations

import html
import html.parser
import re
from dataclasses import dataclass
from html.entities import html5 as _ENTITIES
from html.parser import HTMLParser

from auditor.overlap.urls import resolve_href

__all__ = ["MAX_ANCHOR_TEXT", "Anchor", "extract_anchors", "unescape_attribute"]

MAX_ANCHOR_TEXT = 256
"""Anchor text is capped at this many characters (contract: untrusted content)."""

# Elements whose content is not part of the document's links. `template` content is inert in
# browsers. The others are raw text to the HTML tokenizer (no tags inside, up to their own end
# tag); `html.parser` knows only `script` and `style`, and not after a `<script/>`, so the
# parser is switched into that mode here for all of them.
_INERT = frozenset({"template"})
_RAW_TEXT = frozenset(
    {"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"}
)


_CHARREF = re.compile(r"&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|([A-Za-z0-9]+)(;?))")


def _decode_ref(match: re.Match[str]) -> str:
    """One character reference in an attribute value, decoded as HTML's attribute state does."""
    whole, name, semi = match.group(0), match.group(2), match.group(3)
    if name is None:  # numeric: decoded with or without `;`
        return html.unescape(whole)
    if semi and f"{name};" in _ENTITIES:
        return _ENTITIES[f"{name};"]
    # Without `;` only legacy names (keys stored without `;`) count, longest first, and in an
    # attribute not when an alphanumeric or `=` follows (`?a=1&not=2` stays a query string).
    prefix = next((name[:n] for n in range(len(name), 1, -1) if name[:n] in _ENTITIES), None)
    following = match.string[match.end() : match.end() + 1]
    if prefix is None or len(prefix) < len(name) or semi or following == "=":
        return whole
    return _ENTITIES[prefix]


def unescape_attribute(value: str) -> str:
    """`value` (raw attribute text) with character references decoded per the HTML standard.

    `html.unescape`, which `html.parser` applies, also expands `&copy` in `?a=1&copy=2`; browsers
    do not in attribute values, so neither do we.
    """
    return _CHARREF.sub(_decode_ref, value)


def _raw_href(starttag_text: str) -> str | None:
    """The first `href` of a start tag, undecoded, found with `html.parser`'s own patterns."""
    found = html.parser.tagfind_tolerant.match(starttag_text, 1)  # type: ignore[attr-defined]
    k = found.end() if found else len(starttag_text)
    while k < len(starttag_text):
        m = html.parser.attrfind_tolerant.match(starttag_text, k)  # type: ignore[attr-defined]
        if not m or m.end() == k:
            break
        name, rest, value = m.group(1, 2, 3)
        if name.lower() == "href":
            if not rest:
                return None
            if value[:1] in "'\"" and value[:1] == value[-1:] and len(value) >= 2:
                value = value[1:-1]
            return str(value)
        k = m.end()
    return None


_WHITESPACE = re.compile(r"\s+")
_SPACE = re.compile(r"[ \t\n\r\f]*")
_NAME = re.compile(r"[^ \t\n\r\f/>]*")
_ATTR_NAME = re.compile(r"[^ \t\n\r\f/>=]*")
_UNQUOTED = re.compile(r"[^ \t\n\r\f>]*")


def _tag_end(raw: str, i: int) -> int:
    """Index just past the `>` closing the start tag at `raw[i]`, or -1 if the document ends first.

    Follows the HTML tokenizer's tag states: a `>` inside a quoted attribute value does not end
    the tag, and an unclosed quote runs to the end. Linear in the tag's length.
    """
    n = len(raw)
    j = _NAME.match(raw, i + 1).end()  # type: ignore[union-attr]
    while j < n:
        char = raw[j]
        if char == ">":
            return j + 1
        if char in " \t\n\r\f/":
            j += 1
            continue
        # An attribute name (its first character may be `=`), then maybe `=` and a value.
        j = _ATTR_NAME.match(raw, j + 1).end()  # type: ignore[union-attr]
        k = _SPACE.match(raw, j).end()  # type: ignore[union-attr]
        if k >= n or raw[k] != "=":
            j = k
            continue
        k = _SPACE.match(raw, k + 1).end()  # type: ignore[union-attr]
        if k < n and raw[k] in "\"'":
            close = raw.find(raw[k], k + 1)
            if close < 0:
                return -1
            j = close + 1
        else:
            j = _UNQUOTED.match(raw, k).end()  # type: ignore[union-attr]
    return -1


@dataclass(frozen=True)
class Anchor:
    """One recorded hyperlink."""

    target_url: str
    """The href resolved against the citation URL, in the contract's normal form."""
    line: int
    """One-based line of the `<a` start tag in the supplied HTML."""
    column: int
    """Zero-based column (in characters) of the `<a` start tag on that line."""
    anchor_text: str
    """Visible text, whitespace collapsed, at most `MAX_ANCHOR_TEXT` characters; untrusted."""


@dataclass
class _Open:
    """An `<a>` whose end tag has not been seen yet."""

    href: str | None
    line: int
    column: int
    text: list[str]
    length: int = 0


class _AnchorParser(HTMLParser):
    """Collects completed anchors; see the module docstring for what counts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str | None, int, int, str]] = []
        self._open: _Open | None = None
        self._inert_depth = 0
        self._raw_text = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _INERT:
            self._inert_depth += 1
            return
        if tag in _RAW_TEXT:
            self.set_cdata_mode(tag)
            self._raw_text = True
            return
        if self._inert_depth or tag != "a":
            return
        # HTML uses the first of repeated attributes. `html.parser` decoded the values with
        # `html.unescape`, which is wrong for attributes, so the raw tag text is read again.
        href = next((value for name, value in attrs if name == "href"), None)
        raw = _raw_href(self.get_starttag_text() or "")
        if href is not None and raw is not None:
            href = unescape_attribute(raw)
        line, column = self.getpos()
        # A second `<a>` before `</a>` leaves the first one unfinished: it is not recorded.
        self._open = _Open(href=href, line=line, column=column, text=[])

    # `html.parser` leaves an unterminated construct pending and, at the end, retries it from
    # every later `<`: quadratic on hostile input. Browsers end an unclosed comment at the end
    # of the document, so these overrides do that, in one step.
    def parse_comment(self, i: int, report: bool = True) -> int:
        """`<!--…-->`; one never closed runs to the end of the document (HTML tokenizer)."""
        end = super().parse_comment(i, report)
        return len(self.rawdata) if end < 0 else end

    def parse_bogus_comment(self, i: int, report: bool = True) -> int:
        """`<!…>` and `</…>` oddities: a comment up to the next `>` or the end of the document."""
        end = super().parse_bogus_comment(i, report)
        return len(self.rawdata) if end < 0 else end

    def parse_starttag(self, i: int) -> int:
        """A start tag, delimited as the HTML tokenizer does (see `_tag_end`), then parsed.

        `html.parser` only sees the tag's own text, so its patterns never scan past the tag;
        a tag still open at the end of the document is dropped with the rest ("EOF in tag").
        """
        raw = self.rawdata
        end = _tag_end(raw, i)
        if end < 0:
            return len(raw)
        self.rawdata = raw[i:end]
        try:
            super().parse_starttag(0)
        finally:
            self.rawdata = raw
        return end

    def parse_html_declaration(self, i: int) -> int:
        """`<![CDATA[` and other marked sections are bogus comments in HTML content."""
        if self.rawdata.startswith("<![", i):
            # `html.parser` would scan them as SGML and can raise AssertionError on junk.
            return self.parse_bogus_comment(i)
        return int(super().parse_html_declaration(i))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # In HTML a trailing `/` does not close `<a/>` or `<template/>`: it is a start tag only.
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _INERT:
            self._inert_depth = max(0, self._inert_depth - 1)
            return
        if tag in _RAW_TEXT:
            self._raw_text = False
            return
        if self._inert_depth or tag != "a" or self._open is None:
            return
        anchor, self._open = self._open, None
        text = " ".join("".join(anchor.text).split())[:MAX_ANCHOR_TEXT]
        self.found.append((anchor.href, anchor.line, anchor.column, text))

    def handle_data(self, data: str) -> None:
        anchor = self._open
        if anchor is None or self._inert_depth or self._raw_text:
            return
        # Whitespace runs shrink to one space now, and only visible characters count toward
        # the cap, so neither deep indentation nor a long text can starve or bloat the anchor.
        if anchor.length <= MAX_ANCHOR_TEXT:
            chunk = _WHITESPACE.sub(" ", data)
            anchor.text.append(chunk)
            anchor.length += len(chunk.replace(" ", ""))


def extract_anchors(html: str, base_url: str, self_url: str) -> list[Anchor]:
    """Every recorded anchor of `html`, in document order.

    `base_url` resolves relative hrefs (the citation URL as supplied); `self_url` is the
    citation's normalized URL, and links to it are self links and ignored. Never raises on
    malformed HTML: what the parser cannot see as a completed anchor is simply not recorded.
    """
    parser = _AnchorParser()
    # Nothing after the last `>` can complete a tag, so it cannot hold a completed anchor;
    # cutting it keeps positions and spares the parser's retries on an unterminated tail.
    parser.feed(html[: html.rfind(">") + 1])
    parser.close()
    anchors: list[Anchor] = []
    for href, line, column, text in parser.found:
        if href is None:
            continue
        target = resolve_href(href, base_url)
        if target is None or target == self_url:
            continue
        anchors.append(Anchor(target, line, column, text))
    return anchors
