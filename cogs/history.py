"""/history and /replay: a server's finished games, and any of them played again move by move.

A replay is computed, never stored: `rules/replay.py` re-applies the logged actions to the game's
initial state, and the last state must equal the stored final state, or the replay is refused. Each
step is drawn by the game's own renderer from the PUBLIC view of that state (what the table showed
then), without the game's buttons. The step buttons carry the table and the step in their
custom_id (`sbr:`), the history pages their filter and page (`sbh:`), so both keep working after a
restart. Closed tables older than a server's retention are pruned daily (see /settings retention).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.i18n import game_title, join_list, number, plural, t
from cogs.tables.boards import medal
from cogs.tables.context import TableContext, now
from cogs.tables.errors import Refusal, answer_failure
from cogs.tables.gamecog import GameCog, ShortText
from cogs.tables.language import player_locale, public_locale
from cogs.tables.tables import UsesTables
from rules.replay import Replayed, Unreplayable, read_log, replay_to, same_state
from storage.history import DAY, Filter, FinishedGame, HistoryStore

log = logging.getLogger(__name__)

PER_PAGE = 5
PRUNE_EVERY = DAY
ALL = "*"  # no game filter, in a custom_id
STEP_WORDS = ("first", "prev", "next", "last")


def _history(interaction: discord.Interaction) -> HistoryCog:
    cog = interaction.client.get_cog("History")  # type: ignore[attr-defined]
    assert isinstance(cog, HistoryCog), "the History cog is loaded"
    return cog


class HistoryPage(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sbh:p:(?P<game>[a-z0-9_]+|\*):(?P<user>\d+):(?P<page>\d+):(?P<word>prev|next)",
):
    """Newer / Older on a /history list: the filter and the page to show are in the custom_id."""

    def __init__(self, game_id: str | None, user_id: int | None, page: int, word: str, **button: Any) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=f"sbh:p:{game_id or ALL}:{user_id or 0}:{page}:{word}", row=0, **button
            )
        )
        self.game_id, self.user_id, self.page = game_id, user_id, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> HistoryPage:
        game = None if match["game"] == ALL else match["game"]
        return cls(game, int(match["user"]) or None, int(match["page"]), match["word"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await _history(interaction).show_page(
                interaction, self.game_id, self.user_id, self.page, edit=True
            )
        except Exception as error:
            await answer_failure(interaction, error)


class WatchSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"sbh:watch"):
    """The /history list's "Watch a replay…": posts the chosen game's replay."""

    def __init__(
        self, options: list[discord.SelectOption] | None = None, placeholder: str | None = None
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="sbh:watch",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
                row=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> WatchSelect:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
            await _history(interaction).show_replay(interaction, int(values[0]), 0, edit=False)
        except Exception as error:
            await answer_failure(interaction, error)


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
            await _history(interaction).show_replay(interaction, self.table_id, self.step, edit=True)
        except Exception as error:
            await answer_failure(interaction, error)


DYNAMIC_ITEMS = (HistoryPage, WatchSelect, ReplayStep)


class HistoryCog(UsesTables, commands.Cog, name="History"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._pruner: asyncio.Task[None] | None = None

    @property
    def history(self) -> HistoryStore:
        return HistoryStore(self.tables.store.database)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)  # the buttons of lists and replays posted before a restart
        self._pruner = asyncio.create_task(self._prune_daily())

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        if self._pruner is not None:
            self._pruner.cancel()

    async def _prune_daily(self) -> None:
        while True:
            try:
                pruned = await self.history.prune(now())
                if pruned:
                    log.info("pruned %s closed tables past their server's retention", pruned)
            except Exception:
                log.exception("pruning the game history failed")
            await asyncio.sleep(PRUNE_EVERY)

    # ================================================================ /history

    @app_commands.command(name="history", description="This server's finished games, newest first")
    @app_commands.describe(game="Only this game", member="Only games this member played")
    @app_commands.guild_only()
    async def history_command(
        self,
        interaction: discord.Interaction,
        game: ShortText | None = None,
        member: discord.Member | None = None,
    ) -> None:
        if game is not None and game not in self.tables.games:
            raise Refusal("settings.unknown_game", game=game)
        await self.show_page(
            interaction,
            game,
            member.id if member else None,
            0,
            edit=False,
            member_name=member.display_name if member else None,
        )

    @history_command.autocomplete("game")
    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self.game_choices(current, interaction.locale)

    async def show_page(
        self,
        interaction: discord.Interaction,
        game_id: str | None,
        user_id: int | None,
        page: int,
        *,
        edit: bool,
        member_name: str | None = None,
    ) -> None:
        guild_id = _guild(interaction)
        locale = await public_locale(interaction)  # the list is posted in the channel
        where = Filter(guild_id, game_id, user_id)
        count = await self.history.count(where)
        pages = max(1, -(-count // PER_PAGE))
        page = max(0, min(page, pages - 1))  # the list may have grown or shrunk since the click's page
        games = await self.history.page(where, page=page, per_page=PER_PAGE)
        title_games = self._title(game_id, locale) if game_id else t("history.all_games", locale)
        embed = discord.Embed(colour=discord.Colour.dark_teal())
        if user_id is not None:
            # The name the tables knew them by (a button click after a restart carries only the id).
            seated = [player.name for game in games for player in game.players if player.user_id == user_id]
            name = seated[0] if seated else member_name or str(user_id)
            embed.title = t("history.title_member", locale, member=name, games=title_games)
        else:
            embed.title = t("history.title", locale, games=title_games)
        view: discord.ui.View | None = None
        if not games:
            embed.description = t("history.empty", locale)
        else:
            embed.description = "\n\n".join(self._line(game, locale) for game in games)
            embed.set_footer(
                text=t(
                    "history.footer",
                    locale,
                    page=page + 1,
                    pages=pages,
                    games=plural("history.count", count, locale),
                )
            )
            view = discord.ui.View(timeout=None)
            view.add_item(
                HistoryPage(
                    game_id,
                    user_id,
                    max(0, page - 1),
                    "prev",
                    label=t("history.previous", locale),
                    emoji="◀️",
                    disabled=page == 0,
                )
            )
            view.add_item(
                HistoryPage(
                    game_id,
                    user_id,
                    min(page + 1, pages - 1),
                    "next",
                    label=t("history.next", locale),
                    emoji="▶️",
                    disabled=page >= pages - 1,
                )
            )
            view.add_item(
                WatchSelect([self._watch_option(game, locale) for game in games], t("history.watch", locale))
            )
        if edit:
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await interaction.response.send_message(embed=embed, view=view or discord.utils.MISSING)

    def _title(self, game_id: str, locale: Any) -> str:
        cog = self.tables.games.get(game_id)
        return game_title(cog.game if cog else game_id, locale)

    def _line(self, game: FinishedGame, locale: Any) -> str:
        return t(
            "history.line",
            locale,
            id=game.table_id,
            game=self._title(game.game_id, locale),
            date=_when(game.finished_at),
            duration=duration(game.seconds, locale),
            players=" · ".join(
                t(
                    "history.player",
                    locale,
                    medal=medal(player.rank),
                    name=discord.utils.escape_markdown(player.name),
                    score=number(player.score),
                )
                for player in game.by_rank()
            ),
        )

    def _watch_option(self, game: FinishedGame, locale: Any) -> discord.SelectOption:
        names = join_list((player.name for player in game.by_rank()), locale, style="comma")
        return discord.SelectOption(
            label=t("history.watch_option", locale, id=game.table_id, game=self._title(game.game_id, locale))[
                :100
            ],
            value=str(game.table_id),
            description=t("history.watch_description", locale, players=names)[:100],
        )

    # ================================================================ /replay

    @app_commands.command(name="replay", description="Watch a finished game again, move by move")
    @app_commands.describe(game="The game's number, from /history", move="Start at this move (0 = the deal)")
    @app_commands.guild_only()
    async def replay_command(
        self, interaction: discord.Interaction, game: int, move: app_commands.Range[int, 0] = 0
    ) -> None:
        await self.show_replay(interaction, game, move, edit=False)

    @replay_command.autocomplete("game")
    async def _replay_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        games = await self.history.page(Filter(interaction.guild_id), page=0, per_page=25)
        locale = await player_locale(interaction)
        choices = []
        for game in games:
            label = t(
                "history.autocomplete",
                locale,
                id=game.table_id,
                game=self._title(game.game_id, locale),
                players=join_list((player.name for player in game.by_rank()), locale, style="comma"),
            )
            if current.strip().lstrip("#") in str(game.table_id) or current.lower() in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=game.table_id))
        return choices

    async def show_replay(
        self, interaction: discord.Interaction, table_id: int, step: int, *, edit: bool
    ) -> None:
        guild_id = _guild(interaction)
        finished = await self.history.game(guild_id, table_id)
        record = await self.tables.store.get(table_id)
        if finished is None or record is None or record.state is None:
            raise Refusal("history.no_such_game", id=table_id)
        cog = self.tables.games.get(finished.game_id)
        if cog is None:
            raise Refusal("replay.unknown_game", id=table_id)
        game = cog.game
        try:
            entries = [(seat, action) for _, seat, action in await self.tables.store.actions(table_id)]
            replayed = replay_to(game, len(record.seats), record.options, read_log(game, entries), step)
        except Unreplayable as error:
            raise Refusal(f"replay.{error.code}", id=table_id) from error
        if not same_state(replayed.final, record.state):
            raise Refusal("replay.diverged", id=table_id)
        if replayed.step.number < replayed.total:
            # Who a computer stood in for at that moment is not in the record (only at the end): the
            # players show as they sat down, the move line says when the table played for someone.
            record = record.copy()
            for seat in record.seats:
                seat.computer = False
        locale = await public_locale(interaction)  # a replay is posted in the channel
        ctx = TableContext(record, game, replayed.state, replaying=True).speaking(
            str(locale) if locale else None
        )
        kwargs = self._replay_message(cog, ctx, finished, replayed, locale)
        if edit:
            await interaction.response.edit_message(**kwargs)
        else:
            kwargs["files"] = kwargs.pop("attachments")
            await interaction.response.send_message(**kwargs)

    def _replay_message(
        self, cog: GameCog, ctx: TableContext, finished: FinishedGame, replayed: Replayed, locale: Any
    ) -> dict[str, Any]:
        """The game's own public board of that step, without its buttons, under a step line and
        with a card saying who played, when, how long, and (at the end) the result."""
        board = cog.render_board(ctx)
        board.items = []  # a replay offers no moves
        step, total = replayed.step, replayed.total
        title = game_title(cog.game, locale)
        where = (
            t("replay.step.deal", locale)
            if step.number == 0
            else t("replay.step.move", locale, number=step.number, total=total)
        )
        header = t("replay.header", locale, id=finished.table_id, game=title, step=where)
        card = discord.Embed(title=t("replay.title", locale, id=finished.table_id, game=title))
        card.colour = discord.Colour.dark_teal()
        if step.move is None:
            card.description = t("replay.deal", locale, total=total)
        else:
            move = step.move
            by = t(f"replay.by.{move.by}", locale) if move.by in ("timeout", "computer") else ""
            card.description = (
                t(
                    "replay.move",
                    locale,
                    number=step.number,
                    total=total,
                    player=discord.utils.escape_markdown(ctx.record.seats[move.seat].name),
                    what=cog.describe(ctx, move.seat, move.action),
                )
                + by
            )
        card.add_field(
            name=t("replay.played", locale),
            value=t(
                "replay.played_value",
                locale,
                date=_when(finished.finished_at),
                duration=duration(finished.seconds, locale),
            ),
            inline=False,
        )
        if step.number < total:  # the result was not known yet: it shows at the end, like it did then
            escaped = (discord.utils.escape_markdown(player.name) for player in finished.players)
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
                    name=discord.utils.escape_markdown(player.name),
                    score=number(player.score),
                )
                for player in finished.by_rank()
            ]
            card.add_field(name=t("replay.result", locale), value="\n".join(lines))
        view = discord.ui.View(timeout=None)
        targets = {"first": 0, "prev": step.number - 1, "next": step.number + 1, "last": total}
        emoji = {"first": "⏮️", "prev": "◀️", "next": "▶️", "last": "⏭️"}
        labels = {
            "first": "replay.first",
            "prev": "replay.previous",
            "next": "replay.next",
            "last": "replay.last",
        }
        for word in STEP_WORDS:
            at_start = step.number == 0 and word in ("first", "prev")
            at_end = step.number == total and word in ("next", "last")
            view.add_item(
                ReplayStep(
                    finished.table_id,
                    max(0, min(targets[word], total)),
                    word,
                    label=t(labels[word], locale),
                    emoji=emoji[word],
                    style=discord.ButtonStyle.primary if word == "next" else discord.ButtonStyle.secondary,
                    disabled=at_start or at_end,
                )
            )
        content = f"{header}\n{board.content}" if board.content else header
        embeds = [embed for embed in (board.embed, card) if embed is not None]
        return {
            "content": content[:2000],
            "embeds": embeds,
            "attachments": board.files,
            "view": view,
            "allowed_mentions": discord.AllowedMentions.none(),  # a replay pings nobody
        }


def duration(seconds: float, locale: Any) -> str:
    """12 s, 7 min, 1 h 05 min."""
    whole = round(seconds)
    if whole < 60:
        return t("history.duration.seconds", locale, seconds=whole)
    minutes = round(whole / 60)
    if minutes < 60:
        return t("history.duration.minutes", locale, minutes=minutes)
    return t("history.duration.hours", locale, hours=minutes // 60, minutes=f"{minutes % 60:02d}")


def _when(timestamp: float) -> str:
    """A Discord timestamp: every reader sees it in their own time zone and format."""
    return discord.utils.format_dt(datetime.fromtimestamp(timestamp, tz=UTC), "f")


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise Refusal("table.guild_only")
    return interaction.guild_id


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HistoryCog(bot))
