"""Scale: memory, start-up and clicks of the real bot with 10,000 open tables (issue 44, item 4).

    nice -n 10 .venv/bin/python bench/scale.py [--tables N] [--samples S] [--logs DIR]
        [--without-bucket-sweep]
    N open tables (default 10000), S click pairs (default 300); `--tables 500` is a quick check.

The bot is `bot.create_bot` in a process of its own against the Discord stand-in (bench/standin.py),
as bench/load_process.py runs it (its helpers: the database's guild settings, waiting, stopping,
CPU time), with one more thing in the bot's process: it reads commands on its standard input and
answers on its standard output (`SCALE {json}`): what it holds (tables in memory, timers armed, the
per-channel entries of the machinery's parts), its resident memory after a full collection, the
deep size of what a table in memory keeps, and "evict": every table leaves memory
(`Tables.evict_idle(0)`, what the idle sweep does after `IDLE_EVICT`).

The world: N tables of the five games in turn (2-4 seats, all human), each in a text channel of its
own, 20 channels a guild, 8 members a guild seated in turn; the guilds play in the channel with
turn pings off (load_process's settings: pings would post a message per table seeded without its
ping rows). Each table is made by its engine (`game.new`, 2-12 random legal moves, never over) and
stored with `TableStore.create`, a deadline an hour ahead (as with turn time-outs; nothing fires).

Three bot processes, each with a fresh stand-in and database of the same world:

- "no tables": an empty database: the floor.
- "stored": the N tables last active two hours ago. Start-up arms a timer for every deadline and
  loads no table (`Tables.cog_load`: only tables active within `RECOVER_RECENT` are loaded).
- "recent": the same tables last active half an hour ago: start-up arms every timer and, once ready,
  loads every table and redraws its board and hands (`Tables._recover`, crash safety); measured
  until every table is in memory and the stand-in has had no request for 1 s. Then: memory with N
  tables in memory, the deep size of one, every table evicted (memory again, and what stays per
  channel), then S pairs of clicks on sampled tables, one at a time: the first click on a table
  that left memory, then a second click on it (in memory). A click is a move of a seat that owes
  one: the first control of the table's board or that seat's hand whose action the engine finds
  legal for it on the stored state ("drawn"), else the first legal action as a button of the same
  custom_id grammar, pressed on the board ("made": a step of the game's own interface comes first).

Printed: start-up per process (bot set-up seconds as bench/startup.py measures it, from process
start to set-up done, to the gateway's guilds sent, to the first slash command answered, to
discord.py's ready; timers armed, tables in memory once ready, peak RSS); the recovery of the
recent tables (seconds, REST calls by kind, bot CPU, a `/games` answered every second meanwhile);
RSS after a full collection per state (and once glibc's `malloc_trim` gave back what it can), its
difference per table from "no tables", Python's memory blocks in use, the bot's idle CPU; per click
the acknowledgement (event sent to first callback) and the bot's CPU (every thread, /proc
schedstat, from the click until no request for 0.1 s) p50/p99/max. The last line is JSON (every
click pair in it).

discord.py may log "Can't keep up, websocket is 41 s behind" once a heartbeat interval: the
stand-in acknowledges a heartbeat before discord.py's heartbeat thread notes when it sent it
(`KeepAliveHandler.run` sets `_last_send` after the send returns), so the latency is measured from
the previous beat. Nothing was behind.

`--without-bucket-sweep` measures what discord.py's rate-limit bookkeeping costs at this scale: it
keeps a bucket per route and channel (or webhook) for 5 minutes after its last use, and each new
bucket, once there are 256, scans them all for idle ones (`HTTPClient._try_clear_expired_ratelimits`):
quadratic when thousands of channels are written to within 5 minutes. The bot now runs that scan at
most once a minute (`cogs/kit/adapter.py` `throttle_ratelimit_sweep`); the flag makes it a no-op in
the bot's process (its buckets then grow until the process ends).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import gc
import json
import logging
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load_process import (  # noqa: E402
    TOKEN,
    log_lines,
    prepare_database,
    stop,
    until,
    wait_connected,
)
from bench.standin import TEXT_CHANNEL, Channel, Guild, Interaction, Json, StandIn, User, walk  # noqa: E402
from bench.startup import playing  # noqa: E402

CHANNELS_PER_GUILD = 20
MEMBERS_PER_GUILD = 8
IDLE_AGO = 7_200.0  # seconds since the "stored" tables' last move: older than RECOVER_RECENT
RECENT_AGO = 1_800.0  # the "recent" tables': within it, so start-up loads them
DEADLINE_AHEAD = 3_600.0  # every table's pending deadline, from now
QUIET_CLICK = 0.1  # seconds without a request: the bot is done with a click
QUIET_SETTLED = 1.0  # seconds without a request: the bot is done with start-up or recovery
IDLE_WINDOW = 5.0  # seconds of the bot's idle CPU measured
PROBE_EVERY = 1.0  # seconds between two `/games` while start-up loads tables
CASES = ("no tables", "stored", "recent")
BUCKET_SWEEP = True  # --without-bucket-sweep: discord.py's sweep of its rate-limit buckets off in the bot


# ---------------------------------------------------------------- the bot's process


def bot_main(port: int, database: str, sweep: bool) -> None:
    """The subprocess: the real bot, pointed at the stand-in, obeying commands on its standard input.
    Without `sweep`, discord.py never looks for idle rate-limit buckets to drop (what that costs)."""
    import discord
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    if (
        not sweep
    ):  # it scans every bucket at each new one, once there are 256 (a bucket per channel and route)
        discord.http.HTTPClient._try_clear_expired_ratelimits = lambda self: None  # type: ignore[method-assign]

    from bot import Settings, create_bot, tune_collector

    marks: dict[str, float] = {}  # perf_counter moments: CLOCK_MONOTONIC, the same clock as the parent's
    created = time.perf_counter()
    settings = Settings(token=TOKEN, database_path=database, turn_timeout=3600.0)
    bot = create_bot(settings, sync=True)  # sync: the stand-in learns the commands, as load_process
    tune_collector(bot)  # as bot.py serves
    setup_hook = bot.setup_hook

    async def timed_setup_hook() -> None:
        await setup_hook()
        marks["setup_done"] = time.perf_counter()
        marks["setup_s"] = marks["setup_done"] - created  # bench/startup.py's "set-up"

    async def on_ready() -> None:
        marks.setdefault("ready", time.perf_counter())

    bot.setup_hook = timed_setup_hook  # type: ignore[method-assign]
    bot.add_listener(on_ready, "on_ready")

    async def serve() -> None:
        async with bot:
            obeying = asyncio.ensure_future(obey(bot, marks))
            try:
                await bot.start(TOKEN)
            finally:
                obeying.cancel()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve())


async def obey(bot: Any, marks: dict[str, float]) -> None:
    """One command a line on standard input, one `SCALE {json}` line on standard output each."""
    reader = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        command = line.decode().strip()
        answer: Json = {}
        if command == "evict":
            answer["evicted"] = len(tables_of_bot(bot).evict_idle(0.0))
        if command in ("collect", "evict", "trim"):
            gc.collect()
        if command == "trim":  # glibc gives back what it can: could eviction's freed memory leave?
            answer["trimmed"] = ctypes.CDLL("libc.so.6").malloc_trim(0)
        if command == "sizes":
            answer["sizes"] = table_sizes(bot)
        answer |= holdings(bot, marks)
        sys.stdout.write("SCALE " + json.dumps(answer) + "\n")
        sys.stdout.flush()


def tables_of_bot(bot: Any) -> Any:
    from cogs.tables import tables_of

    return tables_of(bot)


def holdings(bot: Any, marks: dict[str, float]) -> Json:
    """What the process holds: memory, tables in memory, timers, and the per-channel entries of the
    machinery's parts (private attributes, read only: a table that left memory may leave some)."""
    tables = tables_of_bot(bot)
    pipeline, cache = tables.pipeline, tables.cache
    status = dict(
        line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line
    )
    kib = lambda key: int(status[key].split()[0])  # noqa: E731
    count = lambda owner, name: len(getattr(owner, name, ()))  # noqa: E731
    kept = {
        "cache._evicted": count(cache, "_evicted"),
        "cache._locks": count(cache, "_locks"),
        "publisher._channels": count(pipeline.publisher, "_channels"),
        "private._channels": count(pipeline.private, "_channels"),
        "slots._tables": count(pipeline.slots, "_tables"),
        "pinger._tables": count(pipeline.pinger, "_tables"),
        "pinger alarms": getattr(getattr(pipeline.pinger, "_alarms", None), "armed", 0),
    }
    for game_id, cog in tables.games.items():
        for name, value in vars(cog).items():
            if isinstance(value, dict) and name.startswith("_") and value:
                kept[f"{game_id}.{name}"] = len(value)
    return {
        "marks": marks,
        "ready": bot.is_ready(),
        "loaded": len(cache.loaded),
        "armed": tables.timers.armed,
        "tasks": len(asyncio.all_tasks()),
        "rss_kib": kib("VmRSS"),
        "hwm_kib": kib("VmHWM"),
        "py_blocks": sys.getallocatedblocks(),  # Python objects' memory blocks in use
        "kept": kept,
    }


def deep_size(root: object, seen: set[int]) -> int:
    """Bytes of `root` and what it holds through containers and dataclasses, each object once across
    `seen`. Other objects (locks, tasks, cogs, the game) count their own size and nothing they reach."""
    total, stack = 0, [root]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, type) or callable(item):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif is_dataclass(item):
            stack.extend(getattr(item, each.name) for each in fields(item))
            if hasattr(item, "__dict__"):
                total += sys.getsizeof(vars(item))
    return total


def table_sizes(bot: Any, per_game: int = 40) -> Json:
    """Deep size in bytes, averaged over up to `per_game` tables in memory of each game, of what the
    cache keeps of a table (`cache.Loaded`): its record (of which the stored state's JSON), its game
    state and its drawn views; and per channel, the entries the other parts keep."""
    tables = tables_of_bot(bot)
    pipeline, cache = tables.pipeline, tables.cache
    by_game: dict[str, list[Any]] = {}
    for loaded in cache.loaded.values():
        chosen = by_game.setdefault(loaded.record.game_id, [])
        if len(chosen) < per_game:
            chosen.append(loaded)
    games: Json = {}
    for game_id, chosen in sorted(by_game.items()):
        parts = {
            "record": [loaded.record for loaded in chosen],
            "record.state": [loaded.record.state for loaded in chosen],
            "state": [loaded.state for loaded in chosen],
            "views": [loaded.views for loaded in chosen],
        }
        row: Json = {}
        for part, objects in parts.items():
            seen: set[int] = set()
            row[part] = sum(deep_size(each, seen) for each in objects) / len(chosen)
        row["views_drawn"] = sum(len(loaded.views) for loaded in chosen) / len(chosen)
        games[game_id] = row
    owners = [
        ("publisher._channels", pipeline.publisher, "_channels"),
        ("private._channels", pipeline.private, "_channels"),
        ("slots._tables", pipeline.slots, "_tables"),
        ("pinger._tables", pipeline.pinger, "_tables"),
    ]
    owners += [
        (f"{game_id}.{name}", cog, name) for game_id, cog in tables.games.items() for name in vars(cog)
    ]
    parts_kept: Json = {}
    for label, owner, name in owners:
        kept = getattr(owner, name, None)
        if not name.startswith("_") or not isinstance(kept, dict) or not kept:
            continue
        entries = list(kept.values())[: per_game * 5]
        seen = set()
        parts_kept[label] = sum(deep_size(each, seen) for each in entries) / len(entries)
    return {"tables": games, "parts": parts_kept}


# ---------------------------------------------------------------- the world


@dataclass
class Spec:
    """One table of the world: where it is and who sits at it."""

    index: int
    game_id: str
    guild: Guild
    channel: Channel
    players: list[User]


def add_channel(stand_in: StandIn, guild: Guild, name: str) -> Channel:
    """One more text channel in a guild (the stand-in makes one per guild)."""
    channel_id = stand_in.snowflake()
    payload = {**TEXT_CHANNEL, "id": str(channel_id), "guild_id": str(guild.id), "name": name}
    channel = Channel(channel_id, payload, guild)
    guild.payload["channels"].append(payload)
    stand_in.channels[channel_id] = channel
    return channel


def build_world(stand_in: StandIn, tables: int) -> list[Spec]:
    """The same world for every process: guilds of CHANNELS_PER_GUILD tables, MEMBERS_PER_GUILD members."""
    from rules.registry import GAMES

    chooser = random.Random(44)
    game_ids = sorted(GAMES)
    names = [f"player{number}" for number in range(MEMBERS_PER_GUILD)]
    specs: list[Spec] = []
    guilds = max(1, -(-tables // CHANNELS_PER_GUILD))
    for number in range(guilds):
        guild = stand_in.add_guild(f"scale {number}", names)
        channels = [guild.channel] + [
            add_channel(stand_in, guild, f"sushi-{k}") for k in range(1, CHANNELS_PER_GUILD)
        ]
        for channel in channels:
            index = len(specs)
            if index == tables:
                break
            game = GAMES[game_ids[index % len(game_ids)]]
            seats = chooser.randint(game.min_players, min(game.max_players, 4))
            first = index % MEMBERS_PER_GUILD
            players = [guild.members[(first + seat) % MEMBERS_PER_GUILD] for seat in range(seats)]
            specs.append(Spec(index, game.id, guild, channel, players))
    return specs


async def seed(path: str, specs: list[Spec], last_move: float) -> None:
    """Every table through its engine and the storage API, mid-game, last moved at `last_move`."""
    from rules.registry import GAMES
    from storage.sqlite import SqliteDatabase
    from storage.tables import Seat, TableStore

    database = await SqliteDatabase.open(path)
    store = TableStore(database)
    try:
        for spec in specs:
            game = GAMES[spec.game_id]
            chooser = random.Random(spec.index)
            state = game.new(len(spec.players), spec.index)
            for _ in range(chooser.randint(2, 12)):
                seat = chooser.choice(sorted(game.to_move(state)))
                before = game.dump(state)
                game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
                if game.is_over(state):  # mid-game: one move short of the end
                    state = game.load(before)
                    break
            seats = [Seat(user.id, user.payload["username"]) for user in spec.players]
            deadline = time.time() + DEADLINE_AHEAD + chooser.uniform(0, 600)
            record = playing(game, state, seats, spec.guild.id, spec.channel.id, deadline)
            await store.create(record, now=last_move)
    finally:
        await database.close()


# ---------------------------------------------------------------- the bot, driven


class Bot:
    """The bot's process: started, asked, stopped."""

    def __init__(self, port: int, database: str, log_path: Path) -> None:
        self.log_path = log_path
        self.started = time.perf_counter()
        with open(log_path, "w") as log_file:
            command = [sys.executable, __file__, "--bot", "--port", str(port), "--database", database]
            command += [] if BUCKET_SWEEP else ["--without-bucket-sweep"]
            self.process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log_file, cwd=ROOT
            )

    async def ask(self, command: str) -> Json:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(command.encode() + b"\n")
        stdin.flush()
        while True:
            line = (await asyncio.wait_for(asyncio.to_thread(stdout.readline), 120)).decode()
            if not line:
                raise RuntimeError(f"the bot's process ended:\n{self.tail()}")
            if line.startswith("SCALE "):
                return json.loads(line[6:])

    def cpu_ns(self) -> int:
        """The process's CPU time so far, every thread, in ns (schedstat: finer than clock ticks)."""
        total = 0
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            with contextlib.suppress(OSError):  # a thread that just ended
                total += int((task / "schedstat").read_text().split()[0])
        return total

    def tail(self) -> str:
        return "\n".join(log_lines(self.log_path)[-15:])

    async def stop(self) -> None:
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        await stop(self.process)


async def quiet(stand_in: StandIn, seconds: float, within: float) -> None:
    await until(lambda: time.perf_counter() - stand_in.last_request > seconds, "quiet", within)


async def idle_cpu(bot: Bot) -> float:
    """The bot's CPU share (%) over IDLE_WINDOW seconds without any click."""
    before = bot.cpu_ns()
    await asyncio.sleep(IDLE_WINDOW)
    return (bot.cpu_ns() - before) / 1e9 / IDLE_WINDOW * 100


async def start(stand_in: StandIn, specs: list[Spec], database: str, log_path: Path) -> tuple[Bot, Json]:
    """Start the bot and measure its start-up: set-up done, guilds sent, first answer, ready."""
    bot = Bot(stand_in.port, database, log_path)
    await wait_connected(stand_in, bot.process, log_path)
    connected = time.perf_counter()
    guild = specs[0].guild if specs else stand_in.guilds[0]
    probe = await stand_in.slash(guild, guild.members[0], "games")
    await probe.wait_answered("/games")
    assert probe.acked is not None
    seen = await bot.ask("stats")
    while "ready" not in seen["marks"]:
        await asyncio.sleep(0.1)
        seen = await bot.ask("stats")
    marks = seen["marks"]
    figures = {
        "setup_s": marks["setup_s"],
        "to_setup_s": marks["setup_done"] - bot.started,
        "to_guilds_s": connected - bot.started,
        "to_first_answer_s": probe.acked - bot.started,
        "to_ready_s": marks["ready"] - bot.started,
        "armed": seen["armed"],
        "loaded_at_ready": seen["loaded"],
    }
    return bot, figures


# ---------------------------------------------------------------- clicks


@dataclass
class Click:
    user: User
    message: Json
    custom_id: str
    values: list[str] | None
    how: str  # "drawn": a control the bot drew; "made": a legal action as a button of the same grammar


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def latest_hand(stand_in: StandIn, user: User, channel_id: int) -> Json | None:
    """The newest DM to `user` with a control of the table in `channel_id` (its hand)."""
    mark = f":{channel_id}:"
    for message_id in reversed(user.dm.messages if user.dm is not None else []):
        message = stand_in.messages.get(message_id)
        if message is not None and any(
            mark in str(c.get("custom_id", "")) for c in walk(message["components"])
        ):
            return message
    return None


async def choose(stand_in: StandIn, store: Any, spec: Spec) -> Click | None:
    """A move of a seat that owes one, on the stored state (see the module docstring)."""
    from cogs.tables.ui import TABLE_ID, action_payload, custom_id, read_payload
    from rules.registry import GAMES

    record = await store.open_table(spec.channel.id)
    if record is None or record.status != "playing" or record.state is None:
        return None
    game = GAMES[record.game_id]
    state = game.load(record.state)
    owing = [seat for seat in sorted(game.to_move(state)) if record.seats[seat].human]
    if not owing:
        return None
    legal = {
        seat: {canonical(game.encode_action(a)) for a in game.legal_actions(state, seat)} for seat in owing
    }
    users = {seat: stand_in.users[record.seats[seat].user_id] for seat in owing}
    board = stand_in.latest(spec.channel)
    places: list[tuple[Json, list[int]]] = [(board, owing)] if board is not None else []
    for seat in owing:
        hand = latest_hand(stand_in, users[seat], spec.channel.id)
        if hand is not None:
            places.append((hand, [seat]))
    for message, seats in places:
        for item in walk(message["components"]):
            match = TABLE_ID.fullmatch(str(item.get("custom_id", "")))
            if item.get("disabled") or match is None or int(match["channel"]) != spec.channel.id:
                continue
            kind, rest = read_payload(match["payload"])
            if kind != "a":
                continue
            choices = (
                [(rest, None)] if item["type"] == 2 else [(o["value"], [o["value"]]) for o in item["options"]]
            )
            for text, values in choices:
                with contextlib.suppress(ValueError):
                    key = canonical(json.loads(text))
                    for seat in seats:
                        if key in legal[seat]:
                            return Click(users[seat], message, item["custom_id"], values, "drawn")
    seat = owing[0]
    payload = action_payload(game, game.legal_actions(state, seat)[0])
    made = custom_id("sb", game.id, spec.channel.id, 0, payload)
    message = board or stand_in.new_message(spec.channel, {"content": "bench"}, [])
    return Click(users[seat], message, made, None, "made")


@dataclass
class Sample:
    game_id: str
    how: str
    ack_ms: float  # inf: not answered within 3 s
    cpu_ms: float
    calls: int
    refused: bool


async def click_once(stand_in: StandIn, bot: Bot, store: Any, spec: Spec) -> Sample | None:
    click = await choose(stand_in, store, spec)
    if click is None:
        return None
    calls, cpu = sum(stand_in.counts.values()), bot.cpu_ns()
    record: Interaction = await stand_in.click(
        click.user, click.message, click.custom_id, values=click.values
    )
    with contextlib.suppress(RuntimeError):
        await record.wait_answered("click")
    await quiet(stand_in, QUIET_CLICK, 30)
    acked = (record.acked - record.sent) * 1e3 if record.acked is not None else float("inf")
    cpu_ms = (bot.cpu_ns() - cpu) / 1e6
    requests = sum(stand_in.counts.values()) - calls
    return Sample(spec.game_id, click.how, acked, cpu_ms, requests, record.refused)


def spread(values: list[float]) -> Json:
    ordered = sorted(values)
    if not ordered:
        return {"p50": float("nan"), "p99": float("nan"), "max": float("nan")}
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return {"p50": statistics.median(ordered), "p99": p99, "max": ordered[-1]}


# ---------------------------------------------------------------- one process, one case


async def run_case(case: str, tables: int, samples: int, folder: Path, logs: Path | None) -> Json:
    stand_in = StandIn()
    await stand_in.start()
    specs = build_world(stand_in, tables)
    database = str(folder / f"{case.replace(' ', '-')}.db")
    await prepare_database(database, [guild.id for guild in stand_in.guilds])
    row: Json = {"case": case}
    if case != "no tables":
        began = time.perf_counter()
        await seed(database, specs, time.time() - (IDLE_AGO if case == "stored" else RECENT_AGO))
        row["seed_s"] = time.perf_counter() - began
    stored = len(specs) if case != "no tables" else 0
    log_path = folder / f"{case.replace(' ', '-')}.log"
    bot, row["startup"] = await start(stand_in, specs, database, log_path)
    try:
        if case == "recent":
            row["recovery"] = await recover(stand_in, bot, stored)
        else:
            await quiet(stand_in, QUIET_SETTLED, 120)
            await asyncio.sleep(1.0)  # a start-up that loads tables has begun by now
        seen = await bot.ask("collect")
        row["states"] = [state_row(case, stored, seen, await idle_cpu(bot))]
        if case == "recent":
            row["sizes"] = (await bot.ask("sizes"))["sizes"]
            row |= await clicks(stand_in, bot, specs, database, stored, samples, row["states"])
        row["peak_rss_mib"] = seen["hwm_kib"] / 1024
    finally:
        await bot.stop()
        await stand_in.stop()
    row["bot_log"] = keep_log(log_path, logs)
    return row


def keep_log(log_path: Path, logs: Path | None) -> Json:
    """The bot's output: counted, its first lines kept, the whole of it copied to `logs` if given."""
    lines = log_lines(log_path)
    if logs is not None:
        logs.mkdir(parents=True, exist_ok=True)
        (logs / log_path.name).write_text("\n".join(lines))
    return {"lines": len(lines), "first": lines[:8]}


def state_row(label: str, stored: int, seen: Json, idle: float) -> Json:
    return {
        "state": label,
        "stored": stored,
        "loaded": seen["loaded"],
        "armed": seen["armed"],
        "rss_mib": seen["rss_kib"] / 1024,
        "py_blocks": seen["py_blocks"],
        "idle_cpu_pct": idle,
        "tasks": seen["tasks"],
        "kept": seen["kept"],
    }


async def recover(stand_in: StandIn, bot: Bot, stored: int) -> Json:
    """Start-up loads the recently active tables once ready: until all are in memory and shown. A
    player's `/games` every PROBE_EVERY seconds meanwhile: how long the bot takes to answer."""
    stand_in.reset_counts()
    cpu = bot.cpu_ns()
    ready = (await bot.ask("stats"))["marks"]["ready"]
    deadline = time.perf_counter() + 900
    probes: list[Interaction] = []
    next_probe = time.perf_counter()
    while True:
        seen = await bot.ask("stats")
        if seen["loaded"] >= stored and time.perf_counter() - stand_in.last_request > QUIET_SETTLED:
            break
        if time.perf_counter() > deadline:
            raise RuntimeError(f"recovery: {seen['loaded']} of {stored} tables loaded after 900 s")
        if seen["loaded"] < stored and time.perf_counter() >= next_probe:
            guild = stand_in.guilds[len(probes) % len(stand_in.guilds)]
            probes.append(await stand_in.slash(guild, guild.members[0], "games"))
            next_probe += PROBE_EVERY
        await asyncio.sleep(0.2)
    done = stand_in.last_request  # its last request
    answers = [(p.acked - p.sent) * 1e3 if p.acked is not None else float("inf") for p in probes]
    return {
        "loaded": seen["loaded"],
        "seconds": done - ready,
        "to_done_s": done - bot.started,
        "cpu_s": (bot.cpu_ns() - cpu) / 1e9,
        "calls": dict(stand_in.counts.most_common()),
        "routes": dict(stand_in.routes.most_common(6)),
        "probe_ack_ms": spread(answers) | {"count": len(answers)},
    }


async def clicks(
    stand_in: StandIn,
    bot: Bot,
    specs: list[Spec],
    database: str,
    stored: int,
    samples: int,
    states: list[Json],
) -> Json:
    """Every table leaves memory; then pairs of clicks on sampled tables, the first on it evicted, the
    second in memory."""
    from storage.sqlite import SqliteDatabase
    from storage.tables import TableStore

    seen = await bot.ask("evict")
    evicted = seen["evicted"]
    kept = (await bot.ask("sizes"))["sizes"]["parts"]
    states.append(state_row("all evicted", stored, seen, await idle_cpu(bot)))
    chosen = random.Random(4).sample(specs, min(samples, len(specs)))
    pairs: list[tuple[Sample, Sample]] = []
    reader = await SqliteDatabase.open(database)  # the bench's own connection, to read stored states
    try:
        store = TableStore(reader)
        stand_in.reset_counts()
        for spec in chosen:
            first = await click_once(stand_in, bot, store, spec)
            second = await click_once(stand_in, bot, store, spec) if first is not None else None
            if first is not None and second is not None:
                pairs.append((first, second))
    finally:
        await reader.close()
    seen = await bot.ask("collect")
    states.append(state_row(f"after {len(pairs)} pairs", stored, seen, float("nan")))
    await bot.ask("evict")  # then glibc gives back what it can (after the clicks: no page faults in them)
    states.append(state_row("evicted, malloc_trim", stored, await bot.ask("trim"), float("nan")))
    figures: Json = {"evicted": evicted, "kept_after_eviction": kept, "pairs": len(pairs)}
    figures["samples"] = [[a.game_id, a.how, a.ack_ms, a.cpu_ms, b.how, b.ack_ms, b.cpu_ms] for a, b in pairs]
    for label, group in (("evicted", [p[0] for p in pairs]), ("in memory", [p[1] for p in pairs])):
        figures[label] = {
            "ack_ms": spread([s.ack_ms for s in group]),
            "cpu_ms": spread([s.cpu_ms for s in group]),
            "calls": statistics.mean(s.calls for s in group) if group else float("nan"),
            "refused": sum(s.refused for s in group),
            "unanswered": sum(s.ack_ms == float("inf") for s in group),
            "how": dict(Counter(f"{s.game_id} {s.how}" for s in group)),
            "cpu_ms_by_game": {
                game: statistics.median(s.cpu_ms for s in group if s.game_id == game)
                for game in sorted({s.game_id for s in group})
            },
        }
    return {"clicks": figures}


# ---------------------------------------------------------------- the report


def report(command: str, tables: int, rows: list[Json]) -> None:
    by_case = {row["case"]: row for row in rows}
    floor = by_case["no tables"]["states"][0]["rss_mib"]
    print("\nstart-up (s from process start; set-up as bench/startup.py)")
    heads = (
        "",
        "tables",
        "set-up",
        "set-up done",
        "guilds sent",
        "1st answer",
        "ready",
        "timers",
        "loaded",
        "peak MiB",
    )
    print(f"{heads[0]:<10}" + "".join(f"{h:>12}" for h in heads[1:]))
    for row in rows:
        s = row["startup"]
        stored = row["states"][0]["stored"]
        cells = (
            stored, f"{s['setup_s']:.2f}", f"{s['to_setup_s']:.2f}", f"{s['to_guilds_s']:.2f}",
            f"{s['to_first_answer_s']:.2f}", f"{s['to_ready_s']:.2f}", s["armed"], s["loaded_at_ready"],
            f"{row['peak_rss_mib']:.0f}",
        )  # fmt: skip
        print(f"{row['case']:<10}" + "".join(f"{c:>12}" for c in cells))
    recovery = by_case["recent"].get("recovery")
    if recovery:
        calls = ", ".join(f"{kind} {count}" for kind, count in recovery["calls"].items())
        print(
            f"recent: once ready, start-up loaded {recovery['loaded']} tables and redrew them in "
            f"{recovery['seconds']:.1f} s ({recovery['to_done_s']:.1f} s from process start), bot CPU "
            f"{recovery['cpu_s']:.1f} s; REST calls: {calls}"
        )
        probe = recovery["probe_ack_ms"]
        if probe["count"]:
            print(
                f"  meanwhile {probe['count']} /games answered in p50 {probe['p50']:.0f} ms, "
                f"max {probe['max']:.0f} ms"
            )
    print("\nmemory (RSS after a full collection) and idle CPU")
    print(
        f"{'':<30}{'stored':>8}{'in mem':>8}{'timers':>8}{'RSS MiB':>9}{'Δ KiB/table':>13}{'idle CPU':>10}"
        f"{'Python blocks':>15}"
    )
    for row in rows:
        for state in row["states"]:
            label = f"{row['case']}: {state['state']}" if state["state"] != row["case"] else row["case"]
            per = (state["rss_mib"] - floor) * 1024 / tables if state["stored"] else float("nan")
            idle = f"{state['idle_cpu_pct']:.2f}%" if state["idle_cpu_pct"] == state["idle_cpu_pct"] else "-"
            print(
                f"{label:<30}{state['stored']:>8}{state['loaded']:>8}{state['armed']:>8}"
                f"{state['rss_mib']:>9.1f}{per:>13.1f}{idle:>10}{state['py_blocks']:>15,}"
            )
    stored_rss = by_case["stored"]["states"][0]["rss_mib"]
    loaded_rss = by_case["recent"]["states"][0]["rss_mib"]
    print(
        f"a table in memory costs {(loaded_rss - stored_rss) * 1024 / tables:.1f} KiB (recent − stored), "
        f"a table only stored {(stored_rss - floor) * 1024 / tables:.1f} KiB (stored − no tables)"
    )
    for state in by_case["recent"]["states"]:
        kept = ", ".join(f"{name} {count}" for name, count in state["kept"].items() if count)
        print(f"  kept per channel, {state['state']}: {kept or 'nothing'}")
    sizes = by_case["recent"].get("sizes") or {}
    figures = by_case["recent"].get("clicks") or {}
    if sizes:
        print(
            "deep size of a table in memory, bytes: record (of which its stored state's JSON), state, views"
        )
        for name, size in sizes["tables"].items():
            print(
                f"  {name:<12} {size['record']:>7.0f} ({size['record.state']:>6.0f}) {size['state']:>7.0f}"
                f" {size['views']:>7.0f} ({size['views_drawn']:.1f} drawn)"
            )
        after = figures.get("kept_after_eviction", {})
        print("deep size per channel of the other parts' entries, bytes, in memory → after eviction:")
        for name, size in sizes["parts"].items():
            print(f"  {name:<22} {size:>6.0f} → {after.get(name, 0):>6.0f}")
    if figures:
        print(f"\nclicks, one at a time: {figures['pairs']} tables, first click after eviction then a second")
        print(
            f"{'':<11}{'ack p50':>9}{'p99':>8}{'max':>8}{'CPU p50':>9}{'p99':>8}{'max':>8}{'calls':>7}"
            f"{'refused':>9}{'unansw':>8}{'drawn':>7}"
        )
        for label in ("evicted", "in memory"):
            group = figures[label]
            ack, cpu = group["ack_ms"], group["cpu_ms"]
            drawn = sum(count for how, count in group["how"].items() if how.endswith("drawn"))
            print(
                f"{label:<11}{ack['p50']:>9.1f}{ack['p99']:>8.1f}{ack['max']:>8.1f}{cpu['p50']:>9.2f}"
                f"{cpu['p99']:>8.2f}{cpu['max']:>8.2f}{group['calls']:>7.2f}{group['refused']:>9}"
                f"{group['unanswered']:>8}{drawn:>7}"
            )
        for label in ("evicted", "in memory"):
            games = ", ".join(f"{g} {ms:.2f}" for g, ms in figures[label]["cpu_ms_by_game"].items())
            print(f"  CPU ms p50 by game, {label}: {games}")
        made: Counter[str] = Counter()
        for label in ("evicted", "in memory"):
            for how, count in figures[label]["how"].items():
                if how.endswith(" made"):
                    made[how.split()[0]] += count
        print(f"  made (not drawn) clicks by game: {dict(made) or 'none'}")
    for row in rows:
        if row["bot_log"]["lines"]:
            print(f"{row['case']}: the bot logged {row['bot_log']['lines']} lines; first:")
            print("\n".join(f"  {line[:160]}" for line in row["bot_log"]["first"]))


async def main(tables: int, samples: int, logs: Path | None) -> None:
    command = "nice -n 10 .venv/bin/python bench/scale.py " + shlex.join(sys.argv[1:])
    print(command.strip())
    print(
        f"{tables} open tables of the five games, {CHANNELS_PER_GUILD} a guild, one channel each; "
        f"the real bot in its own process against the stand-in"
    )
    rows: list[Json] = []
    with tempfile.TemporaryDirectory(prefix="scale-") as folder:
        for case in CASES:
            began = time.perf_counter()
            rows.append(await run_case(case, tables, samples, Path(folder), logs))
            print(f"  ({case}: {time.perf_counter() - began:.0f} s)", file=sys.stderr, flush=True)
    report(command, tables, rows)
    print(json.dumps({"bench": "scale", "tables": tables, "samples": samples, "rows": rows}, default=str))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="memory, start-up and clicks with many open tables")
    parser.add_argument("--tables", type=int, default=10_000, help="open tables (default 10000)")
    parser.add_argument("--samples", type=int, default=300, help="click pairs (default 300)")
    parser.add_argument("--logs", type=Path, help="keep each process's bot output in this folder")
    parser.add_argument(
        "--without-bucket-sweep",
        action="store_true",
        help="discord.py's sweep of idle rate-limit buckets off in the bot's process (what it costs)",
    )
    parser.add_argument("--bot", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.tables < 1 or arguments.samples < 1:
        parser.error("--tables and --samples must be at least 1")
    if arguments.bot:
        bot_main(arguments.port, arguments.database, not arguments.without_bucket_sweep)
        sys.exit(0)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    BUCKET_SWEEP = not arguments.without_bucket_sweep
    asyncio.run(main(arguments.tables, arguments.samples, arguments.logs))
