"""The Tables cog: where Discord reaches the table machinery — lobby commands, clicks, status,
Rematch, private hands on request — all on the move pipeline it holds (`pipeline.py`). Other cogs
reach it with `tables_of(bot)`.

Which table a request means is `finding.py`'s to find, the lobby's decisions `lobby.py`'s, the
board's messages `publish.py`'s, DMs and panels `private.py`'s, deadlines `timers.py`'s, turn pings
`pings.py`'s, one rematch per game `rematches.py`'s; refusals and failures are answered by the kit
(`cogs/kit/errors.py`).
"""

from __future__ import annotations

import dataclasses
import json
import logging
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.errors import Refusal, answer_failure, answer_unclaimed
from cogs.kit.messages import card_message
from cogs.kit.services import Services
from cogs.kit.words.catalogs import Localish
from cogs.kit.words.reader import player_locale, server_language
from cogs.kit.words.text import game_title, join_list, t
from cogs.tables import rematches, threads
from cogs.tables.cache import IDLE_EVICT, Loaded
from cogs.tables.context import TableContext, now, shown_name
from cogs.tables.finding import Finding, requested_in
from cogs.tables.following import RECOVER_RECENT
from cogs.tables.gamecog import ActionFor, GameCog
from cogs.tables.guards import judge_step
from cogs.tables.lobby import (
    COMPUTER_LEVEL_KEY,
    DEFAULT_LEVEL,
    LOBBY_MOVES,
    LobbyMove,
    Member,
    add_computer,
    change,
    options_for,
)
from cogs.tables.pipeline import Pipeline
from cogs.tables.reach import TABLES_COG, find_tables, tables_cog
from cogs.tables.showing import pinging
from cogs.tables.ui import read_payload, route_components
from storage.settings import PICTURES_KEY
from storage.tables import TABLES_CHANNEL, ChannelBusy, Seat, TableRecord

log = logging.getLogger(__name__)

COMPUTER_NAMES = 6  # catalog keys computers.name.1 .. computers.name.6
RECOVER_BEFORE_STOP = 30.0
"""Seconds before the last stored move in which a move may not have been shown when the process stopped
(a board edit waits a few seconds at most: `board_wait`, the real-time rate, a picture)."""


class Tables(commands.Cog, name=TABLES_COG):
    """The table machinery as a cog: lobby commands, clicks, status and Rematch, on the pipeline it holds."""

    def __init__(self, bot: commands.Bot, services: Services, default_timeout: float) -> None:
        self.bot = bot
        self.pipeline = pipeline = Pipeline(bot, services, default_timeout)
        self.seeds = services.seeds  # where each new game's seed comes from
        self.cache, self.moves, self.following = pipeline.cache, pipeline.moves, pipeline.following
        # What other cogs, tests and benches read of the machinery.
        self.games = pipeline.games
        self.store = pipeline.store
        self.finding = Finding(self.cache, self.store, self.games)
        self.guild_settings = pipeline.guild_settings
        self.player_settings = pipeline.player_settings
        self.leaderboard = pipeline.leaderboard
        self.publisher, self.private, self.pinger = pipeline.publisher, pipeline.private, pipeline.pinger
        self.timers, self.cluster, self.deadlines = pipeline.timers, pipeline.cluster, pipeline.deadlines
        self.lines = pipeline.lines

    def register(self, cog: GameCog) -> None:
        self.games[cog.game.id] = cog

    @property
    def default_timeout(self) -> float:
        return self.timers.default_timeout

    async def context(self, channel_id: int) -> TableContext | None:
        """The channel's open table as a game cog sees it, None when there is none."""
        return await self.cache.context(channel_id)

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: Any,
        *,
        interaction: discord.Interaction | None = None,
        stamp: int = 0,
    ) -> None:
        """Apply one player's action (`Moves.act`): judged, committed, answered, then followed up."""
        await self.moves.act(channel_id, user_id, action, interaction=interaction, stamp=stamp)

    def evict_idle(self, idle: float = IDLE_EVICT) -> list[int]:
        """Open tables unused for `idle` seconds leave memory; returns their channels."""
        return self.cache.evict_idle(idle)

    def missed(self) -> None:
        """Listening to other processes was interrupted: the cached tables are checked again."""
        self.following.missed()

    async def cog_load(self) -> None:
        route_components(self.bot, self.on_component)
        self.bot.add_listener(answer_unclaimed, "on_interaction")  # a press no handler claims
        # Timers survive a restart: every pending deadline is armed again (an expired one fires at once).
        # With several processes, each arms its own guilds' (a dead one's are swept up: cluster.py).
        owned = [record for record in await self.store.with_deadlines() if self.cluster.owns(record.guild_id)]
        for record in owned:
            self.timers.arm(record)
        # Only moves made just before the last process stopped (or died) may not be shown yet: the
        # tables moved within RECOVER_BEFORE_STOP of the last move stored are redrawn now, not every
        # table of the last hour (at 10,000 tables that was 23,580 requests at every restart).
        last = max((record.updated_at for record in owned), default=0.0)
        since = max(last - RECOVER_BEFORE_STOP, now() - RECOVER_RECENT)
        recent = [record.channel_id for record in owned if record.updated_at > since]
        self.pipeline.tasks.schedule(self._recover(recent))
        if self.cluster.shared:
            await self.pipeline.database.listen(TABLES_CHANNEL, self.following.heard, on_gap=self.missed)
            await self.cluster.start(self.deadlines.on_deadline, self.following.take_up)

    async def _recover(self, channel_ids: list[int]) -> None:
        """After a restart, the tables moved last show their stored state at once: a crash between a
        commit and its board edit or DMs leaves nothing stale. Others catch up on first contact."""
        await self.bot.wait_until_ready()
        for channel_id in channel_ids:
            await self.cache.load(channel_id)

    async def cog_unload(self) -> None:
        route_components(self.bot, None)
        self.bot.remove_listener(answer_unclaimed, "on_interaction")
        self.pipeline.close()

    # ================================================================ the lobby

    async def open(
        self,
        interaction: discord.Interaction,
        cog: GameCog,
        options: dict[str, Any],
        *,
        computers: int = 0,
        level: str | None = None,
    ) -> None:
        """`/<game> new`: open a lobby with the caller seated as host, and `computers` computer players
        at `level` (the level the lobby's "Add computer" adds at too)."""
        guild_id, channel_id = requested_in(interaction)
        if computers > cog.game.max_players - 1:
            raise Refusal("computers.too_many", max=cog.game.max_players - 1)
        await self.following.judged_fresh(
            channel_id,
            lambda: self._open(interaction, cog, options, guild_id, channel_id, computers, level),
            interaction,
        )

    async def _open(
        self,
        interaction: discord.Interaction,
        cog: GameCog,
        options: dict[str, Any],
        guild_id: int,
        channel_id: int,
        computers: int,
        level: str | None,
    ) -> None:
        async with self.cache.lock(channel_id):
            defaults = await self.guild_settings.get(guild_id, f"options.{cog.game.id}", {}) or {}
            locale = str(interaction.guild_locale or interaction.locale)
            chosen = options_for(cog.game, defaults, options)
            await self._open_lobby(
                interaction, cog, chosen, locale, level=level or DEFAULT_LEVEL, computers=computers
            )

    async def _open_lobby(
        self,
        interaction: discord.Interaction,
        cog: GameCog,
        options: dict[str, Any],
        locale: str | None,
        *,
        level: str = DEFAULT_LEVEL,
        computers: int | list[Seat] = 0,
        parent_id: int | None = None,
    ) -> TableContext:
        """A new lobby, the caller seated as host, with computer players (how many, or the very seats of
        a finished game's computers): in a thread of its own opened from the interaction's text channel
        (or from `parent_id`, a rematch's), else in the interaction's channel; the caller holds the lock."""
        guild_id, channel_id = requested_in(interaction)
        where = (
            await threads.place(interaction, self.guild_settings)
            if parent_id is None
            else threads.Place(True)
        )
        if not where.thread:
            existing = await self.cache.load(channel_id)
            if existing is not None:
                other = self.games[existing.record.game_id]
                title = game_title(other.game, await player_locale(interaction))
                raise Refusal("table.busy", game=title, group=other.group)
        # The table speaks the server's language from its opening to its end: the one set with
        # /settings language, else the server's Discord locale (a rematch asks again).
        locale = await server_language(self.guild_settings, guild_id) or locale
        line: discord.Message | None = None
        if where.thread:  # its line in the text channel, and the thread the table is played in
            parent_id = parent_id or channel_id
            line, thread = await self.lines.opened(
                interaction, parent_id, game_title(cog.game, locale), locale
            )
            channel_id = thread.id
        record = TableRecord(
            guild_id=guild_id,
            channel_id=channel_id,
            game_id=cog.game.id,
            host_id=interaction.user.id,
            seats=[Seat(interaction.user.id, interaction.user.display_name)],
            options=options,
            extra={
                "locale": locale,
                COMPUTER_LEVEL_KEY: level,
                # Text or pictures, as the server chose when the table opened (a rematch asks again).
                PICTURES_KEY: bool(await self.guild_settings.get(guild_id, PICTURES_KEY, False)),
            },
            parent_id=parent_id if where.thread else None,
        )
        if isinstance(computers, list):
            record.seats += [dataclasses.replace(seat, timeouts=0) for seat in computers]
        else:
            names = computer_names(locale)
            for _ in range(computers):
                add_computer(record, cog.game, names)
        try:
            record = await self.store.create(record, now())
        except ChannelBusy as error:
            raise Refusal("table.busy_unknown") from error
        loaded = Loaded(record, None)
        self.cache.put(loaded)
        ctx = self.cache.context_of(loaded)
        if line is None:
            await self.publisher.post(ctx, interaction)
            if where.reason:
                await threads.tell_once(interaction, self.guild_settings, where.reason)
            return ctx
        await self.pipeline.slots.set(record.id or 0, threads.LINE, line.id)
        await self.publisher.post(ctx)  # the lobby, in the thread; the line follows it
        if interaction.channel_id != record.parent_id:  # the old thread points on to the rematch's
            text = t("threads.moved_on", await player_locale(interaction), thread=f"<#{channel_id}>")
            await interaction.followup.send(text, allowed_mentions=threads.QUIET)
        return ctx

    async def lobby(self, interaction: discord.Interaction, game_id: str | None, what: str) -> None:
        """Join, leave, start or cancel — by slash command (here or in the text channel of the table's
        thread) or by the lobby's buttons."""
        channel_id = await self.finding.channel(interaction, game_id)
        await self.following.judged_fresh(
            channel_id, lambda: self._lobby(interaction, game_id, what, channel_id), interaction
        )

    async def _lobby(
        self, interaction: discord.Interaction, game_id: str | None, what: str, channel_id: int
    ) -> None:
        if what not in LOBBY_MOVES:
            raise Refusal("error.unknown_action")
        move = cast(LobbyMove, what)
        async with self.cache.lock(channel_id):
            before = await self.finding.table(interaction, game_id, playing=False, channel_id=channel_id)
            cog = self.games[before.record.game_id]
            record = before.record.copy()
            member = Member(interaction.user.id, interaction.user.display_name, _manages_channel(interaction))
            names = computer_names(record.extra.get("locale"))
            note = change(record, cog.game, move, member, cog.group, names, self.seeds)
            state = self.cache.state_of(record)
            record.deadline = await self.timers.deadline(record, cog, state)
            await self.moves.save(
                record,
                expected_version=before.record.version,
                action={"type": move, "user": member.user_id, **note.logged},
            )
            loaded = Loaded(record, state)
            self.cache.remember(loaded)
            ctx = self.cache.context_of(loaded)
            if await self.publisher.is_board(interaction, ctx):
                await self.publisher.answer_with_board(interaction, ctx)
            else:  # a slash command (or an old lobby message): the caller is told what happened
                locale = await player_locale(interaction)
                speaking = ctx.speaking(str(locale) if locale else None)
                players = join_list([speaking.listed(seat) for seat in range(ctx.players)], locale)
                title = game_title(cog.game, locale)
                text = t(note.answer, locale, **{"game": title, "players": players, **_shown(note.params)})
                await interaction.response.send_message(text, ephemeral=True)
                self.publisher.request(channel_id)
        if note.key:  # what concerns everyone at the table is said in the channel too
            await self.publisher.send(channel_id, content=ctx.t(note.key, **_shown(note.params)))
        self.timers.arm(record)
        if record.status != "lobby":
            self.pipeline.showing.sync_private(ctx)
            self.pinger.note(ctx, cog, actor=record.seat_of(member.user_id) if move == "start" else None)

    async def status(self, interaction: discord.Interaction, game_id: str | None) -> None:
        """Post the board anew at the bottom of the channel; the old one loses its buttons. Asked in
        the text channel of the table's thread, it says where the table is."""
        channel_id = await self.finding.channel(interaction, game_id)
        if channel_id != interaction.channel_id:
            text = t("threads.is_there", await player_locale(interaction), thread=f"<#{channel_id}>")
            await interaction.response.send_message(text, ephemeral=True)
            return
        async with self.cache.lock(channel_id):
            loaded = await self.finding.table(interaction, game_id, playing=False, channel_id=channel_id)
            ctx = self.cache.context_of(loaded)
            old = await self.publisher.post(ctx, interaction)
            if old is not None:
                await self.publisher.retire(channel_id, old, ctx.t("table.moved"))

    async def rematch(self, interaction: discord.Interaction, game_id: str) -> None:
        """The Rematch button under a result: a new lobby with the same options, the caller as host; the
        other players are asked to join. One per finished table, in any process (`rematches`)."""
        _, channel_id = requested_in(interaction)
        cog = self.games.get(game_id)
        last = await self.store.last_table(channel_id)
        if cog is None or last is None or last.game_id != game_id or last.status != "finished":
            raise Refusal("table.no_rematch")
        if last.seat_of(interaction.user.id) is None:
            raise Refusal("table.rematch_players_only")
        async with self.cache.lock(channel_id), rematches.claim(self.store, last) as opened:
            ctx = await self._open_lobby(
                interaction,
                cog,
                last.options,
                last.extra.get("locale"),
                # The same computer players sit down again, at their levels; the humans are asked to join.
                level=str(last.extra.get(COMPUTER_LEVEL_KEY, DEFAULT_LEVEL)),
                computers=[seat for seat in last.seats if not seat.human],
                parent_id=last.parent_id,  # a thread's table: the rematch gets a thread of its own
            )
            opened(ctx)
        others = [seat.user_id for seat in last.seats if seat.human and seat.user_id != interaction.user.id]
        if not others:
            return
        text = ctx.t(
            "table.rematch_asked",
            host=f"<@{interaction.user.id}>",
            players=", ".join(f"<@{user}>" for user in others),
            game=game_title(cog.game, ctx.locale),
        )
        await self.publisher.send(ctx.channel_id, content=text, allowed_mentions=pinging(others))

    # ================================================================ clicks

    async def on_component(
        self,
        interaction: discord.Interaction,
        game_id: str,
        channel_id: int,
        stamp: int,
        payload: str,
        values: list[str],
    ) -> None:
        """Every TableButton / TableSelect click lands here; whatever fails is answered in one line."""
        try:
            await self.following.judged_fresh(
                channel_id,
                lambda: self._on_component(interaction, game_id, channel_id, stamp, payload, values),
                interaction,
            )
        except Exception as error:
            await answer_failure(interaction, error)

    async def _on_component(
        self,
        interaction: discord.Interaction,
        game_id: str,
        channel_id: int,
        stamp: int,
        payload: str,
        values: list[str],
    ) -> None:
        kind, rest = read_payload(payload)
        if kind == "t":
            if rest == "rematch":
                await self.rematch(interaction, game_id)
            elif rest == "hand":
                await self.show_private(interaction, game_id)
            elif rest == "rules":
                await self.show_rules(interaction, game_id)
            else:
                await self._lobby(interaction, game_id, rest, channel_id)  # judged afresh already
            return
        cog = self.games.get(game_id)
        loaded = await self.cache.load(channel_id)
        if (
            cog is None
            or loaded is None
            or loaded.record.game_id != game_id
            or loaded.record.status != "playing"
        ):
            raise Refusal("table.no_game")
        seat = loaded.record.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("table.not_seated")
        if kind == "a":
            try:
                data = json.loads(rest or values[0])
            except (ValueError, IndexError) as error:
                raise Refusal("error.malformed_action") from error
            action = cog.game.decode_action(data)
            await self.moves.act(
                channel_id, interaction.user.id, action, interaction=interaction, stamp=stamp
            )
        elif kind == "u":
            ctx = self.cache.context_of(loaded)
            if stamp and stamp != cog.stamp(ctx, seat):
                raise Refusal("table.outdated", step=rest.partition(":")[0])  # the game may say why
            judge_step(cog, ctx, seat, "click")
            await cog.on_ui(interaction, ctx, seat, rest, values)
        else:
            raise Refusal("error.unknown_action")

    async def show_private(self, interaction: discord.Interaction, game_id: str | None) -> None:
        """The "My hand" / "Open my dice" path: the seat's private board, ephemerally."""
        loaded = await self.finding.table(interaction, game_id, playing=True)
        seat = loaded.record.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("table.not_seated")
        board = await self.private.render(
            self.cache.context_of(loaded), self.games[loaded.record.game_id], seat
        )
        if board is None:
            raise Refusal("table.nothing_private")
        await interaction.response.send_message(**board.send_kwargs(), ephemeral=True)
        await self.private.shown(self.cache.context_of(loaded), seat, board, interaction, opened=True)

    async def show_rules(self, interaction: discord.Interaction, game_id: str) -> None:
        """The board's "How to play" button: the game's rules, to the clicker only, in their language."""
        cog = self.games.get(game_id)
        if cog is None:
            raise Refusal("table.no_game")
        embed = cog.rules_embed(await player_locale(interaction))
        await interaction.response.send_message(view=card_message(None, embed), ephemeral=True)

    def refresh_board(self, channel_id: int) -> None:
        """Ask for the public board to be redrawn from the latest state (edits coalesce)."""
        self.publisher.request(channel_id)

    def refresh_private(self, channel_id: int) -> None:
        """Bring every seat's DM hand or open panel up to date, in the background."""
        loaded = self.cache.cached(channel_id)
        if loaded is not None:
            self.pipeline.showing.sync_private(self.cache.context_of(loaded))

    # ================================================================ slash-command moves

    async def act_command(
        self, interaction: discord.Interaction, game_id: str, action: Any | ActionFor
    ) -> None:
        """A game's slash command: the same judgement as a click, answered ephemerally.

        `action` may be a callable building the action from the caller's table and seat.
        """
        channel_id = await self.finding.channel(interaction, game_id)
        await self.following.judged_fresh(
            channel_id, lambda: self._act_command(interaction, game_id, action, channel_id), interaction
        )

    async def _act_command(
        self, interaction: discord.Interaction, game_id: str, action: Any | ActionFor, channel_id: int
    ) -> None:
        loaded = await self.finding.table(interaction, game_id, playing=True, channel_id=channel_id)
        if callable(action):
            ctx, seat = self.finding.seated(loaded, interaction)
            action = action(ctx, seat)
        await self.moves.act(loaded.record.channel_id, interaction.user.id, action, interaction=interaction)

    async def seated(self, interaction: discord.Interaction, game_id: str) -> tuple[TableContext, int]:
        return await self.finding.seated_at(interaction, game_id)

    async def table_for(self, interaction: discord.Interaction, game_id: str) -> TableContext | None:
        return await self.finding.table_for(interaction, game_id)


class UsesTables:
    """For the server-wide cogs (/leaderboard, /games, /settings): the running Tables cog and its games."""

    bot: commands.Bot

    @property
    def tables(self) -> Tables:
        return tables_of(self.bot)

    def game_choices(
        self, current: str, locale: Localish, *, with_options: bool = False
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete for a `game` option: the games whose title (in the typist's language, or
        the original one) contains what was typed."""
        typed = current.casefold()
        choices = []
        for cog in self.tables.games.values():
            title = game_title(cog.game, locale)
            if (with_options and not cog.game.options) or not (
                typed in title.casefold() or typed in cog.game.title.casefold()
            ):
                continue
            choices.append(app_commands.Choice(name=title, value=cog.game.id))
        return choices[:25]


def tables_of(client: object) -> Tables:
    """The running Tables cog of a bot; TablesNotLoaded when the `cogs.tables` extension is not loaded."""
    tables = tables_cog(client)
    assert isinstance(tables, Tables), f"the {TABLES_COG} cog is a {type(tables).__name__}"
    return tables


def loaded_tables(client: object) -> Tables | None:
    """The running Tables cog of a bot, None when it has none."""
    return tables_of(client) if find_tables(client) is not None else None


def computer_names(locale: str | None) -> list[str]:
    """The names computer players take at a table speaking `locale`."""
    return [t(f"computers.name.{number}", locale) for number in range(1, COMPUTER_NAMES + 1)]


def _manages_channel(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction.user, "guild_permissions", None)
    return bool(interaction.permissions.manage_channels or (permissions and permissions.manage_channels))


def _shown(params: dict[str, Any]) -> dict[str, Any]:
    """A lobby note's parameters as a sentence shows them: the player's name escaped and isolated."""
    return {**params, "name": shown_name(params["name"])} if "name" in params else params
