"""Kaiten words an outdated press by what was pressed: the chopsticks as their window closed are "too
late, the chopsticks are down"; anything else outdated is the table's "use the newest board"."""

from __future__ import annotations

import discord
from discord.ext import commands

from cogs.games.kaiten.cog import KaitenCog
from cogs.kit.errors import Refusal


def cog() -> KaitenCog:
    return KaitenCog(commands.Bot(command_prefix="!", intents=discord.Intents.none()))


def test_an_outdated_chopsticks_press_is_too_late() -> None:
    said = cog().refusal_words(Refusal("table.outdated", step="c"), "en-US")
    assert said.startswith("⏰ Too late") and "chopsticks are down" in said


def test_any_other_outdated_press_is_the_tables_newest_board() -> None:
    for refused in (Refusal("table.outdated", step="f"), Refusal("table.outdated")):
        said = cog().refusal_words(refused, "en-US")
        assert "chopsticks" not in said and "out of date" in said and "`/kaiten status`" in said
