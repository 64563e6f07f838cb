"""Dice Race at a Discord table: `/toy`, its board and `/toy throw`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog
from cogs.tables.ui import Board
from rules.registry import REGISTERED

from . import render


class DiceRaceCog(GameCog, group_name="toy", group_description="Dice Race, a toy game"):
    game = REGISTERED["toy"].game

    def render_board(self, ctx: TableContext) -> Board:
        return render.board(self, ctx)

    @app_commands.command(name="throw", description="Throw one die or two")
    @app_commands.describe(dice="How many dice to throw")
    async def throw(self, interaction: discord.Interaction, dice: app_commands.Range[int, 1, 2]) -> None:
        await self.play(interaction, self.game.decode_action({"type": "throw", "dice": dice}))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DiceRaceCog(bot))
