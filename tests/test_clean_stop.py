"""A clean stop, end to end: the real bot.py in a process of its own, against bench/standin.py's Discord
stand-in, gets SIGTERM in the middle of Sushi Go! games with clicks in flight.

- it exits with status 0 within 10 s;
- every click it acknowledged is in the database (nothing acknowledged is lost), and every board
  whose edit was waiting (Sushi Go!'s board waits for the next pick, `board_wait`) was edited;
- the SQLite file was checkpointed (no write-ahead log left beside it);
- started again on the same database, it serves the same games on: every seat picks, none refused.

Before that, its /healthz answers 200 (HTTP_PORT), and so does `python bot.py --health` (a container's
HEALTHCHECK), and /metrics counts the picks.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import aiohttp

from bench.load_process import GAMES, READY_DELAY, Table, action, prepare_database, seat_sushi_bar
from bench.standin import Interaction, StandIn

ROOT = Path(__file__).resolve().parents[1]
LAUNCHER = Path(__file__).with_name("standin_bot.py")
TABLES = 4
STOP_LIMIT = 10.0  # what docker stop and systemd wait before they kill


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def bot_process(stand_in: StandIn, database: Path, log: Path, port: int, *args: str) -> Iterator[Any]:
    env = os.environ | {
        "DISCORD_TOKEN": "stand.in.token",
        "DATABASE_PATH": str(database),
        "DATABASE_URL": "",
        "HTTP_PORT": str(port),
        "LOG_LEVEL": "INFO",
        "SHARD_COUNT": "",
        "DEV_GUILD_ID": "",
    }
    with log.open("ab") as output:
        process = subprocess.Popen(
            [sys.executable, str(LAUNCHER), str(stand_in.port), *args],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=output,
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


async def connected(stand_in: StandIn, process: Any, log: Path) -> None:
    """The bot's process has identified and been sent every guild, and discord.py is ready."""
    stand_in._identified.clear()  # the stand-in's flag: this process's IDENTIFY, not the last one's
    waiting = asyncio.ensure_future(stand_in.connected())
    limit = time.monotonic() + 60
    while not waiting.done():
        if process.poll() is not None:
            raise AssertionError(f"the bot ended ({process.returncode}):\n{tail(log)}")
        assert time.monotonic() < limit, "the bot did not connect within 60 s"
        await asyncio.sleep(0.05)
    await asyncio.sleep(READY_DELAY)


def tail(log: Path) -> str:
    return log.read_text()[-3000:]


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as answer:
        return answer.status, await answer.text()


async def pick(table: Table, seat: int) -> Interaction | None:
    """The seat picks the first card of its hand (its DM's menu), if it owes a pick."""
    dm = table.players[seat].dm
    message = table.stand_in.latest(dm)
    menu = action(message, 3)
    if message is None or menu is None:
        return None
    return await table.click(seat, message, menu["custom_id"], [menu["options"][0]["value"]])


def picks(database: Path) -> dict[int, list[int]]:
    """Each table's logged picks, as the seats that made them."""
    with closing(sqlite3.connect(database)) as connection:
        rows = connection.execute(
            "SELECT t.channel_id, a.seat FROM actions a JOIN game_tables t ON t.id = a.table_id"
            " WHERE a.seat IS NOT NULL ORDER BY a.table_id, a.version"
        ).fetchall()
    found: dict[int, list[int]] = {}
    for channel, seat in rows:
        found.setdefault(channel, []).append(seat)
    return found


async def test_sigterm_mid_game_exits_0_in_time_and_loses_nothing_acknowledged(tmp_path: Path) -> None:
    stand_in = StandIn()
    await stand_in.start()
    world = [
        Table(stand_in, GAMES["sushigo"], stand_in.add_guild(f"stop {n}", ["alice", "bob"]))
        for n in range(TABLES)
    ]
    database, log, port = tmp_path / "stop.db", tmp_path / "bot.log", free_port()
    await prepare_database(str(database), [table.guild.id for table in world])
    try:
        with bot_process(stand_in, database, log, port, "--sync") as syncing:  # as README says: once
            assert await asyncio.to_thread(syncing.wait, 60) == 0, log.read_text()[-3000:]
        with bot_process(stand_in, database, log, port) as process:
            await connected(stand_in, process, log)
            for table in world:
                await seat_sushi_bar(table)
            status, body = await get(port, "/healthz")
            assert status == 200 and json.loads(body)["status"] == "ok", body
            asked = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "bot.py", "--health"],
                cwd=ROOT,
                env=os.environ | {"HTTP_PORT": str(port), "HTTP_HOST": ""},
                capture_output=True,
                text=True,
                timeout=30,
            )
            assert asked.returncode == 0 and json.loads(asked.stdout)["status"] == "ok", asked
            # A first pick each, answered; then alice's second picks in flight as SIGTERM comes.
            for seat in (0, 1):
                for record in await asyncio.gather(*(pick(table, seat) for table in world)):
                    assert record is not None
                    await record.wait_answered("a first pick")
            await until_boards_show_turn(world, 2)
            _, metrics = await get(port, "/metrics")
            assert 'sushibar_interactions_total{kind="select",outcome="applied"}' in metrics
            flight = [
                record for record in await asyncio.gather(*(pick(table, 0) for table in world)) if record
            ]
            process.send_signal(signal.SIGTERM)  # at once: the clicks are on their way, or being served
            sent = time.monotonic()
            status = await asyncio.to_thread(process.wait, STOP_LIMIT + 5)
            took = time.monotonic() - sent
        said = log.read_text()
        assert status == 0, said[-3000:]
        assert took < STOP_LIMIT, f"the stop took {took:.1f} s"
        assert "stopped in" in said and "Traceback" not in said, said[-3000:]
        assert (
            not database.with_name("stop.db-wal").exists()
            or database.with_name("stop.db-wal").stat().st_size == 0
        )
        acknowledged = [record for record in flight if record.acked is not None and not record.refused]
        logged = picks(database)
        for table in world:
            seats = logged[table.guild.channel.id]
            clicked = [record for record in acknowledged if record.user in table.players]
            assert seats[:2] == [0, 1] and len(seats) == 2 + len(clicked), (seats, clicked)
            if clicked:  # the board's waiting edit (`board_wait`) was made before the process ended
                board = stand_in.latest(table.guild.channel)
                assert board is not None and "✅" in json.dumps(board["components"], ensure_ascii=False)
        print(
            f"\nSIGTERM with {len(flight)} clicks in flight: exit 0 in {took:.2f} s, "
            f"{len(acknowledged)} acknowledged, all {len(acknowledged)} in the database"
        )

        with bot_process(stand_in, database, log, port) as process:  # the same games go on
            await connected(stand_in, process, log)
            for seat in (0, 1):
                for record in await asyncio.gather(*(pick(table, seat) for table in world)):
                    if record is not None:
                        await record.wait_answered("a pick after the restart")
                        assert not record.refused, record
            after = picks(database)
            assert all(len(after[table.guild.channel.id]) == 4 for table in world), after
            process.send_signal(signal.SIGINT)  # Ctrl+C is the same clean stop
            assert await asyncio.to_thread(process.wait, STOP_LIMIT + 5) == 0
    finally:
        await stand_in.stop()


async def until_boards_show_turn(world: list[Table], turn: int) -> None:
    """The boards have been edited to the turn (the reveal is edited at once, no wait)."""
    limit = time.monotonic() + 10
    while time.monotonic() < limit:
        boards = [table.stand_in.latest(table.guild.channel) for table in world]
        if all(board and f"turn {turn}" in json.dumps(board["components"]) for board in boards):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the boards do not show turn {turn}")
