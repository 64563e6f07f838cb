"""Long lists as cards within Discord's limits, with restart-safe buttons to turn their pages.

`pack` cuts a list's lines into pages that no embed limit can refuse (a line too long for a page is
shortened, never dropped); `controls` is the ◀ n / N ▶ row under a page (no words: arrows and
page numbers in the reader's digits). A button's custom_id holds
the book (which list), its key (whatever the list needs to be rebuilt: a filter, an id) and the page
to show, so it works after a restart: the cog that shows a book `attach`es an opener under the book's
name, which rebuilds the pages when a button is pressed. Nothing here has words of its own.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any
from weakref import WeakKeyDictionary

import discord

from cogs.kit.errors import answer_failure
from cogs.kit.limits import EMBED_DESCRIPTION as DESCRIPTION
from cogs.kit.limits import EMBED_TITLE as TITLE
from cogs.kit.limits import EMBEDS_TOTAL as EMBED
from cogs.kit.limits import FIELD_NAME, FIELD_VALUE, FIELDS, FOOTER
from cogs.kit.messages import card_message
from cogs.kit.words.catalogs import Localish
from cogs.kit.words.text import number

PAGE_TEXT = 3000
"""What a page's lines may take: room is left for the title, a footer and headings."""
PAGE_LINES = 15
CUT = "…"

Opener = Callable[[discord.Interaction, str], Awaitable[list[discord.Embed]]]
"""A book's pages rebuilt for the one who pressed a button, from the key in its custom_id."""
_OPENERS: WeakKeyDictionary[discord.Client, dict[str, Opener]] = WeakKeyDictionary()
_BOOK = re.compile(r"[a-z_]+")
_KEY = re.compile(r"[A-Za-z0-9_.-]*")


def shorten(text: str, limit: int) -> str:
    """`text` within `limit` characters, cut with … when it is longer."""
    return text if len(text) <= limit else text[: limit - len(CUT)] + CUT


def pack(lines: Sequence[str], *, limit: int = PAGE_TEXT, per_page: int = PAGE_LINES) -> list[list[str]]:
    """The lines in order, cut into pages of at most `per_page` lines and `limit` characters (joined
    by newlines). Always at least one page, so that an empty list still shows its page."""
    pages: list[list[str]] = [[]]
    size = 0
    for line in lines:
        line = shorten(line, limit)
        if pages[-1] and (len(pages[-1]) >= per_page or size + 1 + len(line) > limit):
            pages.append([])
            size = 0
        size += len(line) + (1 if pages[-1] else 0)
        pages[-1].append(line)
    return pages


def fits(embed: discord.Embed) -> bool:
    """Whether Discord accepts the embed (each part and the whole)."""
    parts = [
        len(embed.title or "") <= TITLE,
        len(embed.description or "") <= DESCRIPTION,
        len(embed.fields) <= FIELDS,
        len(embed.footer.text or "") <= FOOTER,
        all(
            len(field.name or "") <= FIELD_NAME and len(field.value or "") <= FIELD_VALUE
            for field in embed.fields
        ),
    ]
    return all(parts) and len(embed) <= EMBED


# ---------------------------------------------------------------- turning pages


def attach(bot: discord.Client, book: str, opener: Opener) -> None:
    """Let the page buttons of `book` open it on this bot (a cog's `cog_load`)."""
    assert _BOOK.fullmatch(book), book
    _OPENERS.setdefault(bot, {})[book] = opener
    bot_add = getattr(bot, "add_dynamic_items", None)
    if bot_add is not None:
        bot_add(PageTurn)


def detach(bot: discord.Client, book: str) -> None:
    """The cog that showed `book` is gone (its `cog_unload`); a button pressed now is answered as gone."""
    _OPENERS.get(bot, {}).pop(book, None)


class PageTurn(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pg:(?P<book>[a-z_]+):(?P<key>[A-Za-z0-9_.-]*):(?P<page>\d+):(?P<word>prev|next)",
):
    """◀ or ▶ under a page: the book, its key and the page it shows are in the custom_id."""

    def __init__(self, book: str, key: str, page: int, word: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                emoji="◀️" if word == "prev" else "▶️",
                style=discord.ButtonStyle.secondary,
                custom_id=f"pg:{book}:{key}:{page}:{word}",
                disabled=disabled,
            )
        )
        self.book, self.key, self.page = book, key, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageTurn:
        return cls(match["book"], match["key"], int(match["page"]), match["word"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            opener = _OPENERS.get(interaction.client, {}).get(self.book)
            assert opener is not None, f"no cog opens the book {self.book!r}"
            embeds = await opener(interaction, self.key)
            page = max(0, min(self.page, len(embeds) - 1))
            items = controls(self.book, self.key, page, len(embeds), interaction.locale)
            await interaction.response.edit_message(
                content=None, embed=None, view=card_message(None, embeds[page], items)
            )
        except Exception as error:  # a click has no command tree: take the one refusal path by hand
            await answer_failure(interaction, error)


def controls(book: str, key: str, page: int, pages: int, locale: Localish) -> list[discord.ui.Item[Any]]:
    """◀ `n` / `N` ▶ for page `page` (from 0) of `pages`; none when everything fits on one page."""
    assert _KEY.fullmatch(key), key
    if pages <= 1:
        return []
    where = f"{number(page + 1, locale)} / {number(pages, locale)}"
    return [
        PageTurn(book, key, max(page - 1, 0), "prev", disabled=page == 0),
        discord.ui.Button(label=where, custom_id=f"pg-at:{book}", disabled=True),
        PageTurn(book, key, min(page + 1, pages - 1), "next", disabled=page + 1 >= pages),
    ]


async def show(
    interaction: discord.Interaction,
    book: str,
    key: str,
    embeds: list[discord.Embed],
    locale: Localish,
    *,
    ephemeral: bool = True,
) -> None:
    """Answer a command with a book's first page and its page buttons."""
    items = controls(book, key, 0, len(embeds), locale)
    await interaction.response.send_message(view=card_message(None, embeds[0], items), ephemeral=ephemeral)
