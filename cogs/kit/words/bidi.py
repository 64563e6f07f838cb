"""Right-to-left text that reads right in any client, and names that cannot disturb a sentence.

A Discord client may lay out each line of a message in a left-to-right paragraph whatever its first
letter (simcord's Preview in Chromium does), and may drop directional characters it dislikes (the
override U+202E is known to go). So a right-to-left line is made to read right in both paragraph
directions by itself, with marks and isolates only (no overrides, no embeddings):

- it starts and ends with a right-to-left mark, after any markdown line marker (`## `, `- `, `> `,
  `1. `) so headings and lists still parse: where isolates are dropped, the marks still pull the
  line's ends to the right;
- its text is one right-to-left isolate, so inside it the Unicode bidi algorithm works as in a
  right-to-left paragraph;
- inside that, every left-to-right run that would otherwise lose its neutral ends to the sentence
  (a command's slash, a signed number's sign, "×2", a code span, a mention, Latin words) is a
  left-to-right isolate of its own.

Player names are first-strong isolates in every language (`name`), so an Arabic-script nickname in
a German sentence, or a Latin one in a Persian sentence, keeps its place and its punctuation.
"""

from __future__ import annotations

import re

RLM = "\u200f"
LRI, RLI, FSI, PDI = "\u2066", "\u2067", "\u2068", "\u2069"
OPENERS = frozenset((LRI, RLI, FSI))

# Every character that steers the bidi algorithm: marks, embeddings, overrides, isolates.
CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_CONTROL_TABLE = dict.fromkeys(map(ord, CONTROLS))
# Hebrew, Arabic, Syriac, Thaana, NKo and the rest of the right-to-left blocks, and their forms.
_RTL_LETTER = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")

# A markdown line marker Discord parses only at the very start of a line (nested ones included).
_MARKER = re.compile(r"(?:\s*(?:#{1,3} |-# |>>> |> |[-*] |\d{1,3}\. ))*")

# Runs laid out left to right inside a right-to-left line, each isolated whole: a code span, a piece
# of Discord markup (<@id>, </command:id>, <t:…>, <:emoji:id>), or Latin words and numbers with their
# inner punctuation (Persian ٫ and ٬ too) and a leading sign, slash or ×. A plain number needs no
# isolate (it reads right in a right-to-left sentence), so a run must hold a Latin letter, a sign or
# inner punctuation. A percent sign stays outside: a right-to-left sentence reads it after the number,
# on its left ("٪۱۰۰"), as clients lay it out.
_DIGIT = "0-9\u0660-\u0669\u06f0-\u06f9"
_LATIN = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"  # Latin letters (not × or ÷)
_WORD = f"{_LATIN}{_DIGIT}"
_TOKEN = rf"\u200e?[+\-−×#/]?[{_WORD}](?:[{_WORD}'’._:/+\-−×@&٫٬]*[{_WORD}])?"
_LINK_TARGET = r"\]\([^()\s]*\)"  # a markdown link's "](url)": left exactly as it is
_RUN = re.compile(rf"{_LINK_TARGET}|`[^`\n]+`|<(?:[@#/:]|a:|t:)[^<>\n]*>|{_TOKEN}(?: +{_TOKEN})*")
_NEEDS_ISOLATE = re.compile(rf"[{_LATIN}`<+\-−×#/._:]")


def plain(text: str) -> str:
    """The text without any bidi control character (for comparisons, and for drawing with Pillow)."""
    return text.translate(_CONTROL_TABLE)


def isolate(text: str) -> str:
    """A first-strong isolate around `text`, unless it is one already (or empty)."""
    if not text or _whole_isolate(text):
        return text
    return f"{FSI}{text}{PDI}"


def nested(text: str) -> str:
    """A value placed inside a right-to-left sentence: isolated, and a right-to-left line of its own
    (an inner `t()`) keeps its isolate but not its marks, which only its own line needs."""
    if is_wrapped(text) and not starts_with_marker(text):
        return text[1:-1]
    return isolate(text)


def name(raw: str) -> str:
    """A player's name as a sentence may carry it: stripped of the controls a nickname could use to
    scramble the line around it, and isolated when it holds right-to-left letters, which would
    otherwise take the sentence's punctuation and numbers with them (a left-to-right name needs no
    isolate in a left-to-right sentence, and a right-to-left sentence isolates its every parameter)."""
    cleaned = plain(raw).strip() or raw
    return isolate(cleaned) if _RTL_LETTER.search(cleaned) else cleaned


def quoted(text: str) -> str:
    """Text from outside (a player's input) inside a sentence: without direction controls of its own,
    isolated; an isolate the bot made (a name, a list) stays as it is."""
    if not text or _whole_isolate(text) or is_wrapped(text):
        return text
    if "\n" in text:  # a block (a code block quoting an expression): no controls, lines left alone
        return plain(text)
    cleaned = plain(text)
    return isolate(cleaned) if _RTL_LETTER.search(cleaned) or cleaned != text else cleaned


def mention(user_id: int) -> str:
    """A user's mention, isolated: the client shows it as their name, in whatever script that is."""
    return isolate(f"<@{user_id}>")


def marker_length(line: str) -> int:
    """How many characters a line's markdown line marker takes (`## `, `- `, `> `, `1. `; 0: none)."""
    return _MARKER.match(line).end()  # type: ignore[union-attr]  # the pattern matches ""


def starts_with_marker(text: str) -> bool:
    """Whether `text` begins with a markdown line marker (it must stay first on its line)."""
    return marker_length(text) > 0


def prose(lines: list[str]) -> list[bool]:
    """For each line of a message, whether it is prose: neither a code block's fence nor inside one
    (a code block shows what was typed, as typed)."""
    found: list[bool] = []
    fenced = False
    for line in lines:
        fence = line.lstrip().startswith("```")
        found.append(not (fence or fenced))
        if fence and line.count("```") % 2:
            fenced = not fenced
    return found


def is_wrapped(line: str) -> bool:
    """Whether a line (after its markdown marker) is already one right-to-left unit from `rtl_line`."""
    body = line[marker_length(line) :]
    return body.startswith(RLM + RLI) and body.endswith(PDI + RLM) and _closing(body, 2) == len(body) - 2


def rtl_line(line: str) -> str:
    """One line made right to left (see the module's description); blank lines stay as they are."""
    start = marker_length(line)
    marker, body = line[:start], line[start:]
    if not body.strip() or is_wrapped(line):
        return line
    return f"{marker}{RLM}{RLI}{_isolate_runs(body)}{PDI}{RLM}"


def rtl(text: str) -> str:
    """Every line of a right-to-left text made right to left; code blocks are left as they are."""
    lines = text.split("\n")
    return "\n".join(
        rtl_line(line) if words else line for line, words in zip(lines, prose(lines), strict=True)
    )


def _isolate_runs(body: str) -> str:
    """Left-to-right isolates around the runs that need one, outside existing isolates."""
    out: list[str] = []
    at = 0
    while at < len(body):
        opener = _next_opener(body, at)
        stop = len(body) if opener < 0 else opener
        out.append(_runs(body[at:stop]))
        if opener < 0:
            break
        end = _closing(body, opener + 1)
        end = len(body) if end < 0 else end + 1
        out.append(body[opener:end])  # an isolate already made (a name, a nested sentence): kept whole
        at = end
    return "".join(out)


def _runs(segment: str) -> str:
    def wrap(match: re.Match[str]) -> str:
        run = match[0]
        if run.startswith("]("):
            return run
        return f"{LRI}{run}{PDI}" if _NEEDS_ISOLATE.search(run) else run

    return _RUN.sub(wrap, segment)


def _next_opener(text: str, start: int) -> int:
    for index in range(start, len(text)):
        if text[index] in OPENERS:
            return index
    return -1


def _closing(text: str, start: int) -> int:
    """The index of the PDI closing an isolate opened just before `start`, or -1."""
    depth = 1
    for index in range(start, len(text)):
        char = text[index]
        if char in OPENERS:
            depth += 1
        elif char == PDI:
            depth -= 1
            if depth == 0:
                return index
    return -1


def _whole_isolate(text: str) -> bool:
    return text[0] in OPENERS and text.endswith(PDI) and _closing(text, 1) == len(text) - 1
