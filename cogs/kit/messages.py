"""A message as the bot sends it: `Board` (one rendered message, sent as one Components V2 card),
finished for right-to-left readers and fitted within Discord's limits; shown by Discord's routes alone,
as the answer to a click (`answer_by_editing`: nothing asked back) or as an edit (`edit_message`);
and the one short ephemeral line (`reply_ephemeral`), answered late or not at all without a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeGuard

import discord
import discord.http

from cogs.kit import adapter, cards, limits
from cogs.kit.words import bidi

log = logging.getLogger(__name__)

TABLE_ROW = cards.TABLE_ROW  # the last row of every board belongs to the table (My hand, Rematch)


@dataclass
class Board:
    """One rendered message: what the table posts, edits, DMs or shows ephemerally, sent as one
    Components V2 card (`cogs.kit.cards`) built from these parts."""

    content: str | None = None
    embed: discord.Embed | None = None
    items: list[discord.ui.Item[Any]] = field(default_factory=list)
    files: list[discord.File] = field(default_factory=list)
    sections: list[cards.Section] = field(default_factory=list)  # a line with the button acting on it

    _card: cards.Card | None = field(default=None, init=False, repr=False, compare=False)

    def card(self) -> cards.Card:
        """The message as one card (`card_message`), built once: the publisher fingerprints it, then
        sends it. Draw the parts first; a board is not changed once its card is built."""
        if self._card is None:
            self._card = card_message(self.content, self.embed, self.items, self.sections)
        return self._card

    def send_kwargs(self) -> dict[str, Any]:
        return {"view": self.card(), "files": self.files}

    def edit_kwargs(self) -> dict[str, Any]:
        """For edits: content and embeds cleared (a message posted before the cards becomes one: an
        edit may set the card flag, never remove it), an absent file removed, not kept."""
        return {"content": None, "embed": None, "view": self.card(), "attachments": self.files}


async def edit_message(client: discord.Client, channel_id: int, message_id: int, board: Board) -> None:
    """Edit a message the bot posted to show `board`, by Discord's route alone: the answer is not
    read, so discord.py builds no Message of it and keeps no view for it (the controls are dynamic
    items, found by their custom_id). Raises as `Message.edit` does."""
    with discord.http.handle_message_parameters(
        **board.edit_kwargs(), previous_allowed_mentions=client.allowed_mentions
    ) as params:
        await client.http.edit_message(channel_id, message_id, params=params)


async def answer_by_editing(interaction: discord.Interaction, board: Board) -> None:
    """Answer a click by editing the clicked message to show `board`, as `response.edit_message`
    does but without asking for the message back (`with_response`, which discord.py always asks):
    Discord sends nothing, discord.py reads nothing, builds no Message and stores no view (the
    controls are dynamic items, found by their custom_id). Raises as `response.edit_message` does."""
    await adapter.answer_with_update(interaction, **board.edit_kwargs())


def card_message(
    content: str | None,
    embed: discord.Embed | None = None,
    items: list[discord.ui.Item[Any]] | None = None,
    sections: list[cards.Section] | None = None,
) -> cards.Card:
    """A message as one card — a board's (`Board.card`) or a feature's answer (/leaderboard, /stats,
    /rules, ...; pass it as `view=`, nothing as content or embed): its parts finished
    (`finish_message`), then laid out; a right-to-left card's texts are right-to-left lines
    throughout, those the card joined from parts too (a field's name over its value, a heading)."""
    controls = [*(items or []), *(item for _, item in sections or [])]
    content = finish_message(content, embed, controls)
    card = cards.layout(content, embed, items or [], sections or [])
    if any(bidi.RLM in text for text in cards.texts(card.parts())):
        cards.texts_rtl(card)
    return card


def finish_message(
    content: str | None, embed: discord.Embed | None = None, items: list[discord.ui.Item[Any]] | None = None
) -> str | None:
    """Every message the bot builds from parts goes out through here: in a right-to-left language (one
    of its texts carries the right-to-left mark `t()` gives such a language), every line of its text
    and controls is made one right-to-left line, also those a renderer joined from pieces
    (`bidi.rtl`); then it is fitted within Discord's limits, the last resort (a refused message leaves
    a player without it). The embed and items are changed in place; returns the content."""
    controls = [item.item if isinstance(item, discord.ui.DynamicItem) else item for item in items or []]
    if _speaks_rtl(content, embed, controls):
        content = bidi.rtl(content) if content else content
        if embed is not None:
            _embed_texts(embed, bidi.rtl)
        for item in controls:
            if isinstance(item, discord.ui.Button) and item.label:
                item.label = bidi.rtl(item.label)
            elif isinstance(item, discord.ui.Select):
                if item.placeholder:
                    item.placeholder = bidi.rtl(item.placeholder)
                for option in item.options:
                    option.label = bidi.rtl(option.label)
                    if option.description:
                        option.description = bidi.rtl(option.description)
    content = limits.fit_text(content)
    if embed is not None:
        limits.fit_embed(embed)
    limits.fit_items(items or [])
    return content


def _speaks_rtl(content: str | None, embed: discord.Embed | None, controls: list[Any]) -> bool:
    texts: list[str | None] = [content]
    if embed is not None:  # read, not rebuilt (`_embed_texts` sets every field again)
        texts += [embed.title, embed.description, embed.footer.text, embed.author.name]
        for part in embed.fields:
            texts += [part.name, part.value]
    for item in controls:
        texts += [getattr(item, "label", None), getattr(item, "placeholder", None)]
        texts += [option.label for option in getattr(item, "options", None) or []]
    return any(bidi.RLM in text for text in texts if text)


def _embed_texts(embed: discord.Embed, change: Callable[[str], str]) -> None:
    """Apply `change` to each text of an embed: title, description, fields, footer, author."""
    if embed.title:
        embed.title = change(embed.title)
    if embed.description:
        embed.description = change(embed.description)
    for index, part in enumerate(embed.fields):
        embed.set_field_at(
            index, name=change(part.name or ""), value=change(part.value or ""), inline=bool(part.inline)
        )
    if embed.footer.text:
        embed.set_footer(text=change(embed.footer.text), icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(name=change(embed.author.name), url=embed.author.url, icon_url=embed.author.icon_url)


# Discord's answers to a reply that came too late: 10062 "Unknown interaction" (the 3-second
# window closed, or the token is gone), 40060 "already acknowledged" (something answered first).
LATE_ANSWER_CODES = frozenset({10062, 40060})


def late_answer(error: BaseException) -> TypeGuard[discord.HTTPException]:
    """Whether `error` is Discord saying the interaction can no longer be answered."""
    return isinstance(error, discord.HTTPException) and error.code in LATE_ANSWER_CODES


async def reply_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """One short line only the clicker sees, whether or not the interaction was answered yet."""
    text = limits.clip(text, limits.CONTENT)  # a reply Discord refuses (50035) reaches nobody
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as error:
        if late_answer(error):
            # Expected under load: one line, since a traceback per late click makes overload worse.
            log.warning(
                "could not answer interaction %s in time (Discord error %s)", interaction.id, error.code
            )
        else:
            log.warning("could not answer interaction %s", interaction.id, exc_info=True)
