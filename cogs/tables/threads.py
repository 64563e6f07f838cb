"""Several tables in one channel: each table opened in a text channel is played in a public thread
of its own, and the channel keeps one short line per table that follows it.

`/<game> new` in a text channel answers with the table's line (the thread's starter message), opens
the thread from it and posts the lobby there; boards, announcements, pings and the "My hand"
fallbacks then go to the thread, since the thread is the table's channel (every table is keyed by the
channel it is played in, `TableRecord.parent_id` naming the text channel). The line reads "open, join
here" (with a Join button), then who plays, then the winner with a link to the results.

Where a thread cannot be had — the server chose `/settings tables where:channel`, the channel is no
text channel (a voice channel's chat, a forum post is already a thread), or the bot lacks Create
Public Threads or Send Messages in Threads — the table opens in the channel as before, and the
server is told why once. A table opened inside a thread stays in that thread.

Discord archives a thread after the inactivity the server chose (`/settings tables archive:`, a day
by default); the bot never deletes one, so the results and the replay link stay.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

from cogs.kit.errors import Refusal
from cogs.kit.messages import Board
from cogs.kit.words.bidi import plain
from cogs.kit.words.reader import player_locale
from cogs.kit.words.text import game_title, join_list, t
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog
from cogs.tables.slots import MessageSlots
from cogs.tables.tasks import Background
from cogs.tables.ui import TableButton
from storage.settings import ARCHIVE_KEY, TOLD_KEY, WHERE_KEY, GuildSettings

log = logging.getLogger(__name__)

WHERE = ("threads", "channel")
ARCHIVE_MINUTES = (60, 1440, 4320, 10080)  # the durations Discord offers
DEFAULT_ARCHIVE = 1440
LINE = "line"  # the message slot of a table's line in its text channel
THREAD_NAME = 100  # Discord's limit on a channel name
QUIET = discord.AllowedMentions.none()  # the line names players and pings nobody


@dataclass(frozen=True)
class Place:
    """Where a new table goes: a thread of its own, or the channel (with the reason, if any)."""

    thread: bool
    reason: str | None = None  # a catalog key saying why there is no thread


async def place(interaction: discord.Interaction, guilds: GuildSettings) -> Place:
    """Thread or channel, for a table opened by this interaction."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return Place(False)  # a table started inside a thread stays in it
    if interaction.guild_id is None:
        return Place(False)
    if await guilds.get(interaction.guild_id, WHERE_KEY, "threads") == "channel":
        return Place(False, "threads.why.setting")
    if not isinstance(channel, discord.TextChannel):
        return Place(False, "threads.why.channel_kind")
    allowed = interaction.app_permissions
    if not (allowed.create_public_threads and allowed.send_messages_in_threads):
        return Place(False, "threads.why.permissions")
    return Place(True)


async def tell_once(interaction: discord.Interaction, guilds: GuildSettings, reason: str) -> None:
    """Why the table is not in a thread, said privately the first time it happens on the server."""
    if interaction.guild_id is None:
        return
    told = list(await guilds.get(interaction.guild_id, TOLD_KEY, []) or [])
    if reason in told:
        return
    await guilds.set(interaction.guild_id, TOLD_KEY, [*told, reason])
    try:
        await interaction.followup.send(t(reason, await player_locale(interaction)), ephemeral=True)
    except discord.HTTPException:
        log.debug("could not say why there is no thread", exc_info=True)


def thread_name(title: str, host: str, locale: str | None) -> str:
    """ "🍣 Sushi Go! · alice": the game and its host, within Discord's limit on channel names."""
    return plain(t("threads.name", locale, game=title, host=host))[:THREAD_NAME]  # a name carries no marks


def jump_url(guild_id: int, channel_id: int, message_id: int) -> str:
    """A link to a message (a message sent through a bare channel id knows no guild to link with)."""
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


def line_board(ctx: TableContext, cog: GameCog, results: str | None = None) -> Board:
    """The table's line in its text channel, for the table's status now."""
    record = ctx.record
    game = game_title(cog.game, ctx.locale)
    thread = f"<#{ctx.channel_id}>"
    if record.status == "lobby":
        host = record.seat_of(record.host_id)
        text = t(
            "threads.line.open",
            ctx.locale,
            game=game,
            host=ctx.listed(host) if host is not None else "",
            thread=thread,
            seated=len(record.seats),
            max=cog.game.max_players,
        )
        full = len(record.seats) >= cog.game.max_players
        join = TableButton(
            cog.game.id,
            ctx.channel_id,
            0,
            "t:join",
            label=t("lobby.join", ctx.locale),
            style=discord.ButtonStyle.success,
            disabled=full,
        )
        return Board(content=text, items=[join])
    if record.status == "playing":
        players = join_list([ctx.listed(seat) for seat in range(ctx.players)], ctx.locale)
        return Board(content=t("threads.line.playing", ctx.locale, game=game, thread=thread, players=players))
    if record.status == "finished":
        ranking = ctx.game.ranking(ctx.live) if ctx.state is not None else []
        best = min(ranking) if ranking else 0
        winners = join_list(
            [ctx.listed(seat) for seat, rank in enumerate(ranking) if rank == best], ctx.locale
        )
        where = results or thread
        return Board(
            content=t("threads.line.finished", ctx.locale, game=game, winners=winners, results=where)
        )
    return Board(content=t("threads.line.ended", ctx.locale, game=game, thread=thread))


class ChannelLines:
    """Keeps each thread table's line in its text channel in step with the table: edited only when
    what it says changed, in the background (a line is never worth a click's wait)."""

    def __init__(
        self,
        bot: commands.Bot,
        slots: MessageSlots,
        games: dict[str, GameCog],
        tasks: Background,
        guilds: GuildSettings,
    ) -> None:
        self.bot = bot
        self.slots = slots
        self.games = games
        self.tasks = tasks
        self.guilds = guilds
        self._shown: dict[int, tuple[Any, ...]] = {}  # table id -> what its line was last drawn from

    async def opened(
        self, interaction: discord.Interaction, parent_id: int, title: str, locale: str | None
    ) -> tuple[discord.Message, discord.Thread]:
        """A new table's line in its text channel — the answer to `interaction` when it was given there,
        else (a rematch asked in the old thread) a message of its own, the interaction acknowledged at
        once — and the thread opened from it; Refusal when Discord refuses either."""
        if interaction.channel_id != parent_id:  # the line, the thread and the lobby take a few calls
            await interaction.response.defer()
        archive = int(await self.guilds.get(interaction.guild_id or 0, ARCHIVE_KEY, DEFAULT_ARCHIVE))
        text = t("threads.line.opening", locale, game=title)
        try:
            channel = self.bot.get_channel(parent_id) or await self.bot.fetch_channel(parent_id)
            if not isinstance(channel, discord.TextChannel):
                raise Refusal("threads.failed")
            line = Board(content=text).send_kwargs()  # a card from the start: it follows the table as one
            if interaction.response.is_done():
                message: discord.Message = await channel.send(**line, allowed_mentions=QUIET)
            else:
                await interaction.response.send_message(**line, allowed_mentions=QUIET)
                message = await interaction.original_response()
        except discord.HTTPException as error:
            raise Refusal("threads.failed") from error
        try:
            thread = await channel.create_thread(
                name=thread_name(title, interaction.user.display_name, locale),
                message=message,
                auto_archive_duration=archive,  # type: ignore[arg-type]  # one of Discord's four
            )
        except discord.HTTPException as error:
            with contextlib.suppress(discord.HTTPException):  # no line is left for a table that is not
                await message.delete()
            raise Refusal("threads.failed") from error
        return message, thread

    def follow(self, ctx: TableContext, results: str | None = None) -> None:
        """The table showed a new state: its line follows, if it has one and what it says changed
        (decided here, without drawing it: this runs after every board edit)."""
        record = ctx.record
        if record.parent_id is None or record.id is None:
            return
        if record.status == "finished" and results is None:
            return  # the finished line waits for the results message, to link it
        said = _line_key(ctx, results)
        if self._shown.get(record.id) == said:
            return
        self._shown[record.id] = said
        if not record.is_open:
            self._shown.pop(record.id, None)  # the line's last words: nothing to remember
        self.tasks.schedule(self._show(ctx, results))

    async def _show(self, ctx: TableContext, results: str | None) -> None:
        table_id = ctx.record.id or 0
        cog = self.games.get(ctx.record.game_id)
        message_id = await self.slots.get(table_id, LINE)
        if cog is None or message_id is None or ctx.record.parent_id is None:
            return
        board = line_board(ctx, cog, results)
        message = self.bot.get_partial_messageable(ctx.record.parent_id).get_partial_message(message_id)
        try:
            await message.edit(**board.edit_kwargs(), allowed_mentions=QUIET)
        except discord.HTTPException:
            log.info("the line of table %s in channel %s cannot be shown", table_id, ctx.record.parent_id)


def _line_key(ctx: TableContext, results: str | None) -> tuple[Any, ...]:
    """Everything a table's line is drawn from: when it is unchanged, so is the line."""
    seats = tuple((seat.user_id, seat.name, seat.computer, seat.level) for seat in ctx.record.seats)
    return (ctx.record.status, seats, ctx.locale, results)
