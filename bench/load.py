"""Load: N concurrent 2-player Sushi Go! tables clicking at a human pace, against a no-op bot.

    .venv/bin/python bench/load.py [N ...] [--seconds S]        e.g. bench/load.py 1 50 200

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
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import faulthandler
import json
import logging
import pstats
import random
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
import simcord
from discord.ext import commands
from simcord import actors as sim_actors
from simcord import interactions as sim_interactions
from simcord.backend import serializers
from simcord.backend.models import interaction as sim_interaction
from simcord.enums import ComponentType, InteractionType

from bot import Settings, create_bot
from tests.e2e.helpers import Table, selects

PERIOD = 2.0  # seconds between two clicks of one table
LATE = 3.0  # Discord's window for answering an interaction
ROOT = str(Path(__file__).resolve().parent.parent)
PROFILE = False  # --profile: split each run's CPU time by origin


# ---------------------------------------------------------------- seeing acknowledgements

_ACKED: dict[int, float] = {}  # id(interaction record) -> when it was answered
_WATCHED: set[int] = set()


def _watch_acknowledgements() -> None:
    """Note the moment simcord's backend marks an interaction answered (every response kind)."""
    model = sim_interaction.Interaction
    original = model.__setattr__

    def noted(self: Any, name: str, value: Any) -> None:
        if name == "responded" and value and id(self) in _WATCHED and id(self) not in _ACKED:
            _ACKED[id(self)] = time.perf_counter()
        original(self, name, value)

    model.__setattr__ = noted  # type: ignore[method-assign]


def emit_select(env: Any, user: Any, message: Any, value: str | None = None) -> Any:
    """Choose `value` (else the first option) in the message's select, as simcord's `select` would,
    without waiting for the bot: returns the interaction's backend record."""
    stored = sim_actors._visible_message(user, message)
    menu = selects(message)[0]
    chosen = value if value is not None else menu.options[0].value
    data = {
        "custom_id": menu.custom_id,
        "component_type": int(ComponentType.STRING_SELECT),
        "values": [chosen],
    }
    guild = getattr(user, "guild", None)
    record, payload = sim_interactions.base_payload(
        env.backend,
        type=int(InteractionType.MESSAGE_COMPONENT),
        channel_id=stored.channel_id,
        guild_id=guild.id if guild is not None else None,
        user_id=user.id,
        data=data,
    )
    payload["message"] = dict(serializers.message_payload(env.backend, stored))
    record.source_message_id = stored.id
    _WATCHED.add(id(record))
    env.backend.emit("INTERACTION_CREATE", payload)
    return record


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
    table = Table(env, "sushigo", ["alice", "bob"])
    await table.seat_everyone()
    names = list(table.players)

    def click(number: int) -> Any:
        name = names[number % 2]
        hand = table.dm(name)
        if hand is None or not selects(hand):
            return None
        return emit_select(env, table.players[name].user, hand)

    return click


# ---------------------------------------------------------------- one run


async def run(
    label: str,
    bot: discord.Client,
    seat: Callable[[Any, int], Awaitable[Clicker]],
    tables: int,
    seconds: float,
) -> dict[str, Any]:
    async with simcord.run(bot) as env:
        clickers = []
        for index in range(tables):
            clickers.append(await seat(env, index))
            print(f"  {label}: {index + 1} of {tables} tables seated", end="\r", file=sys.stderr, flush=True)
        await env.settle()
        records: list[tuple[Any, float]] = []
        skipped = 0
        chooser = random.Random(tables)

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
        # Measured; now let the bot finish what it started (board edits, DMs) before detaching it.
        # simcord's settling is slow with hundreds of tables; a time-out here changes no figure.
        with contextlib.suppress(TimeoutError):
            await env.settle(timeout=60)
    delays = sorted(_ACKED[id(r)] - at if id(r) in _ACKED else float("inf") for r, at in records)
    late = sum(1 for delay in delays if delay > LATE)
    refused = sum(1 for record, _ in records if record.ephemeral)  # a refusal is an ephemeral line
    answered = [delay for delay in delays if delay <= LATE] or [float("nan")]
    clicks = len(records)
    return {
        "bot": label,
        "tables": tables,
        "clicks": clicks,
        "skipped": skipped,
        "p50_ms": round(statistics.median(answered) * 1e3, 2),
        "p99_ms": round(delays[min(len(delays) - 1, int(len(delays) * 0.99))] * 1e3, 2) if delays else None,
        "max_ms": round(delays[-1] * 1e3, 2) if delays else None,
        "unanswered": late,
        "ephemeral": refused,
        "cpu_ms_per_click": round(cpu / clicks * 1e3, 2) if clicks else None,
        **({"cpu_split": cpu_split(profiler)} if profiler is not None else {}),
    }


# Where a function's own time goes, by where its code lives (the first match wins).
ORIGINS = (
    ("Sushi Bar", (f"{ROOT}/cogs/", f"{ROOT}/rules/", f"{ROOT}/storage/", f"{ROOT}/bot.py")),
    ("simcord", ("/simcord/",)),
    ("discord.py", ("/discord/",)),
    ("deepcopy", ("/copy.py",)),  # in this run only simcord deep-copies (every event and request)
    ("sqlite", ("/aiosqlite/", "sqlite3")),
)


def cpu_split(profiler: cProfile.Profile) -> dict[str, float]:
    """Share of the profiled CPU time (functions' own time) by origin; the rest is "other"
    (the standard library, asyncio's loop, json, ...)."""
    totals: dict[str, float] = {}
    for (filename, _, name), row in pstats.Stats(profiler).stats.items():  # type: ignore[attr-defined]
        where = f"{filename}:{name}"
        origin = next((label for label, marks in ORIGINS if any(mark in where for mark in marks)), "other")
        if name == "<method 'poll' of 'select.epoll' objects>":
            continue  # waiting, not working
        totals[origin] = totals.get(origin, 0.0) + row[2]
    whole = sum(totals.values()) or 1.0
    return {
        origin: round(spent / whole, 3) for origin, spent in sorted(totals.items(), key=lambda kv: -kv[1])
    }


async def sushi_bar_run(tables: int, seconds: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(
            Settings(token="bench", database_path=str(Path(folder) / "bench.db"), turn_timeout=3600.0),
            sync=True,
        )
        try:
            return await run("sushi bar", bot, seat_sushi_bar, tables, seconds)
        finally:
            if hasattr(bot, "database"):  # simcord detaches the bot without closing it
                await bot.database.close()


def show(row: dict[str, Any]) -> None:
    print(
        f"{row['bot']:<10} {row['tables']:>6} {row['clicks']:>7} {row['p50_ms']:>9.1f} {row['p99_ms']:>9.1f}"
        f" {row['max_ms']:>9.1f} {row['unanswered']:>10} {row['cpu_ms_per_click']:>8.2f}",
        flush=True,
    )
    if "cpu_split" in row:
        print("           CPU by origin: " + ", ".join(f"{k} {v:.0%}" for k, v in row["cpu_split"].items()))


async def main(counts: list[int], seconds: float) -> None:
    logging.basicConfig(level=logging.CRITICAL)  # late answers log tracebacks: not what is measured
    _watch_acknowledgements()
    rows = []
    print(f"{seconds:g} s of clicking, one click per table every {PERIOD:g} s; ack in ms, CPU ms per click")
    heads = ("tables", "clicks", "ack p50", "p99", "max", "unanswered", "CPU")
    print(
        f"{'bot':<10} "
        + " ".join(f"{head:>{width}}" for head, width in zip(heads, (6, 7, 9, 9, 9, 10, 8), strict=True))
    )
    for tables in counts:
        noop = await run("no-op", NoOp(), seat_noop, tables, seconds)
        show(noop)
        ours = await sushi_bar_run(tables, seconds)
        show(ours)
        ratio = {
            "tables": tables,
            "p99_ratio": round(ours["p99_ms"] / noop["p99_ms"], 2),
            "p50_ratio": round(ours["p50_ms"] / noop["p50_ms"], 2),
            "cpu_ratio": round(ours["cpu_ms_per_click"] / noop["cpu_ms_per_click"], 2),
        }
        print(
            f"{'ratio':<10} {tables:>6} {'':>7} {ratio['p50_ratio']:>9.2f} {ratio['p99_ratio']:>9.2f}"
            f" {'':>9} {'':>10} {ratio['cpu_ratio']:>8.2f}",
            flush=True,
        )
        rows += [noop, ours, ratio]
    print(json.dumps({"bench": "load", "seconds": seconds, "period": PERIOD, "rows": rows}))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="N Sushi Go! tables clicking, against a no-op bot")
    parser.add_argument("tables", nargs="*", type=int, default=[1, 50, 200])
    parser.add_argument("--seconds", type=float, default=20.0, help="clicking time per run")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="also split the CPU time by origin (Sushi Bar, simcord, discord.py, ...); slows every figure",
    )
    arguments = parser.parse_args()
    PROFILE = arguments.profile  # a module setting, read by run()
    faulthandler.register(signal.SIGUSR1)  # `kill -USR1 <pid>` prints where a long run stands
    asyncio.run(main(arguments.tables, arguments.seconds))
