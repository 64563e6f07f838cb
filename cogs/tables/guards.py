"""The guards of a game's own steps, judged once here for every game: a step the game's cog takes
itself (an interface step, `on_ui`; an action built from the table, `ActionFor`; a command that does
more than play one action, `GameCog.seated`) is taken only while the game is on and by a seat that may
act now. The seat and the stamp are judged before (`Tables.on_component`, `Moves.act`); the engine
judges the move itself."""

from __future__ import annotations

from typing import Any

from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog, Step
from rules.engine import IllegalAction


def judge_step(
    cog: GameCog[Any, Any, Any, Any], ctx: TableContext[Any, Any, Any, Any], seat: int, step: Step
) -> None:
    """Raises the refusal of a step `seat` may not take now: the game is over, or it is not its turn
    (judged and worded by the game's `GameCog.turn_refusal`)."""
    if cog.game.is_over(ctx.live):
        raise IllegalAction("game_over")
    refusal = cog.turn_refusal(ctx, seat, step)
    if refusal is not None:
        raise refusal
