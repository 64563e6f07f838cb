"""Every line a player reads, laid out by the Unicode bidi algorithm as a client may lay it out.

A client may lay out a line in a left-to-right paragraph whatever its first letter (simcord's Preview
in Chromium does), or take the paragraph's direction from its first strong letter. python-bidi puts
each line in visual order both ways, and the result is compared with the order a reader expects:

- a Persian line reads right to left: its pieces from right to left in the order they were written,
  each left-to-right piece (a command or code span, Discord markup such as a mention, Latin words, a
  number with its sign, "×2", "2/3") whole and in its own order;
- a line in a left-to-right language reads left to right, and a right-to-left name inside it (an
  Arabic-script nickname) is one piece, read right to left, where it was written.

(python-bidi does not mirror brackets; neither does this model, so "(" stays "(" on both sides.)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from bidi import get_display

from cogs.kit.words.bidi import CONTROLS, FSI, LRI, PDI, RLI, RLM, marker_length, plain, prose

_LATIN = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"  # Latin letters: not × (U+00D7) nor ÷ (U+00F7)
_DIGITS = "0-9\u06f0-\u06f9\u0660-\u0669"
# What a reader takes as one left-to-right piece (written independently of cogs/kit/words/bidi.py's runs). A
# percent sign is a piece of its own: a right-to-left sentence reads it after the number, on its left.
_PIECE = re.compile(
    rf"`[^`]+`"
    rf"|<[@#/:at][^<>]*>"
    rf"|[+\-−×/#]?[{_LATIN}{_DIGITS}]+(?:[.:/'’,_@&+\-−×٫٬][{_LATIN}{_DIGITS}]+)*"
    rf"(?: [+\-−×/#]?[{_LATIN}{_DIGITS}]+(?:[.:/'’,_@&+\-−×٫٬][{_LATIN}{_DIGITS}]+)*)*"
)


def _strong(char: str) -> str:
    return unicodedata.bidirectional(char)


def _has_rtl(text: str) -> bool:
    return any(_strong(char) in ("R", "AL") for char in text)


def _outside_isolates(text: str) -> str:
    out, depth = [], 0
    for char in text:
        if char in (LRI, RLI, FSI):
            depth += 1
        elif char == PDI:
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(char)
    return "".join(out)


def is_persian(line: str) -> bool:
    """A right-to-left line: the bot marked it so, or it has right-to-left letters of its own (not
    only inside an isolated name)."""
    return RLM in line or _has_rtl(_outside_isolates(line))


def _visual(line: str, base: str | None) -> str:
    return plain(get_display(line, base_dir=base) if base else get_display(line))


def _segments(text: str) -> list[tuple[str, str]]:
    """The text cut at its top-level isolates: ("", plain text) and (opener, the isolate's content)."""
    out: list[tuple[str, str]] = []
    depth, opener, current = 0, "", []
    for char in text:
        if char in (LRI, RLI, FSI):
            if depth == 0:
                out.append(("", "".join(current)))
                opener, current = char, []
            else:
                current.append(char)
            depth += 1
        elif char == PDI and depth:
            depth -= 1
            if depth == 0:
                out.append((opener, "".join(current)))
                current = []
            else:
                current.append(char)
        else:
            current.append(char)
    out.append((opener if depth else "", "".join(current)))
    return [(kind, content) for kind, content in out if content]


def _rtl_isolate(opener: str, content: str) -> bool:
    if opener == RLI:
        return True
    if opener == FSI:
        first = next((_strong(c) for c in _outside_isolates(content) if _strong(c) in ("L", "R", "AL")), "L")
        return first != "L"
    return False


def _pieces(text: str) -> list[str]:
    """A right-to-left text cut into what a reader takes in one go, in reading order: each
    left-to-right piece whole (an isolated left-to-right name or code is one piece), and single
    characters; a nested right-to-left isolate is read on in the same direction."""
    pieces: list[str] = []
    for opener, content in _segments(text):
        if opener and _rtl_isolate(opener, content):
            pieces += _pieces(content)
        elif opener:
            pieces.append(expected_ltr(content))
        else:
            content = content.replace(RLM, "").replace("\u200e", "")
            at = 0
            for match in _PIECE.finditer(content):
                pieces += list(content[at : match.start()])
                pieces.append(match[0])
                at = match.end()
            pieces += list(content[at:])
    return pieces


def expected_rtl(line: str) -> str:
    """A right-to-left line as its reader expects it, left to right on the screen."""
    return "".join(reversed(_pieces(line)))


def expected_ltr(line: str) -> str:
    """A left-to-right line: as written, each right-to-left isolate (a name) reversed in its place. A
    left-to-right isolate with right-to-left letters of its own is a player's text quoted whole (mixed
    scripts as they typed them): it keeps its place, and inside it reads as it would anywhere, laid out
    on its own as the bidi algorithm lays out what they typed."""
    out: list[str] = []
    for opener, content in _segments(line):
        if opener and _rtl_isolate(opener, content):
            out.append(expected_rtl(content))
        elif opener and _has_rtl(_outside_isolates(content)):
            out.append(_visual(content, "L"))
        elif opener:
            out.append(expected_ltr(content))
        else:
            out.append(plain(content))
    return "".join(out)


_MASKED_LINK = re.compile(r"\[([^\]\n]*)\]\([^()\s]*\)")  # a client shows a masked link's words only


def _shown(line: str) -> str:
    """The line as a client lays it out: without its markdown line marker and link targets."""
    body = line[marker_length(line) :]  # markdown consumes the marker
    return _MASKED_LINK.sub(r"\1", body)


def line_problems(line: str) -> list[str]:
    """Why a line would not read right, in a left-to-right paragraph or one that follows its first
    strong letter (none: it reads right both ways)."""
    body = _shown(line)
    if not body.strip() or not (set(body) & CONTROLS or _has_rtl(body)):
        return []
    if is_persian(body):
        want, kind = expected_rtl(body), "right to left"
    else:
        want, kind = expected_ltr(body), "left to right"
    found = []
    for base, paragraph in (("L", "a left-to-right paragraph"), (None, "a first-strong paragraph")):
        shown = _visual(body, base)
        if shown.strip() != want.strip():
            found.append(f"does not read {kind} in {paragraph}: {plain(body)!r} shows as {shown!r}")
    return found


def problems(texts: Iterable[str]) -> list[str]:
    """Every line of these texts that would not read right; a code block shows what a player typed,
    as typed, and is not checked."""
    found: list[str] = []
    for text in texts:
        lines = text.split("\n")
        for line, words in zip(lines, prose(lines), strict=True):
            if words:
                found += line_problems(line)
    return found


def reads_right_without_isolates(line: str) -> bool:
    """Whether a Persian line still reads right in a left-to-right paragraph once a client drops the
    isolates (keeping the marks): the fallback the right-to-left marks are there for."""
    body = _shown(line)
    stripped = body.translate(dict.fromkeys(map(ord, (LRI, RLI, FSI, PDI))))
    return _visual(stripped, "L").strip() == expected_rtl(body).strip()
