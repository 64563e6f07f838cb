"""The base of every game's cog: the shared slash subcommands, the hooks, the component builders.

A game cog is thin. It says how to draw its board (and a private hand or panel, if the game
has one) from `game.view(...)`, which buttons carry which actions, and which slash commands
turn into which actions. Everything else — seats, locks, saving, timers, DMs, results, the
words for a refusal — is the table machinery (`cogs/tables/`), reached through `TableService`.

Every game cog defines the same hooks in the same order as this class: rendering
(`render_board`, `render_private`), judging (`stamp`, `waits_for`), words (`describe`,
`announce`, `refusal`), events (`published`, `on_ui`), then its own slash commands.

A game cog names its engine's types once, in its base class, `GameCog[State, Action, View]` (or
`GameCog[State, Action, View, PrivateView]` when a seat sees more than the table), and `game = GAME`
is checked against them: every hook then receives a `TableContext` of the same types.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, Protocol, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.errors import Refusal
from cogs.kit.messages import TABLE_ROW, Board, card_message
from cogs.kit.words.catalogs import Localish, has
from cogs.kit.words.reader import player_locale
from cogs.kit.words.text import game_title, t
from cogs.tables.context import PV, A, S, TableContext, V
from cogs.tables.reach import tables_cog
from cogs.tables.ui import TableButton, TableSelect, action_payload, action_text, component_game
from rules.computer.brain import LEVELS
from rules.engine import Event, Game, IllegalAction

PrivateMode = Literal["none", "dm", "panel"]
ShortText = app_commands.Range[str, 1, 40]
"""A free-text slash option: Discord refuses longer input before it reaches the bot, and no reply
can grow past Discord's message length by echoing it."""
ActionFor = Callable[[TableContext[S, A, V, PV], int], A]
"""Builds a game action from the caller's table and seat (may raise IllegalAction)."""
Step = Literal["click", "command"]
"""How a player took a step of a game's own (`on_ui`, an `ActionFor`, a command's own check)."""
MAX_COMPUTERS = 5  # the largest table (6 seats) less its host; each game refuses more than it seats
Computers = app_commands.Range[int, 0, MAX_COMPUTERS]
LEVEL_CHOICES = [app_commands.Choice(name=t(f"computers.level.{level}"), value=level) for level in LEVELS]
COMPUTER_OPTIONS = {
    "computers": "How many computer players to seat at once (you alone + computers: solo play)",
    "level": "How well the computer players play (default: normal)",
}


class TableService(Protocol):
    """What a game cog asks of the table machinery (the Tables cog implements it)."""

    def register(self, cog: GameCog) -> None: ...

    async def context(self, channel_id: int) -> TableContext | None: ...

    async def open(
        self,
        interaction: discord.Interaction,
        cog: GameCog,
        options: dict[str, Any],
        *,
        computers: int = 0,
        level: str | None = None,
    ) -> None: ...

    async def lobby(self, interaction: discord.Interaction, game_id: str, what: str) -> None: ...

    async def status(self, interaction: discord.Interaction, game_id: str) -> None: ...

    async def show_private(self, interaction: discord.Interaction, game_id: str) -> None: ...

    async def act_command(self, interaction: discord.Interaction, game_id: str, action: Any) -> None: ...

    async def seated(self, interaction: discord.Interaction, game_id: str) -> tuple[TableContext, int]: ...

    async def table_for(self, interaction: discord.Interaction, game_id: str) -> TableContext | None: ...

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: Any,
        *,
        interaction: discord.Interaction | None = None,
        stamp: int = 0,
    ) -> None: ...

    def refresh_board(self, channel_id: int) -> None: ...

    def refresh_private(self, channel_id: int) -> None: ...


@dataclass
class ResultNotes:
    """How a finished game's scores came about, in the rulebook's own terms."""

    breakdown: dict[int, str] = field(default_factory=dict)
    """Per seat: how the score was counted (rounds, piles, rows and columns, plates)."""
    tie_break: str | None = None
    """What decided between equal scores, when it decided a rank; None otherwise."""


class GameCog(commands.GroupCog, Generic[S, A, V, PV]):
    """Subclass as `GameCog[State, Action, View]` with `group_name=`; set `game`, override the hooks."""

    game: Game[S, A, V, PV]  # set on the class by each game (a ClassVar may not hold type variables)
    private_mode: ClassVar[PrivateMode] = "none"
    # Seconds between two edits of the public board; 0 = edit after every action.
    board_refresh_interval: ClassVar[float] = 0.0
    # The board carries a picture that is slow to draw: a click on it is acknowledged at once and the
    # board edited with the picture right after (drawn off the event loop).
    board_picture: ClassVar[bool] = False
    # With pictures chosen (`TableContext.pictures`), the board carries a picture the same way.
    pictured: ClassVar[bool] = False
    # Seconds a computer player added at the table waits before it acts, so that people can follow.
    computer_delay: ClassVar[float] = 1.0
    # The plural catalog key a score is counted in ("12 points"; Sushi Dice counts plates).
    score_unit: ClassVar[str] = "results.points"
    chart_colour: ClassVar[tuple[int, int, int] | None] = None
    """The game's colour in charts (its line on /stats), told apart from the others' on a dark panel."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def tables(self) -> TableService:
        return cast(TableService, tables_cog(self.bot))  # TablesNotLoaded before the Tables cog

    @property
    def group(self) -> str:
        """The slash command group players type: `sushizock`, `bock`, ... (not the class name)."""
        return str(self.__cog_group_name__)

    async def cog_load(self) -> None:
        self.tables.register(self)

    # ------------------------------------------------------------ shared commands

    @app_commands.command(name="new", description="Open a table for this game in this channel")
    @app_commands.describe(**COMPUTER_OPTIONS)
    @app_commands.choices(level=LEVEL_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        computers: Computers = 0,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.tables.open(
            interaction, self, {}, computers=computers, level=level.value if level else None
        )

    @app_commands.command(name="join", description="Take a seat at the table in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.tables.lobby(interaction, self.game.id, "join")

    @app_commands.command(name="leave", description="Leave the table (a computer player takes over a game)")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.tables.lobby(interaction, self.game.id, "leave")

    @app_commands.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.tables.lobby(interaction, self.game.id, "start")

    @app_commands.command(name="cancel", description="Cancel the table (host or Manage Channels)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.tables.lobby(interaction, self.game.id, "cancel")

    @app_commands.command(name="status", description="Post the board again at the bottom of the channel")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.tables.status(interaction, self.game.id)

    @app_commands.command(name="rules", description="A short summary of the rules")
    async def rules(self, interaction: discord.Interaction) -> None:
        embed = self.rules_embed(await player_locale(interaction))
        await interaction.response.send_message(view=card_message(None, embed), ephemeral=True)

    async def play(self, interaction: discord.Interaction, action: A | ActionFor[S, A, V, PV]) -> None:
        """A game slash command: the action (or how to build it from the caller's table and seat)
        is judged exactly like a click, and answered ephemerally."""
        await self.tables.act_command(interaction, self.game.id, action)

    async def playing_table(self, interaction: discord.Interaction) -> TableContext[S, A, V, PV] | None:
        """The caller's running table of this game, found as its commands find it (the channel's table,
        or from the text channel the player's table in a thread), if there is one (for autocomplete)."""
        return await self.tables.table_for(interaction, self.game.id)

    async def seated(self, interaction: discord.Interaction) -> tuple[TableContext[S, A, V, PV], int]:
        """The caller's running table and seat, for a command that does more than play one action
        (`/kaiten fetch` may open a challenge): found and judged as every command (the table, the
        seat, the game on and the caller's turn), refused in the table's own words."""
        return await self.tables.seated(interaction, self.game.id)

    # ------------------------------------------------------------ rendering hooks

    def render_board(self, ctx: TableContext[S, A, V, PV]) -> Board:
        """The public board of a running or finished game (row 4 is the table's)."""
        raise NotImplementedError

    def draws_picture(self, ctx: TableContext[S, A, V, PV]) -> bool:
        """Whether this table's board carries a picture (drawn off the event loop, a click on it
        acknowledged first)."""
        return self.board_picture or (self.pictured and ctx.pictures)

    def results_picture(self, ctx: TableContext[S, A, V, PV]) -> discord.File | None:
        """The finished game as a picture for the results card, when the table draws pictures (its
        final scoring, piles or sheets); None where the text says it as well."""
        return None

    def render_private(self, ctx: TableContext[S, A, V, PV], seat: int) -> Board | None:
        """A seat's private hand or panel; None when the game has no secrets."""
        return None

    def private_key(self, ctx: TableContext[S, A, V, PV], seat: int) -> object:
        """What `render_private` draws the seat's board from, compared with `==`: the board is drawn
        and sent again only when this changes. The machinery adds the table's status, its seats (names,
        computer flags) and the seat's language. By default the seat's whole view; a cog whose board
        reads more (what the public board last showed) must add it, one that reads less may narrow it."""
        return ctx.private(seat)

    def stamp(self, ctx: TableContext[S, A, V, PV], seat: int | None) -> int:
        """Which board a component belongs to; a click with another stamp is refused as outdated.

        Turn-based games use the table version. A simultaneous game returns
        something coarser (the turn), so one player's pick does not outdate
        another player's hand.
        """
        return ctx.version

    def waits_for(self, ctx: TableContext[S, A, V, PV]) -> frozenset[int]:
        """The seats the turn timer waits for: by default every seat that may move now.

        A game where some seats may act but need not (Sushi Dice: a spectator's Chop!)
        narrows it, so that nobody times out for not making an optional move.
        """
        return ctx.game.to_move(ctx.live)

    def invites(self, ctx: TableContext[S, A, V, PV]) -> frozenset[int]:
        """Seats a new phase needs at once (a duel they are in has started): pinged without waiting
        for the grace delay that an ordinary turn gets. By default nobody."""
        return frozenset()

    def describe(self, ctx: TableContext[S, A, V, PV], seat: int, action: A) -> str:
        """One line for what a seat did (time-out announcements, slash confirmations)."""
        encoded = self.game.encode_action(action)
        key = f"{self.game.id}.did.{encoded['type']}"
        fields = {name: value for name, value in encoded.items() if name != "type"}
        return t(key, ctx.locale, **fields) if has(key) else t("table.did_something", ctx.locale)

    def board_wait(self, ctx: TableContext[S, A, V, PV], events: list[Event]) -> float:
        """Seconds the public board may wait before it shows this move: a move that shows little
        (a secret pick while others still pick) waits for the next, and one edit shows both; a
        move on the board itself is its answer, at once. By default every move shows at once."""
        return 0.0

    def announce(self, ctx: TableContext[S, A, V, PV], events: list[Event]) -> list[str]:
        """Lines worth a message of their own in the channel (a round scored, a steal)."""
        return []

    def explain(self, ctx: TableContext[S, A, V, PV]) -> ResultNotes:
        """How the final scores were counted, shown with the results (a finished game only)."""
        return ResultNotes()

    def refusal(self, error: IllegalAction, locale: Localish) -> str:
        """The player's words for a refusal code: game-specific first, then common."""
        for key in (f"{self.game.id}.error.{error.code}", f"error.{error.code}"):
            if has(key, locale):
                return t(key, locale, **error.params)
        return t("error.illegal", locale, code=error.code)

    def turn_refusal(self, ctx: TableContext[S, A, V, PV], seat: int, step: Step) -> IllegalAction | None:
        """Why `seat` may not take a step of its own now, the game being on (`cogs.tables.guards` asks):
        by default, that it is not among the seats to move; None lets the step go to the game."""
        if seat in self.game.to_move(ctx.live):
            return None
        return IllegalAction("not_your_turn", seat=seat)

    def speaks_for(self, interaction: discord.Interaction) -> bool:
        """Whether a refusal of this request is this game's to word (`cogs.kit.errors.Voice`): one of
        its slash commands, or a press on one of its tables' components."""
        if getattr(interaction.command, "binding", None) is self:
            return True
        return component_game(interaction) == self.game.id

    def refusal_words(self, error: IllegalAction, locale: Localish) -> str:
        """The player's words for a refusal of this game's request: the table's own refusals name the
        game and its slash group ("open one with `/bock new`"), the rest go through `refusal`."""
        if isinstance(error, Refusal):
            known = {"game": game_title(self.game, locale), "group": self.group}
            return t(error.code, locale, **{**known, **error.params})
        return self.refusal(error, locale)

    def published(self, ctx: TableContext[S, A, V, PV]) -> None:
        """Called after the public board shows `ctx`'s state (real-time games track what was seen)."""

    def forget(self, channel_id: int) -> None:
        """The channel's table left memory (idle): drop what the cog keeps for it (`published`'s
        records); it is read again, and shown again, at its next click or deadline."""

    def computer_pace(self, level: str, *, stand_in: bool = False) -> float:
        """Seconds a computer seat waits before its next move: `computer_delay`, so that people can
        follow a computer player added at the table; a stand-in for an absent player moves at once (the
        table has waited for that player already). A real-time game paces every computer by its level."""
        return 0.0 if stand_in else self.computer_delay

    def computer_sight(self, ctx: TableContext[S, A, V, PV], level: str) -> int | None:
        """What a computer at `level` has had time to see: the stamp of the public board it may call
        on (`rules.computer.choose(published=...)`); None in games that judge no calls on a board."""
        return None

    async def on_ui(
        self,
        interaction: discord.Interaction,
        ctx: TableContext[S, A, V, PV],
        seat: int,
        word: str,
        values: list[str],
    ) -> None:
        """A `u:` payload: a step of the game's own interface that changes no game state."""
        raise IllegalAction("unknown_action", kind=word)

    def rules_embed(self, locale: Localish) -> discord.Embed:
        embed = discord.Embed(
            title=t(f"{self.game.id}.rules.title", locale),
            description=t(f"{self.game.id}.rules.text", locale),
            colour=discord.Colour.orange(),
        )
        embed.set_footer(
            text=t("rules.footer", locale, players=f"{self.game.min_players}–{self.game.max_players}")
        )
        return embed

    # ------------------------------------------------------------ component builders

    def action_button(
        self,
        ctx: TableContext[S, A, V, PV],
        action: A,
        label: str | None,
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
        seat: int | None = None,
    ) -> TableButton:
        """A button that applies `action` for whoever clicks it (if it is theirs to play)."""
        payload = action_payload(self.game, action)
        return TableButton(
            self.game.id,
            ctx.channel_id,
            self.stamp(ctx, seat),
            payload,
            label=label,
            style=style,
            emoji=emoji,
            disabled=disabled,
            row=_game_row(row),
        )

    def ui_button(
        self,
        ctx: TableContext[S, A, V, PV],
        word: str,
        label: str | None,
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
        seat: int | None = None,
    ) -> TableButton:
        """A button for a step of the game's own interface, handled by `on_ui(word)`."""
        return TableButton(
            self.game.id,
            ctx.channel_id,
            self.stamp(ctx, seat),
            f"u:{word}",
            label=label,
            style=style,
            emoji=emoji,
            disabled=disabled,
            row=_game_row(row),
        )

    def action_select(
        self,
        ctx: TableContext[S, A, V, PV],
        choices: Sequence[tuple[str, A, str | None]],
        *,
        placeholder: str,
        row: int | None = None,
        seat: int | None = None,
    ) -> TableSelect:
        """A select whose options are actions: (label, action, description)."""
        options = [
            discord.SelectOption(
                label=label[:100],
                value=action_text(self.game, action),
                description=description[:100] if description else None,
            )
            for label, action, description in choices[:25]
        ]
        return TableSelect(
            self.game.id,
            ctx.channel_id,
            self.stamp(ctx, seat),
            "a",
            options=options,
            placeholder=placeholder,
            row=_game_row(row),
        )

    def ui_select(
        self,
        ctx: TableContext[S, A, V, PV],
        word: str,
        choices: Sequence[tuple[str, str, str | None]],
        *,
        placeholder: str,
        row: int | None = None,
        seat: int | None = None,
        max_values: int = 1,
    ) -> TableSelect:
        """A select for the game's own interface: (label, value, description) -> `on_ui(word, values)`."""
        options = [
            discord.SelectOption(
                label=label[:100], value=value, description=description[:100] if description else None
            )
            for label, value, description in choices[:25]
        ]
        return TableSelect(
            self.game.id,
            ctx.channel_id,
            self.stamp(ctx, seat),
            f"u:{word}",
            options=options,
            placeholder=placeholder,
            row=_game_row(row),
            max_values=min(max_values, len(options)),
        )


def _game_row(row: int | None) -> int | None:
    if row is not None and row >= TABLE_ROW:
        raise ValueError(f"row {TABLE_ROW} is reserved for the table's own buttons")
    return row
