"""Which table a command or a click means, found one way for every command of every game: the
channel's own table; in a text channel whose tables are played in threads, the caller's own table
there (of the game asked for), or the only one; with several, the caller is asked which. A game's own
step is then judged once, here, for all games (`guards.judge_step`)."""

from __future__ import annotations

import discord

from cogs.kit.errors import Refusal
from cogs.kit.words.reader import player_locale
from cogs.kit.words.text import game_title, join_list
from cogs.tables.cache import Loaded, OpenTables
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog
from cogs.tables.guards import judge_step
from rules.engine import IllegalAction
from storage.tables import TableStore


def requested_in(interaction: discord.Interaction) -> tuple[int, int]:
    """The server and the channel of a request; tables are played in servers only."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise Refusal("table.guild_only")
    return interaction.guild_id, interaction.channel_id


class Finding:
    """Finds the caller's table for the Tables cog, from the open tables and the store."""

    def __init__(self, cache: OpenTables, store: TableStore, games: dict[str, GameCog]) -> None:
        self.cache, self.store, self.games = cache, store, games

    async def channel(self, interaction: discord.Interaction, game_id: str | None) -> int:
        """The channel of the table a command or click in this channel means."""
        _, channel_id = requested_in(interaction)
        if await self.cache.load(channel_id) is not None:
            return channel_id
        under = [
            record
            for record in await self.store.open_tables_under(channel_id)
            if game_id is None or record.game_id == game_id
        ]
        mine = [record for record in under if record.seat_of(interaction.user.id) is not None]
        candidates = mine or under
        if len(candidates) == 1:
            return candidates[0].channel_id
        if candidates:
            threads = join_list(
                [f"<#{record.channel_id}>" for record in candidates], await player_locale(interaction)
            )
            raise Refusal("threads.which", threads=threads)
        return channel_id

    async def table(
        self,
        interaction: discord.Interaction,
        game_id: str | None,
        *,
        playing: bool,
        channel_id: int | None = None,
    ) -> Loaded:
        """The caller's open table (of `game_id`, playing if asked), or the reason there is none."""
        if channel_id is None:
            channel_id = await self.channel(interaction, game_id)
        loaded = await self.cache.load(channel_id)
        if loaded is None:
            raise Refusal("table.none" if not playing else "table.no_game")
        if game_id is not None and loaded.record.game_id != game_id:
            other = self.games[loaded.record.game_id]
            title = game_title(other.game, await player_locale(interaction))
            raise Refusal("table.other_game", other=title, other_group=other.group)
        if playing and loaded.record.status != "playing":
            raise Refusal("table.not_started")
        return loaded

    def seated(self, loaded: Loaded, interaction: discord.Interaction) -> tuple[TableContext, int]:
        """The caller's seat at a running table, judged for a step of the game's own."""
        seat = loaded.record.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("table.not_seated")
        ctx = self.cache.context_of(loaded)
        judge_step(self.games[loaded.record.game_id], ctx, seat, "command")
        return ctx, seat

    async def seated_at(self, interaction: discord.Interaction, game_id: str) -> tuple[TableContext, int]:
        """The caller's running table of `game_id` and their seat, for a game's own command."""
        return self.seated(await self.table(interaction, game_id, playing=True), interaction)

    async def table_for(self, interaction: discord.Interaction, game_id: str) -> TableContext | None:
        """The caller's running table of `game_id`, or None (autocomplete answers with nothing rather
        than a reason)."""
        try:
            loaded = await self.table(interaction, game_id, playing=True)
        except IllegalAction:
            return None
        return self.cache.context_of(loaded)
