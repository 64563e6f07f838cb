"""Dice Race at a Discord table: `/toy`, its board and `/toy throw`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands
from toy_rules_pkg.game import GAME, RaceState, RaceView, Throw

from cogs.kit.messages import Board
from cogs.tables.gamecog import GameCog

from . import render
from .render import Context


class DiceRaceCog(
    GameCog[RaceState, Throw, RaceView], group_name="toy", group_description="Dice Race, a toy game"
):
    game = GAME
    chart_colour = (255, 214, 102)

    def render_board(self, ctx: Context) -> Board:
        return render.board(self, ctx)

    @app_commands.command(name="throw", description="Throw one die or two")
    @app_commands.describe(dice="How many dice to throw")
    async def throw(self, interaction: discord.Interaction, dice: app_commands.Range[int, 1, 2]) -> None:
        await self.play(interaction, Throw(dice))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DiceRaceCog(bot))
