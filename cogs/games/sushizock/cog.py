"""Sushizock im Gockelwok at a Discord table: throws, takes and steals.

Thin by design: the board is drawn from `view()` (cogs/games/sushizock/render.py), every button
or menu option that plays carries an engine action, and the steps in between are `u:` payloads
that change no game state: `keep.<mask>` re-draws the board with the dice marked to set aside,
`steal` answers its clicker privately with the steals on offer.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from cogs.games.sushizock import render as render
from cogs.games.sushizock.render import Context
from cogs.kit.errors import Refusal
from cogs.kit.messages import TABLE_ROW, Board, answer_by_editing
from cogs.kit.words.catalogs import Localish, has
from cogs.kit.words.reader import player_locale
from cogs.kit.words.text import latin_digits, plural
from cogs.tables.boards import rules_button
from cogs.tables.context import shown_name
from cogs.tables.gamecog import ActionFor, GameCog, ResultNotes, ShortText, Step
from rules.engine import Action, Event, IllegalAction
from rules.sushizock.game import GAME, ForcedTake, Roll, Steal, SushizockState, SushizockView, Take

_KEEP = re.compile(r"keep\.([0-9]{1,2})")  # a mask of at most five dice
_DICE = re.compile(r"[\s,;،؛]+")  # Persian writes its own comma and semicolon
# ASCII only once Persian or Arabic digits are read as Latin ("²" or "①" pass str.isdigit() but int()
# refuses them), and short: a throw has 5 dice.
_NUMBER = re.compile(r"[0-9]{1,3}")


def dice_to_set_aside(text: str | None) -> tuple[int, ...]:
    """`/sushizock roll set_aside:` as die indices: "1 3" (or "۱ ۳", "1، 3") -> (0, 2); anything else
    is refused."""
    words = [word for word in _DICE.split(latin_digits(text or "")) if word]
    if not all(_NUMBER.fullmatch(word) for word in words):
        raise Refusal("sushizock.slash.bad_dice")
    numbers = [int(word) for word in words]
    if not all(number >= 1 for number in numbers):
        raise Refusal("sushizock.slash.bad_dice")
    return tuple(sorted({number - 1 for number in numbers}))


class SushizockCog(
    GameCog[SushizockState, Action, SushizockView],
    group_name="sushizock",
    group_description="Sushizock im Gockelwok: dice for sushi, bones to dodge, tiles to pinch",
):
    game = GAME
    chart_colour = (88, 166, 255)

    # ------------------------------------------------------------ hooks

    def render_board(self, ctx: Context) -> Board:
        return render.board(self, ctx)

    def results_picture(self, ctx: Context) -> discord.File | None:
        """The piles turned over, as a picture (its board stays text: `pictured` is False)."""
        return render.piles_picture(ctx)

    def describe(self, ctx: Context, seat: int, action: Action) -> str:
        last = render.last_action(ctx, ctx.public())
        if last is not None and last[0] == seat:
            return last[1]
        return super().describe(ctx, seat, action)

    def announce(self, ctx: Context, events: list[Event]) -> list[str]:
        return [line for event in events if (line := render.announcement(ctx, event)) is not None]

    def explain(self, ctx: Context) -> ResultNotes:
        return render.result_notes(ctx)

    def refusal(self, error: IllegalAction, locale: Localish) -> str:
        """Counts of tiles and dice in words that read right for one ("only 1 tile left"), and a
        sentence of its own for the sushi and the bone row or pile (no engine code in the words)."""
        params = dict(error.params)
        for name, unit in (("length", "tiles"), ("height", "tiles"), ("dice", "dice")):
            value = params.get(name)
            if isinstance(value, int) and not isinstance(value, bool):
                params[name] = plural(f"sushizock.count.{unit}", value, locale)
        code, pile = error.code, params.get("pile")
        if isinstance(pile, str) and has(f"sushizock.error.{code}.{pile}"):
            code = f"{code}.{pile}"
            del params["pile"]
        return super().refusal(IllegalAction(code, **params), locale)

    def turn_refusal(self, ctx: Context, seat: int, step: Step) -> IllegalAction | None:
        """A click on the board's dice or Steal names whose turn it is; a command says it is not yours."""
        turn = ctx.public()["turn"]
        if step == "click" and turn is not None and seat != turn:
            return Refusal("sushizock.ui.not_your_turn", player=ctx.name(turn))
        return super().turn_refusal(ctx, seat, step)

    async def on_ui(
        self, interaction: discord.Interaction, ctx: Context, seat: int, word: str, values: list[str]
    ) -> None:
        """A die toggled (the board re-drawn with the dice marked) or the Steal button (its choices
        answered to the clicker alone); the game itself is untouched. Only the player to move may (the
        table judged it)."""
        view = ctx.public()
        options = view["options"]
        if options is None:  # only when the game is over, which the table judged it is not
            raise IllegalAction("game_over")
        if (match := _KEEP.fullmatch(word)) and options["can_roll"] and view["throws"]:
            board = render.board(self, ctx, mask=int(match[1]))
            board.items.append(rules_button(ctx, self, TABLE_ROW))  # the table's own row stays
            await answer_by_editing(interaction, board)
        elif word == "steal" and options["steal"] is not None:
            locale = await player_locale(interaction)
            step = render.steal_step(self, ctx.speaking(str(locale) if locale else None))
            await interaction.response.send_message(**step.send_kwargs(), ephemeral=True)
        else:
            raise Refusal("sushizock.ui.stale")

    # ------------------------------------------------------------ actions built from the table

    def _implied_take(self, ctx: Context, seat: int) -> Take | ForcedTake:
        """`/sushizock take` without a kind: the only take there is, else the reason there is none."""
        options = ctx.public()["options"]
        if options is None:  # only when the game is over, which the table judged it is not
            raise IllegalAction("game_over")
        if options["forced"]:
            return ForcedTake()
        takes = [pile for pile in ("sushi", "bone") if options[pile] is not None]
        if len(takes) == 1:
            return Take(takes[0])
        raise Refusal("sushizock.slash.take_which" if takes else "sushizock.slash.nothing_to_take")

    @staticmethod
    def _steal_from(
        player: discord.Member | discord.User, position: int
    ) -> ActionFor[SushizockState, Action, SushizockView]:
        """`/sushizock steal`: a builder of the Steal from `player`'s seat, refused if they are not seated."""

        def build(ctx: Context, seat: int) -> Steal:
            target = ctx.record.seat_of(player.id)
            if target is None:
                raise Refusal("sushizock.slash.not_a_player", name=shown_name(player.display_name))
            return Steal(target, position)

        return build

    # ------------------------------------------------------------ slash commands

    @app_commands.command(
        name="roll", description="Throw the dice (on a re-throw, name the dice to set aside)"
    )
    @app_commands.describe(
        set_aside="Dice of the current throw to set aside, by their numbers on the board, e.g. 1 3"
    )
    async def roll(self, interaction: discord.Interaction, set_aside: ShortText | None = None) -> None:
        await self.play(interaction, Roll(dice_to_set_aside(set_aside)))

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
        if kind is None:
            await self.play(interaction, self._implied_take)
        elif kind == "forced":
            await self.play(interaction, ForcedTake())
        else:
            await self.play(interaction, Take(kind))

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
        await self.play(interaction, self._steal_from(player, position))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SushizockCog(bot))
