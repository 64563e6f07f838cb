"""Sushi Go! in Discord: secret picks from hands sent by DM, revealed together on the board.

Each player's hand is a DM with a select of their cards (and a chopsticks button when they may
take two); the table edits that DM every turn, and a player whose DMs are closed gets the same
controls from the board's "My hand" button or `/sushigo hand`. The channel shows only what
`view(None)` shows: tableaux, who has picked, the last reveal and the scores.
"""

from __future__ import annotations

from typing import ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs.games.sushigo import render as render
from cogs.games.sushigo.render import Context
from cogs.kit.messages import Board, answer_by_editing
from cogs.kit.words import bidi
from cogs.kit.words.catalogs import Localish
from cogs.kit.words.text import latin_digits, t
from cogs.tables.gamecog import GameCog, ResultNotes, ShortText, Step
from cogs.tables.speaking import for_seat
from rules.engine import Event, IllegalAction
from rules.sushigo.game import GAME, SushiGoPrivateView, SushiGoView
from rules.sushigo.scoring import CARDS
from rules.sushigo.state import Pick, SushiGoState

AUTOCOMPLETE_LIMIT = 25


def card_id(text: str | None, locale: Localish = None) -> str | None:
    """A card's engine name from what a player typed: the name itself or its shown name."""
    if text is None:
        return None
    typed = latin_digits(bidi.plain(text)).strip().lower()  # "ماکی ۲" typed with either digits
    if typed in CARDS:
        return typed
    for card in CARDS:
        name = latin_digits(bidi.plain(t(f"sushigo.card.{card}", locale))).lower()
        if typed in (name, f"{render.EMOJI[card]} {name}"):
            return card
    return text.strip()


class SushiGoCog(
    GameCog[SushiGoState, Pick, SushiGoView, SushiGoPrivateView],
    group_name="sushigo",
    group_description="Sushi Go! — pick a card, pass the hand",
):
    game = GAME
    chart_colour = (255, 176, 32)
    private_mode = "dm"
    pictured = True  # with pictures chosen, the board's tableaux and the final scores are drawn
    # Seconds the board waits after a pick that reveals nothing before it shows who has picked.
    pick_gather: ClassVar[float] = 6.0

    # ------------------------------------------------------------ rendering hooks

    def render_board(self, ctx: Context) -> Board:
        return render.board(self, ctx)

    def results_picture(self, ctx: Context) -> discord.File | None:
        return render.results_picture(ctx)

    def render_private(self, ctx: Context, seat: int) -> Board | None:
        return render.private_board(self, ctx, seat)

    def private_key(self, ctx: Context, seat: int) -> object:
        """What a hand is drawn from (`render.private_board`): another seat's pick changes none of it,
        so it does not redraw or resend this seat's DM."""
        view = ctx.private(seat)
        return (
            view["over"],
            seat in view["to_move"],
            view["round"],
            view["turn_number"],
            view["hand"],
            view["pick"],
            view["tableaux"][seat],
            view["can_use_chopsticks"],
        )

    def stamp(self, ctx: Context, seat: int | None) -> int:
        """The turn, not the version: one player's pick must not outdate another player's hand."""
        if ctx.state is None:
            return ctx.version
        view = ctx.public()
        return (view["round"] or 0) * 100 + view["turn_number"]

    def describe(self, ctx: Context, seat: int, action: Pick) -> str:
        # Also used for time-out notices in the channel: never name the secret card.
        return ctx.t("sushigo.did.pick")

    def board_wait(self, ctx: Context, events: list[Event]) -> float:
        """A pick that reveals nothing (others still pick) waits for the next pick: at a table
        picking briskly the board is edited once a turn, with the reveal."""
        return self.pick_gather if all(event["type"] == "picked" for event in events) else 0.0

    def announce(self, ctx: Context, events: list[Event]) -> list[str]:
        return render.announce(ctx, events)

    def explain(self, ctx: Context) -> ResultNotes:
        return render.result_notes(ctx)

    def refusal(self, error: IllegalAction, locale: Localish) -> str:
        card = error.params.get("card")
        if isinstance(card, str) and card in CARDS:
            error = IllegalAction(error.code, **{**error.params, "card": t(f"sushigo.card.{card}", locale)})
        if error.code == "card_not_in_hand" and error.params.get("held") == 0:  # none at all: say so
            error = IllegalAction("card_not_held", card=error.params.get("card"))
        return super().refusal(error, locale)

    def turn_refusal(self, ctx: Context, seat: int, step: Step) -> IllegalAction | None:
        """Everyone picks every turn: a seat that may not pick has picked already."""
        return None if seat in self.game.to_move(ctx.live) else IllegalAction("already_picked")

    # ------------------------------------------------------------ the chopsticks steps (private)

    async def on_ui(
        self, interaction: discord.Interaction, ctx: Context, seat: int, word: str, values: list[str]
    ) -> None:
        ctx = await for_seat(interaction.client, ctx, seat)  # a hand is private: the player's language
        view = ctx.private(seat)
        if word == "back":
            board = render.private_board(self, ctx, seat)
        elif word == "chop":
            if not view["can_use_chopsticks"]:
                raise IllegalAction("no_chopsticks")
            board = render.chopsticks_first(self, ctx, seat)
        elif word == "first" and values:
            first = values[0]
            if not any(
                action.second is not None and action.card == first for action in self._legal(ctx, seat)
            ):
                raise IllegalAction("card_not_in_hand", card=first, held=0)
            board = render.chopsticks_second(self, ctx, seat, first)
        else:
            raise IllegalAction("unknown_action", kind=word)
        await answer_by_editing(interaction, board)

    def _legal(self, ctx: Context, seat: int) -> list[Pick]:
        return list(self.game.legal_actions(ctx.live, seat))

    # ------------------------------------------------------------ slash commands

    @app_commands.command(name="hand", description="Show your hand with the pick controls (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.tables.show_private(interaction, self.game.id)

    @app_commands.command(name="pick", description="Keep a card from your hand (two with chopsticks)")
    @app_commands.describe(
        card="The card to keep (start typing to see your hand)",
        second="A second card to keep too — only with chopsticks in front of you",
    )
    async def pick(
        self, interaction: discord.Interaction, card: ShortText, second: ShortText | None = None
    ) -> None:
        locale = interaction.locale
        action = Pick(card_id(card, locale) or card, card_id(second, locale))
        await self.play(interaction, action)

    async def _my_legal(self, interaction: discord.Interaction) -> tuple[Context, int, list[Pick]] | None:
        """The caller's table, seat and legal picks, read for autocomplete (nothing is changed)."""
        ctx = await self.playing_table(interaction)
        if ctx is None:
            return None
        seat = ctx.record.seat_of(interaction.user.id)
        if seat is None:
            return None
        return ctx, seat, self._legal(ctx, seat)

    def _choices(
        self, ctx: Context, seat: int, cards: list[str], current: str
    ) -> list[app_commands.Choice[str]]:
        held = ctx.private(seat)["hand"]
        typed = latin_digits(current).strip().lower()
        choices = []
        for card in dict.fromkeys(cards):
            label = ctx.t("sushigo.command.choice", card=render.card_label(ctx, card), count=held.count(card))
            name = latin_digits(bidi.plain(render.card_name(ctx, card))).lower()
            if not typed or typed in card or typed in name:
                choices.append(app_commands.Choice(name=label[:100], value=card))
        return choices[:AUTOCOMPLETE_LIMIT]

    @pick.autocomplete("card")
    async def pick_card_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        mine = await self._my_legal(interaction)
        if mine is None:
            return []
        ctx, seat, legal = mine
        return self._choices(ctx, seat, [action.card for action in legal if action.second is None], current)

    @pick.autocomplete("second")
    async def pick_second_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        mine = await self._my_legal(interaction)
        if mine is None:
            return []
        ctx, seat, legal = mine
        first = card_id(getattr(interaction.namespace, "card", None), interaction.locale)
        seconds = [
            action.second
            for action in legal
            if action.second is not None and (first is None or action.card == first)
        ]
        return self._choices(ctx, seat, seconds, current)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SushiGoCog(bot))
