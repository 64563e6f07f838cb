"""Dice Race's board: each total against the goal, the last throw, and the two throw buttons."""

from __future__ import annotations

import discord
from toy_rules_pkg.game import RaceState, RaceView, Throw

from cogs.kit.messages import Board
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog

Context = TableContext[RaceState, Throw, RaceView]
Cog = GameCog[RaceState, Throw, RaceView]


def board(cog: Cog, ctx: Context) -> Board:
    view = ctx.public()
    lines = [
        ctx.t("toy.board.total", name=ctx.name(seat), total=total, goal=view["goal"])
        for seat, total in enumerate(view["scores"])
    ]
    for event in view["last"]:
        pips = " + ".join(str(pip) for pip in event["pips"])
        lines.append(ctx.t("toy.board.thrown", name=ctx.name(event["seat"]), pips=pips))
    embed = discord.Embed(title=ctx.t("toy.board.title"), description="\n".join(lines))
    result = Board(embed=embed)
    turn = view["turn"]
    if turn is not None:
        embed.set_footer(text=ctx.t("toy.board.turn", name=ctx.name(turn)))
        for dice in (1, 2):
            result.items.append(cog.action_button(ctx, Throw(dice), ctx.t(f"toy.button.{dice}")))
    return result
