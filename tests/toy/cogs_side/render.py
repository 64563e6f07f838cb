"""Dice Race's board: each total against the goal, the last throw, and the two throw buttons."""

from __future__ import annotations

from typing import Any

import discord

from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog
from cogs.tables.ui import Board
from rules.registry import REGISTERED


def public(ctx: TableContext) -> dict[str, Any]:
    """The whole table's view (Dice Race hides nothing)."""
    return dict(ctx.public())


def board(cog: GameCog, ctx: TableContext) -> Board:
    view = public(ctx)
    throw = REGISTERED["toy"].game.decode_action
    lines = [
        ctx.t("toy.board.total", name=ctx.name(seat), total=total, goal=view["goal"])
        for seat, total in enumerate(view["scores"])
    ]
    for event in view["last"]:
        pips = " + ".join(str(pip) for pip in event["pips"])
        lines.append(ctx.t("toy.board.thrown", name=ctx.name(event["seat"]), pips=pips))
    embed = discord.Embed(title=ctx.t("toy.board.title"), description="\n".join(lines))
    result = Board(embed=embed)
    if not view["over"]:
        embed.set_footer(text=ctx.t("toy.board.turn", name=ctx.name(view["turn"])))
        for dice in (1, 2):
            action = throw({"type": "throw", "dice": dice})
            result.items.append(cog.action_button(ctx, action, ctx.t(f"toy.button.{dice}")))
    return result
