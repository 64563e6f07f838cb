"""A test-only game, "Tiny Race", served through the same Game protocol and table machinery.

Seats take turns adding 1 or 2 to their own total; the first to reach the goal wins.
Each seat also holds a secret lucky number (sent by DM), so the private path is exercised.
Loaded as an extension by the foundation end-to-end tests only (`FOUNDATION`); `play_tiny` plays one
whole game of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.messages import Board
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog
from rules.codec import ActionCodec, Codecs, StateCodec
from rules.engine import (
    Action,
    Event,
    Rng,
    ViewHeader,
    require,
    shared_ranks,
)

GOAL = 5
FOUNDATION = (
    "cogs.tables",
    "tests.e2e.tinygame",
    "cogs.stats.leaderboard",
    "cogs.help.cog",
    "cogs.preferences.settings",
    "cogs.preferences.notify",
)
"""The extensions of the foundation tests: the table machinery with Tiny Race and the features it
meets (their tables play Tiny Race)."""

# Tiny Race: alice +2, bob +1, alice +2, bob +1, alice +2 — alice reaches 5 on the fifth move.
WINNING_CLICKS = [("alice", "+2"), ("bob", "+1"), ("alice", "+2"), ("bob", "+1"), ("alice", "+2")]


@dataclass(frozen=True)
class Add(Action):
    kind: ClassVar[str] = "add"
    amount: int


class TinyView(ViewHeader):
    lucky: int | None  # the viewer's secret number (None for the whole table)


@dataclass
class TinyState:
    players: int
    rng: Rng
    totals: list[int]
    lucky: list[int]
    turn: int = 0


class TinyRace(Codecs[TinyState, Add]):
    id = "tiny"
    title = "Tiny Race"
    min_players = 2
    max_players = 3
    options: ClassVar[dict[str, tuple[str, ...]]] = {}
    _codec = StateCodec(TinyState)
    _actions = ActionCodec(Add)

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> TinyState:
        rng = Rng(seed)
        return TinyState(players, rng, [0] * players, [1 + rng.below(9) for _ in range(players)])

    def is_over(self, state: TinyState) -> bool:
        return max(state.totals) >= GOAL

    def to_move(self, state: TinyState) -> frozenset[int]:
        return frozenset() if self.is_over(state) else frozenset({state.turn})

    def legal_actions(self, state: TinyState, seat: int) -> list[Add]:
        return [Add(1), Add(2)] if seat in self.to_move(state) else []

    def default_action(self, state: TinyState, seat: int) -> Add:
        return Add(1)

    def apply(self, state: TinyState, seat: int, action: Add) -> list[Event]:
        require(not self.is_over(state), "game_over")
        require(seat in self.to_move(state), "not_your_turn")
        require(action.amount in (1, 2), "bad_amount", amount=action.amount)
        state.totals[seat] += action.amount
        state.turn = (state.turn + 1) % state.players
        return [{"type": "added", "seat": seat, "amount": action.amount}]

    def scores(self, state: TinyState) -> list[int]:
        return list(state.totals)

    def ranking(self, state: TinyState) -> list[int]:
        return shared_ranks(state.totals)

    def view(self, state: TinyState, seat: int | None) -> TinyView:
        over = self.is_over(state)
        return TinyView(
            seat=seat,
            to_move=sorted(self.to_move(state)),
            turn=None if over else state.turn,
            round=None,
            phase="over" if over else "add",
            over=over,
            scores=self.scores(state),
            ranking=self.ranking(state) if over else None,
            last=[],
            lucky=state.lucky[seat] if seat is not None else None,
        )


class TinyCog(GameCog, group_name="tiny", group_description="Tiny Race (tests only)"):
    game = TinyRace()
    private_mode = "dm"

    def render_board(self, ctx: TableContext) -> Board:
        view = ctx.public()
        lines = [f"{ctx.name(seat)}: {total}" for seat, total in enumerate(view["scores"])]
        board = Board(content="Tiny Race\n" + "\n".join(lines))
        if not view["over"]:
            turn = view["to_move"][0]
            board.content = f"{board.content}\nTurn: {ctx.name(turn)}"
            for amount in (1, 2):
                board.items.append(self.action_button(ctx, Add(amount), f"+{amount}"))
        return board

    def render_private(self, ctx: TableContext, seat: int) -> Board | None:
        view = cast(TinyView, ctx.private(seat))
        return Board(content=f"Your lucky number is {view['lucky']}. Your total: {view['scores'][seat]}.")

    @app_commands.command(name="add", description="Add to your total")
    async def add(self, interaction: discord.Interaction, amount: int) -> None:
        await self.tables.act_command(interaction, self.game.id, Add(amount))


async def play_tiny(table: Any) -> None:
    """One whole Tiny Race at a new table in the channel, through the buttons."""
    await table.seat_everyone()
    for name, label in WINNING_CLICKS:
        await table.click(name, label)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TinyCog(bot))
