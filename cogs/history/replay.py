"""/replay: any finished game of the server played again move by move, watched privately or posted.

A replay is computed, never stored: `rules/replay.py` re-applies the logged actions to the game's
initial state, and the last state must equal the stored final state, or the replay is refused. Each
step is drawn by the game's own renderer from the PUBLIC view of that state with `replaying` set
(what the table showed then, without live instructions), and without the game's buttons. A replay
is ephemeral unless asked to be posted, so that watching does not fill the channel; each click
answers its own interaction by editing the message it came from, which works on an ephemeral long
after the interaction that opened it has expired. The step buttons and the jump menu carry the table
(and the buttons their step) in their custom_id (`sbr:`), so both keep working after a restart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.errors import Refusal, answer_failure
from cogs.kit.messages import Board
from cogs.kit.services import UsesServices
from cogs.kit.words.catalogs import Localish
from cogs.kit.words.reader import player_locale, public_locale
from cogs.kit.words.text import game_title, join_list, t
from cogs.tables.boards import medal
from cogs.tables.context import TableContext, shown_name
from cogs.tables.gamecog import GameCog
from cogs.tables.tables import UsesTables
from rules.engine import Game
from rules.replay import GameLog, Replayed, Unreplayable, read_log, same_state, snapshot, steps
from storage.history import Filter, FinishedGame
from storage.tables import Seat

STEP_WORDS = ("first", "prev", "next", "last")
MAX_OPTIONS = 25  # Discord's limit of options in a select
AROUND = 5  # moves either side of the shown one that the jump menu always offers
ROUND_OPTIONS = 10  # at most this many round starts in the jump menu (the rest are moves)
NICE_STRIDES = (1, 2, 5)  # milestones every 1, 2, 5, 10, 20, 50... moves


def _replays(interaction: discord.Interaction) -> ReplayCog:
    cog = interaction.client.get_cog("Replay")  # type: ignore[attr-defined]
    assert isinstance(cog, ReplayCog), "the Replay cog is loaded"
    return cog


def chosen(interaction: discord.Interaction) -> str:
    """The value picked in a select menu."""
    values = (interaction.data or {}).get("values", [])  # type: ignore[union-attr]
    return str(next(iter(values)))


class ReplayStep(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sbr:(?P<table>\d+):(?P<step>\d+):(?P<word>first|prev|next|last)",
):
    """First / Previous / Next / Last under a replay: the game and the step to show are in the custom_id."""

    def __init__(self, table_id: int, step: int, word: str, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"sbr:{table_id}:{step}:{word}", row=0, **button))
        self.table_id, self.step = table_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> ReplayStep:
        return cls(int(match["table"]), int(match["step"]), match["word"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await _replays(interaction).show_replay(interaction, self.table_id, self.step, edit=True)
        except Exception as error:
            await answer_failure(interaction, error)


class ReplayJump(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"sbr:j:(?P<table>\d+)"):
    """The replay's "Jump to…" menu: the table is in the custom_id, the step is the chosen value."""

    def __init__(
        self,
        table_id: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"sbr:j:{table_id}",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
                row=1,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> ReplayJump:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            step = int(chosen(interaction))
            await _replays(interaction).show_replay(interaction, self.table_id, step, edit=True)
        except Exception as error:
            await answer_failure(interaction, error)


DYNAMIC_ITEMS = (ReplayStep, ReplayJump)


@dataclass(frozen=True)
class Timeline:
    """A replay at one step, with what the jump menu needs of the whole game."""

    replayed: Replayed
    rounds: dict[int, int]  # the step whose board first shows a round -> that round
    movers: tuple[int, ...]  # the seat of each move: movers[k - 1] made move k


def timeline(game: Game[Any, Any], players: int, options: dict[str, Any], log: GameLog, at: int) -> Timeline:
    """Step `at` (clamped to 0..total) of the replay, played through to the end, noting where each
    round begins (games without rounds have none)."""
    at = max(0, min(at, len(log.moves)))
    kept: Any = None
    rounds: dict[int, int] = {}
    state: Any = None
    for step, state in steps(game, players, options, log):
        shown = game.view(state, None)["round"]
        if shown is not None and shown not in rounds.values():
            rounds[step.number] = shown
        if step.number == at:
            kept = step, snapshot(game, state)
    replayed = Replayed(kept[0], kept[1], len(log.moves), game.dump(state))
    return Timeline(replayed, rounds if len(rounds) > 1 else {}, tuple(move.seat for move in log.moves))


def jump_steps(total: int, at: int, rounds: Mapping[int, int]) -> list[int]:
    """The steps the jump menu offers, in order: every round's start, the moves around the one
    shown, milestones every 1, 2, 5, 10, 20... moves across the game, and more moves around the
    one shown while there is room: 25 in all."""
    if total + 1 <= MAX_OPTIONS:
        return list(range(total + 1))
    offered = set(sorted(rounds)[:ROUND_OPTIONS])
    offered |= set(range(max(0, at - AROUND), min(total, at + AROUND) + 1))
    room = MAX_OPTIONS - len(offered)
    scale = 1
    while True:
        stride = next((scale * nice for nice in NICE_STRIDES if total // (scale * nice) <= room), None)
        if stride is not None:
            break
        scale *= 10
    offered |= set(range(0, total + 1, stride))
    nearest = sorted(range(total + 1), key=lambda step: (abs(step - at), step))
    offered |= set([step for step in nearest if step not in offered][: MAX_OPTIONS - len(offered)])
    return sorted(offered)


class ReplayCog(UsesServices, UsesTables, commands.Cog, name="Replay"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)  # the controls of replays and lists from before a restart

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)

    @app_commands.command(name="replay", description="Watch a finished game again, move by move")
    @app_commands.describe(
        game="The game's number, from /history",
        move="Start at this move (0 = the deal)",
        post="Post it in the channel for everyone (default: only you see it)",
    )
    @app_commands.guild_only()
    async def replay_command(
        self,
        interaction: discord.Interaction,
        game: int,
        move: app_commands.Range[int, 0] = 0,
        post: bool = False,
    ) -> None:
        await self.show_replay(interaction, game, move, edit=False, post=post)

    @replay_command.autocomplete("game")
    async def _replay_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        games = await self.services.history.page(Filter(interaction.guild_id), page=0, per_page=25)
        locale = await player_locale(interaction)
        choices = []
        for game in games:
            label = t(
                "history.autocomplete",
                locale,
                id=game.table_id,
                game=self.title(game.game_id, locale),
                players=join_list((player.name for player in game.by_rank()), locale, style="comma"),
            )
            if current.strip().lstrip("#") in str(game.table_id) or current.lower() in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=game.table_id))
        return choices

    def title(self, game_id: str, locale: Localish) -> str:
        cog = self.tables.games.get(game_id)
        return game_title(cog.game if cog else game_id, locale)

    async def show_replay(
        self, interaction: discord.Interaction, table_id: int, step: int, *, edit: bool, post: bool = False
    ) -> None:
        """Step `step` of game `table_id`: a click edits the replay it came from (ephemeral or posted
        as that one is), a command or the /history menu answers with a new one (posted on request)."""
        guild_id = guild_of(interaction)
        finished = await self.services.history.game(guild_id, table_id)
        record = await self.services.tables.get(table_id)
        if finished is None or record is None or record.state is None:
            raise Refusal("history.no_such_game", id=table_id)
        cog = self.tables.games.get(finished.game_id)
        if cog is None:
            raise Refusal("replay.unknown_game", id=table_id)
        game = cog.game
        try:
            entries = [(seat, action) for _, seat, action in await self.services.tables.actions(table_id)]
            line = timeline(game, len(record.seats), record.options, read_log(game, entries), step)
        except Unreplayable as error:
            raise Refusal(f"replay.{error.code}", id=table_id) from error
        replayed = line.replayed
        if not same_state(replayed.final, record.state):
            raise Refusal("replay.diverged", id=table_id)
        if replayed.step.number < replayed.total:
            # Who a computer stood in for at that moment is not in the record (only at the end): the
            # players show as they sat down, the move line says when the table played for someone.
            record = record.copy()
            for seat in record.seats:
                seat.computer = False
        source = interaction.message if edit else None
        private = source.flags.ephemeral if source is not None else not post
        # A private replay speaks its watcher's language, a posted one the channel's.
        locale = await (player_locale if private else public_locale)(interaction)
        ctx = TableContext(record, game, replayed.state, replaying=True).speaking(
            str(locale) if locale else None
        )
        kwargs = self._message(cog, ctx, finished, line, locale, private=private)
        if edit:  # a replay shown before the cards becomes one: nothing of the old message may stay
            await interaction.response.edit_message(**kwargs, content=None, embed=None)
        else:
            kwargs["files"] = kwargs.pop("attachments")
            await interaction.response.send_message(**kwargs, ephemeral=private)

    def _message(
        self,
        cog: GameCog,
        ctx: TableContext,
        finished: FinishedGame,
        line: Timeline,
        locale: Localish,
        *,
        private: bool,
    ) -> dict[str, Any]:
        """The game's own public board of that step, without its buttons, under a step line, with a
        card saying who played, when, how long and (at the end) the result, and the replay's controls."""
        board = cog.render_board(ctx)
        step, total = line.replayed.step, line.replayed.total
        title = game_title(cog.game, locale)
        header = t(
            "replay.header", locale, id=finished.table_id, game=title, step=_where(step.number, total, locale)
        )
        card = discord.Embed(title=t("replay.title", locale, id=finished.table_id, game=title))
        card.colour = discord.Colour.dark_teal()
        if step.move is None:
            said = [t("replay.deal", locale, total=total)]
        else:
            move = step.move
            by = t(f"replay.by.{move.by}", locale) if move.by in ("timeout", "computer") else ""
            player = shown_name(ctx.record.seats[move.seat].name)
            what = cog.describe(ctx, move.seat, move.action)
            said = [t("replay.move", locale, number=step.number, total=total, player=player, what=what) + by]
        if private:
            said.append(t("replay.private", locale, id=finished.table_id))
        card.description = "\n".join(said)
        card.add_field(
            name=t("replay.played", locale),
            value=t(
                "replay.played_value",
                locale,
                date=when(finished.finished_at),
                duration=duration(finished.seconds, locale),
            )
            + (t("seasons.mark", locale, number=finished.season) if finished.season else ""),
            inline=False,
        )
        if step.number < total:  # the result was not known yet: it shows at the end, like it did then
            escaped = (shown_name(player.name) for player in finished.players)
            names = join_list(escaped, locale, style="comma")
            card.add_field(
                name=t("replay.players", locale), value=f"{names}\n{t('replay.players_hint', locale)}"
            )
        else:
            lines = [
                t(
                    "replay.result_line",
                    locale,
                    medal=medal(player.rank),
                    rank=player.rank,
                    name=shown_name(player.name),
                    score=player.score,
                )
                for player in finished.by_rank()
            ]
            card.add_field(name=t("replay.result", locale), value="\n".join(lines))
        content = f"{header}\n{board.content}" if board.content else header
        controls = self._controls(finished.table_id, ctx.record.seats, line, locale)  # never the game's
        # One card: the board as the table saw it, then the replay's own parts under it.
        shown = board.embed or discord.Embed(colour=card.colour)
        shown.add_field(name=card.title or "", value=card.description or "")
        for part in card.fields:
            shown.add_field(name=part.name or "", value=part.value or "")
        replayed = Board(content=content, embed=shown, items=controls, files=board.files)
        return {
            "view": replayed.card(),
            "attachments": board.files,
            "allowed_mentions": discord.AllowedMentions.none(),  # a replay pings nobody
        }

    def _controls(
        self, table_id: int, seats: Sequence[Seat], line: Timeline, locale: Localish
    ) -> list[discord.ui.Item[Any]]:
        """First / Previous / Next / Last, and a menu jumping to a round's start or a move."""
        at, total = line.replayed.step.number, line.replayed.total
        view: list[discord.ui.Item[Any]] = []
        targets = {"first": 0, "prev": at - 1, "next": at + 1, "last": total}
        emoji = {"first": "⏮️", "prev": "◀️", "next": "▶️", "last": "⏭️"}
        labels = {
            "first": "replay.first",
            "prev": "replay.previous",
            "next": "replay.next",
            "last": "replay.last",
        }
        for word in STEP_WORDS:
            view.append(
                ReplayStep(
                    table_id,
                    max(0, min(targets[word], total)),
                    word,
                    label=t(labels[word], locale),
                    emoji=emoji[word],
                    style=discord.ButtonStyle.primary if word == "next" else discord.ButtonStyle.secondary,
                    disabled=(at == 0 and word in ("first", "prev"))
                    or (at == total and word in ("next", "last")),
                )
            )
        if total == 0:
            return view
        options = [
            self._jump_option(number, line, seats, locale) for number in jump_steps(total, at, line.rounds)
        ]
        placeholder = t("replay.jump_rounds" if line.rounds else "replay.jump_moves", locale)
        view.append(ReplayJump(table_id, options, placeholder))
        return view

    def _jump_option(
        self, number: int, line: Timeline, seats: Sequence[Seat], locale: Localish
    ) -> discord.SelectOption:
        """An option reads "Round 2 begins" (over the move that began it), "Move 12 · alice" or "The
        deal", and says which step is shown now."""
        move = (
            t("replay.jump.deal", locale)
            if number == 0
            else (
                t(
                    "replay.jump.move",
                    locale,
                    number=number,
                    player=shown_name(seats[line.movers[number - 1]].name),
                )
            )
        )
        if number in line.rounds:
            label, notes = t("replay.jump.round", locale, round=line.rounds[number]), [move]
        else:
            label, notes = move, []
            if line.rounds:
                notes.append(t("replay.jump.in_round", locale, round=_round_at(number, line.rounds)))
        if number == line.replayed.step.number:
            notes.append(t("replay.jump.shown", locale))
        description = " · ".join(notes)[:100] or None
        return discord.SelectOption(label=label[:100], value=str(number), description=description)


def _round_at(number: int, rounds: Mapping[int, int]) -> int:
    """The round a step's board shows: that of the latest round start at or before it."""
    return rounds[max((start for start in rounds if start <= number), default=min(rounds))]


def _where(number: int, total: int, locale: Localish) -> str:
    if number == 0:
        return t("replay.step.deal", locale)
    return t("replay.step.move", locale, number=number, total=total)


def duration(seconds: float, locale: Localish) -> str:
    """12 s, 7 min, 1 h 05 min."""
    whole = round(seconds)
    if whole < 60:
        return t("history.duration.seconds", locale, seconds=whole)
    minutes = round(whole / 60)
    if minutes < 60:
        return t("history.duration.minutes", locale, minutes=minutes)
    return t("history.duration.hours", locale, hours=minutes // 60, minutes=f"{minutes % 60:02d}")


def when(timestamp: float) -> str:
    """A Discord timestamp: every reader sees it in their own time zone and format."""
    return discord.utils.format_dt(datetime.fromtimestamp(timestamp, tz=UTC), "f")


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise Refusal("table.guild_only")
    return interaction.guild_id


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ReplayCog(bot))
