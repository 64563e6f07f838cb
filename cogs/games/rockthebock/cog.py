"""Rock the Bock at a Discord table: `/bock`.

The board (cogs/games/rockthebock/render.py) shows each sheet on one line, its round score with the
reason, and the current throw grouped by colour; rounds 1 and 2 are announced, the results break
each total down by round, the last with its reason. Buttons: "Roll", then one button per thrown
colour with its count (colours nobody plays shown disabled); the wolves' button is beside each
possible victim's sheet. Slash: `/bock roll`, `/bock choose colour [target]`.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.games.rockthebock import render as render
from cogs.games.rockthebock.render import Context
from cogs.kit.messages import Board
from cogs.kit.words.catalogs import Localish
from cogs.kit.words.text import t
from cogs.tables.context import shown_name
from cogs.tables.gamecog import GameCog, ResultNotes
from cogs.tables.speaking import for_seat
from rules.engine import Action, Event, IllegalAction
from rules.rockthebock.game import COLOURS, GAME, WOLF, Choose, RockTheBockState, RockTheBockView, Roll

COLOUR_CHOICES = [
    app_commands.Choice(name=t(f"rockthebock.choice.{colour}"), value=colour) for colour in COLOURS
]


class RockTheBockCog(
    GameCog[RockTheBockState, Action, RockTheBockView],
    group_name="bock",
    group_description="Rock the Bock: goats, bocks and wolves",
):
    game = GAME
    chart_colour = (87, 201, 120)
    pictured = True  # with pictures chosen, the sheets are a picture (cogs/games/rockthebock/picture.py)

    # ------------------------------------------------------------ hooks

    def render_board(self, ctx: Context) -> Board:
        return render.board(self, ctx)

    def results_picture(self, ctx: Context) -> discord.File | None:
        return render.sheets_picture(ctx, render.RESULTS_PICTURE)

    def describe(self, ctx: Context, seat: int, action: Action) -> str:
        if isinstance(action, Roll):
            return ctx.t("rockthebock.did.roll")
        if isinstance(action, Choose) and action.colour == WOLF and action.target is not None:
            return ctx.t("rockthebock.did.choose_wolves", target=ctx.name(action.target))
        if isinstance(action, Choose):
            return ctx.t("rockthebock.did.choose", choice=ctx.t(f"rockthebock.choice.{action.colour}"))
        return super().describe(ctx, seat, action)

    def announce(self, ctx: Context, events: list[Event]) -> list[str]:
        return render.round_announcement(ctx, events)

    def explain(self, ctx: Context) -> ResultNotes:
        return render.result_notes(ctx)

    def refusal(self, error: IllegalAction, locale: Localish) -> str:
        """A colour in words ("no die shows red"), not the engine's code."""
        colour = error.params.get("colour")
        if isinstance(colour, str) and colour in COLOURS:
            error = IllegalAction(
                error.code, **{**error.params, "colour": t(f"rockthebock.colour.{colour}", locale)}
            )
        return super().refusal(error, locale)

    async def on_ui(
        self, interaction: discord.Interaction, ctx: Context, seat: int, word: str, values: list[str]
    ) -> None:
        """`wolf`: open the acting player's picker for the wolves' victim (the "Wolves" button of a
        board drawn before the wolves went beside the sheets)."""
        if word != "wolf":
            await super().on_ui(interaction, ctx, seat, word, values)
            return
        targets = render.wolf_targets(ctx, seat)
        if not targets:
            raise IllegalAction("not_your_turn", seat=seat)
        picker = render.wolf_picker(self, await for_seat(interaction.client, ctx, seat), seat, targets)
        await interaction.response.send_message(**picker.send_kwargs(), ephemeral=True)

    # ------------------------------------------------------------ slash commands

    def _choose(self, ctx: Context, seat: int, colour: str, target: discord.Member | None) -> Choose:
        """`/bock choose`: the named victim's seat, or the only possible one (two players)."""
        if target is not None:
            victim = ctx.record.seat_of(target.id)
            if victim is None:
                raise IllegalAction("target_not_seated", name=shown_name(target.display_name))
            return Choose(colour, victim)
        if colour == WOLF:
            targets = render.wolf_targets(ctx, seat)
            if len(targets) == 1:  # two players: no need to name the victim
                return Choose(WOLF, targets[0])
        return Choose(colour)

    @app_commands.command(name="roll", description="Throw one die per symbol you have not struck yet")
    async def roll(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, Roll())

    @app_commands.command(name="choose", description="Use every die of one colour of your throw")
    @app_commands.describe(
        colour="The colour whose dice you use",
        target="Who gets the wolves (grey only; a seated player)",
    )
    @app_commands.choices(colour=COLOUR_CHOICES)
    async def choose(
        self,
        interaction: discord.Interaction,
        colour: app_commands.Choice[str],
        target: discord.Member | None = None,
    ) -> None:
        await self.play(interaction, lambda ctx, seat: self._choose(ctx, seat, colour.value, target))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RockTheBockCog(bot))
