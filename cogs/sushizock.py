"""Sushizock im Gockelwok at a Discord table: dice toggles, Roll, takes and steals.

Thin by design: the board is drawn from `view()` (cogs/sushizock_render.py), every
button or select carries an engine action, and the steps in between (which dice
are marked to set aside, whose pile a blind steal aims at) are `u:` payloads that
only re-draw the board.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import sushizock_render as render
from cogs.gamecog import GameCog, Refusal, TableContext
from cogs.i18n import t
from cogs.ui import Board, reply_ephemeral
from rules.engine import Event
from rules.sushizock import GAME, ForcedTake, Roll, Steal, Take

_KEEP = re.compile(r"keep\.(\d+)\.(-?\d+)")
_AIM = re.compile(r"aim\.(\d+)")
_DICE = re.compile(r"[\s,;]+")


class SushizockCog(
    GameCog,
    group_name="sushizock",
    group_description="Sushizock im Gockelwok: dice for sushi, bones to dodge, tiles to pinch",
):
    game = GAME

    # ------------------------------------------------------------ rendering

    def render_board(self, ctx: TableContext) -> Board:
        return render.render(self, ctx)

    def describe(self, ctx: TableContext, seat: int, action: Any) -> str:
        last = ctx.public()["last"]
        if last is not None and last.get("seat") == seat:
            what = render.describe_event(ctx, last)
            if what is not None:
                return what
        return super().describe(ctx, seat, action)

    def announce(self, ctx: TableContext, events: list[Event]) -> list[str]:
        return [line for event in events if (line := render.announcement(ctx, event)) is not None]

    async def on_ui(
        self, interaction: discord.Interaction, ctx: TableContext, seat: int, word: str, values: list[str]
    ) -> None:
        """Mark a die to set aside, or aim a blind steal: the board is re-drawn, the game untouched."""
        view = ctx.public()
        if view["over"]:
            raise Refusal(t("sushizock.error.game_over", interaction.locale))
        if seat != view["turn"]:
            raise Refusal(t("sushizock.ui.not_your_turn", interaction.locale, player=ctx.name(view["turn"])))
        if match := _KEEP.fullmatch(word):
            mask, aim = int(match[1]), int(match[2])
        elif (match := _AIM.fullmatch(word)) and values and values[0].isdigit():
            mask, aim = int(match[1]), int(values[0])
        else:
            raise Refusal(t("sushizock.ui.stale", interaction.locale))
        board = render.render(self, ctx, mask, aim)
        await interaction.response.edit_message(**board.edit_kwargs())

    # ------------------------------------------------------------ slash commands

    @app_commands.command(
        name="roll", description="Throw the dice (on a re-throw, name the dice to set aside)"
    )
    @app_commands.describe(
        set_aside="Dice of the current throw to set aside, by their numbers on the board, e.g. 1 3"
    )
    async def roll(self, interaction: discord.Interaction, set_aside: str | None = None) -> None:
        words = [word for word in _DICE.split(set_aside or "") if word]
        if not all(word.isdigit() and int(word) >= 1 for word in words):
            await reply_ephemeral(interaction, t("sushizock.slash.bad_dice", interaction.locale))
            return
        keep = tuple(sorted({int(word) - 1 for word in words}))
        await self.tables.act_command(interaction, self.game.id, Roll(keep))

    @app_commands.command(
        name="take", description="Take a portion: sushi or bone as your dice show, or the forced one"
    )
    @app_commands.describe(kind="Which row (leave it out when only one take is possible)")
    @app_commands.choices(
        kind=[
            app_commands.Choice(name="sushi", value="sushi"),
            app_commands.Choice(name="bone", value="bone"),
            app_commands.Choice(name="forced portion (nothing else fits)", value="forced"),
        ]
    )
    async def take(self, interaction: discord.Interaction, kind: str | None = None) -> None:
        if kind == "forced":
            action: Any = ForcedTake()
        elif kind is not None:
            action = Take(kind)
        else:
            implied = await self._implied_take(interaction)
            if isinstance(implied, str):
                await reply_ephemeral(interaction, implied)
                return
            action = implied
        await self.tables.act_command(interaction, self.game.id, action)

    async def _implied_take(self, interaction: discord.Interaction) -> Any:
        """`/sushizock take` without a kind: the only take there is, else a hint (text)."""
        ctx = await self.playing_table(interaction)
        if ctx is None:
            return ForcedTake()  # the table answers "no game here"
        view = ctx.public()
        seat = ctx.record.seat_of(interaction.user.id)
        if view["over"] or seat is None or seat != view["turn"]:
            return ForcedTake()  # the table and the engine refuse it with the right reason
        options = view["options"]
        if options["forced"]:
            return ForcedTake()
        takes = [pile for pile in ("sushi", "bone") if options[pile] is not None]
        if len(takes) == 1:
            return Take(takes[0])
        key = "sushizock.slash.take_which" if takes else "sushizock.slash.nothing_to_take"
        return t(key, interaction.locale)

    @app_commands.command(name="steal", description="Steal with three or more chopsticks of one colour")
    @app_commands.describe(
        player="Whose pile to steal from",
        position="Which tile, counted from the top (1 = top; below the top only with 4-5 chopsticks)",
    )
    async def steal(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        position: app_commands.Range[int, 1, 12] = 1,
    ) -> None:
        ctx = await self.playing_table(interaction)
        target = None
        if ctx is not None:
            target = next(
                (seat for seat, record in enumerate(ctx.record.seats) if record.user_id == player.id), None
            )
            if target is None:
                name = player.display_name
                await reply_ephemeral(
                    interaction, t("sushizock.slash.not_a_player", interaction.locale, name=name)
                )
                return
        await self.tables.act_command(
            interaction, self.game.id, Steal(target if target is not None else -1, position)
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SushizockCog(bot))
