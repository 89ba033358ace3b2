"""Shared plumbing for parsers: the prepared Source (bytes decoded and split once), and the parser protocol."""

from __future__ import annotations

import codecs
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from ..errors import ParseError
from ..model import Document

# Bytes that Mac Roman and cp1252 both decode but that only make sense in one of them. Mac Roman
# puts curly quotes and dashes at 0xD0-0xD5; cp1252 puts them at 0x91-0x97.
_MAC_HINTS = frozenset(b"\xd0\xd1\xd2\xd3\xd4\xd5\xa5\xaa\xa8\xc9")
_CP1252_HINTS = frozenset(b"\x91\x92\x93\x94\x96\x97\x85\x99\xae")
_CP1252_UNDEFINED = frozenset(b"\x81\x8d\x8f\x90\x9d")
_MAC_HINT_BYTES, _CP1252_HINT_BYTES = bytes(sorted(_MAC_HINTS)), bytes(sorted(_CP1252_HINTS))


_CONTROL = re.compile("[\x00-\x08\x0e-\x1f\ufff0-\uffff]")


def _control_ratio(text: str) -> float:
    sample = text[:20000]
    if not sample:
        return 0.0
    return len(_CONTROL.findall(sample)) / len(sample)


def _utf16_without_bom(data: bytes) -> str | None:
    sample = data[:4000]
    if len(sample) < 4:
        return None
    even = sample[0::2].count(0)
    odd = sample[1::2].count(0)
    half = len(sample) // 2
    if odd > 0.3 * half and even < 0.05 * half:
        return "utf-16-le"
    if even > 0.3 * half and odd < 0.05 * half:
        return "utf-16-be"
    return None


_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF-", "a PDF file (save the rules as text, or use the .txt or .docx edition)"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"PK\x03\x04", "a zip archive that is not a Word document"),
    (b"SQLite format 3\x00", "an SQLite database"),
)


def _line_at(data: bytes, offset: int, unit: int = 1) -> int:
    """1-based line of byte ``offset`` under CR, LF or CRLF endings (``unit`` 2 for UTF-16)."""
    head = data[:offset]
    if unit == 2:
        head = head[::2] if head[:1] != b"\x00" else head[1::2]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


def decode(data: bytes, source: str) -> str:
    """Decode the bytes of a text release: BOMs, UTF-16 without BOM, UTF-8, cp1252 or Mac Roman.

    Raises ParseError for empty input, binary data, or text that decodes only as noise.
    """
    # (a blank start is the only case in which the whole, copied by strip, needs looking at)
    if not data[:64].strip(b" \t\r\n\x00") and not data.strip(b" \t\r\n\x00"):
        raise ParseError("file is empty; expected Comprehensive Rules text", source=source, line=1)
    for magic, what in _MAGIC:
        if data.startswith(magic):
            raise ParseError(f"this is {what}, not Comprehensive Rules text", source=source, line=1)
    if data.startswith(codecs.BOM_UTF8):
        enc, body = "utf-8-sig", data
    elif data.startswith(codecs.BOM_UTF16_LE) or data.startswith(codecs.BOM_UTF16_BE):
        enc, body = "utf-16", data
    else:
        enc16 = _utf16_without_bom(data)
        enc, body = (enc16, data) if enc16 else ("", data)
    if enc:
        try:
            text = _decode_as(body, enc)
        except UnicodeDecodeError as e:
            unit = 1 if enc.startswith("utf-8") else 2
            line = _line_at(body, e.start, unit)
            # (offsets after a BOM are counted without it, hence the slack)
            if e.reason in ("unexpected end of data", "truncated data") and e.start >= len(body) - 7:
                raise ParseError(
                    f"file ends in the middle of a {enc.upper().replace('-SIG', '')} character (truncated file)",
                    source=source,
                    line=line,
                ) from None
            raise ParseError(
                f"invalid {enc} byte sequence at byte {e.start} (corrupt file)", source=source, line=line
            ) from None
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            if e.start >= len(data) - 3 and e.reason == "unexpected end of data":
                raise ParseError(
                    "file ends in the middle of a UTF-8 character (truncated file)",
                    source=source,
                    line=_line_at(data, e.start),
                ) from None
            text = _decode_single_byte(data)
    # Outside UTF-16 a NUL character is exactly a NUL byte: memchr over the bytes, not a scan of the text.
    nul = "\x00" in text if enc.startswith("utf-16") else b"\x00" in data
    if nul or _control_ratio(text) > 0.01:
        raise ParseError("binary data, not text; expected a Comprehensive Rules text file", source=source, line=1)
    return text


def _decode_as(data: bytes, enc: str) -> str:
    if enc == "utf-8-sig":
        # The BOM skipped in place and the rest read by the C UTF-8 decoder: the utf-8-sig codec is a
        # module imported on first use, and slower. A decoding error is the codec's own, raised below.
        try:
            return str(memoryview(data)[3:], "utf-8")
        except UnicodeDecodeError:
            pass
    return data.decode(enc)


def _decode_single_byte(data: bytes) -> str:
    if any(b in data for b in _CP1252_UNDEFINED):
        return data.decode("mac-roman")
    # How many of the bytes are hints, counted at C speed as what deleting them all takes away: one pass
    # for each side (bytes.count is a pass per byte value, 5 ms for a release; a Python loop, 60 ms).
    mac = len(data) - len(data.translate(None, _MAC_HINT_BYTES))
    win = len(data) - len(data.translate(None, _CP1252_HINT_BYTES))
    if mac > win:
        return data.decode("mac-roman")
    return data.decode("cp1252")


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, broken at LF, CR and CR LF, and at the CR CR LF of some 2019-2026 files as
    one break (the ``cr_cr_lf_line_breaks`` quirk), scanning left to right so that CR CR CR LF is two
    breaks, as the releases that contain it mean it. U+2028 (which the 2026-08-19 re-release uses
    inside entries: the ``line_separator_in_entries`` quirk) is no break here, unlike in
    ``str.splitlines``."""
    if "\r" not in text:
        return text.split("\n")
    # (the end of the text first: a release whose lines end in CR alone -- 28 of them -- shows it there, and is
    # spared counting every CR and LF)
    tail = text[-2048:]
    if tail.count("\r") == tail.count("\n") and (lf := text.count("\n")) == text.count("\r"):
        lines = text.split("\r\n")
        if len(lines) == lf + 1:
            return lines  # as many CR LF as CRs and LFs: each break is a CR LF (most releases), one C-speed split
    # Split at LF first, then look only at the pieces that hold a CR: one C-speed pass over the text,
    # where replacing each kind of break in turn copied the whole text three times.
    pieces = text.split("\n")
    tail = pieces.pop()  # the text after the last LF, which no LF ends
    out: list[str] = []
    for piece in pieces:
        if "\r" in piece:
            # The LF that ends this piece takes a CR or a CR CR right before it into its break.
            piece = piece[:-2] if piece[-2:] == "\r\r" else piece[:-1] if piece[-1:] == "\r" else piece
            if "\r" in piece:
                out.extend(piece.split("\r"))
                continue
        out.append(piece)
    out.extend(tail.split("\r"))
    return out


def lf_text(text: str) -> str:
    """``text`` with every line break of :func:`split_lines` turned into LF (U+2028 left alone)."""
    return "\n".join(split_lines(text)) if "\r" in text else text


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_MONTH_NUMBER = {name: k for k, name in enumerate(_MONTHS.split("|"), 1)}
# Digits are 0-9 only (re.ASCII): a date in other scripts' digits is no date the rules print.
_DATE_RE = re.compile(rf"\b(?P<m>{_MONTHS})\s+(?P<d>\d{{1,2}}),?\s+(?P<y>(?:19|20)\d\d)\b", re.ASCII)
_DATE_NUM_RE = re.compile(r"\b(?P<m>\d\d)/(?P<d>\d\d)/(?P<y>\d\d(?:\d\d)?)\b", re.ASCII)


def parse_date_text(text: str) -> date | None:
    """The first date written as "January 16, 2026" or "04/23/99" in ``text``."""
    m = _DATE_RE.search(text)
    if m:
        # The month's number from its name (the first strptime of a process imports _strptime and builds
        # its locale's regexes: 3 ms of a parse). A day the month does not have ("February 30",
        # "January 45") is no date: the text then states none, and the reader says so.
        try:
            return date(int(m["y"]), _MONTH_NUMBER[m["m"]], int(m["d"]))
        except ValueError:
            return None
    n = _DATE_NUM_RE.search(text)
    if n:
        y = int(n["y"])
        if y < 100:
            y += 1900 if y >= 90 else 2000
        try:
            return date(y, int(n["m"]), int(n["d"]))
        except ValueError:
            return None
    return None


class Source:
    """One input as every sniffer and parser sees it: the bytes and their name, and -- each computed at
    most once, when first asked for -- the decoded text, its LF form, its lines and the bytes' sha256.
    Binary formats (DOCX, Parquet) never ask for the text, so they never pay for decoding it."""

    __slots__ = ("data", "name", "_decoded", "_error", "_text", "_lines", "_sha256")

    def __init__(self, data: bytes, name: str = "<input>") -> None:
        self.data = data
        self.name = name
        self._decoded: str | None = None
        self._error: ParseError | None = None
        self._text: str | None = None
        self._lines: list[str] | None = None
        self._sha256: str | None = None

    @property
    def decoded(self) -> str:
        """The text as decoded, line endings untouched (for readers that handle CR themselves: HTML,
        CSV). Raises ParseError for bytes that are not text -- every time it is asked, decoding once."""
        if self._decoded is None:
            if self._error is not None:
                raise self._error
            try:
                self._decoded = decode(self.data, self.name)
            except ParseError as e:
                self._error = e
                raise
        return self._decoded

    @property
    def decoded_or_none(self) -> str | None:
        """:attr:`decoded`, or None when the bytes are not text."""
        try:
            return self.decoded
        except ParseError:
            return None

    @property
    def text(self) -> str:
        """The decoded text with LF line breaks (see :func:`lf_text`)."""
        if self._text is None:
            decoded = self.decoded
            self._text = "\n".join(self.lines) if "\r" in decoded else decoded
        return self._text

    @property
    def text_or_none(self) -> str | None:
        """:attr:`text`, or None when the bytes are not text (what sniffers ask)."""
        return None if self.decoded_or_none is None else self.text

    @property
    def lines(self) -> list[str]:
        """The lines of :attr:`text`, split from the decoded text (the official parser, which is most inputs,
        never asks for the LF text: a copy of the release, a tenth of its parse with the memory it takes).
        Shared: a parser that rewrites lines copies the list first."""
        if self._lines is None:
            self._lines = split_lines(self.decoded)
        return self._lines

    def head_lines(self, size: int) -> list[str]:
        """``text[:size].split("\\n")`` -- the lines of the first ``size`` characters, the last one cut
        where they end -- taken from :attr:`lines` (what sniffers look at: the text is split once)."""
        out: list[str] = []
        left = size
        for line in self.lines:
            if len(line) >= left:
                out.append(line[:left])
                break
            out.append(line)
            left -= len(line) + 1
        return out

    @property
    def sha256(self) -> str:
        if self._sha256 is None:
            self._sha256 = sha256(self.data)
        return self._sha256


@dataclass(frozen=True, slots=True)
class Format:
    """One row of the parser registry: a name, what it reads, how to recognise it, how to parse it.
    Both ``sniff`` and ``parse`` receive the one prepared :class:`Source` of the input."""

    name: str
    description: str
    sniff: Callable[[Source], float]
    parse: Callable[[Source], Document]
