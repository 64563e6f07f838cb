"""Load: N concurrent 2-player Sushi Go! tables clicking at a human pace, against a no-op bot (the
figures printed by load_report.py, simcord's internals reached through simcord_private.py, a local
PostgreSQL server measured by pg_server.py).

    .venv/bin/python bench/load.py [N ...] [--seconds S]        e.g. bench/load.py 1 50 200
    .venv/bin/python bench/load.py --knee --database postgres --processes 2 --seconds 10

For each N, in one process and one after the other under the same load:
- a no-op discord.py bot that answers every click at once (a deferred update), and
- the real bot (`bot.create_bot`: every cog, a file database in a temporary folder),
both driven through simcord (the simulated Discord the end-to-end tests use). Every table clicks
once every 2 s (randomised phase), the two seats by turns; for Sushi Bar a click is the pick in
the player's DM hand (the first card offered), for the no-op bot a select on its message. Per
click it measures the time until the interaction is acknowledged (answered or deferred) and
counts those unanswered after 3 s; it prints ack p50/p99/max, unanswered, the ratio Sushi Bar ÷
no-op, and CPU ms per click (this process's CPU time over the clicking window ÷ clicks).

How it drives simcord: simcord's own `click`/`select` are one operation at a time and wait for the
bot to settle, so they cannot make 200 tables click at once. Tables are seated with them; the
clicks are then emitted as raw INTERACTION_CREATE events (the payload simcord's `select` would
build, through its internal helpers) without settling, and the acknowledgement is seen the moment
simcord's backend marks the interaction answered.

simcord's own cost is in every figure: it runs in this process, routes each REST call through
its backend and watches every task and timer. The no-op bot's figures are that floor (the issue's
"same simcord" baseline): its CPU per click is mostly simcord's, so the CPU ratio understates the
difference between the bots, and at high N simcord itself saturates the core (see the no-op's p99).

PostgreSQL and several processes (`--database postgres`, `--processes P`; P > 1 implies postgres):
- The database is a fresh one per Sushi Bar run (CREATE DATABASE) on the server `--database-url`
  names, else on a PostgreSQL 16 the bench starts itself (pgserver, in a temporary folder) and
  stops at the end. With one process the bot runs in this process as above, over that database.
- With P processes each N is split over P worker OS processes (multiprocessing, "spawn"). Worker i
  runs its OWN simcord Env and its own bot: `Settings(database_url=..., shard_count=P,
  shard_ids=(i,))`, the AutoShardedBot of a sharded deployment, seating its share of the tables in
  guilds of its shard. All workers seat, wait at a barrier, start clicking at the same wall-clock
  moment for the same seconds and send back their raw ack delays and CPU time; the merged row
  ("sushi bar pg×P") has p50/p99/max over every click, the unanswered of all, and CPU ms per click
  summed over the workers. The no-op floor ("no-op×P") is P no-op workers with the same split.
- Each worker's simulated Discord is its own, so their snowflakes would collide in the shared
  database: worker i moves its simulated clock i × 10 minutes ahead before creating anything
  (snowflakes carry their millisecond; a run spans far less than 10 minutes of simulated time, and
  10 minutes per worker stays far inside the 1-hour turn timer, so no worker takes another's
  deadlines for overdue). Checked after every run: the snowflakes each worker's Discord gave out
  (users, guilds, channels, messages, interactions) lie in ranges that do not overlap (without the
  offset they do: the check fails), and the database holds N tables in N distinct channels and
  guilds (one open table per channel); how many moves it saved is printed.
- One liberty with Discord: a DM is delivered to shard 0's process on Discord, so there every DM
  pick of every table would be judged by worker 0, the guild's owner only redrawing on its
  notification. Here each worker's Discord delivers its own players' DM clicks to that worker (a
  patch to simcord's shard routing in the worker), so the P processes share the picks evenly: the
  figures are what sharding gains when the clicks reach the guild's own process (board buttons,
  ephemeral hands), an upper bound for DM hands.
- When the bench runs the server itself, the PostgreSQL server's own CPU over the clicking window
  (postmaster and every backend) is printed under the Sushi Bar row, per click: it is not in the
  CPU column, yet it runs on the same cores.

`--knee` steps N upward (50, 100, 150, 200, 300, 400, 500 tables: 25 to 250 clicks/s offered, or
the N given) for the chosen database and processes, and reports the knee: the highest offered
clicks/s at which every click was answered within 3 s and the Sushi Bar p99 stayed under 1 s;
it stops after the first step past it.

Reading the figures: offered clicks/s is N ÷ 2 s. Every worker carries its own simcord, whose cost
(the no-op floor) is in every figure, and on this 2-core machine P processes can at most double
what one process does, less whatever the PostgreSQL server and the other workers' simcords take of
the same two cores; the p99 ratio to the no-op floor of the same P is the bot's own share.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import faulthandler
import itertools
import json
import logging
import multiprocessing
import os
import random
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
import simcord
from discord.ext import commands
from simcord.enums import ComponentType

from bench import load_report, simcord_private
from bench.load_report import KNEE_P99, LATE, PERIOD, cpu_split, knee_line, merge, show, summarise
from bench.pg_server import ServerCpu, check_database, with_database
from bot import Settings, create_bot
from cogs.tables import cluster

# On PostgreSQL every process writes a heartbeat every 10 s (cogs/tables/cluster.py). Its timer is
# virtual in simcord, with a real-time fallback that fires while hundreds of tables are still being
# seated and makes simcord's settling time out; one query per 10 s is no part of a click's cost.
cluster.SWEEP_EVERY = 24 * 3600.0

ROOT = str(Path(__file__).resolve().parent.parent)
PROFILE = False  # --profile: split each run's CPU time by origin
KNEE_STEPS: tuple[int, ...] = (50, 100, 150, 200, 300, 400, 500)  # tables: 25 to 250 clicks/s offered
# Seconds each worker's simulated clock runs ahead of the previous worker's, so their snowflakes
# (millisecond-stamped) never meet: more than a run's simulated time, far less than the turn timer.
CLOCK_OFFSET = 600.0
TURN_TIMEOUT = 3600.0
PG_SETTLE = 10.0  # seconds the PostgreSQL bot gets to finish its work after a run (no figure depends on it)


# ---------------------------------------------------------------- seeing acknowledgements

_ACKED: dict[int, float] = {}  # id(interaction record) -> when it was answered
_WATCHED: set[int] = set()


def _note_answer(record: Any) -> None:
    if id(record) in _WATCHED and id(record) not in _ACKED:
        _ACKED[id(record)] = time.perf_counter()


def _watch_acknowledgements() -> None:
    """Note the moment simcord's backend marks an interaction answered (every response kind)."""
    simcord_private.on_answered(_note_answer)


def emit_select(env: Any, user: Any, message: Any, value: str | None = None) -> Any:
    """Choose `value` (else the first option) in the message's select, as simcord's `select` would,
    without waiting for the bot: returns the interaction's backend record; None when the message
    shows no select."""
    menu = next(
        (
            component
            for component in simcord_private.message_components(env, user, message)
            if component.get("type") == int(ComponentType.STRING_SELECT)
        ),
        None,
    )
    if menu is None:
        return None
    chosen = value if value is not None else menu["options"][0]["value"]
    return simcord_private.emit_component(
        env, user, message, menu["custom_id"], [chosen], before=lambda record: _WATCHED.add(id(record))
    )


# ---------------------------------------------------------------- the two bots


class NoOp(commands.Bot):
    """Answers every component click at once; `/noop` posts a message with a select to click."""

    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

        @self.tree.command(name="noop", description="a message to click")
        async def noop(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(
                discord.ui.Select(
                    custom_id="noop:select",
                    options=[discord.SelectOption(label="a"), discord.SelectOption(label="b")],
                )
            )
            await interaction.response.send_message("click me", view=view)

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()


Clicker = Callable[[int], Any]  # click number -> the emitted interaction record (None: nothing to click)


async def seat_noop(env: Any, index: int) -> Clicker:
    guild = env.create_guild(f"noop {index}")
    channel = guild.create_text_channel("t")
    members = [guild.add_member(env.create_user(name)) for name in ("alice", "bob")]
    await members[0].slash(channel, "noop")
    message = channel.last_message
    return lambda click: emit_select(env, members[click % 2], message)


async def seat_sushi_bar(env: Any, index: int) -> Clicker:
    return await _seat_table(env, env.create_guild("Sushi Bar bench"))


def seat_sushi_bar_on(shard_id: int) -> Callable[[Any, int], Awaitable[Clicker]]:
    """`seat_sushi_bar` with each table's guild on shard `shard_id` (a worker's own shard)."""

    async def seat(env: Any, index: int) -> Clicker:
        return await _seat_table(env, env.create_guild("Sushi Bar bench", shard_id=shard_id))

    return seat


async def _seat_table(env: Any, guild: Any) -> Clicker:
    """A game of Sushi Go! for alice and bob, seated by the lobby's buttons; clicking picks the first
    card of the hand in the clicker's DM."""
    channel = guild.create_text_channel("sushi")
    alice, bob = (guild.add_member(env.create_user(name)) for name in ("alice", "bob"))
    spectator = guild.add_member(env.create_user("spectator"))
    before = {thread.id for thread in channel.threads}
    await alice.slash(channel, "sushigo new")
    opened = [thread for thread in channel.threads if thread.id not in before]
    where = opened[-1] if opened else channel  # the table's thread, when the bot opens one
    await _lobby_button(env, bob, where, spectator, "join")
    await _lobby_button(env, alice, where, spectator, "start")
    players = (alice, bob)

    def click(number: int) -> Any:
        user = players[number % 2].user
        hand = user.dm_channel.last_message
        return None if hand is None else emit_select(env, user, hand)

    return click


async def _lobby_button(env: Any, member: Any, where: Any, spectator: Any, word: str) -> None:
    """`member` clicks the lobby's button that does `word` (its custom_id ends `t:<word>`)."""
    board = next(m for m in reversed(list(where.history(viewer=spectator))) if m.author.bot and m.components)
    found = next(
        component["custom_id"]
        for component in simcord_private.message_components(env, member, board)
        if str(component.get("custom_id", "")).endswith(f":t:{word}")
    )
    await member.click(board, custom_id=found)


def route_dms_to(shard_id: int) -> None:
    """In a worker: its Discord delivers events outside any guild (DM clicks) to `shard_id`, the
    worker's own shard, where Discord would send them to shard 0 (the docstring says why)."""
    simcord_private.route_unguilded_events_to(shard_id)


# ---------------------------------------------------------------- one run


async def run(
    label: str,
    bot: discord.Client,
    seat: Callable[[Any, int], Awaitable[Clicker]],
    tables: int,
    seconds: float,
    **hooks: Any,
) -> dict[str, Any]:
    return summarise(label, tables, await run_raw(bot, seat, tables, seconds, label=label, **hooks))


async def run_raw(
    bot: discord.Client,
    seat: Callable[[Any, int], Awaitable[Clicker]],
    tables: int,
    seconds: float,
    *,
    label: str,
    seed: int | None = None,
    prepare: Callable[[Any], Awaitable[None]] | None = None,
    barrier: Callable[[], Awaitable[None]] | None = None,
    measured: Callable[[], None] | None = None,
    settle: float = 60.0,
) -> dict[str, Any]:
    """Seat `tables` tables and click them for `seconds`; the raw figures (every click's ack delay,
    inf when never answered). Hooks: `prepare(env)` before seating, `barrier()` between seating
    and clicking, `measured()` once the clicking window is over (before the bot settles, for at
    most `settle` seconds: with PostgreSQL simcord's settling waits out the bot's pending timers,
    about a minute, for no figure)."""
    _ACKED.clear()  # ids of a finished run's records may be reused by the next run's
    _WATCHED.clear()
    async with simcord.run(bot) as env:
        if prepare is not None:
            await prepare(env)
        clickers = []
        for index in range(tables):
            clickers.append(await seat(env, index))
            print(f"  {label}: {index + 1} of {tables} tables seated", end="\r", file=sys.stderr, flush=True)
        await env.settle()
        if barrier is not None:
            await barrier()
        records: list[tuple[Any, float]] = []
        skipped = 0
        chooser = random.Random(tables if seed is None else seed)

        async def pace(clicker: Clicker, phase: float, start: float) -> None:
            nonlocal skipped
            number = 0
            await asyncio.sleep(phase)
            while time.perf_counter() - start < seconds:
                record = clicker(number)
                if record is None:
                    skipped += 1
                else:
                    records.append((record, time.perf_counter()))
                number += 1
                await asyncio.sleep(start + phase + number * PERIOD - time.perf_counter())

        profiler = cProfile.Profile() if PROFILE else None
        if profiler is not None:
            profiler.enable()
        cpu, start = time.process_time(), time.perf_counter()
        await asyncio.gather(*(pace(clicker, chooser.uniform(0, PERIOD), start) for clicker in clickers))
        # simcord's interaction records signal nothing: poll them until all are answered or late.
        unanswered = lambda: any(id(r) not in _ACKED for r, _ in records)  # noqa: E731
        while time.perf_counter() - start < seconds + LATE and unanswered():  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        cpu = time.process_time() - cpu
        if profiler is not None:
            profiler.disable()
        if measured is not None:
            measured()
        # Measured; now let the bot finish what it started (board edits, DMs) before detaching it.
        # simcord's settling is slow with hundreds of tables; a time-out here changes no figure.
        with contextlib.suppress(TimeoutError):
            await env.settle(timeout=settle)
    return {
        "delays": [_ACKED[id(r)] - at if id(r) in _ACKED else float("inf") for r, at in records],
        "skipped": skipped,
        "ephemeral": sum(1 for record, _ in records if record.ephemeral),  # a refusal is an ephemeral line
        "cpu": cpu,
        **({"cpu_split": cpu_split(profiler)} if profiler is not None else {}),
    }


# Where a function's own time goes, by where its code lives (the first match wins).


async def sushi_bar_run(
    tables: int, seconds: float, postgres: Postgres | None = None, processes: int = 1
) -> dict[str, Any]:
    if postgres is not None:
        return await postgres.run(tables, seconds, processes=processes)
    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(
            Settings(token="bench", database_path=str(Path(folder) / "bench.db"), turn_timeout=TURN_TIMEOUT),
            sync=True,
        )
        try:
            return await run("sushi bar", bot, seat_sushi_bar, tables, seconds)
        finally:
            if hasattr(bot, "database"):  # simcord detaches the bot without closing it
                await bot.database.close()


# ---------------------------------------------------------------- PostgreSQL


class Postgres:
    """The server the Sushi Bar runs use: a fresh database per run, checked afterwards."""

    def __init__(self, url: str, server_pid: int | None) -> None:
        self.url = url
        self.cpu = ServerCpu(server_pid) if server_pid is not None else None
        self.databases = 0

    async def run(self, tables: int, seconds: float, *, processes: int) -> dict[str, Any]:
        import asyncpg

        self.databases += 1
        name = f"bench_{os.getpid()}_{self.databases}"
        connection = await asyncpg.connect(self.url)
        try:
            await connection.execute(f"CREATE DATABASE {name}")
        finally:
            await connection.close()
        url = with_database(self.url, name)
        label = "sushi bar pg" + (f"×{processes}" if processes > 1 else "")
        window: list[float] = []
        cpu = self.cpu
        sample = (lambda: window.append(cpu.total())) if cpu is not None else (lambda: None)
        try:
            if processes == 1:
                bot = create_bot(
                    Settings(token="bench", database_url=url, turn_timeout=TURN_TIMEOUT), sync=True
                )

                async def barrier() -> None:
                    sample()

                try:
                    raw = await run_raw(
                        bot,
                        seat_sushi_bar,
                        tables,
                        seconds,
                        label=label,
                        barrier=barrier,
                        measured=sample,
                        settle=PG_SETTLE,
                    )
                finally:
                    if hasattr(bot, "database"):
                        await bot.database.close()
            else:
                raw = await asyncio.to_thread(
                    run_workers, "sushi bar", tables, seconds, processes, url, sample
                )
            row = summarise(label, tables, raw)
            if len(window) == 2 and row["clicks"]:
                row["server_cpu_ms_per_click"] = round((window[1] - window[0]) / row["clicks"] * 1e3, 2)
            row["database"] = await self.check(url, tables)
            return row
        finally:
            connection = await asyncpg.connect(self.url)
            try:
                await connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            finally:
                await connection.close()

    async def check(self, url: str, tables: int) -> dict[str, int]:
        """The run's tables are all there (`pg_server.check_database`)."""
        return await check_database(url, tables)


@contextlib.contextmanager
def postgres_server(url: str | None) -> Any:
    """The server to bench against: `url`'s, else a pgserver in a temporary folder, stopped after."""
    if url:
        yield Postgres(url, None)
        return
    import pgserver

    with tempfile.TemporaryDirectory(prefix="bench-pg-") as folder:
        server = pgserver.get_server(folder, cleanup_mode="stop")  # pyright: ignore[reportPrivateImportUsage]
        try:
            yield Postgres(server.get_uri(), server.get_pid())
        finally:
            server.cleanup()


# ---------------------------------------------------------------- several processes


def run_workers(
    kind: str, tables: int, seconds: float, processes: int, url: str, sample: Callable[[], None]
) -> dict[str, Any]:
    """`tables` split over `processes` worker processes that click at the same moment; their raw
    figures merged. `sample()` is called when the clicking starts and when every worker is done."""
    if tables < processes:
        raise SystemExit(f"{tables} tables cannot be split over {processes} processes")
    context = multiprocessing.get_context("spawn")
    pipes: list[Connection] = []
    workers = []
    for index in range(processes):
        share = tables // processes + (1 if index < tables % processes else 0)
        spec = {
            "kind": kind,
            "index": index,
            "processes": processes,
            "tables": share,
            "seconds": seconds,
            "url": url,
            "seed": tables * 100 + index,
        }
        ours, theirs = context.Pipe()
        worker = context.Process(target=worker_main, args=(theirs, spec), name=f"bench worker {index}")
        worker.start()
        theirs.close()  # the worker's end lives in the worker: a dead worker is an EOF here
        pipes.append(ours)
        workers.append(worker)
    try:
        for pipe in pipes:
            _expect(pipe, "ready")
        start_at = time.time() + 0.5  # every worker seated: all click from this wall-clock moment
        for pipe in pipes:
            pipe.send(start_at)
        time.sleep(max(0.0, start_at - time.time()))
        sample()
        for pipe in pipes:
            _expect(pipe, "measured")
        sample()
        raws = [_expect(pipe, "done") for pipe in pipes]
        ranges = sorted(raw["snowflakes"] for raw in raws)
        for (_, low_end), (high_start, _) in itertools.pairwise(ranges):
            assert low_end < high_start, f"the workers' snowflakes overlap: {ranges}"
        return merge(raws)
    finally:
        for worker in workers:
            worker.join(timeout=120)
            if worker.is_alive():
                worker.terminate()
        for pipe in pipes:
            pipe.close()


def _expect(pipe: Connection, what: str) -> Any:
    try:
        kind, value = pipe.recv()
    except EOFError:
        raise RuntimeError(f"a bench worker died before it said {what!r}") from None
    if kind == "error":
        raise RuntimeError(f"a bench worker failed:\n{value}")
    assert kind == what, (kind, what)
    return value


def worker_main(pipe: Connection, spec: dict[str, Any]) -> None:
    """A worker process: one bot on its own simcord, its share of the tables (see `run_workers`)."""
    logging.basicConfig(level=logging.CRITICAL)
    _watch_acknowledgements()
    try:
        raw = asyncio.run(_work(pipe, spec))
    except BaseException:
        pipe.send(("error", traceback.format_exc()))
    else:
        pipe.send(("done", raw))
    finally:
        pipe.close()


async def _work(pipe: Connection, spec: dict[str, Any]) -> dict[str, Any]:
    index, processes = spec["index"], spec["processes"]
    bot: discord.Client
    if spec["kind"] == "no-op":
        bot, seat = NoOp(), seat_noop
    else:
        route_dms_to(index)
        settings = Settings(
            token="bench",
            database_url=spec["url"],
            shard_count=processes,
            shard_ids=(index,),
            turn_timeout=TURN_TIMEOUT,
        )
        bot, seat = create_bot(settings, sync=True), seat_sushi_bar_on(index)

    worker_env: Any = None
    before: set[int] = set()

    async def prepare(env: Any) -> None:
        nonlocal worker_env, before
        # Distinct snowflakes in the shared database: this worker's clock runs index × 10 min ahead.
        # Moved directly (as advance_time does, minus firing a bot's periodic timers 60 times over).
        # What was made before (the bot's own user and application) is the same bot in every worker.
        worker_env, before = env, simcord_private.reserved_ids(env)
        env.backend.advance_clock(index * CLOCK_OFFSET)

    async def barrier() -> None:
        pipe.send(("ready", None))
        while not pipe.poll():  # noqa: ASYNC110 - the loop keeps serving the bot while the others seat
            await asyncio.sleep(0.01)
        start_at: float = pipe.recv()
        await asyncio.sleep(max(0.0, start_at - time.time()))

    try:
        raw = await run_raw(
            bot,
            seat,
            spec["tables"],
            spec["seconds"],
            label=f"{spec['kind']} worker {index}",
            seed=spec["seed"],
            prepare=prepare,
            barrier=barrier,
            measured=lambda: pipe.send(("measured", None)),
            settle=PG_SETTLE if spec["kind"] != "no-op" else 60.0,
        )
        made = simcord_private.reserved_ids(worker_env) - before  # every snowflake its Discord gave out
        return raw | {"snowflakes": (min(made), max(made))}
    finally:
        database = getattr(bot, "database", None)
        if database is not None:  # simcord detaches the bot without closing it
            await database.close()


# ---------------------------------------------------------------- the report


async def noop_run(tables: int, seconds: float, processes: int) -> dict[str, Any]:
    if processes == 1:
        return await run("no-op", NoOp(), seat_noop, tables, seconds)
    raw = await asyncio.to_thread(run_workers, "no-op", tables, seconds, processes, "", lambda: None)
    return summarise(f"no-op×{processes}", tables, raw)


async def main(
    counts: list[int],
    seconds: float,
    *,
    postgres: Postgres | None = None,
    processes: int = 1,
    knee: bool = False,
) -> None:
    logging.basicConfig(level=logging.CRITICAL)  # late answers log tracebacks: not what is measured
    _watch_acknowledgements()
    rows = []
    print(f"{seconds:g} s of clicking, one click per table every {PERIOD:g} s; ack in ms, CPU ms per click")
    heads = ("tables", "clicks", "ack p50", "p99", "max", "unanswered", "CPU")
    print(
        f"{'bot':<{load_report.LABEL_WIDTH}} "
        + " ".join(f"{head:>{width}}" for head, width in zip(heads, (6, 7, 9, 9, 9, 10, 8), strict=True))
    )
    passed: list[int] = []  # the knee's steps that held
    for tables in counts:
        noop = await noop_run(tables, seconds, processes)
        show(noop)
        ours = await sushi_bar_run(tables, seconds, postgres, processes)
        show(ours)
        ratio = {
            "tables": tables,
            "p99_ratio": round(ours["p99_ms"] / noop["p99_ms"], 2),
            "p50_ratio": round(ours["p50_ms"] / noop["p50_ms"], 2),
            "cpu_ratio": round(ours["cpu_ms_per_click"] / noop["cpu_ms_per_click"], 2),
        }
        print(
            f"{'ratio':<{load_report.LABEL_WIDTH}} {tables:>6} {'':>7} {ratio['p50_ratio']:>9.2f}"
            f" {ratio['p99_ratio']:>9.2f} {'':>9} {'':>10} {ratio['cpu_ratio']:>8.2f}",
            flush=True,
        )
        rows += [noop, ours, ratio]
        if knee:
            if ours["unanswered"] == 0 and ours["p99_ms"] < KNEE_P99 * 1e3:
                passed.append(tables)
            else:
                break  # the first step past the knee
    report: dict[str, Any] = {"bench": "load", "seconds": seconds, "period": PERIOD, "rows": rows}
    if postgres is not None or processes > 1 or knee:
        report |= {"database": "postgres" if postgres is not None else "sqlite", "processes": processes}
    if knee:
        report["knee"] = knee_line(counts, passed, rows)
        print(report["knee"]["text"], flush=True)
    print(json.dumps(report))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="N Sushi Go! tables clicking, against a no-op bot")
    parser.add_argument("tables", nargs="*", type=int, default=None, help="table counts (default 1 50 200)")
    parser.add_argument("--seconds", type=float, default=20.0, help="clicking time per run")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="also split the CPU time by origin (Sushi Bar, simcord, discord.py, ...); slows every figure",
    )
    parser.add_argument("--database", choices=("sqlite", "postgres"), default=None, help="default sqlite")
    parser.add_argument(
        "--processes", type=int, default=1, help="worker processes sharing the load (P > 1 implies postgres)"
    )
    parser.add_argument(
        "--database-url", default="", help="a PostgreSQL server to bench against (default: one of our own)"
    )
    parser.add_argument(
        "--knee",
        action="store_true",
        help=f"step the table count upward ({', '.join(map(str, KNEE_STEPS))} or those given) "
        f"and report the highest clicks/s with none unanswered and p99 < {KNEE_P99:g} s",
    )
    arguments = parser.parse_args()
    if arguments.processes < 1:
        parser.error("--processes must be at least 1")
    database = arguments.database or (
        "postgres" if arguments.processes > 1 or arguments.database_url else "sqlite"
    )
    if database == "sqlite" and (arguments.processes > 1 or arguments.database_url):
        parser.error("several processes share one PostgreSQL database: --database postgres")
    if arguments.profile and arguments.processes > 1:
        parser.error("--profile splits one process's CPU time: use it with --processes 1")
    counts: list[int] = arguments.tables or (list(KNEE_STEPS) if arguments.knee else [1, 50, 200])
    PROFILE = arguments.profile  # a module setting, read by run()
    if database == "postgres":
        load_report.LABEL_WIDTH = max(load_report.LABEL_WIDTH, len(f"sushi bar pg×{arguments.processes}"))
    faulthandler.register(signal.SIGUSR1)  # `kill -USR1 <pid>` prints where a long run stands
    options = {"processes": arguments.processes, "knee": arguments.knee}
    if database == "sqlite":
        asyncio.run(main(counts, arguments.seconds, **options))
    else:
        with postgres_server(arguments.database_url) as server:
            asyncio.run(main(counts, arguments.seconds, postgres=server, **options))
