"""Restart-safe components: what a click means is written into its custom_id.

custom_id = `sb:<game>:<channel>:<stamp>:<payload>` for buttons and
`sbs:<game>:<channel>:<stamp>:<payload>` for selects, where

- stamp says which board the component belongs to (a click on an outdated
  board is refused politely; 0 = always current: lobby, Rematch, My hand);
- payload is `a:<action JSON>` for a game action, `u:<word>` for a step of the
  game's own interface (toggle a die, open a picker), or `t:<word>` for the
  table itself (join, leave, start, cancel, rematch, hand).

Both classes are `discord.ui.DynamicItem`s registered in `setup_hook`, so a
board posted before a restart keeps working after it.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeGuard
from weakref import WeakKeyDictionary

import discord
from discord.webhook.async_ import async_context, interaction_message_response_params

from cogs import bidi, cards, limits

log = logging.getLogger(__name__)

CUSTOM_ID_LIMIT = 100
TABLE_ROW = cards.TABLE_ROW  # the last row of every board belongs to the table (My hand, Rematch)


@dataclass
class Board:
    """One rendered message: what the table posts, edits, DMs or shows ephemerally, sent as one
    Components V2 card (`cogs.cards`) built from these parts."""

    content: str | None = None
    embed: discord.Embed | None = None
    items: list[discord.ui.Item[Any]] = field(default_factory=list)
    files: list[discord.File] = field(default_factory=list)
    sections: list[cards.Section] = field(default_factory=list)  # a line with the button acting on it

    _card: discord.ui.LayoutView | None = field(default=None, init=False, repr=False, compare=False)

    def card(self) -> discord.ui.LayoutView:
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
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        **board.edit_kwargs(),
        previous_allowed_mentions=interaction.client.allowed_mentions,
    )
    route = discord.http.Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = interaction.client.http
    body: dict[str, Any] = {"payload": params.payload}
    if params.files:  # as discord.py sends them: a multipart body
        body = {"files": params.files, "multipart": params.multipart}
    await async_context.get().request(
        route,
        session=interaction._session,  # the session discord.py answers every interaction with
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        **body,
    )
    response._response_type = discord.InteractionResponseType.message_update  # is_done() from now on


def card_message(
    content: str | None,
    embed: discord.Embed | None = None,
    items: list[discord.ui.Item[Any]] | None = None,
    sections: list[cards.Section] | None = None,
) -> discord.ui.LayoutView:
    """A message as one card — a board's (`Board.card`) or a feature's answer (/leaderboard, /stats,
    /rules, ...; pass it as `view=`, nothing as content or embed): its parts finished
    (`finish_message`), then laid out; a right-to-left card's texts are right-to-left lines
    throughout, those the card joined from parts too (a field's name over its value, a heading)."""
    controls = [*(items or []), *(item for _, item in sections or [])]
    content = finish_message(content, embed, controls)
    view = cards.layout(content, embed, items or [], sections or [])
    texts = [item.content for item in view.walk_children() if isinstance(item, discord.ui.TextDisplay)]
    if any(bidi.RLM in text for text in texts):
        cards.texts_rtl(view)
    return view


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
    texts: list[str] = [content or ""]
    if embed is not None:
        _embed_texts(embed, lambda text: texts.append(text) or text)
    for item in controls:
        texts += [getattr(item, "label", None) or "", getattr(item, "placeholder", None) or ""]
        texts += [option.label for option in getattr(item, "options", None) or []]
    return any(bidi.RLM in text for text in texts)


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


def action_payload(encoded: dict[str, Any]) -> str:
    return "a:" + json.dumps(encoded, separators=(",", ":"))


def custom_id(prefix: str, game_id: str, channel_id: int, stamp: int, payload: str) -> str:
    value = f"{prefix}:{game_id}:{channel_id}:{stamp}:{payload}"
    if len(value) > CUSTOM_ID_LIMIT:
        raise ValueError(f"custom_id too long ({len(value)}): {value}")
    return value


OnComponent = Callable[[discord.Interaction, str, int, int, str, list[str]], Awaitable[None]]
"""Handles a click on a table component: (interaction, game, channel, stamp, payload, chosen values)."""

# Per bot (several run in one test process): who handles its table components — the Tables cog,
# which says so as it loads, so that this module imports no cog.
_routes: WeakKeyDictionary[discord.Client, OnComponent] = WeakKeyDictionary()


def route_components(client: discord.Client, on_component: OnComponent | None) -> None:
    """Clicks on `client`'s table components go to `on_component` from now on (None: nowhere)."""
    if on_component is None:
        _routes.pop(client, None)
    else:
        _routes[client] = on_component


def _router(interaction: discord.Interaction) -> OnComponent:
    router = _routes.get(interaction.client)
    if router is None:
        raise RuntimeError("the Tables cog is not loaded")
    return router


class _Route:
    """What a table component means, read back from its custom_id (also after a restart)."""

    game_id: str
    channel_id: int
    stamp: int
    payload: str

    def _remember(self, game_id: str, channel_id: int, stamp: int, payload: str) -> None:
        self.game_id, self.channel_id, self.stamp, self.payload = game_id, channel_id, stamp, payload

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Any:
        return cls(match["game"], int(match["channel"]), int(match["stamp"]), match["payload"])  # type: ignore[call-arg]

    async def _route(self, interaction: discord.Interaction, values: list[str]) -> None:
        await _router(interaction)(
            interaction, self.game_id, self.channel_id, self.stamp, self.payload, values
        )


class TableButton(
    _Route,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sb:(?P<game>[a-z0-9_]+):(?P<channel>\d+):(?P<stamp>\d+):(?P<payload>.+)",
):
    def __init__(
        self,
        game_id: str,
        channel_id: int,
        stamp: int,
        payload: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                disabled=disabled,
                row=row,
                custom_id=custom_id("sb", game_id, channel_id, stamp, payload),
            )
        )
        self._remember(game_id, channel_id, stamp, payload)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._route(interaction, [])


class TableSelect(
    _Route,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"sbs:(?P<game>[a-z0-9_]+):(?P<channel>\d+):(?P<stamp>\d+):(?P<payload>.+)",
):
    """A select whose chosen values complete the payload (`a` values are action JSON)."""

    def __init__(
        self,
        game_id: str,
        channel_id: int,
        stamp: int,
        payload: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id("sbs", game_id, channel_id, stamp, payload),
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
                min_values=min_values,
                max_values=max_values,
                disabled=disabled,
                row=row,
            )
        )
        self._remember(game_id, channel_id, stamp, payload)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._route(interaction, list((interaction.data or {}).get("values", [])))  # type: ignore[union-attr]


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
