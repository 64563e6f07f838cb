"""What a table shows besides the answer to a click: the public board, the announcements and
results, the private hands, the turn pings — and the next timer, once a move is committed.

The board and private hands are drawn by the process showing the table's guild (`cluster.py`);
another process's move reaches it by notification (`following.py`).
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from cogs.tables.boards import results_board
from cogs.tables.cluster import Cluster
from cogs.tables.context import TableContext, now
from cogs.tables.gamecog import GameCog
from cogs.tables.pings import Pinger
from cogs.tables.private import PrivateHands
from cogs.tables.publish import Publisher
from cogs.tables.tasks import Background
from cogs.tables.threads import ChannelLines, jump_url
from cogs.tables.timers import Timers
from rules.engine import Event

Move = tuple[int, Any, list[Event]]  # seat, action, the events it caused


class Showing:
    """Brings a table's messages, pings and timer along with its state."""

    def __init__(
        self,
        games: dict[str, GameCog],
        publisher: Publisher,
        private: PrivateHands,
        pinger: Pinger,
        timers: Timers,
        cluster: Cluster,
        tasks: Background,
        lines: ChannelLines,
    ) -> None:
        self.games = games
        self.lines = lines
        self.publisher = publisher
        self.private = private
        self.pinger = pinger
        self.timers = timers
        self.cluster = cluster
        self.tasks = tasks

    def sync_private(self, ctx: TableContext) -> None:
        """Bring every seat's DM hand or open panel up to date, in the background."""
        self.tasks.schedule(self.private.sync(ctx, self.games[ctx.record.game_id]))

    def first_sight(self, ctx: TableContext, ping: bool) -> None:
        """A playing table met for the first time in this process: its board and private controls
        may show an older state, brought up to date here (another process's table by that process);
        with `ping`, whoever owes a move is pinged once their grace delay since the last move is over
        (unless they were already pinged for it, by this process before a restart or by another)."""
        record = ctx.record
        if not self.cluster.shows(record.guild_id):
            return
        cog = self.games[record.game_id]
        self.publisher.request(record.channel_id)
        if cog.private_mode != "none":
            self.sync_private(ctx)
        if ping and (record.deadline is None or record.deadline > now()):
            # (A due deadline moves at once, and that move pings whoever owes one next.)
            self.pinger.note(ctx, cog, since=record.updated_at)

    async def after(self, ctx: TableContext, moves: list[Move], *, actor: int | None = None) -> None:
        """After the lock: board, announcements, results, private hands, turn pings, the next timer."""
        record = ctx.record
        cog = self.games[record.game_id]
        shown_here = self.cluster.shows(record.guild_id)  # else the guild's process, notified
        finished = record.status == "finished"
        if shown_here and not finished:
            wait = min((cog.board_wait(ctx, events) for _, _, events in moves), default=0.0)
            self.publisher.request(record.channel_id, wait)
        lines = [line for _, _, events in moves for line in cog.announce(ctx, events)]
        if lines:
            await self.publisher.send(record.channel_id, content="\n".join(lines))
        if finished:  # one message with the result: it is posted, then the board is deleted (publish.py)
            players = [seat.user_id for seat in record.seats if seat.human and not seat.computer]
            # A picture of the final scoring is drawn in a worker thread, so other tables go on.
            drawn = await asyncio.to_thread(results_board, ctx, cog) if ctx.pictures else None
            results = (drawn or results_board(ctx, cog)).send_kwargs()
            posted = await self.publisher.send(
                record.channel_id, **results, allowed_mentions=pinging(players)
            )
            if posted is not None:  # a thread's table: its line in the text channel links the results
                self.lines.follow(ctx, results=jump_url(record.guild_id, record.channel_id, posted.id))
            if shown_here:
                self.publisher.request(record.channel_id)
        if cog.private_mode != "none" and shown_here:  # a game without secrets has no hands to update
            self.sync_private(ctx)
        self.pinger.note(ctx, cog, actor, moved=frozenset(seat for seat, _, _ in moves))
        self.timers.arm(record)


def pinging(users: list[int]) -> discord.AllowedMentions:
    """Mentions that notify exactly these users (the bot's default notifies nobody)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(user) for user in users]
    )
