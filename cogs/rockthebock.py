"""Rock the Bock at a Discord table: `/bock`.

The board (cogs/rockthebock_render.py) shows every sheet and the current throw grouped by
colour. Buttons: "Roll", then one button per thrown colour with its count (colours nobody
plays shown disabled); wolves ask for their victim in a personal select. Slash: `/bock roll`,
`/bock choose colour [target]`.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import rockthebock_render as render
from cogs.gamecog import GameCog, Refusal, TableContext
from cogs.i18n import signed, t
from cogs.ui import Board, reply_ephemeral
from rules.rockthebock import BOCK, COLOURS, GAME, WOLF, Choose, Roll

COLOUR_CHOICES = [
    app_commands.Choice(name=t(f"rockthebock.choice.{colour}"), value=colour) for colour in COLOURS
]


def _wolf_targets(ctx: TableContext, seat: int) -> list[int]:
    """The seats the acting player may send wolves to right now (from legal_actions)."""
    return [
        action.target
        for action in ctx.game.legal_actions(ctx.state, seat)
        if isinstance(action, Choose) and action.colour == WOLF and action.target is not None
    ]


class RockTheBockCog(GameCog, group_name="bock", group_description="Rock the Bock: goats, bocks and wolves"):
    game = GAME

    # ------------------------------------------------------------ the board

    def render_board(self, ctx: TableContext) -> Board:
        content, embed = render.board_embed(ctx)
        board = Board(content=content, embed=embed)
        view = ctx.public()
        if view["over"]:
            return board
        seat = view["turn"]
        if view["throw"] is None:
            label = ctx.t("rockthebock.button.roll", dice=render.counted(ctx, "die", view["dice"]))
            board.items.append(self.action_button(ctx, Roll(), label, emoji="🎲", row=0))
            return board
        for item in view["throw"]:
            board.items.append(self._colour_button(ctx, view, seat, item))
        return board

    def _colour_button(
        self, ctx: TableContext, view: dict[str, Any], seat: int, item: dict[str, Any]
    ) -> discord.ui.Item[Any]:
        colour, count = item["colour"], item["count"]
        if colour == BOCK:
            label = ctx.t("rockthebock.button.white", count=count)
            return self.action_button(
                ctx, Choose(BOCK), label, emoji="🐏", style=discord.ButtonStyle.success, row=0
            )
        if colour == WOLF:
            targets = _wolf_targets(ctx, seat)
            if len(targets) == 1:  # two players: the victim is obvious
                label = ctx.t("rockthebock.button.grey_to", count=count, target=ctx.name(targets[0]))
                return self.action_button(
                    ctx, Choose(WOLF, targets[0]), label, emoji="🐺", style=discord.ButtonStyle.danger, row=0
                )
            label = ctx.t("rockthebock.button.grey", count=count)
            return self.ui_button(ctx, "wolf", label, emoji="🐺", style=discord.ButtonStyle.danger, row=0)
        name = render.colour_name(ctx, colour)
        square = render.SQUARES[colour]
        if item["refusal"] is not None:
            label = ctx.t("rockthebock.button.unowned", Colour=name.capitalize(), count=count)
            return self.action_button(ctx, Choose(colour), label, emoji=square, disabled=True, row=1)
        owner = view["colours"].index(colour)
        label = ctx.t("rockthebock.button.goat", Colour=name.capitalize(), count=count, owner=ctx.name(owner))
        return self.action_button(ctx, Choose(colour), label, emoji=square, row=1)

    def describe(self, ctx: TableContext, seat: int, action: Any) -> str:
        if isinstance(action, Roll):
            return ctx.t("rockthebock.did.roll")
        if isinstance(action, Choose) and action.colour == WOLF and action.target is not None:
            return ctx.t("rockthebock.did.choose_wolves", target=ctx.name(action.target))
        if isinstance(action, Choose):
            return ctx.t("rockthebock.did.choose", choice=ctx.t(f"rockthebock.choice.{action.colour}"))
        return super().describe(ctx, seat, action)

    def announce(self, ctx: TableContext, events: list[dict[str, Any]]) -> list[str]:
        return render.round_announcement(ctx, events)

    # ------------------------------------------------------------ the wolf picker

    async def on_ui(
        self, interaction: discord.Interaction, ctx: TableContext, seat: int, word: str, values: list[str]
    ) -> None:
        if word != "wolf":
            await super().on_ui(interaction, ctx, seat, word, values)
            return
        targets = _wolf_targets(ctx, seat)
        if not targets:
            raise Refusal(ctx.t("rockthebock.error.not_your_turn"))
        view = ctx.public()
        count = next(item["count"] for item in view["throw"] if item["colour"] == WOLF)
        choices: list[tuple[str, Any, str | None]] = []
        for target in targets:
            sheet = view["sheets"][target]
            label = ctx.t(
                "rockthebock.wolf.option", square=render.SQUARES[sheet["colour"]], player=ctx.name(target)
            )
            info = ctx.t(
                "rockthebock.wolf.option_info",
                bocks=sheet["bocks"],
                wolves=sheet["wolves"],
                goats=sheet["goats"],
                round_score=signed(sheet["round_score"]),
            )
            choices.append((label, Choose(WOLF, target), info))
        select = self.action_select(
            ctx, choices, placeholder=ctx.t("rockthebock.wolf.placeholder"), seat=seat
        )
        picker = Board(
            content=ctx.t("rockthebock.wolf.prompt", wolves=render.counted(ctx, "wolf", count)),
            items=[select],
        )
        await interaction.response.send_message(**picker.send_kwargs(), ephemeral=True)

    # ------------------------------------------------------------ slash commands

    @app_commands.command(name="roll", description="Throw one die per symbol you have not struck yet")
    async def roll(self, interaction: discord.Interaction) -> None:
        await self.tables.act_command(interaction, self.game.id, Roll())

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
        seat: int | None = None
        ctx = await self.playing_table(interaction)
        if ctx is not None:
            if target is not None:
                seats = [index for index, held in enumerate(ctx.record.seats) if held.user_id == target.id]
                if not seats:
                    text = t(
                        "rockthebock.error.target_not_seated", interaction.locale, name=target.display_name
                    )
                    await reply_ephemeral(interaction, text)
                    return
                seat = seats[0]
            elif colour.value == WOLF:
                me = ctx.record.seat_of(interaction.user.id)
                targets = _wolf_targets(ctx, me) if me is not None else []
                seat = targets[0] if len(targets) == 1 else None  # two players: no need to name the victim
        await self.tables.act_command(interaction, self.game.id, Choose(colour.value, seat))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RockTheBockCog(bot))
