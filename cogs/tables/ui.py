"""Restart-safe components: what a click means is written into its custom_id.

custom_id = `sb:<game>:<channel>:<stamp>:<payload>` for buttons and
`sbs:<game>:<channel>:<stamp>:<payload>` for selects, where

- stamp says which board the component belongs to (a click on an outdated
  board is refused politely; 0 = always current: lobby, Rematch, My hand);
- payload is `a:<action JSON>` for a game action, `u:<word>` for a step of the
  game's own interface (toggle a die, open a picker), or `t:<word>` for the
  table itself (join, leave, start, cancel, rematch, hand).

Both classes are `discord.ui.DynamicItem`s registered in `setup_hook`, so a
board posted before a restart keeps working after it. While the Tables cog is
loaded, a press reaches it straight from the gateway (`adapter.take_clicks`):
what a press means is all in its custom_id, so discord.py need not build the
clicked message and a view of it first; the items stay as discord.py's way in.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
from collections.abc import Callable, Coroutine
from typing import Any
from weakref import WeakKeyDictionary

import discord

from cogs.kit import adapter
from cogs.kit.lifecycle import PRESS_TASK
from rules.engine import Game

log = logging.getLogger(__name__)

CUSTOM_ID_LIMIT = 100


def component_game(interaction: discord.Interaction) -> str | None:
    """The game a press on a table component is about (None: no table component)."""
    custom = str((interaction.data or {}).get("custom_id", ""))
    prefix, _, rest = custom.partition(":")
    return rest.partition(":")[0] if prefix in ("sb", "sbs") else None


def read_payload(payload: str) -> tuple[str, str]:
    """A component's payload as (kind, rest): `a` an action's JSON, `u` a word of the game's own
    interface, `t` a word of the table's (join, start, rematch, hand, rules …); another kind is returned
    as it is, for the table to refuse."""
    kind, _, rest = payload.partition(":")
    return kind, rest


@functools.lru_cache(maxsize=4096)
def action_text(game: Game[Any, Any], action: Any) -> str:
    """An action as a control carries it: its codec's JSON, compact (a button's payload after "a:",
    a select option's value). Cached: a board offers the same few actions again and again, and the
    actions are frozen (hashable) values."""
    return json.dumps(game.encode_action(action), separators=(",", ":"))


def action_payload(game: Game[Any, Any], action: Any) -> str:
    """The payload of a button that applies `action` (`read_payload` reads it back)."""
    return "a:" + action_text(game, action)


def custom_id(prefix: str, game_id: str, channel_id: int, stamp: int, payload: str) -> str:
    value = f"{prefix}:{game_id}:{channel_id}:{stamp}:{payload}"
    if len(value) > CUSTOM_ID_LIMIT:
        raise ValueError(f"custom_id too long ({len(value)}): {value}")
    return value


_ROUTE = r":(?P<game>[a-z0-9_]+):(?P<channel>\d+):(?P<stamp>\d+):(?P<payload>.+)"
BUTTON_ID, SELECT_ID = "sb" + _ROUTE, "sbs" + _ROUTE
TABLE_ID = re.compile(f"sbs?{_ROUTE}")
"""A table component's custom_id, button or select."""

OnComponent = Callable[[discord.Interaction, str, int, int, str, list[str]], Coroutine[Any, Any, None]]
"""Handles a click on a table component: (interaction, game, channel, stamp, payload, chosen values)."""

# Per bot (several run in one test process): who handles its table components — the Tables cog,
# which says so as it loads, so that this module imports no cog.
_routes: WeakKeyDictionary[discord.Client, OnComponent] = WeakKeyDictionary()


_pressed: set[asyncio.Task[None]] = set()  # presses being handled (a task nobody holds may vanish)


def route_components(client: discord.Client, on_component: OnComponent | None) -> None:
    """Clicks on `client`'s table components go to `on_component` from now on (None: nowhere),
    straight from the gateway where discord.py's parsers can be reached, through its items otherwise."""
    if on_component is None:
        _routes.pop(client, None)
        adapter.give_back_clicks(client)
        return
    _routes[client] = on_component

    def take(click: adapter.Click, match: re.Match[str]) -> None:
        values = list((click.data or {}).get("values", []))  # type: ignore[union-attr]
        handled = asyncio.get_running_loop().create_task(
            on_component(
                click, match["game"], int(match["channel"]), int(match["stamp"]), match["payload"], values
            ),
            name=PRESS_TASK,  # a clean stop serves it to the end (`lifecycle.handlers_done`)
        )
        _pressed.add(handled)
        handled.add_done_callback(_pressed.discard)

    adapter.take_clicks(client, TABLE_ID.fullmatch, take)


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
    template=BUTTON_ID,
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
    template=SELECT_ID,
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
