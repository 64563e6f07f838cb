"""Load, two processes: the bot in a process of its own, Discord's side (bench/standin.py) in this one.

    .venv/bin/python bench/load_process.py [N ...] [--game sushigo|rockthebock|sushizock|both] [--seconds S]
        [--knee] [--profile] [--logs DIR] [--metrics] [--database sqlite|postgres] [--processes P]
        [--computers none|half]
    e.g. `1 50 200` (default, both games), `--knee --game sushigo`, `--knee --database postgres --processes 2`
        or `50 200 --game sushigo --seconds 15 --computers half`

bench/load.py runs the bot and simcord in one process, so simcord's CPU is in every figure. Here
the bot is an unmodified discord.py client in a subprocess (this file with `--bot`) that points
`discord.http.Route.BASE` and `DiscordWebSocket.DEFAULT_GATEWAY` at the stand-in and runs with a
fake token: its CPU time, read from /proc (every thread) over the clicking window, is its own.

For each game and N, two bots one after the other, each with a fresh stand-in and process:
"no-op", a `commands.Bot` answering every click with a deferred update and every slash command
with one line (load.py's `NoOp`), the floor of discord.py, loopback and stand-in; and "sushi bar",
`bot.create_bot(Settings(..., turn_timeout=3600), sync=True)` on a fresh SQLite file into which
every guild's settings were written first: tables in the channel, not in threads
(`threads.WHERE_KEY`), no turn pings (`pings.PINGS_KEY`: nobody clicking every 2 s is owed one).
It syncs its commands at start-up (instead of fetching them) so that the stand-in learns them and
their ids as Discord holds them.
N tables (a guild each, one text channel) are seated through the bot's commands as players would:
2-player Sushi Go! (`/sushigo new`, `/sushigo join`, `/sushigo start`) or 3-player Rock the Bock
(`/bock ...`). Then every table clicks once every 2 s (random phase) for S seconds:
Sushi Go!: a seat that owes a pick (its hand DM shows the menu) picks the first card, the seats by
turns. Rock the Bock: the player the board names (`<@id>`) presses its first enabled action button
(Roll, a colour, the wolves). The no-op: the same pattern on a message with a select and a button
posted by the stand-in in the bot's name (in the DMs for Sushi Go!, in the channel for the Bock).

A seat clicks a message again only once it changed (the answer showed), or when its click went
unanswered for 3 s (a player retries); else the click is "skipped". Measured from the first click
until every click is answered (or 3 s late) and the bot has made no request for 0.3 s: clicks,
unanswered after 3 s (a later answer is refused with 10062, as on Discord), acknowledgement (event
sent -> first callback POST in) p50/p99/max, refusals (ephemeral one-line answers), REST calls per
click split by kind (answer: the callback; followup: the interaction's webhook; board edit: PATCH
of a guild message; message send; dm: opening, sending or editing a DM; other), the bot's CPU ms
per click and the stand-in's (not in the bot's), and for Sushi Bar the ratios to the no-op (p99×,
CPU×). Checks that the answers are real: Sushi Go! picks on a hand changed since the seat's last,
Rock the Bock clicks by another player than the last. The bot's log (WARNING and up) is counted
and its first lines printed. `--profile` splits the bot's CPU over the window by where the code
lives (cProfile in the bot's process: slower figures; with `--logs` the profile is kept beside the log).

`--knee` steps N up (50, 100, 200, 300, 400, 600 tables: 25 to 300 clicks/s, or the N given) for
Sushi Bar alone and reports the knee, the highest offered clicks/s with every click answered and
p99 < 1 s, stopping after the first step past it. Both processes share the machine's cores: at high
N the stand-in's own loop delays what it measures for both bots alike (the no-op's p99 shows it).
`--metrics` runs Sushi Bar a second time for each N with its figures on (HTTP_PORT: `/metrics`, scraped
every `SCRAPE_EVERY` s while clicking, as Prometheus would) and reports the CPU per click it costs.

`--database postgres` starts a PostgreSQL server for the run (pgserver, in a temporary folder; as
bench/load.py does) and gives every Sushi Bar run a fresh database on it (CREATE DATABASE, dropped
after), the guilds' settings written there first; the bot is given its URL (DATABASE_URL). The
server's CPU over the clicking window (postmaster and every backend, bench/pg_server.py) is the
"pg CPU" column, per click: not in the bot's CPU nor in CPU× (the no-op opens no database). After
each run the database must hold N tables in N channels of N guilds; it prints how many moves.
`--processes P` (PostgreSQL only) runs P Sushi Bar processes sharing that database, as a sharded
deployment does (`SHARD_COUNT=P`, `SHARD_IDS=i`: cogs/tables/cluster.py), each against a stand-in
of its own holding its share of the guilds (table i in process i mod P), their guild ids in its
shard by Discord's rule and their snowflakes apart (`ShardStandIn`); the no-op floor is P no-op
processes split alike. CPU is the P processes' summed. One liberty, as in bench/load.py: Discord
sends every DM to shard 0's process; here a player's DM clicks reach its guild's process, so the
processes share the picks evenly (an upper bound for what the second process gains for DM hands).
All processes, the stand-in and the server share the machine's cores.

`--computers half` seats computer players (level hard) at half of every Sushi Bar table's seats, the
table's seats rounded up to an even count: Sushi Go! 1 player + 1 computer, Rock the Bock 2 players
+ 2 computers (4 seats, its most); they are asked for at `/<game> new computers:C level:hard`, the
players join, the host starts. The players click as above (a board that names nobody, a computer's
turn, is not clicked); a hard computer thinks in the computers' process (cogs/tables/thinking.py),
so its search must not hold up the clicks. The bot's process times every decision (this file's
`--bot` code wraps `cogs.tables.deadlines.decide` and `think`; the bot's own code is unchanged) and
writes them out at its end: the decisions begun in the clicking window are reported, their count,
wall time p50/p99/max (queued for the computers' process, then thinking there) and their CPU there.
The bot's CPU counts its child processes' (the computers' process) as it counted the thread's.
The no-op floor seats the players alone. `--game sushizock` (3 players, or 2 + 2 computers; not in
`both`) plays as the Bock does: the player named presses the board's first enabled move (Roll, a
take); with none on it (dice to set aside first) they mark the first die (its toggle's click is
answered with the board redrawn, the die marked), and then press Roll.

For both bots the cycle collector's runs in the clicking window are counted (`time_collections`: how
many, how many full, the ms they stopped the bot's loop, the longest): a collection stops the loop,
so its pauses are the slowest clicks.

A JSON line with every figure ends the output.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import json
import logging
import os
import pstats
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.pg_server import ServerCpu, check_database, fresh_database, local_server  # noqa: E402
from bench.standin import DISCORD_EPOCH_MS, LATE, Guild, Interaction, Json, StandIn, User, walk  # noqa: E402

PERIOD = 2.0  # seconds between two clicks of one table
KNEE_STEPS = (50, 100, 200, 300, 400, 600)
KNEE_P99 = 1.0  # seconds
READY_DELAY = 2.5  # discord.py dispatches `ready` 2 s after the last GUILD_CREATE
QUIET = 0.3  # seconds without a request: the bot has done what the clicks asked
TOKEN = "bench.stand-in.token"  # the stand-in accepts any token
CLOCK_TICK = os.sysconf("SC_CLK_TCK")
KEEP_LOGS: Path | None = None  # --logs DIR: every run's bot output kept there
PROFILE = False  # --profile: the bot's CPU over the window split by where its code lives
METRICS = False  # --metrics: each Sushi Bar run once more with its figures on (HTTP_PORT), for their cost
SCRAPE_EVERY = 5.0  # seconds between two scrapes of /metrics in a "metrics" run
COMPUTERS = "none"  # --computers half: computer players (hard) at half of every Sushi Bar table's seats
LEVEL = "hard"  # the computers' level


# A game as the bench plays it: its id, slash command group, title and number of players.
class GameSpec(NamedTuple):
    id: str
    group: str
    title: str
    players: int


GAMES = {
    "sushigo": GameSpec("sushigo", "sushigo", "Sushi Go!", 2),
    "rockthebock": GameSpec("rockthebock", "bock", "Rock the Bock", 3),
    "sushizock": GameSpec("sushizock", "sushizock", "Sushizock", 3),
}
BOTH = ("sushigo", "rockthebock")  # --game both
NAMES = ("alice", "bob", "carol", "dave")


def seating(game: GameSpec, kind: str) -> tuple[int, int]:
    """(players, computers) at a table of `game`: with `--computers half` at a Sushi Bar table, its
    seats rounded up to an even count, half of them computers (the no-op seats the players alone)."""
    if COMPUTERS == "none":
        return game.players, 0
    half = (game.players + 1) // 2
    return half, 0 if kind == "no-op" else half


# ---------------------------------------------------------------- the bot's process


def bot_main(
    kind: str,
    port: int,
    database: str,
    profile: str | None,
    http_port: int | None = None,
    shard: tuple[int, int] | None = None,
    decisions: str | None = None,
) -> None:
    """The subprocess: an unmodified discord.py client, pointed at the stand-in. `database` is an
    SQLite file or a PostgreSQL URL; `shard` (index, count): this process runs that one shard of a
    sharded bot. With `profile`, SIGUSR1 starts a cProfile of its loop's thread, SIGUSR2 stops it,
    and it is written there at exit. With `decisions`, every computer decision is timed and the
    list written there (JSON) at exit."""
    import discord
    import discord.gateway
    import discord.http
    import yarl
    from discord.ext import commands

    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False  # no voice here (as bot.py)

    class NoOp(commands.Bot):
        """Answers every click with a deferred update and every slash command with one line."""

        def __init__(self) -> None:
            super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

            @self.tree.command(name="noop", description="one line")
            async def noop(interaction: discord.Interaction) -> None:
                await interaction.response.send_message("ok")

        async def on_interaction(self, interaction: discord.Interaction) -> None:
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()

    bot: commands.Bot
    if kind == "no-op":
        bot = NoOp()
    else:
        from bot import Settings, create_bot, tune_collector
        from storage.backend import is_postgres_url

        # sync=True: the stand-in learns the commands (and their ids) as Discord has them after a sync.
        # "metrics": the same bot with its figures on and served (HTTP_PORT), as bot.py serves them.
        where = {"database_url": database} if is_postgres_url(database) else {"database_path": database}
        shards = {"shard_count": shard[1], "shard_ids": (shard[0],)} if shard is not None else {}
        settings = Settings(token=TOKEN, turn_timeout=3600.0, http_port=http_port, **where, **shards)
        bot = create_bot(settings, sync=True)
        tune_collector(bot)  # as bot.py serves
    timed: dict[str, list[Any]] = {"decisions": [], "threads": [], "gc": []}
    if decisions and kind != "no-op":
        time_decisions(timed)
    if decisions:
        time_collections(timed["gc"])

    profiler = cProfile.Profile()

    async def serve() -> None:
        if profile:
            asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, profiler.enable)
            asyncio.get_running_loop().add_signal_handler(signal.SIGUSR2, profiler.disable)
        async with bot:
            metrics = getattr(bot, "metrics", None)
            if metrics is None or http_port is None:
                await bot.start(TOKEN)
                return
            from cogs.kit.health import HealthServer

            await bot.login(TOKEN)  # its setup_hook opens the database, which /healthz asks
            await HealthServer(bot, bot.database, metrics, "127.0.0.1", http_port).start()  # type: ignore[attr-defined]
            await bot.connect()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve())
    if profile:
        profiler.dump_stats(profile)
    if decisions:
        Path(decisions).write_text(json.dumps(timed))


def time_decisions(timed: dict[str, list[Any]]) -> None:
    """In this bench's bot process only: wrap the table machinery's `decide` and `think` (looked up
    at each call) and `asyncio.to_thread` so that every computer decision adds (its start as
    time.time(), seconds queued for the computers' process, seconds in it, its CPU seconds there,
    level) to `timed["decisions"]`, and every other function sent to a thread (a board's picture)
    adds (time.time(), its name, seconds queued) to `timed["threads"]`. A hard decision runs in the
    computers' process (`cogs.tables.thinking`); easy and normal decide on the loop."""
    from cogs.tables import deadlines, thinking
    from rules.computer.brain import level_named
    from rules.registry import REGISTERED

    decide, to_thread = deadlines.decide, asyncio.to_thread

    def timed_decide(game: Any, state: Any, seat: int, level: str, seed: int, seen: int | None) -> Any:
        began, wall, cpu = time.time(), time.perf_counter(), time.thread_time()
        try:
            return decide(game, state, seat, level, seed, seen)
        finally:
            spent = (time.perf_counter() - wall, time.thread_time() - cpu)
            timed["decisions"].append((began, 0.0, *spent, level))

    async def timed_think(game: Any, state: Any, seat: int, level: str, seed: int, seen: int | None) -> Any:
        began, queued = time.time(), time.perf_counter()
        action, inside, cpu = await asyncio.get_running_loop().run_in_executor(
            thinking._thinking(),
            timed_choose_in,
            REGISTERED[game.id].package,
            state,
            seat,
            level_named(level),
            seed,
            seen,
        )
        timed["decisions"].append((began, time.perf_counter() - queued - inside, inside, cpu, level))
        return action

    async def timed_to_thread(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        queued = time.perf_counter()

        def started(*args: Any, **kwargs: Any) -> Any:
            name = getattr(func, "__name__", "?")
            timed["threads"].append((time.time(), name, time.perf_counter() - queued))
            return func(*args, **kwargs)

        return await to_thread(started, *args, **kwargs)

    deadlines.decide = timed_decide
    deadlines.think = timed_think
    asyncio.to_thread = timed_to_thread


def time_collections(collections: list[Any]) -> None:
    """Every run of Python's cycle collector in this process adds (its start as time.time(), the
    generation, seconds it stopped the process): a collection stops the event loop."""
    began: list[float] = [0.0]

    def timed(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            collections.append((time.time(), info["generation"], time.perf_counter() - began[0]))

    gc.callbacks.append(timed)


def timed_choose_in(*args: Any) -> tuple[Any, float, float]:
    """In the computers' process: `choose_in`, with its wall and CPU seconds there."""
    from rules.computer.play import choose_in

    wall, cpu = time.perf_counter(), time.process_time()
    action = choose_in(*args)
    return action, time.perf_counter() - wall, time.process_time() - cpu


def process_tree(pid: int) -> list[int]:
    """A process and its descendants (the computers' process), by /proc's children lists."""
    found, index = [pid], 0
    while index < len(found):
        for task in Path(f"/proc/{found[index]}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                found += [int(child) for child in task.read_text().split()]
        index += 1
    return found


def cpu_seconds(pid: int) -> float:
    """A process's user + system CPU time, all its threads (the database's included) and its
    children's (the computers' process)."""
    total = 0.0
    for member in process_tree(pid):
        with contextlib.suppress(OSError):  # a child that ended meanwhile
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()  # from field 3
            total += (int(fields[11]) + int(fields[12])) / CLOCK_TICK
    return total


async def prepare_database(path: str, guild_ids: list[int]) -> None:
    """Every guild plays in the channel (no threads) and without turn pings (`path`: an SQLite file
    or the run's PostgreSQL database, the one the bot is given)."""
    from cogs.tables.pings import PINGS_KEY
    from cogs.tables.threads import WHERE_KEY
    from storage.backend import connect
    from storage.settings import GuildSettings

    database = await connect(path)
    try:
        settings = GuildSettings(database)
        for guild_id in guild_ids:
            await settings.set(guild_id, WHERE_KEY, "channel")
            await settings.set(guild_id, PINGS_KEY, False)
    finally:
        await database.close()


# ---------------------------------------------------------------- reading messages


def action(message: Json | None, kind: int) -> Json | None:
    """The message's first enabled table control of `kind` (2 button, 3 select) carrying an action
    (custom_id `sb:` for buttons, `sbs:` for selects, then `<game>:<channel>:<stamp>:a…`)."""
    for item in walk(message["components"] if message is not None else []):
        if item.get("type") == kind and not item.get("disabled"):
            parts = str(item.get("custom_id", "")).split(":", 4)
            if len(parts) == 5 and parts[0] in ("sb", "sbs") and parts[4].startswith("a"):
                return item
    return None


def named(message: Json) -> int | None:
    """The first user the message mentions (a board names whose turn it is)."""
    found = re.search(r"<@!?(\d+)>", message["content"] + json.dumps(message["components"]))  # texts as sent
    return int(found.group(1)) if found else None


# ---------------------------------------------------------------- tables

Clicker = Callable[[int], Awaitable[Interaction | None]]


@dataclass
class Table:
    stand_in: StandIn
    game: GameSpec
    guild: Guild
    computers: int = 0  # computer seats besides the players (`--computers`)
    checks: Counter[str] = field(default_factory=Counter)
    seen: dict[int, Any] = field(default_factory=dict)  # seat -> what it last clicked on (the checks)
    last: dict[int, tuple[Any, Interaction]] = field(default_factory=dict)  # seat -> its last click

    @property
    def players(self) -> list[User]:
        return self.guild.members

    def owes(self, seat: int, message: Json) -> bool:
        """Whether the seat clicks `message`: not the version it clicked last (a player waits for the
        answer to show), unless that click failed (unanswered after 3 s: the player tries again)."""
        last = self.last.get(seat)
        if last is None or last[0] != (message["id"], message["edited_timestamp"]):
            return True
        return last[1].acked is None and time.perf_counter() - last[1].sent > LATE

    async def click(self, seat: int, message: Json, custom_id: str, values: list[str] | None) -> Interaction:
        version = (message["id"], message["edited_timestamp"])
        record = await self.stand_in.click(self.players[seat], message, custom_id, values=values)
        self.last[seat] = (version, record)
        return record


async def until(ready: Callable[[], bool], what: str, within: float = 30.0) -> None:
    deadline = time.perf_counter() + within
    while not ready():
        if time.perf_counter() > deadline:
            raise RuntimeError(f"{what}: not within {within:g} s")
        await asyncio.sleep(0.05)


async def seat_sushi_bar(table: Table) -> Clicker:
    """Open, join and start the table by slash commands; the game's clicker."""
    stand_in, guild, group = table.stand_in, table.guild, table.game.group
    host = table.players[0]
    computers = {"computers": table.computers, "level": LEVEL} if table.computers else {}
    await (await stand_in.slash(guild, host, group, "new", **computers)).wait_answered(f"/{group} new")
    for player in table.players[1:]:  # each answered (seating is judged by what follows)
        await (await stand_in.slash(guild, player, group, "join")).wait_answered(f"/{group} join")
    await (await stand_in.slash(guild, host, group, "start")).wait_answered(f"/{group} start")
    if table.game.id == "sushigo":
        await until(
            lambda: all(action(stand_in.latest(user.dm), 3) is not None for user in table.players),
            "hands by DM",
        )
        return lambda number: pick(table, number)
    await until(lambda: action(stand_in.latest(guild.channel), 2) is not None, "the first board")
    if table.game.id == "sushizock":
        return lambda number: press(table, number, lambda board: action(board, 2) or toggle(board))
    return lambda number: press(table, number)


async def pick(table: Table, number: int) -> Interaction | None:
    count = len(table.players)
    for offset in range(count):
        seat = (number + offset) % count
        message = table.stand_in.latest(table.players[seat].dm)
        menu = action(message, 3)
        if message is None or menu is None or not table.owes(seat, message):
            continue
        options = tuple(option["value"] for option in menu["options"])
        if seat in table.seen:  # a seat's hand after its previous pick: the reveal passed the hands on
            table.checks["hand changed" if table.seen[seat] != options else "hand same"] += 1
        table.seen[seat] = options
        return await table.click(seat, message, menu["custom_id"], [options[0]])
    return None


def toggle(message: Json | None) -> Json | None:
    """Sushizock's first enabled die toggle (`u:keep.<mask>`): marks a die to set aside."""
    for item in walk(message["components"] if message is not None else []):
        if item.get("type") == 2 and not item.get("disabled"):
            parts = str(item.get("custom_id", "")).split(":", 4)
            if len(parts) == 5 and parts[0] == "sb" and parts[4].startswith("u:keep."):
                return item
    return None


async def press(
    table: Table, number: int, control: Callable[[Json | None], Json | None] = lambda board: action(board, 2)
) -> Interaction | None:
    """The player the board names clicks its `control` (the first enabled action button)."""
    board = table.stand_in.latest(table.guild.channel)
    button = control(board)
    if board is None or button is None:
        return None
    seats = {user.id: seat for seat, user in enumerate(table.players)}
    who = named(board)
    if who is None and table.computers:
        return None  # a computer's turn: the board names it without a mention
    seat = seats.get(who or 0, number % len(table.players))
    if not table.owes(seat, board):
        return None
    if 0 in table.seen:
        table.checks["turn passed" if table.seen[0] != seat else "same player"] += 1
    table.seen[0] = seat
    return await table.click(seat, board, button["custom_id"], None)


# The no-op's message: a select (Sushi Go!'s pattern) and a button (Rock the Bock's).
NOOP_COMPONENTS: list[Json] = (
    json.loads("""[{"type": 1, "components": [{"type": 3, "custom_id": "noop:select",
 "options": [{"label": "a", "value": "a"}, {"label": "b", "value": "b"}]}]},
 {"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "noop:button", "label": "click"}]}]""")
)


async def seat_noop(table: Table) -> Clicker:
    """A `/noop` each, then a message to click where the game's clicks would be (posted by the
    stand-in in the bot's name: the no-op's click needs only a message object)."""
    stand_in = table.stand_in
    for player in table.players:
        await (await stand_in.slash(table.guild, player, "noop")).wait_answered("/noop")
    body = {"content": "click me", "components": NOOP_COMPONENTS}
    if table.game.id == "sushigo":
        messages = [stand_in.new_message(stand_in.dm_channel(user), body, []) for user in table.players]
    else:
        messages = [stand_in.new_message(table.guild.channel, body, [])] * len(table.players)

    async def click(number: int) -> Interaction:
        seat = number % len(table.players)
        user, message = table.players[seat], messages[seat]
        if table.game.id == "sushigo":
            return await stand_in.click(user, message, "noop:select", values=["a"])
        return await stand_in.click(user, message, "noop:button")

    return click


# ---------------------------------------------------------------- one run


class ShardStandIn(StandIn):
    """The stand-in of one process of several (`--processes`): its guilds are in its shard by
    Discord's rule (`(guild_id >> 22) % count`, the millisecond of the snowflake), and its
    snowflakes never meet another stand-in's (its index in the bits of the counter), as the one
    database they share needs."""

    def __init__(self, shard: int, count: int) -> None:
        self.shard, self.count = shard, count  # before StandIn's own snowflakes (its bot, its owner)
        super().__init__()

    def snowflake(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        ms -= (ms - self.shard) % self.count  # the latest millisecond of this shard
        return ms << 22 | self.shard << 18 | next(self._ids) % (1 << 18)

    async def dispatch(self, event: str, data: Json) -> None:
        if event == "READY":  # a sharded session's READY says its shard (discord.py reads it)
            data = data | {"shard": [self.shard, self.count]}
        await super().dispatch(event, data)


@dataclass
class Server:
    """The PostgreSQL server of a `--database postgres` run (pgserver): its URL and its CPU."""

    url: str
    cpu: ServerCpu
    databases: int = 0


SERVER: Server | None = None  # --database postgres
PROCESSES = 1  # --processes: bot processes (shards) sharing the tables and the database
MAX_PROCESSES = 16  # a stand-in's index takes 4 bits of a snowflake's counter (ShardStandIn)


@contextlib.asynccontextmanager
async def database_for(kind: str, folder: Path) -> AsyncIterator[str]:
    """The database of a run: a fresh one on the PostgreSQL server (Sushi Bar with `--database
    postgres`), else an SQLite file in the run's folder (the no-op opens none)."""
    if SERVER is None or kind == "no-op":
        yield str(folder / "bench.db")
        return
    SERVER.databases += 1
    async with fresh_database(SERVER.url, f"bench_{os.getpid()}_{SERVER.databases}") as url:
        yield url


def label(kind: str) -> str:
    return kind + (f"×{PROCESSES}" if PROCESSES > 1 else "")


async def run(kind: str, game: GameSpec, tables: int, seconds: float) -> dict[str, Any]:
    """Start the stand-ins and the bot's processes (one of each, or `PROCESSES`: table i in
    process i mod P), seat `tables` tables, click for `seconds`."""
    if tables < PROCESSES:
        raise SystemExit(f"{tables} tables cannot be split over {PROCESSES} processes")
    stand_ins: list[StandIn] = (
        [ShardStandIn(i, PROCESSES) for i in range(PROCESSES)] if PROCESSES > 1 else [StandIn()]
    )
    ports = [await stand_in.start() for stand_in in stand_ins]
    world = []
    players, computers = seating(game, kind)
    for index in range(tables):
        stand_in = stand_ins[index % len(stand_ins)]
        guild = stand_in.add_guild(f"bench {index}", list(NAMES[:players]))
        world.append(Table(stand_in, game, guild, computers))
    with tempfile.TemporaryDirectory(prefix="standin-") as folder:
        async with database_for(kind, Path(folder)) as database:
            if kind != "no-op":
                await prepare_database(database, [table.guild.id for table in world])
            log_paths = [Path(folder) / f"bot{index}.log" for index in range(len(stand_ins))]
            http_port = free_port() if kind == "metrics" else None
            processes = [
                start_bot(
                    kind, port, database, log_path, http_port, (index, PROCESSES) if PROCESSES > 1 else None
                )
                for index, (port, log_path) in enumerate(zip(ports, log_paths, strict=True))
            ]
            try:
                for stand_in, process, log_path in zip(stand_ins, processes, log_paths, strict=True):
                    await wait_connected(stand_in, process, log_path)
                await asyncio.sleep(READY_DELAY)
                began = time.perf_counter()
                clickers = await seat_all(seat_noop if kind == "no-op" else seat_sushi_bar, world)
                took = f"{time.perf_counter() - began:.1f} s"
                print(
                    f"  ({label(kind)}, {game.id}: {tables} tables seated in {took})",
                    file=sys.stderr,
                    flush=True,
                )
                await until(lambda: quiet_for(stand_ins) > 1.0, "quiet after seating", 60)
                scraping = asyncio.ensure_future(scrape(http_port)) if http_port is not None else None
                try:
                    pids = [process.pid for process in processes]
                    row = await click_window(stand_ins, pids, clickers, tables, seconds)
                finally:
                    if scraping is not None:
                        scraping.cancel()
                        await asyncio.gather(scraping, return_exceptions=True)
            finally:
                await asyncio.gather(*(stop(process) for process in processes))
                await asyncio.gather(*(stand_in.stop() for stand_in in stand_ins))
            if SERVER is not None and kind != "no-op":
                row["database"] = await check_database(database, tables)
        window = row.pop("window_at")
        if computers:
            row["decisions"] = decisions_in(log_paths, window, row["clicks"])
        row["gc"] = collections_in(log_paths, window, row["clicks"])
        profile = log_paths[0].with_suffix(".prof")
        if PROFILE and profile.exists():
            row["cpu_split"] = cpu_split(pstats.Stats(str(profile)))
        row |= {"bot": label(kind), "game": game.id, "tables": tables, "load_average": os.getloadavg()[0]}
        row["checks"] = dict(sum((table.checks for table in world), Counter()))
        lines = [
            f"[{index}] {line}" if len(log_paths) > 1 else line
            for index, log_path in enumerate(log_paths)
            for line in log_lines(log_path)
        ]
        if KEEP_LOGS is not None:
            KEEP_LOGS.mkdir(parents=True, exist_ok=True)
            kept = KEEP_LOGS / f"{label(kind).replace(' ', '_')}-{game.id}-{tables}.log"
            kept.write_text("\n".join(lines))
            if profile.exists():  # for `python -m pstats`
                shutil.copy(profile, kept.with_suffix(".prof"))
        row["bot_log"] = {"lines": len(lines), "first": lines[:12]}
        row["unknown_routes"] = sorted(set().union(*(stand_in.unknown for stand_in in stand_ins)))
    return row


def quiet_for(stand_ins: list[StandIn]) -> float:
    """Seconds since the last request any bot made."""
    return time.perf_counter() - max(stand_in.last_request for stand_in in stand_ins)


async def seat_all(seat: Callable[[Table], Awaitable[Clicker]], world: list[Table]) -> list[Clicker]:
    gate = asyncio.Semaphore(16)  # tables seated at once

    async def seated(table: Table) -> Clicker:
        async with gate:
            return await seat(table)

    return await asyncio.gather(*(seated(table) for table in world))


# Where a function's own time goes, by where its code lives (the first match wins).
ORIGINS = (
    ("Sushi Bar", (f"{ROOT}/cogs/", f"{ROOT}/rules/", f"{ROOT}/storage/", f"{ROOT}/bot.py")),
    ("discord.py", ("/discord/",)),
    ("aiohttp", ("/aiohttp/", "/yarl/", "/multidict/")),
    ("json", ("json",)),
    ("sqlite", ("/aiosqlite/", "sqlite3")),
    ("asyncio", ("/asyncio/", "_asyncio")),
)


def cpu_split(stats: pstats.Stats) -> dict[str, float]:
    """Share of the profiled time (functions' own) by origin; the rest is "other" (the standard library)."""
    totals: Counter[str] = Counter()
    for (filename, _, name), row in stats.stats.items():  # type: ignore[attr-defined]
        where = f"{filename}:{name}"
        if "select.epoll" in where:
            continue  # waiting, not working
        totals[next((label for label, marks in ORIGINS if any(m in where for m in marks)), "other")] += row[2]
    whole = sum(totals.values()) or 1.0
    return {origin: round(spent / whole, 3) for origin, spent in totals.most_common()}


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def scrape(http_port: int) -> None:
    """GET /metrics every SCRAPE_EVERY s (until cancelled), as Prometheus does."""
    import aiohttp

    async with aiohttp.ClientSession() as session:
        while True:
            await asyncio.sleep(SCRAPE_EVERY)
            async with session.get(f"http://127.0.0.1:{http_port}/metrics") as answer:
                await answer.read()


def start_bot(
    kind: str,
    port: int,
    database: str,
    log_path: Path,
    http_port: int | None = None,
    shard: tuple[int, int] | None = None,
) -> subprocess.Popen[bytes]:
    """This file with `--bot`: the bot's own process, its output in `log_path`; `shard` (index,
    count) for one of several Sushi Bar processes."""
    with open(log_path, "w") as log_file:
        command = [sys.executable, __file__, "--bot", kind, "--port", str(port), "--database-at", database]
        command += ["--decisions-to", str(log_path.with_suffix(".decisions.json"))]
        if http_port is not None:
            command += ["--http-port", str(http_port)]
        if shard is not None and kind != "no-op":
            command += ["--shard", f"{shard[0]}/{shard[1]}"]
        if PROFILE:
            command += ["--profile-to", str(log_path.with_suffix(".prof"))]
        return subprocess.Popen(command, stdout=log_file, stderr=log_file, cwd=ROOT)


def log_lines(log_path: Path) -> list[str]:
    return [line for line in log_path.read_text().splitlines() if line.strip()]


async def wait_connected(stand_in: StandIn, process: subprocess.Popen[bytes], log_path: Path) -> None:
    connecting = asyncio.ensure_future(stand_in.connected())
    while not connecting.done():
        if process.poll() is not None:
            connecting.cancel()
            tail = "\n".join(log_lines(log_path)[-15:])
            raise RuntimeError(f"the bot's process ended ({process.returncode}) before it connected:\n{tail}")
        await asyncio.sleep(0.05)


async def stop(process: subprocess.Popen[bytes]) -> None:
    """Ctrl+C for the bot (it closes its database), then a kill if it lingers."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    try:
        await asyncio.to_thread(process.wait, 20)
    except subprocess.TimeoutExpired:
        process.kill()
        await asyncio.to_thread(process.wait)


async def click_window(
    stand_ins: list[StandIn], pids: list[int], clickers: list[Clicker], tables: int, seconds: float
) -> dict[str, Any]:
    """Every table clicking for `seconds`; the bots' processes are `pids` (their CPU summed), the
    PostgreSQL server's CPU (`SERVER`) is measured over the same window."""
    records: list[Interaction] = []
    skipped = 0
    chooser = random.Random(tables)

    async def pace(clicker: Clicker, phase: float, start: float) -> None:
        nonlocal skipped
        number = 0
        await asyncio.sleep(phase)
        while time.perf_counter() - start < seconds:
            record = await clicker(number)
            if record is None:
                skipped += 1
            else:
                records.append(record)
            number += 1
            await asyncio.sleep(start + phase + number * PERIOD - time.perf_counter())

    for stand_in in stand_ins:
        stand_in.reset_counts()
    if PROFILE:
        os.kill(pids[0], signal.SIGUSR1)
    server_cpu = SERVER.cpu.total() if SERVER is not None else 0.0
    bot_cpu, own_cpu, start = sum(map(cpu_seconds, pids)), time.process_time(), time.perf_counter()
    began = time.time()  # the bot's process stamps its decisions by this clock
    await asyncio.gather(*(pace(clicker, chooser.uniform(0, PERIOD), start) for clicker in clickers))
    deadline = start + seconds + 10.0
    while time.perf_counter() < deadline:
        now = time.perf_counter()
        waiting = any(record.acked is None and now - record.sent < LATE for record in records)
        if not waiting and quiet_for(stand_ins) > QUIET:
            break
        await asyncio.sleep(0.05)
    window = time.perf_counter() - start
    bot_cpu, own_cpu = sum(map(cpu_seconds, pids)) - bot_cpu, time.process_time() - own_cpu
    server_cpu = SERVER.cpu.total() - server_cpu if SERVER is not None else float("nan")
    if PROFILE:
        os.kill(pids[0], signal.SIGUSR2)
    counts = sum((stand_in.counts for stand_in in stand_ins), Counter[str]())
    routes = sum((stand_in.routes for stand_in in stand_ins), Counter[str]())
    delays = sorted(r.acked - r.sent if r.acked is not None else float("inf") for r in records)
    clicks, in_time = len(delays), [delay for delay in delays if delay <= LATE] or [float("nan")]
    per_click = (lambda value: round(value / clicks, 3)) if clicks else (lambda value: float("nan"))
    return {
        "clicks": clicks,
        "skipped": skipped,
        "unanswered": sum(1 for delay in delays if delay > LATE),
        "late_answers": sum(1 for record in records if record.late),
        "refused": sum(1 for record in records if record.refused),
        "answers": dict(Counter(str(record.answer) for record in records)),
        "p50_ms": round(statistics.median(in_time) * 1e3, 2),
        "p99_ms": round(delays[min(clicks - 1, int(clicks * 0.99))] * 1e3, 2) if clicks else float("nan"),
        "max_ms": round(delays[-1] * 1e3, 2) if clicks else float("nan"),
        "calls_per_click": per_click(sum(counts.values())),
        "calls": {kind: per_click(count) for kind, count in counts.most_common()},
        "routes": {route: per_click(count) for route, count in routes.most_common(8)},
        "cpu_ms_per_click": per_click(bot_cpu * 1e3),
        "server_cpu_ms_per_click": per_click(server_cpu * 1e3),
        "standin_cpu_ms_per_click": per_click(own_cpu * 1e3),
        "window_s": round(window, 2),
        "window_at": (began, time.time()),
    }


def spread(values: list[float]) -> dict[str, float]:
    """p50, p99 and max of `values` (seconds) in ms."""
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return {"p50_ms": round(statistics.median(ordered) * 1e3, 1), "p99_ms": round(p99 * 1e3, 1)} | {
        "max_ms": round(ordered[-1] * 1e3, 1)
    }


def collections_in(log_paths: list[Path], window: tuple[float, float], clicks: int) -> dict[str, Any]:
    """The cycle collector's runs in the clicking window (`time_collections`), every process's: how
    many (and of the oldest generation), the ms they stopped the loop in all and a click, the longest."""
    found: list[Any] = []
    for log_path in log_paths:
        written = log_path.with_suffix(".decisions.json")
        if written.exists():
            found += [
                entry
                for entry in json.loads(written.read_text()).get("gc", [])
                if window[0] <= entry[0] <= window[1]
            ]
    pauses = [entry[2] * 1e3 for entry in found]
    return {
        "count": len(found),
        "full": sum(1 for entry in found if entry[1] == 2),
        "ms": round(sum(pauses), 1),
        "ms_per_click": round(sum(pauses) / clicks, 3) if clicks else float("nan"),
        "longest_ms": round(max(pauses, default=0.0), 1),
    }


def decisions_in(log_paths: list[Path], window: tuple[float, float], clicks: int) -> dict[str, Any]:
    """The computers' decisions begun in the clicking window, as the bot's processes timed them
    (`time_decisions`): their count; `took` (queued + thinking: what the table waits), `queued` and
    `in thread` (thinking), each p50/p99/max ms; the thinking CPU ms each and per click; and
    the other work sent to threads meanwhile (pictures): how long it queued."""
    timed: dict[str, list[Any]] = {"decisions": [], "threads": [], "gc": []}
    for log_path in log_paths:
        written = log_path.with_suffix(".decisions.json")
        if written.exists():  # a process killed at its end writes none
            for key, entries in json.loads(written.read_text()).items():
                timed[key] += entries
    inside = [entry for entry in timed["decisions"] if window[0] <= entry[0] <= window[1]]
    found: dict[str, Any] = {"count": len(inside), "all_run": len(timed["decisions"])}  # all_run: seating too
    if inside:
        cpus = [entry[3] for entry in inside]
        found |= {
            "levels": dict(Counter(entry[4] for entry in inside)),
            "took": spread([entry[1] + entry[2] for entry in inside]),
            "queued": spread([entry[1] for entry in inside]),
            "in_thread": spread([entry[2] for entry in inside]),
            "cpu_mean_ms": round(statistics.fmean(cpus) * 1e3, 2),
            "cpu_ms_per_click": round(sum(cpus) * 1e3 / clicks, 3) if clicks else float("nan"),
        }
    others = [entry for entry in timed["threads"] if window[0] <= entry[0] <= window[1]]
    if others:
        found["other_threads"] = {"count": len(others), "names": dict(Counter(entry[1] for entry in others))}
        found["other_threads"]["queued"] = spread([entry[2] for entry in others])
    return found


# ---------------------------------------------------------------- the report

HEADS = (
    ("bot", 11), ("game", 11), ("tables", 6), ("clk/s", 5), ("clicks", 6), ("p50", 7), ("p99", 7),
    ("max", 7), ("unansw", 6), ("refused", 7), ("calls", 5), ("CPU", 6), ("p99×", 6), ("CPU×", 5),
)  # fmt: skip
PG_HEAD = ("pg CPU", 6)  # with --database postgres: the server's CPU ms per click, not in CPU nor CPU×


def heads() -> tuple[tuple[str, int], ...]:
    return (*HEADS, PG_HEAD) if SERVER is not None else HEADS


def show(row: dict[str, Any], floor: dict[str, Any] | None) -> None:
    ratio = ("", "")
    server = (f"{row['server_cpu_ms_per_click']:.2f}",) if "database" in row else ("",)
    if floor is not None and floor["p99_ms"] and floor["cpu_ms_per_click"]:
        row["p99_ratio"] = round(row["p99_ms"] / floor["p99_ms"], 1)
        row["cpu_ratio"] = round(row["cpu_ms_per_click"] / floor["cpu_ms_per_click"], 1)
        ratio = (f"{row['p99_ratio']:.1f}", f"{row['cpu_ratio']:.1f}")
    values = (
        row["bot"], row["game"], row["tables"], f"{row['tables'] / PERIOD:g}", row["clicks"],
        f"{row['p50_ms']:.1f}", f"{row['p99_ms']:.1f}", f"{row['max_ms']:.1f}", row["unanswered"],
        row["refused"], f"{row['calls_per_click']:.2f}", f"{row['cpu_ms_per_click']:.2f}", *ratio,
        *(server if SERVER is not None else ()),
    )  # fmt: skip
    cells = [
        f"{value:<{width}}" if i < 2 else f"{value:>{width}}"
        for i, (value, (_, width)) in enumerate(zip(values, heads(), strict=True))
    ]
    print(" ".join(cells), flush=True)
    indent = " " * 10
    split = ", ".join(f"{kind} {value:.2f}" for kind, value in row["calls"].items())
    own, load = row["standin_cpu_ms_per_click"], row["load_average"]
    print(f"{indent}calls/click: {split}; stand-in CPU {own:.2f} ms/click; machine load {load:.1f}")
    if "database" in row:
        found = row["database"]
        print(
            f"{indent}PostgreSQL: server CPU {row['server_cpu_ms_per_click']:.2f} ms/click; the database "
            f"holds {found['tables']} tables in {found['channels']} channels of {found['guilds']} guilds, "
            f"{found['moves']} moves"
        )
    extras = [f"answers by type {row['answers']}", f"skipped {row['skipped']}"]
    if row["checks"]:
        extras.append(", ".join(f"{key} {value}" for key, value in sorted(row["checks"].items())))
    if row["late_answers"]:
        extras.append(f"{row['late_answers']} answers came after 3 s (refused)")
    print(f"{indent}{'; '.join(extras)}")
    if row["bot_log"]["lines"]:
        print(f"{indent}the bot logged {row['bot_log']['lines']} lines; first:")
        print("\n".join(f"{indent}  {line[:160]}" for line in row["bot_log"]["first"][:6]))
    collected = row["gc"]
    print(
        f"{indent}cycle collector: {collected['count']} runs ({collected['full']} full), "
        f"{collected['ms']:.0f} ms in all ({collected['ms_per_click']:.3f} a click), "
        f"longest {collected['longest_ms']:.1f} ms"
    )
    if "decisions" in row:
        print(f"{indent}{decisions_line(row['decisions'])}")
    if "cpu_split" in row:
        print(f"{indent}CPU by origin: " + ", ".join(f"{k} {v:.0%}" for k, v in row["cpu_split"].items()))
    if row["unknown_routes"]:
        print(f"{indent}unknown routes: {', '.join(row['unknown_routes'])}")
    sys.stdout.flush()


async def main(counts: list[int], games: list[GameSpec], seconds: float, knee: bool) -> None:
    where = "SQLite" if SERVER is None else "PostgreSQL (pgserver, a fresh database per Sushi Bar run)"
    split = f"; {PROCESSES} bot processes (shards), each half the tables" if PROCESSES > 1 else ""
    for game in games if COMPUTERS != "none" else ():
        players, computers = seating(game, "sushi bar")
        split += f"; {game.title}: {players} player{'s' * (players > 1)} + {computers} computer"
        split += f"{'s' * (computers > 1)} ({LEVEL}) a table"
    print(
        f"{seconds:g} s of clicking, one click per table every {PERIOD:g} s; {where}{split}; ack in ms; "
        "calls = REST calls per click; CPU = the bot processes' ms per click; ×: Sushi Bar ÷ no-op"
        + ("; pg CPU = the PostgreSQL server's ms per click (not in CPU×)" if SERVER is not None else "")
    )
    print(" ".join(f"{head:<{w}}" if i < 2 else f"{head:>{w}}" for i, (head, w) in enumerate(heads())))
    rows: list[dict[str, Any]] = []
    knees: dict[str, Any] = {}
    for game in games:
        passed: list[int] = []
        for tables in counts:
            floor = None
            if not knee:
                floor = await run("no-op", game, tables, seconds)
                show(floor, None)
                rows.append(floor)
            try:
                ours = await run("sushi bar", game, tables, seconds)
            except RuntimeError as error:  # e.g. not even seated: a seat's command went unanswered
                print(f"{label('sushi bar'):<11} {game.id:<11} {tables:>6}  failed: {error}", flush=True)
                failed = {"bot": label("sushi bar"), "game": game.id, "tables": tables, "error": str(error)}
                rows.append(failed)
                break  # more tables would fail too
            show(ours, floor)
            rows.append(ours)
            if METRICS:
                watched = await run("metrics", game, tables, seconds)
                show(watched, floor)
                rows.append(watched)
                print(metrics_cost(ours, watched), flush=True)
            if knee and (ours["unanswered"] or not ours["p99_ms"] < KNEE_P99 * 1e3):
                break  # the first step past the knee
            passed.append(tables)
        if knee:
            knees[game.id] = knee_line(game, counts, passed, rows)
            print(knees[game.id]["text"], flush=True)
    report = {"bench": "load_process", "seconds": seconds, "period": PERIOD, "rows": rows, "knee": knees}
    report |= {"database": "sqlite" if SERVER is None else "postgres", "processes": PROCESSES}
    report |= {"computers": COMPUTERS}
    print(json.dumps(report))


def decisions_line(found: Json) -> str:
    if not found["count"]:
        return f"computers: no decision began in the window ({found['all_run']} in the run)"

    def ms(figures: Json) -> str:
        return f"{figures['p50_ms']:.1f} / {figures['p99_ms']:.1f} / {figures['max_ms']:.1f}"

    line = (
        f"computers ({LEVEL}): {found['count']} decisions in the window, ms p50 / p99 / max: took "
        f"{ms(found['took'])} (queued {ms(found['queued'])}, thinking {ms(found['in_thread'])}); "
        f"thinking CPU {found['cpu_mean_ms']:.1f} ms each, {found['cpu_ms_per_click']:.2f} ms a click"
    )
    if "other_threads" in found:
        others = found["other_threads"]
        line += f"; other thread work ({', '.join(others['names'])}) queued {ms(others['queued'])}"
    return line


def metrics_cost(off: Json, on: Json) -> str:
    """The CPU per click that the figures cost: the "metrics" run against the plain one."""
    cost = on["cpu_ms_per_click"] / off["cpu_ms_per_click"] - 1 if off["cpu_ms_per_click"] else float("nan")
    on["metrics_cpu_cost"] = round(cost, 4)
    return (
        f"{' ' * 10}metrics on: CPU {on['cpu_ms_per_click']:.3f} ms/click vs {off['cpu_ms_per_click']:.3f} "
        f"off ({cost:+.1%}); p99 {on['p99_ms']:.1f} vs {off['p99_ms']:.1f} ms"
    )


def knee_line(game: GameSpec, counts: list[int], passed: list[int], rows: list[Json]) -> Json:
    if not passed:
        return {"text": f"knee ({game.title}): below {counts[0] / PERIOD:g} clicks/s", "clicks_per_s": None}
    best = passed[-1]
    ours = next(row for row in rows if row["game"] == game.id and row["tables"] == best)
    beyond = (
        "every step held" if best == counts[-1] else f"{counts[len(passed)] / PERIOD:g} clicks/s did not hold"
    )
    text = (
        f"knee ({game.title}, every click answered and p99 < {KNEE_P99:g} s): {best / PERIOD:g} clicks/s "
        f"({best} tables), p99 {ours['p99_ms']:.0f} ms; {beyond}"
    )
    return {"text": text, "clicks_per_s": best / PERIOD, "tables": best}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="the bot in its own process against a Discord stand-in")
    parser.add_argument("tables", nargs="*", type=int, help="table counts (default 1 50 200)")
    parser.add_argument("--game", choices=(*GAMES, "both"), default="both")
    parser.add_argument("--seconds", type=float, default=20.0, help="clicking time per run")
    parser.add_argument("--knee", action="store_true", help="step N up for Sushi Bar and report the knee")
    parser.add_argument("--logs", type=Path, help="keep each run's bot output in this folder")
    parser.add_argument("--profile", action="store_true", help="split the bot's CPU by origin (slower)")
    parser.add_argument("--profile-to", help=argparse.SUPPRESS)
    parser.add_argument(
        "--metrics", action="store_true", help="also run with metrics on (HTTP_PORT): their cost"
    )
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument(
        "--processes", type=int, default=1, help="Sushi Bar processes (shards) sharing the tables (postgres)"
    )
    parser.add_argument(
        "--computers", choices=("none", "half"), default="none", help="computers (hard) at half the seats"
    )
    parser.add_argument("--bot", choices=("no-op", "sushi bar", "metrics"), help=argparse.SUPPRESS)
    parser.add_argument("--decisions-to", help=argparse.SUPPRESS)
    parser.add_argument("--http-port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--database-at", help=argparse.SUPPRESS)
    parser.add_argument("--shard", help=argparse.SUPPRESS)  # index/count
    arguments = parser.parse_args()
    if arguments.bot is not None:  # the bot's process
        index, _, count = (arguments.shard or "").partition("/")
        shard = (int(index), int(count)) if arguments.shard else None
        bot_main(
            arguments.bot,
            arguments.port,
            arguments.database_at,
            arguments.profile_to,
            arguments.http_port,
            shard,
            arguments.decisions_to,
        )
        sys.exit(0)
    if not 1 <= arguments.processes <= MAX_PROCESSES:
        parser.error(f"--processes must be from 1 to {MAX_PROCESSES}")
    if arguments.processes > 1 and arguments.database != "postgres":
        parser.error("several processes share one PostgreSQL database: --database postgres")
    if arguments.processes > 1 and (arguments.profile or arguments.metrics):
        parser.error("--profile and --metrics measure one process: use them with --processes 1")
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    KEEP_LOGS, PROFILE, METRICS = arguments.logs, arguments.profile, arguments.metrics
    PROCESSES, COMPUTERS = arguments.processes, arguments.computers
    chosen = [GAMES[game] for game in BOTH] if arguments.game == "both" else [GAMES[arguments.game]]
    counts: list[int] = arguments.tables or (list(KNEE_STEPS) if arguments.knee else [1, 50, 200])
    if arguments.database == "sqlite":
        asyncio.run(main(counts, chosen, arguments.seconds, arguments.knee))
    else:
        with local_server() as (url, pid):
            SERVER = Server(url, ServerCpu(pid))
            asyncio.run(main(counts, chosen, arguments.seconds, arguments.knee))
