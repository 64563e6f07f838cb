"""Kaiten Sushi at a Discord table: the conveyor as a picture, chopsticks as a race against the clock.

Thin by design: the board (embed + PNG from cogs/games/kaiten/render.py) is drawn from `view()`, and every
click becomes an engine action. Steps in between are `u:` payloads:

- `wasabi` / `back` re-draw the board with the sake's possible moves (`w:<steps>` spends the wasabi);
- `f:<cell>` starts the dexterity challenge for that cell (`rules.kaiten.game.challenge`, pure and
  restart-safe): an ephemeral row of buttons for the acting player (`render.chopsticks`), the
  chopsticks on one of them.
  `c:<cell>:<button>` is a press: the right button within the window applies Fetch(cell, True),
  anything else Fetch(cell, False); if nothing is pressed, a timer applies Fetch(cell, False) when the
  window closes. The start time and the timer (an alarm of `cogs.tables.timers.Alarms`) live in
  memory per channel (a restart forgets an open challenge; the player simply clicks the cell again and
  meets the same chopsticks). With the dexterity option off, `f:<cell>` fetches at once.

A short ginger (fewer ginger than new black/white edges, and the choices differ) is a step of its own:
the board shows one button per choice (`Ginger(edges)` from `legal_actions`), and `/kaiten ginger edge:`
offers the same choices by autocomplete (value: the edges as "i-j+k-l").

Computer seats never see a challenge: the table plays them with `rules.computer.choose`, whose fetch
succeeds by chance with the table's dexterity probability. A human who lets the whole turn time out gets
`default_action`, a failed fetch (the challenge was never taken up).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import datetime
from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from cogs.games.kaiten import render as render
from cogs.games.kaiten.render import (
    Context,
    cell_name,
    direction_words,
    edge_words,
    ginger_choice_words,
    pines,
    sushi_at,
    sushi_words,
)
from cogs.kit.errors import Refusal
from cogs.kit.messages import TABLE_ROW, Board, answer_by_editing
from cogs.kit.words.catalogs import Localish, has
from cogs.kit.words.text import latin_digits, t
from cogs.tables.boards import rules_button
from cogs.tables.context import now
from cogs.tables.gamecog import (
    COMPUTER_OPTIONS,
    LEVEL_CHOICES,
    Computers,
    GameCog,
    ResultNotes,
    ShortText,
)
from cogs.tables.speaking import for_seat
from cogs.tables.timers import Alarms
from rules.engine import Action, IllegalAction
from rules.kaiten.board import SIZE
from rules.kaiten.game import GAME, challenge
from rules.kaiten.state import Fetch, Ginger, KaitenState, Place, Wasabi
from rules.kaiten.view import KaitenView

log = logging.getLogger(__name__)

_CELL = re.compile(r"([a-f])\s*([1-6])|([1-6])\s*([a-f])")
_EDGES = re.compile(r"[0-8]-[0-8](\+[0-8]-[0-8])*")
_PLATE_CHOICES = [app_commands.Choice(name=t(f"kaiten.plate.{cell}"), value=cell) for cell in range(9)]


def parse_cell(text: str) -> int | None:
    """The board cell a player typed: "C4", "c 4" or "4C"; None when it names no cell."""
    match = _CELL.fullmatch(latin_digits(text).strip().lower())  # "C۴" typed in Persian digits too
    if match is None:
        return None
    letter, number = (match[1], match[2]) if match[1] else (match[4], match[3])
    return (int(number) - 1) * SIZE + "abcdef".index(letter)


def edges_value(edges: list[list[int]]) -> str:
    """A ginger choice as an autocomplete value: "5-8", "1-4+4-7"."""
    return "+".join(f"{i}-{j}" for i, j in edges)


def parse_edges(text: str) -> tuple[tuple[int, int], ...] | None:
    """The plate edges of an autocomplete value ("1-4+4-7"), each (i, j) with i < j, in ascending
    order as the engine lists them; None when the text is no such value."""
    if _EDGES.fullmatch(text.strip()) is None:
        return None
    pairs = (part.split("-") for part in text.strip().split("+"))
    return tuple(sorted((min(int(a), int(b)), max(int(a), int(b))) for a, b in pairs))


@dataclass
class Chopsticks:
    """An open dexterity challenge in one channel."""

    user_id: int
    seat: int
    cell: int
    stamp: int
    target: int
    window: float
    started: datetime
    interaction: discord.Interaction
    locale: str | None = None  # the player's language: the challenge is theirs alone
    done: bool = False


class KaitenCog(
    GameCog[KaitenState, Action, KaitenView],
    group_name="kaiten",
    group_description="Kaiten Sushi: fetch sushi off the conveyor onto your plate",
):
    game = GAME
    chart_colour = (178, 138, 255)
    board_picture = True  # the PNG takes milliseconds: a click is acknowledged first, the picture follows

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self._chopsticks: dict[int, Chopsticks] = {}
        self._windows = Alarms()  # per channel: when the open challenge's window closes

    async def cog_unload(self) -> None:
        self._windows.close()

    # ------------------------------------------------------------ hooks

    def render_board(self, ctx: Context) -> Board:
        return render.board(self, ctx)

    def describe(self, ctx: Context, seat: int, action: Action) -> str:
        if isinstance(action, Fetch):
            key = "kaiten.did.fetch" if action.success else "kaiten.did.fetch_failed"
            return ctx.t(key, cell=cell_name(action.cell))
        if isinstance(action, Place):
            return ctx.t("kaiten.did.place", cell=ctx.t(f"kaiten.plate.{action.cell}"))
        if isinstance(action, Ginger):
            return ctx.t("kaiten.did.ginger", edges=edge_words(ctx, [list(edge) for edge in action.edges]))
        if isinstance(action, Wasabi):
            return ctx.t(
                "kaiten.did.wasabi",
                pines=pines(ctx, action.steps),
                direction=direction_words(ctx, action.steps),
            )
        return ctx.t("kaiten.did.refill")

    def explain(self, ctx: Context) -> ResultNotes:
        return render.result_notes(ctx)

    def refusal(self, error: IllegalAction, locale: Localish) -> str:
        params = dict(error.params)
        cell = params.get("cell")
        if isinstance(cell, int) and not isinstance(cell, bool):
            if error.code in ("bad_cell", "no_sushi", "not_on_line") and 0 <= cell < SIZE * SIZE:
                params["cell"] = cell_name(cell)
            elif error.code == "plate_cell_taken" and 0 <= cell < 9:
                params["cell"] = t(f"kaiten.plate.{cell}", locale)
        step = params.get("step")
        if isinstance(step, str) and has(f"kaiten.step.{step}"):  # the part of the turn in words
            params["step"] = t(f"kaiten.step.{step}", locale)
        return super().refusal(IllegalAction(error.code, **params), locale)

    def refusal_words(self, error: IllegalAction, locale: Localish) -> str:
        # The chopsticks pressed as their window closed: the conveyor moved on. Any other outdated
        # press is the table's "use the newest board".
        if isinstance(error, Refusal) and error.code == "table.outdated" and error.params.get("step") == "c":
            return t("kaiten.outdated", locale, group=self.group)
        return super().refusal_words(error, locale)

    async def on_ui(
        self, interaction: discord.Interaction, ctx: Context, seat: int, word: str, values: list[str]
    ) -> None:
        kind, _, rest = word.partition(":")
        numbers = [int(part) for part in rest.split(":") if part.lstrip("-").isdigit()]
        if kind in ("wasabi", "back"):
            self.refuse_if_grabbing(ctx.channel_id)
            board = render.board(self, ctx, wasabi_picker=kind == "wasabi")
            board.items.append(rules_button(ctx, self, TABLE_ROW))  # the table's row, as on every board
            await answer_by_editing(interaction, board)
        elif kind == "w" and len(numbers) == 1:
            self.refuse_if_grabbing(ctx.channel_id)
            await self.tables.act(
                ctx.channel_id,
                interaction.user.id,
                Wasabi(numbers[0]),
                interaction=interaction,
                stamp=ctx.version,
            )
        elif kind == "f" and len(numbers) == 1:
            await self.start_fetch(interaction, ctx, seat, numbers[0])
        elif kind == "c" and len(numbers) == 2:
            await self.press(interaction, ctx, numbers[0], numbers[1])
        else:
            raise IllegalAction("unknown_action")

    # ------------------------------------------------------------ the chopsticks

    def refuse_if_grabbing(self, channel_id: int) -> None:
        grab = self._chopsticks.get(channel_id)
        if grab is not None and not grab.done:
            raise Refusal("kaiten.challenge.busy")

    async def start_fetch(self, interaction: discord.Interaction, ctx: Context, seat: int, cell: int) -> None:
        """The chopsticks go out: a challenge for the acting player, or a sure fetch with dexterity off."""
        self.refuse_if_grabbing(ctx.channel_id)
        ctx = await for_seat(interaction.client, ctx, seat)  # the challenge is the player's alone
        assert ctx.state is not None
        found = challenge(ctx.state, cell)  # IllegalAction: the cell may not be fetched now
        if found is None:
            await self.tables.act(
                ctx.channel_id,
                interaction.user.id,
                Fetch(cell, True),
                interaction=interaction,
                stamp=ctx.version,
            )
            return
        grab = Chopsticks(
            user_id=interaction.user.id,
            seat=seat,
            cell=cell,
            stamp=ctx.version,
            target=found.target,
            window=found.window_seconds,
            started=discord.utils.utcnow(),
            interaction=interaction,
            locale=ctx.locale,
        )
        prompt = render.chopsticks(self, ctx, seat, cell, found)
        self._chopsticks[ctx.channel_id] = grab
        try:
            await interaction.response.send_message(**prompt.send_kwargs(), ephemeral=True)
        except BaseException:
            self._chopsticks.pop(ctx.channel_id, None)
            raise
        self._windows.arm(ctx.channel_id, now() + grab.window, partial(self.time_out, ctx.channel_id, grab))

    async def press(self, interaction: discord.Interaction, ctx: Context, cell: int, index: int) -> None:
        """A button of the chopsticks row: the right one in time fetches, anything else drops the sushi."""
        grab = self._chopsticks.get(ctx.channel_id)
        if grab is None or grab.done or grab.cell != cell or grab.user_id != interaction.user.id:
            raise Refusal("kaiten.challenge.over")
        if grab.stamp != self.stamp(ctx, grab.seat):  # the game moved on: the cell may be empty now
            self.close(ctx.channel_id, grab)
            raise Refusal("kaiten.challenge.over")
        in_time = (discord.utils.utcnow() - grab.started).total_seconds() <= grab.window
        success = in_time and index == grab.target
        mine = ctx.speaking(grab.locale)
        sushi = sushi_words(mine, sushi_at(mine.public(), cell))  # read before the fetch takes it away
        self.close(ctx.channel_id, grab)
        # Acknowledged first: the move's board picture, announcements and pings follow it, and must not
        # spend Discord's 3 seconds (a late press that crossed the time-out's edit went unanswered).
        await interaction.response.defer()
        await self.tables.act(ctx.channel_id, grab.user_id, Fetch(cell, success), stamp=grab.stamp)
        key = (
            "kaiten.challenge.caught"
            if success
            else "kaiten.challenge.wrong"
            if in_time
            else "kaiten.challenge.late"
        )
        await interaction.edit_original_response(
            **Board(content=t(key, grab.locale, sushi=sushi)).edit_kwargs()
        )

    def close(self, channel_id: int, grab: Chopsticks) -> None:
        """Settle a challenge exactly once: a press and the timer can never both apply a fetch."""
        grab.done = True
        if self._chopsticks.get(channel_id) is grab:
            del self._chopsticks[channel_id]
            self._windows.disarm(channel_id)

    async def time_out(self, channel_id: int, grab: Chopsticks) -> None:
        """Nothing pressed within the window: the sushi slips (a failed fetch)."""
        if grab.done:
            return
        self.close(channel_id, grab)
        try:
            await self.tables.act(channel_id, grab.user_id, Fetch(grab.cell, False), stamp=grab.stamp)
        except IllegalAction as refused:  # the game moved on meanwhile (a turn time-out, a cancel)
            log.info("chopsticks time-out in channel %s not applied: %r", channel_id, refused)
            return
        except Exception:
            log.exception("chopsticks time-out failed in channel %s", channel_id)
            return
        try:
            late = Board(content=t("kaiten.challenge.late", grab.locale))
            await grab.interaction.edit_original_response(**late.edit_kwargs())
        except discord.HTTPException:
            log.debug("could not update the chopsticks message in channel %s", channel_id)

    # ------------------------------------------------------------ slash command helpers

    def _ginger(self, ctx: Context, seat: int, *, text: str) -> Ginger:
        """`/kaiten ginger`: the choice typed or picked; the engine judges whether it is one offered now."""
        edges = parse_edges(text)
        if edges is None:
            raise IllegalAction("not_a_ginger_choice")
        return Ginger(edges)

    def _wasabi(self, ctx: Context, seat: int, *, steps: int) -> Wasabi:
        """`/kaiten wasabi`, built once the table knows the caller: not while chopsticks are out."""
        self.refuse_if_grabbing(ctx.channel_id)
        return Wasabi(steps)

    # ------------------------------------------------------------ slash commands

    @app_commands.command(name="new", description="Open a Kaiten Sushi table in this channel")
    @app_commands.describe(
        dexterity="How hard the chopsticks challenge is (off: every fetch succeeds)",
        arrangement="How black and white rice are laid out on the board",
        **COMPUTER_OPTIONS,
    )
    @app_commands.choices(
        dexterity=[
            app_commands.Choice(name=t(f"kaiten.dexterity.{level}"), value=level)
            for level in GAME.options["dexterity"]
        ],
        arrangement=[
            app_commands.Choice(name=t(f"kaiten.arrangement.{kind}"), value=kind)
            for kind in GAME.options["arrangement"]
        ],
        level=LEVEL_CHOICES,
    )
    async def new(  # pyright: ignore[reportIncompatibleVariableOverride]  (adds the table options)
        self,
        interaction: discord.Interaction,
        dexterity: app_commands.Choice[str] | None = None,
        arrangement: app_commands.Choice[str] | None = None,
        computers: Computers = 0,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        options = {
            name: choice.value
            for name, choice in (("dexterity", dexterity), ("arrangement", arrangement))
            if choice is not None
        }
        await self.tables.open(
            interaction, self, options, computers=computers, level=level.value if level else None
        )

    @app_commands.command(name="wasabi", description="Spend a wasabi to move the sake 1 or 2 pines")
    @app_commands.describe(direction="Which way the sake moves", steps="How many pines it moves")
    @app_commands.choices(
        direction=[
            app_commands.Choice(name=t(f"kaiten.choice.direction.{way}"), value=sign)
            for way, sign in (("forward", 1), ("back", -1))
        ],
        steps=[app_commands.Choice(name=t(f"kaiten.choice.steps.{count}"), value=count) for count in (1, 2)],
    )
    async def wasabi(
        self,
        interaction: discord.Interaction,
        direction: app_commands.Choice[int],
        steps: app_commands.Choice[int],
    ) -> None:
        await self.play(interaction, partial(self._wasabi, steps=direction.value * steps.value))

    @app_commands.command(name="fetch", description="Fetch a sushi from the sake's line with your chopsticks")
    @app_commands.describe(cell="The sushi's cell as on the board: column A-F and row 1-6, e.g. C4")
    async def fetch(self, interaction: discord.Interaction, cell: ShortText) -> None:
        # A fetch may open a challenge, not just apply an action: `play()` cannot build it.
        ctx, seat = await self.seated(interaction)
        index = parse_cell(cell)
        if index is None:
            raise IllegalAction("bad_coordinate", text=cell[:20])
        await self.start_fetch(interaction, ctx, seat, index)

    @fetch.autocomplete("cell")
    async def fetch_cells(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        ctx = await self.playing_table(interaction)
        if ctx is None:
            return []
        view = ctx.public()
        choices = []
        for cell in view["fetchable"]:
            name = ctx.t(
                "kaiten.choice.cell", cell=cell_name(cell), sushi=sushi_words(ctx, sushi_at(view, cell))
            )
            if current.strip().lower() in name.lower():
                choices.append(app_commands.Choice(name=name[:100], value=cell_name(cell)))
        return choices[:25]

    @app_commands.command(name="place", description="Put the sushi in your chopsticks on your plate")
    @app_commands.describe(cell="Where on your 3×3 plate")
    @app_commands.choices(cell=_PLATE_CHOICES)
    async def place(self, interaction: discord.Interaction, cell: app_commands.Choice[int]) -> None:
        await self.play(interaction, Place(cell.value))

    @app_commands.command(name="ginger", description="Choose where your ginger goes when it is short")
    @app_commands.describe(edge="Which edges between black and white rice get your ginger")
    async def ginger(self, interaction: discord.Interaction, edge: ShortText) -> None:
        await self.play(interaction, partial(self._ginger, text=edge))

    @ginger.autocomplete("edge")
    async def ginger_edges(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        ctx = await self.playing_table(interaction)
        if ctx is None:
            return []
        choices = []
        for choice in ctx.public()["ginger_choices"]:
            edges, spoils = ginger_choice_words(ctx, choice)
            name = ctx.t("kaiten.choice.ginger", edges=edges, lines=spoils)
            if current.strip().lower() in name.lower():
                choices.append(app_commands.Choice(name=name[:100], value=edges_value(choice["edges"])))
        return choices[:25]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(KaitenCog(bot))
