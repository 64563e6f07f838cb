"""A message as one Components V2 card: a `Container` in its accent colour holding its texts, its
pictures and its controls, instead of a content line, an embed and rows of buttons under it.

Renderers keep describing a message in the parts they know (`ui.Board`: a line of content, an embed's
title, description, fields, picture and footer, its items by row, and `sections`: a line with the
button that acts on it). `layout` turns those parts into the card, in one shape for every message:

    ### title                      heading
    content / description          what the message says
    ───────────────────            a separator
    **field**  value …             its parts, one text each
    line ……………………… [button]       a section: the button beside the line it acts on
    [picture]                      a media gallery at the card's full width
    -# footer                      small print
    [buttons] [menus]              the action rows, inside the card

`fit` keeps a card within Components V2's limits for any input (40 components counting nested
ones, 4,000 characters of text in all), the last resort after the renderers' own brevity.

The card is built as the JSON Discord reads (`Card`), not as discord.py's layout items: those link
each part to its parent and view both ways, so every card drawn (two a Sushi Go! click) was left to
the cycle collector, whose pauses were the slowest clicks (bench/load_process.py); JSON is freed at
once, and costs a fifth of the time to build. The controls are the renderers' items, each read once
(`to_component_dict`); they route by custom_id (dynamic items), so no view needs to be kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import discord

from cogs.kit import limits
from cogs.kit.words import bidi

COMPONENTS = limits.CARD_COMPONENTS
TEXT_TOTAL = limits.CARD_TEXT
ACCENT = discord.Colour.from_rgb(88, 101, 242)  # a card without a colour of its own
TABLE_ROW = 4  # the last row of every board belongs to the table (My hand, How to play, Rematch)
Section = tuple[str, discord.ui.Item[Any]]
"""A line of text with the one control that acts on it, shown beside it."""
Part = dict[str, Any]
"""A part of the card as Discord reads it (a component's JSON)."""

TEXT, SECTION, GALLERY, SEPARATOR, CONTAINER, ROW = 10, 9, 12, 14, 17, 1  # Discord's component types


class Card(discord.ui.LayoutView):
    """A message as one card, its components already the JSON Discord reads (`layout`): pass it as
    `view=` wherever discord.py takes a view. It holds no items (its controls route by custom_id), so
    discord.py keeps no view of it."""

    def __init__(self, components: list[Part]) -> None:
        super().__init__(timeout=None)
        self.components = components

    def to_components(self) -> list[Part]:
        return self.components

    def has_components_v2(self) -> bool:
        return True

    def parts(self) -> list[Part]:
        """The container's parts, in order (texts, sections, pictures, rows)."""
        return self.components[0]["components"]

    def add_part(self, part: discord.ui.Item[Any]) -> Card:
        """The card with one more part at the end of its container (a file the card names)."""
        self.parts().append(part.to_component_dict())
        return self


def text(content: str) -> Part:
    return {"type": TEXT, "content": content}


def layout(
    content: str | None,
    embed: discord.Embed | None,
    items: Sequence[discord.ui.Item[Any]],
    sections: Sequence[Section] = (),
) -> Card:
    """The card for a message's parts (texts already finished: right to left, limits)."""
    parts = _parts(content, embed, sections)
    rows = _rows(items)
    parts = fit(parts, rows)
    pictures = sum(len(part["items"]) for part in parts if part["type"] == GALLERY)
    if count(parts, rows) - pictures > COMPONENTS:  # too many controls: a renderer's bug, said here
        raise ValueError(f"maximum number of children exceeded ({COMPONENTS})")
    colour = embed.colour if embed is not None and embed.colour is not None else ACCENT
    container = {
        "type": CONTAINER,
        "accent_color": colour.value,
        "spoiler": False,
        "components": parts + rows,
    }
    return Card([container])


def _parts(content: str | None, embed: discord.Embed | None, sections: Sequence[Section]) -> list[Part]:
    head: list[str] = []
    if embed is not None and embed.author.name:
        head.append(f"-# {embed.author.name}")
    if embed is not None and embed.title:
        head.append(f"### {embed.title}")
    if content:
        head.append(content)
    if embed is not None and embed.description:
        head.append(embed.description)
    parts: list[Part] = []
    if head:
        parts.append(text("\n".join(head)))
    body = [_field(field.name, field.value) for field in (embed.fields if embed is not None else [])]
    if body or sections:
        if parts:
            parts.append(
                {"type": SEPARATOR, "divider": True, "spacing": discord.SeparatorSpacing.small.value}
            )
        if body:
            parts.append(text(_joined(body)))
        for line, accessory in sections:
            parts.append(
                {"type": SECTION, "components": [text(line)], "accessory": accessory.to_component_dict()}
            )
    if embed is not None and embed.image.url:
        parts.append({"type": GALLERY, "items": [{"media": {"url": embed.image.url}, "spoiler": False}]})
    if embed is not None and embed.footer.text:
        parts.append(text(_small(embed.footer.text)))
    if not parts:  # a card needs something to read (a message of controls only)
        parts.append(text("\u200b"))
    return parts


def _field(name: str | None, value: str | None) -> str:
    """A field as a bold name over its value (a right-to-left name bold inside its own marks, so the
    line stays the one right-to-left unit it was)."""
    title = (name or "").strip()
    if not title or title == "\u200b":
        return value or ""
    if bidi.is_wrapped(title) and not bidi.marker_length(title):
        # The closing ** after a mark: after a letter's punctuation (")") markdown would not close it.
        bold = f"{title[:2]}**{title[2:-2]}{bidi.RLM}**{title[-2:]}"
    else:
        bold = f"**{title}**"
    return f"{bold}\n{value or ''}".rstrip()


def _joined(fields: list[str]) -> str:
    """The fields one under the other; after one ending in a list (`1. alice`) a blank line, or
    markdown would indent the next field's name into the list's last item."""
    out = fields[0]
    for field in fields[1:]:
        last = out.rsplit("\n", 1)[-1]
        out += ("\n\n" if _LIST.match(bidi.plain(last)) else "\n") + field
    return out


_LIST = re.compile(r"\s*(?:\d+\.|[-*•]) ")


def _small(text: str) -> str:
    """Small print: every line a subtext line (`-# `)."""
    return "\n".join(f"-# {line}" if line.strip() else line for line in text.split("\n"))


def _rows(items: Sequence[discord.ui.Item[Any]]) -> list[Part]:
    """The items in action rows as their `row` says, in row order; an item without one goes to the
    lowest row with room, as discord.py's View places it (a select fills a row)."""
    by_row: dict[int, list[discord.ui.Item[Any]]] = {}
    for item in items:
        if item.row is not None:
            by_row.setdefault(item.row, []).append(item)
    for item in items:
        if item.row is None:
            room = next(at for at in range(len(items) + 5) if _width(by_row.get(at, [])) + item.width <= 5)
            by_row.setdefault(room, []).append(item)
    order = sorted(by_row)
    groups = [by_row[row] for row in order]
    if len(groups) >= 2 and order[-1] == TABLE_ROW and _width(groups[-2]) + _width(groups[-1]) <= 5:
        # The table's own row ("How to play", "My hand") joins the one above when both fit on one
        # line: a row less to scroll past. A game's own rows stay as it drew them.
        groups[-2:] = [groups[-2] + groups[-1]]
    return [
        {"type": ROW, "components": [item.to_component_dict() for item in chunk]}
        for group in groups
        for chunk in _chunks(group)
    ]


def _width(items: Iterable[discord.ui.Item[Any]]) -> int:
    return sum(item.width for item in items)


def _chunks(items: list[discord.ui.Item[Any]]) -> list[list[discord.ui.Item[Any]]]:
    chunks: list[list[discord.ui.Item[Any]]] = [[]]
    for item in items:
        if _width(chunks[-1]) + item.width > 5:
            chunks.append([])
        chunks[-1].append(item)
    return [chunk for chunk in chunks if chunk]


def count(parts: Sequence[Part], rows: Sequence[Part]) -> int:
    """Components as Discord counts them: the container, each part and what it holds, each row and
    its controls."""
    total = 1
    for part in parts:
        total += 1
        if part["type"] == SECTION:
            total += len(part["components"]) + 1
        elif part["type"] == GALLERY:
            total += len(part["items"])
    return total + sum(1 + len(row["components"]) for row in rows)


def fit(parts: list[Part], rows: Sequence[Part]) -> list[Part]:
    """The parts within the limits: separators go first, then sections become plain lines (their
    button is dropped: the action rows keep every move); the texts share 4,000 characters."""
    if count(parts, rows) > COMPONENTS:
        parts = [part for part in parts if part["type"] != SEPARATOR]
    while count(parts, rows) > COMPONENTS and any(part["type"] == SECTION for part in parts):
        index = max(i for i, part in enumerate(parts) if part["type"] == SECTION)
        parts[index] = text("\n".join(texts([parts[index]])))
    shown = [part for part in walk(parts) if part["type"] == TEXT]
    over = sum(len(part["content"]) for part in shown) - TEXT_TOTAL
    for part in sorted(shown, key=lambda part: -len(part["content"])):  # the longest gives way first
        if over <= 0:
            break
        keep = max(1, len(part["content"]) - over)
        over -= len(part["content"]) - keep
        part["content"] = limits.clip(part["content"], keep)
    return parts


def walk(parts: Iterable[Part]) -> Iterator[Part]:
    """Every part and what a section holds (its texts), in order."""
    for part in parts:
        yield part
        if part["type"] == SECTION:
            yield from part["components"]


def texts(parts: Iterable[Part]) -> list[str]:
    """The texts of the parts, a section's included, in order."""
    return [part["content"] for part in walk(parts) if part["type"] == TEXT]


def texts_rtl(card: Card) -> None:
    """Every text of a right-to-left card made right-to-left lines, those this module joined from
    parts too (`**field**`, `### title`)."""
    for part in walk(card.parts()):
        if part["type"] == TEXT:
            part["content"] = bidi.rtl(part["content"])
