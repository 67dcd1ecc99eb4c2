"""Bytes of a bibliography file to text: BOM first, then UTF-8 line by line.

- A byte-order mark decides: UTF-32 (LE/BE), UTF-16 (LE/BE, as JabRef and EndNote write them)
  or UTF-8; the mark itself is dropped. A BOM-less UTF-16 file is recognised by its NUL bytes.
- Otherwise the whole file is tried as UTF-8. If that fails, each line is decoded on its own,
  UTF-8 first and Windows-1252 (then Latin-1, which decodes any byte) for the lines that are not
  UTF-8, so one stray byte costs one line, not the whole file (`Café` stays `Café` elsewhere).
  The lines read that way are named in a warning. When those lines hold Chinese in GBK/GB18030
  (runs of two-byte characters that decode to CJK ideographs, as Chinese BibTeX tools save them)
  they are read as GB18030 instead, also named in a warning; a Western name (`Müller` in
  Latin-1: one high byte between ASCII letters) never looks so.
- A file that still holds many NUL bytes after decoding is not text: `InputError` naming it,
  never zero rows and exit 0; a few stray NULs are removed and their lines named.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, replace

from auditor.errors import InputError

__all__ = ["Decoded", "decode_bytes"]

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


@dataclass(frozen=True)
class Decoded:
    """A decoded file: its text, what decided the codec, and what needed a fallback."""

    text: str
    """The file's text, without a byte-order mark."""
    encoding: str
    """What decided it: `utf-8`, `utf-16-le`, … or the `--encoding` given."""
    fallback_lines: tuple[int, ...] = ()
    """Lines (1-based) decoded as `fallback` because they were not UTF-8."""
    fallback: str = "Windows-1252/Latin-1"
    """What the `fallback_lines` were read as: `Windows-1252/Latin-1` or `GB18030`."""
    nul_lines: tuple[int, ...] = ()
    """Lines that held a stray NUL byte (removed)."""

    def warnings(self) -> list[str]:
        """One sentence per kind of repair, naming the lines."""
        out = []
        if self.fallback_lines:
            out.append(
                f"not UTF-8 on line(s) {_lines(self.fallback_lines)}: read as {self.fallback}"
            )
        if self.nul_lines:
            out.append(f"NUL byte(s) removed on line(s) {_lines(self.nul_lines)}")
        return out


def _lines(lines: tuple[int, ...]) -> str:
    shown = ", ".join(map(str, lines[:10]))
    return shown + (f" and {len(lines) - 10:,} more" if len(lines) > 10 else "")


def _utf16_without_bom(data: bytes) -> str | None:
    """`utf-16-le`/`utf-16-be` when NULs sit on one side of most byte pairs (ASCII in UTF-16)."""
    sample = data[:4096]
    if len(sample) < 4 or sample.count(0) < len(sample) // 4:
        return None
    even = sample[0::2].count(0)
    odd = sample[1::2].count(0)
    if odd > 3 * max(even, 1):
        return "utf-16-le"
    if even > 3 * max(odd, 1):
        return "utf-16-be"
    return None


_HIGH_RUN_RE = re.compile(rb"[\x80-\xff]+")


def _cjk(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3000" <= ch <= "\u303f" or "\uff00" <= ch <= "\uffef"


def _looks_gb18030(lines: list[bytes]) -> bool:
    """Whether the non-UTF-8 `lines` are Chinese in GBK/GB18030 rather than Windows-1252.

    GBK writes each character as two bytes, the first always high: Chinese text is runs of
    high bytes. Windows-1252 text is mostly single accented letters between ASCII ones. Both
    the runs and the decoded characters (CJK ideographs and punctuation) must agree.
    """
    runs = [len(m.group()) for raw in lines for m in _HIGH_RUN_RE.finditer(raw)]
    high = sum(runs)
    # Chinese words are two characters or more (4+ bytes); Latin-1 clusters such as `ção`,
    # `Größe` or `Ñúñez` are 2-3 bytes
    if high < 4 or sum(n for n in runs if n >= 4) < 0.7 * high:
        return False
    try:
        text = b"".join(lines).decode("gb18030")
    except UnicodeDecodeError:
        return False
    wide = [c for c in text if ord(c) > 127]
    return sum(map(_cjk, wide)) >= 0.8 * len(wide)


def _by_line(data: bytes) -> tuple[str, tuple[int, ...], str]:
    raws = data.splitlines(keepends=True)
    parts: list[str | None] = []
    bad: list[int] = []
    for number, raw in enumerate(raws, 1):
        try:
            parts.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            parts.append(None)
            bad.append(number)
    chinese = _looks_gb18030([raws[n - 1] for n in bad])
    for n in bad:
        raw = raws[n - 1]
        codecs_to_try = ("gb18030", "cp1252") if chinese else ("cp1252",)
        for codec in codecs_to_try:
            try:
                parts[n - 1] = raw.decode(codec)
                break
            except UnicodeDecodeError:
                continue
        else:  # 0x81, 0x8D, 0x8F, 0x90, 0x9D are unassigned in 1252
            parts[n - 1] = raw.decode("latin-1")
    name = "GB18030" if chinese else "Windows-1252/Latin-1"
    return "".join(p or "" for p in parts), tuple(bad), name


def _strict(data: bytes, encoding: str, path: str, hint: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{path}: not valid {encoding} (byte {exc.start}: {exc.reason}); {hint}"
        ) from exc


def decode_bytes(data: bytes, path: str, encoding: str | None = None) -> Decoded:
    """Decode a file's bytes (see the module docstring); `encoding` forces one codec.

    Raises `InputError` naming `path` for an unknown or unfitting `encoding`, a file whose BOM
    does not fit its bytes, and a file that is not text (NUL bytes).
    """
    hint = "pass the file's encoding with --encoding"
    if encoding:
        try:
            codecs.lookup(encoding)
        except LookupError as exc:
            raise InputError(f"{path}: unknown encoding {encoding!r}") from exc
        text = _strict(data, encoding, path, hint).removeprefix("\ufeff")
        return Decoded(text, encoding)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]  # then as UTF-8 without one, stray bytes and all
    for bom, name in _BOMS:
        if data.startswith(bom):
            text = _strict(data[len(bom) :], name, path, "the byte-order mark says " + name)
            return _checked(Decoded(text, name), path)
    guess = _utf16_without_bom(data)
    if guess:
        return _checked(Decoded(_strict(data, guess, path, hint), guess), path)
    try:
        return _checked(Decoded(data.decode("utf-8"), "utf-8"), path)
    except UnicodeDecodeError:
        text, fallback, codec = _by_line(data)
        return _checked(Decoded(text, "utf-8", fallback, codec), path)


def _checked(decoded: Decoded, path: str) -> Decoded:
    """Refuse a binary file; remove a few stray NULs (naming their lines) from a text one."""
    text = decoded.text
    if "\x00" not in text:
        return decoded
    if text.count("\x00") * 1000 > len(text):  # more than one in a thousand: not text
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise InputError(
            f"{path}: not a text file (NUL bytes from line {line}); "
            "pass the file's encoding with --encoding if it is text"
        )
    lines = tuple(n for n, s in enumerate(text.split("\n"), 1) if "\x00" in s)
    return replace(decoded, text=text.replace("\x00", ""), nul_lines=lines)
