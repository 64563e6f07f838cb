"""A press taken straight from the gateway (`cogs/tables/ui.py` `route_components`) reaches the
table's handler with what its custom_id says, and counts as a handler in flight for a clean stop."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from cogs.kit.lifecycle import handlers_done
from cogs.tables.ui import route_components
from tests.cogs.test_adapter import press


async def test_a_press_reaches_its_handler_and_a_clean_stop_waits_for_it() -> None:
    bot = discord.Client(intents=discord.Intents.none())
    release = asyncio.Event()
    heard: list[tuple[Any, ...]] = []

    async def on_component(interaction: Any, *route: Any) -> None:
        heard.append(route)
        await release.wait()

    route_components(bot, on_component)
    try:
        payload = press("sbs:sushigo:13:4:a:pick")
        payload["data"]["values"] = ['{"card":"tempura"}']
        bot._connection.parsers["INTERACTION_CREATE"](payload)
        await asyncio.sleep(0)
        assert heard == [("sushigo", 13, 4, "a:pick", ['{"card":"tempura"}'])]
        assert not await handlers_done(0.01)  # a stop now waits for the press
        release.set()
        assert await handlers_done(1.0)
    finally:
        route_components(bot, None)
    assert not hasattr(bot._connection.parsers["INTERACTION_CREATE"], "discord_py_parser")
