"""Sushi Dice at a Discord table: the one real-time game.

Two duelists play at once on private panels (ephemeral messages opened with the board's
"Open my dice" button or `/sushidice panel`); everyone watches one public duel message that is
refreshed at a bounded rate (`PUBLIC_BOARD_INTERVAL`, latest state wins) and carries Chop! for
the players outside the duel.

Calls are judged on the board the caller pressed on (GAMES.md). After every edit of the public board
the table calls `published(ctx)`; the cog remembers, per channel and in memory, the view that message
showed and when each board was published. Chop! on the board and Yuck! on a panel carry the stamp of
the board they were drawn with (a panel's opponent is drawn as the board showed them). The cog lets a
call through while its board is the latest published one or was replaced less than `CROSSING` before
(the call and the new board crossed), and the engine then judges it on what that board showed. After a
restart the memory is empty until the next board edit: a call then asks for a refresh and is refused
politely.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.games.sushidice import render as render
from cogs.games.sushidice.render import Context
from cogs.kit.errors import Refusal
from cogs.kit.messages import Board
from cogs.kit.words.catalogs import Localish
from cogs.kit.words.text import t
from cogs.tables.context import now
from cogs.tables.gamecog import GameCog, ResultNotes, Step
from cogs.tables.speaking import for_seat
from rules.computer.brain import PACE, Pace
from rules.engine import Action, IllegalAction, require
from rules.sushidice.game import GAME, Chop, SushiDiceState, SushiDiceView, Yuck

Seen = tuple[float, int | None, int]
"""A published board: when, the table it showed, its stamp."""

# Seconds between two edits of the public duel message. Discord allows about 5 message edits per
# 5 s in a channel; the table also posts announcements and results there, so one edit a second
# keeps well inside the limit while the board lags the live dice by at most one second.
PUBLIC_BOARD_INTERVAL = 1.0
# A computer's pace is its level's (`rules.computer.PACE`): seconds between its clicks, and before it
# calls Yuck! or Chop! on what a public board showed. COMPUTER_DELAY is normal's click; the cog's
# `computer_delay` scales every level's pace alike (tests slow the clocks down through it).
COMPUTER_DELAY = PACE["normal"].click
SEEN_BOARDS = 16  # public boards remembered per channel, for the computers' reaction time
# A call stands on a board replaced less than this long before it arrived (GAMES.md: one second, one
# board interval); scaled with `board_refresh_interval`, as the tests slow the clocks down.
CROSSING = 1.0


def stands(boards: Sequence[Seen], index: int, at: float, crossing: float) -> bool:
    """Whether a call arriving `at` on the board `boards[index]` may be judged on it: that board is the
    latest one, or the next one replaced it less than `crossing` seconds before (they crossed)."""
    return index == len(boards) - 1 or boards[index + 1][0] > at - crossing


@dataclass(frozen=True)
class Shown:
    """What the public board of a channel last showed: the table it belongs to and its view."""

    table_id: int | None
    view: SushiDiceView


class SushiDiceCog(
    GameCog[SushiDiceState, Action, SushiDiceView],
    group_name="sushidice",
    group_description="Sushi Dice: a real-time dice duel for plates of sushi",
):
    game = GAME
    chart_colour = (242, 104, 158)
    private_mode = "panel"
    board_refresh_interval = PUBLIC_BOARD_INTERVAL
    computer_delay = COMPUTER_DELAY
    score_unit = render.SCORE_UNIT

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self._shown: dict[int, Shown] = {}
        # Per channel: (when, table id, stamp) of the latest public boards, oldest first.
        self._seen: dict[int, deque[Seen]] = {}

    # ------------------------------------------------------------ rendering hooks

    def render_board(self, ctx: Context) -> Board:
        return render.board(self, ctx)

    def render_private(self, ctx: Context, seat: int) -> Board | None:
        return render.private_board(self, ctx, seat, shown=self.shown(ctx))

    def private_key(self, ctx: Context, seat: int) -> object:
        """A panel shows the opponent as the public board last showed them: that view counts too."""
        return (ctx.private(seat), self.shown(ctx))

    def stamp(self, ctx: Context, seat: int | None) -> int:
        """The duel, not the version: the opponent's throws must not outdate a duelist's panel."""
        if ctx.state is None:
            return ctx.version
        return ctx.public()["duel"] + 1  # never 0, which would mean "always current"

    def waits_for(self, ctx: Context) -> frozenset[int]:
        """The duelists (or the host choosing): a spectator's Chop! is never owed."""
        view = ctx.public()
        if view["phase"] == "challenge":
            return frozenset({view["host"]})
        return frozenset(duelist["seat"] for duelist in view["duelists"])

    def invites(self, ctx: Context) -> frozenset[int]:
        """The host when the challenge opens; when a duel starts, its duelists who are not at the table
        already: not those who dueled just before, nor whoever started it (the host's Start or
        challenge, a Chop! caller)."""
        view = ctx.public()
        if view["phase"] == "challenge":
            return frozenset({view["host"]})
        starting = view["phase"] == "duel" and all(
            face is None for duelist in view["duelists"] for face in duelist["faces"]
        )
        if not starting:
            return frozenset()
        ended = view["ended"]
        present = {view["host"]} if view["duel"] == 1 else {ended["seat"]} if ended else set[int]()
        return frozenset({duelist["seat"] for duelist in view["duelists"]} - set(view["previous"]) - present)

    def describe(self, ctx: Context, seat: int, action: Action) -> str:
        encoded = self.game.encode_action(action)
        kind = encoded["type"]
        headline = ctx.public()["last"]
        last = headline[0] if headline else {}
        params: dict[str, Any] = {}
        if "die" in encoded:
            params["n"] = encoded["die"] + 1
        if kind == "challenge":
            params["name"] = ctx.name(encoded["opponent"])
        elif kind == "chop":
            params["name"] = ctx.name(encoded["partner"])
        elif kind == "yuck" and last.get("type") == "yuck":
            params["name"] = ctx.name(last["target"])
        elif kind == "ring":
            name = last.get("name") if last.get("type") == "rang" else None
            numbered = ctx.t("sushidice.plate.numbered", n=encoded["plate"] + 1)
            params["plate"] = render.plate_name(ctx, name) if name else numbered
        key = f"sushidice.did.{kind}"
        return ctx.t(key, **params)

    def explain(self, ctx: Context) -> ResultNotes:
        return render.result_notes(ctx)

    def refusal(self, error: IllegalAction, locale: Localish) -> str:
        """Dice and plates are counted from 1 for players; plate names in words."""
        params = dict(error.params)
        for key in ("die", "plate"):
            if isinstance(params.get(key), int):
                params[key] += 1
        if isinstance(params.get("name"), str):
            params["name"] = t(f"sushidice.plate.{params['name']}", locale)
        return super().refusal(IllegalAction(error.code, **params), locale)

    def turn_refusal(self, ctx: Context, seat: int, step: Step) -> IllegalAction | None:
        """Calls race the clock: a Yuck! or Chop! is judged by the engine on the board it was pressed on
        (a spectator may call Chop! on a board that showed it, after the state moved on)."""
        return None

    def published(self, ctx: Context) -> None:
        """Remember what the board now shows, and bring the panels' view of the opponent up to it."""
        if ctx.state is None:
            return
        self._shown[ctx.channel_id] = Shown(ctx.record.id, ctx.public())
        seen = self._seen.setdefault(ctx.channel_id, deque(maxlen=SEEN_BOARDS))
        seen.append((now(), ctx.record.id, ctx.public()["stamp"]))
        if ctx.record.status == "playing":
            # The panels show the opponent as the board does, and enable Yuck! from it.
            self.tables.refresh_private(ctx.channel_id)

    def forget(self, channel_id: int) -> None:
        # An idle table's boards are long past judging a call on; a call after it is read again is
        # judged on the board it shows then (`_require_shown`).
        self._shown.pop(channel_id, None)
        self._seen.pop(channel_id, None)

    def computer_pace(self, level: str, *, stand_in: bool = False) -> float:
        """Seconds between a computer duelist's clicks at its level (a stand-in's too: normal)."""
        return self.computer_delay * _pace(level).click / COMPUTER_DELAY

    def computer_sight(self, ctx: Context, level: str) -> int | None:
        """The latest public board a computer at `level` has had time to react to (its reaction time
        ago or earlier), if a call on it would still stand: the board its Yuck! or Chop! names. None:
        nothing seen yet, or what it saw was replaced too long ago (too slow to call it)."""
        reaction = self.computer_delay * _pace(level).reaction / COMPUTER_DELAY
        boards = self._boards(ctx)
        seen = [index for index, (at, _, _) in enumerate(boards) if at <= now() - reaction]
        if not seen or not self._fresh(boards, seen[-1]):
            return None
        return boards[seen[-1]][2]

    async def on_ui(
        self, interaction: discord.Interaction, ctx: Context, seat: int, word: str, values: list[str]
    ) -> None:
        word, _, pressed = word.partition(".")
        board = int(pressed) if pressed.isdigit() else None  # the stamp of the board pressed on
        if word == "yuck":
            action: Action = self.yuck_action(ctx, seat, board)
        elif word == "chop":
            seen = self._pressed_on(ctx, board)
            view = ctx.public()
            partners = GAME.chop_partners(ctx.live, seat)
            stands = seen in GAME.call_stamps(ctx.live, ctx.live.sets)
            if render.duelist_of(view, seat) is None and stands and len(partners) > 1:
                await self._ask_partner(interaction, ctx, seat, partners, seen)
                return
            action = Chop(seen, partners[0])
        elif word == "chopwith" and values and values[0].isdigit():
            # The call was made when Chop! was pressed, on a fresh board: choosing the partner is no race.
            action = Chop(board if board is not None else self._require_shown(ctx)["stamp"], int(values[0]))
        else:
            raise IllegalAction("unknown_action", kind=word)
        await self.tables.act(
            ctx.channel_id, interaction.user.id, action, interaction=interaction, stamp=self.stamp(ctx, seat)
        )

    # ------------------------------------------------------------ calls judged on the published board

    def shown(self, ctx: Context) -> SushiDiceView | None:
        """The view the public board of this table last showed; None if unknown (e.g. after a restart)."""
        record = self._shown.get(ctx.channel_id)
        if record is None or record.table_id != ctx.record.id:
            return None
        return record.view

    def _require_shown(self, ctx: Context) -> SushiDiceView:
        shown = self.shown(ctx)
        if shown is None:
            # Nothing published since the bot started: publish now, and let the caller look first.
            self.tables.refresh_board(ctx.channel_id)
            raise Refusal("sushidice.refresh_first")
        return shown

    def _boards(self, ctx: Context) -> list[Seen]:
        """The public boards of this table remembered, oldest first."""
        return [board for board in self._seen.get(ctx.channel_id, ()) if board[1] == ctx.record.id]

    def _fresh(self, boards: list[Seen], index: int) -> bool:
        return stands(boards, index, now(), CROSSING * self.board_refresh_interval / PUBLIC_BOARD_INTERVAL)

    def _pressed_on(self, ctx: Context, board: int | None) -> int:
        """The stamp a call names: the board it was pressed on, if a call on it still stands (else a
        refusal: look again); the latest published board for a slash command or an older button."""
        shown = self._require_shown(ctx)
        if board is None:
            return shown["stamp"]
        boards = self._boards(ctx)
        index = next((i for i in range(len(boards) - 1, -1, -1) if boards[i][2] == board), None)
        if index is None or not self._fresh(boards, index):
            raise Refusal("sushidice.board_replaced")
        return board

    def yuck_action(self, ctx: Context, seat: int, board: int | None = None) -> Yuck:
        """A Yuck! on the opponent's dice as the public board pressed on (else the latest one) showed
        them (also `/sushidice yuck`'s builder).

        A seat outside the duel gets the engine's reason, in the engine's order (the table judged that
        the game is on): it is not this seat's turn, no duel is on yet, or the seat watches the duel.
        """
        seen = self._pressed_on(ctx, board)
        view = ctx.public()
        mine = render.duelist_of(view, seat)
        if mine is None:
            require(seat in self.game.to_move(ctx.live), "not_your_turn", seat=seat)
            require(view["phase"] == "duel", "wrong_phase", phase=view["phase"])
            raise IllegalAction("not_a_duelist")
        return Yuck(seen)

    async def _ask_partner(
        self, interaction: discord.Interaction, ctx: Context, seat: int, partners: list[int], seen: int
    ) -> None:
        """Several players tie for fewest plates: the Chop! caller picks who gets the blue set."""
        ctx = await for_seat(interaction.client, ctx, seat)  # the picker is the caller's alone
        scores = ctx.public()["scores"]
        choices = [
            (
                render.label_name(ctx, partner),
                str(partner),
                ctx.t("sushidice.chop.option", count=scores[partner]),
            )
            for partner in partners
        ]
        picker = self.ui_select(
            ctx,
            f"chopwith.{seen}",
            choices,
            placeholder=ctx.t("sushidice.chop.placeholder"),
            seat=seat,
        )
        text = ctx.t("sushidice.chop.pick", fewest=scores[partners[0]])
        await interaction.response.send_message(
            **Board(content=text, items=[picker]).send_kwargs(), ephemeral=True
        )

    # ------------------------------------------------------------ slash commands

    @app_commands.command(
        name="panel", description="Open your dice: roll, set aside, ring the bell, call Yuck!"
    )
    async def panel(self, interaction: discord.Interaction) -> None:
        await self.tables.show_private(interaction, self.game.id)

    @app_commands.command(
        name="yuck", description="Call Yuck! on your opponent's dice as the board shows them"
    )
    async def yuck(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, self.yuck_action)


_PACES: dict[str, Pace] = {**PACE}  # looked up by the stored level, a plain string


def _pace(level: str) -> Pace:
    return _PACES.get(level, PACE["normal"])


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SushiDiceCog(bot))
