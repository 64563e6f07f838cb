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
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
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


def layout(
    content: str | None,
    embed: discord.Embed | None,
    items: Sequence[discord.ui.Item[Any]],
    sections: Sequence[Section] = (),
) -> discord.ui.LayoutView:
    """The card for a message's parts (texts already finished: right to left, limits)."""
    parts = _parts(content, embed, sections)
    rows = _rows(items)
    parts = fit(parts, rows)
    colour = embed.colour if embed is not None and embed.colour is not None else ACCENT
    container: discord.ui.Container[Any] = discord.ui.Container(accent_colour=colour)
    for part in parts:
        container.add_item(part)
    for row in rows:
        container.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return view


def _parts(
    content: str | None, embed: discord.Embed | None, sections: Sequence[Section]
) -> list[discord.ui.Item[Any]]:
    head: list[str] = []
    if embed is not None and embed.author.name:
        head.append(f"-# {embed.author.name}")
    if embed is not None and embed.title:
        head.append(f"### {embed.title}")
    if content:
        head.append(content)
    if embed is not None and embed.description:
        head.append(embed.description)
    parts: list[discord.ui.Item[Any]] = []
    if head:
        parts.append(discord.ui.TextDisplay("\n".join(head)))
    body = [_field(field.name, field.value) for field in (embed.fields if embed is not None else [])]
    if body or sections:
        if parts:
            parts.append(discord.ui.Separator(spacing=discord.SeparatorSpacing.small))
        if body:
            parts.append(discord.ui.TextDisplay(_joined(body)))
        for text, accessory in sections:
            parts.append(discord.ui.Section(discord.ui.TextDisplay(text), accessory=accessory))
    if embed is not None and embed.image.url:
        parts.append(discord.ui.MediaGallery(discord.MediaGalleryItem(embed.image.url)))
    if embed is not None and embed.footer.text:
        parts.append(discord.ui.TextDisplay(_small(embed.footer.text)))
    if not parts:  # a card needs something to read (a message of controls only)
        parts.append(discord.ui.TextDisplay("\u200b"))
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


def _rows(items: Sequence[discord.ui.Item[Any]]) -> list[discord.ui.ActionRow[Any]]:
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
    rows: list[discord.ui.ActionRow[Any]] = []
    for group in groups:
        for chunk in _chunks(group):
            row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
            for item in chunk:
                row.add_item(item)
            rows.append(row)
    return rows


def _width(items: Iterable[discord.ui.Item[Any]]) -> int:
    return sum(item.width for item in items)


def _chunks(items: list[discord.ui.Item[Any]]) -> list[list[discord.ui.Item[Any]]]:
    chunks: list[list[discord.ui.Item[Any]]] = [[]]
    for item in items:
        if _width(chunks[-1]) + item.width > 5:
            chunks.append([])
        chunks[-1].append(item)
    return [chunk for chunk in chunks if chunk]


def count(parts: Sequence[discord.ui.Item[Any]], rows: Sequence[discord.ui.ActionRow[Any]]) -> int:
    """Components as Discord counts them: the container, each part and what it holds, each row and
    its controls."""
    total = 1
    for part in parts:
        total += 1
        if isinstance(part, discord.ui.Section):
            total += len(part.children) + 1
        elif isinstance(part, discord.ui.MediaGallery):
            total += len(part.items)
    return total + sum(1 + len(row.children) for row in rows)


def fit(
    parts: list[discord.ui.Item[Any]], rows: Sequence[discord.ui.ActionRow[Any]]
) -> list[discord.ui.Item[Any]]:
    """The parts within the limits: separators go first, then sections become plain lines (their
    button is dropped: the action rows keep every move); the texts share 4,000 characters."""
    if count(parts, rows) > COMPONENTS:
        parts = [part for part in parts if not isinstance(part, discord.ui.Separator)]
    while count(parts, rows) > COMPONENTS and any(isinstance(part, discord.ui.Section) for part in parts):
        index = max(i for i, part in enumerate(parts) if isinstance(part, discord.ui.Section))
        section = parts[index]
        assert isinstance(section, discord.ui.Section)
        parts[index] = discord.ui.TextDisplay("\n".join(_texts([section])))
    texts = [part for part in _walk(parts) if isinstance(part, discord.ui.TextDisplay)]
    over = sum(len(text.content) for text in texts) - TEXT_TOTAL
    for text in sorted(texts, key=lambda text: -len(text.content)):  # the longest gives way first
        if over <= 0:
            break
        keep = max(1, len(text.content) - over)
        over -= len(text.content) - keep
        text.content = limits.clip(text.content, keep)
    return parts


def _walk(parts: Iterable[discord.ui.Item[Any]]) -> Iterable[discord.ui.Item[Any]]:
    for part in parts:
        yield part
        if isinstance(part, discord.ui.Section):
            yield from part.children


def _texts(parts: Iterable[discord.ui.Item[Any]]) -> list[str]:
    return [part.content for part in _walk(parts) if isinstance(part, discord.ui.TextDisplay)]


def texts_rtl(view: discord.ui.LayoutView) -> None:
    """Every text display of a right-to-left card made right-to-left lines, those this module joined
    from parts too (`**field**`, `### title`)."""
    for item in view.walk_children():
        if isinstance(item, discord.ui.TextDisplay):
            item.content = bidi.rtl(item.content)
