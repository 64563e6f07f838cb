"""Crash suite: the real bot, SIGKILLed at random instants while it plays, loses nothing and doubles nothing.

`tests/crash_driver.py` plays random legal actions of every game through the real table and storage
layers on a file database, in a subprocess that reports each move it tries and each one answered
(see its docstring). This test kills it at random instants — after a random number of answered
moves, or a random short delay, so some kills land in the middle of a burst of clicks — restarts it
on the same database, and when every game has finished checks the file itself:

- `PRAGMA integrity_check` is ok;
- each table's log is exactly its answered moves, in order, plus at most the one move in flight
  when a run was killed (committed or not): every answered move is there once, nothing twice;
- the stored state is the replay of the log from the logged seed, and each finished game has one
  result per seat.

The driver is a fork server (imports once, forks each run), so a restart costs no import time.
CRASH_SEED=<n> replays a run's choices (the kill instants still depend on timing).
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from rules.registry import GAMES
from rules.replay import Unreplayable, read_log, replay_to, same_state

ROOT = Path(__file__).resolve().parents[1]
DRIVER = Path(__file__).with_name("crash_driver.py")
KILLS = 24  # kills across the games; each game is interrupted several times
MOVES_BEFORE_LAST_KILL = 400  # the five games take 400 moves or more (550 typically)
RUN_LIMIT = 30.0  # seconds one run may take before the test calls it hung
MAX_RUNS = 80


class ForkServer:
    """The driver, serving runs, and what they print, read without blocking."""

    def __init__(self, database: Path, log: Path, stderr: IO[bytes]) -> None:
        self.log = log
        self.process = subprocess.Popen(
            [sys.executable, str(DRIVER), str(database), "--open", "1"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
        )
        self.pending = b""

    def lines(self, timeout: float) -> list[str]:
        """The complete lines printed within `timeout` (none at the end of the output)."""
        stdout = self.process.stdout
        assert stdout is not None
        ready, _, _ = select.select([stdout], [], [], timeout)
        chunk = os.read(stdout.fileno(), 1 << 16) if ready else b""
        assert chunk or not ready, f"the driver ended: {tail(self.log)}"
        *complete, self.pending = (self.pending + chunk).split(b"\n")
        return [line.decode() for line in complete]

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()  # the server ends with its input
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass
class Run:
    """One run of the driver: what it printed, and whether it was killed."""

    lines: list[str] = field(default_factory=list)
    pid: int = 0
    status: int | None = None  # its exit status once ended
    kill_sent: bool = False

    @property
    def killed(self) -> bool:
        return self.status == -signal.SIGKILL

    def said(self, word: str) -> list[str]:
        return [line for line in self.lines if line.startswith(word + " ")]


def one_run(server: ForkServer, seed: int, kill: Callable[[Run, float], bool]) -> Run:
    """Start a run and read it to its end; `kill(run, seconds since READY)` says when to SIGKILL it."""
    run = Run()
    server.send(f"go {seed}")
    try:
        follow(server, run, kill)
    finally:
        if run.pid and run.status is None:  # the test failed meanwhile: leave no run behind
            os.kill(run.pid, signal.SIGKILL)
    assert run.killed or run.status == 0, f"the driver failed (status {run.status}): {tail(server.log)}"
    return run


def follow(server: ForkServer, run: Run, kill: Callable[[Run, float], bool]) -> None:
    """Read the run's lines until its EXIT, killing it once READY when `kill` says so."""
    ready_at: float | None = None
    limit = time.monotonic() + RUN_LIMIT
    while run.status is None:
        assert time.monotonic() < limit, f"a run hung: {tail(server.log)}"
        for line in server.lines(0.002):
            word, _, rest = line.partition(" ")
            if word == "RUN":
                run.pid = int(rest)
            elif word == "EXIT":
                run.status = int(rest.split()[1])
            elif word != "LOADED":
                run.lines.append(line)
            if word == "READY":
                ready_at = time.monotonic()
        alive = run.pid and run.status is None and not run.kill_sent and "DONE" not in run.lines
        if alive and ready_at is not None and kill(run, time.monotonic() - ready_at):
            os.kill(run.pid, signal.SIGKILL)  # what it printed so far comes before its EXIT line
            run.kill_sent = True


@dataclass(frozen=True)
class KillPlan:
    """When to kill a run: `delay` seconds after READY, else once all runs have answered `target`
    moves (`answered` by the runs before it); never when `target` is None."""

    target: float | None
    answered: int
    delay: float | None

    def __call__(self, run: Run, since_ready: float) -> bool:
        if self.target is None:
            return False
        if self.delay is not None:
            return since_ready >= self.delay
        return self.answered + len(run.said("ACK")) >= self.target


def play_with_kills(database: Path, log: Path, rng: random.Random) -> list[Run]:
    """Run the driver until every game has finished, killing KILLS runs at random instants.

    Half the kills come when the answered moves of all runs reach the next of KILLS random points
    spread over the first MOVES_BEFORE_LAST_KILL (fewer than the five games ever take), half after a
    random delay from READY (some in the instant after a restart, while the bot catches up).
    """
    targets = sorted(rng.uniform(0, MOVES_BEFORE_LAST_KILL) for _ in range(KILLS))
    runs: list[Run] = []
    with log.open("wb") as stderr:
        server = ForkServer(database, log, stderr)
        try:
            while not runs or "DONE" not in runs[-1].lines:
                assert len(runs) < MAX_RUNS, f"no end after {MAX_RUNS} runs; driver log: {log}"
                kills = sum(run.killed for run in runs)
                plan = KillPlan(
                    target=targets[kills] if kills < KILLS else None,
                    answered=sum(len(run.said("ACK")) for run in runs),
                    delay=rng.uniform(0.0, 0.1) if rng.random() < 0.5 else None,
                )
                runs.append(one_run(server, rng.randrange(1 << 32), plan))
        finally:
            server.close()
    return runs


def tail(log: Path) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-40:])


@dataclass(frozen=True)
class Expected:
    seat: int
    action: dict[str, Any]
    certain: bool  # answered; an uncertain one was in flight when its run was killed


def expected_moves(runs: list[Run]) -> dict[int, list[Expected]]:
    """Per table, the moves the driver saw answered, plus the one in flight at each kill."""
    moves: dict[int, list[Expected]] = {}
    for run in runs:
        in_flight: dict[int, Expected] = {}
        for line in run.lines:
            word, _, rest = line.partition(" ")
            if word not in ("TRY", "ACK", "REFUSED"):
                continue
            _, table, seat, action = rest.split(" ", 4)[:4]
            move = Expected(int(seat), json.loads(action), certain=True)
            if word == "TRY":
                in_flight[int(table)] = move
            elif word == "ACK":
                in_flight.pop(int(table), None)
                moves.setdefault(int(table), []).append(move)
            else:
                in_flight.pop(int(table), None)
        if run.killed:
            for table, move in in_flight.items():
                moves.setdefault(table, []).append(Expected(move.seat, move.action, certain=False))
    return moves


def log_matches(expected: list[Expected], logged: list[tuple[int, dict[str, Any]]]) -> bool:
    """Whether the log is the expected moves in order, each uncertain one there or not."""
    # fits[i][j]: expected[i:] can be the whole of logged[j:]
    fits = [[False] * (len(logged) + 1) for _ in range(len(expected) + 1)]
    fits[len(expected)][len(logged)] = True
    for i in range(len(expected) - 1, -1, -1):
        move = expected[i]
        for j in range(len(logged), -1, -1):
            same = j < len(logged) and logged[j] == (move.seat, move.action)
            fits[i][j] = (same and fits[i + 1][j + 1]) or (not move.certain and fits[i + 1][j])
    return fits[0][0]


def first_difference(expected: list[Expected], logged: list[tuple[int, dict[str, Any]]]) -> str:
    """Where the log departs from the answered moves: the furthest both can be followed together."""
    reached, frontier = {(0, 0)}, [(0, 0)]
    while frontier:
        i, j = frontier.pop()
        if i == len(expected):
            continue
        steps = [(i + 1, j)] if not expected[i].certain else []
        if j < len(logged) and logged[j] == (expected[i].seat, expected[i].action):
            steps.append((i + 1, j + 1))
        for step in steps:
            if step not in reached:
                reached.add(step)
                frontier.append(step)
    i, j = max(reached, key=lambda point: (point[1], point[0]))
    wanted = f"answered move {i}: {expected[i]}" if i < len(expected) else "no more moves"
    found = f"log move {j}: {logged[j]}" if j < len(logged) else "the end of the log"
    return f"{wanted}, but {found}"


def problems(database: Path, runs: list[Run]) -> list[str]:
    """What the database says went wrong, per table: an empty list when nothing did."""
    found: list[str] = []
    expected = expected_moves(runs)
    with closing(sqlite3.connect(database)) as connection:
        check = connection.execute("PRAGMA integrity_check").fetchall()
        if check != [("ok",)]:
            found.append(f"integrity_check: {check[:5]}")
        tables = connection.execute(
            "SELECT id, game_id, status, version, seats, options, state FROM game_tables ORDER BY id"
        ).fetchall()
        if sorted(table[1] for table in tables) != sorted(GAMES):
            found.append(f"not one table per game: {[table[1] for table in tables]}")
        for table_id, game_id, status, version, seats, options, stored in tables:
            where = f"table {table_id} ({game_id})"
            log = connection.execute(
                "SELECT version, seat, action FROM actions WHERE table_id = ? ORDER BY version", (table_id,)
            ).fetchall()
            entries = [(seat, json.loads(action)) for _, seat, action in log]
            moves = [(seat, action) for seat, action in entries if seat is not None]
            players = len(json.loads(seats))
            results = connection.execute("SELECT COUNT(*) FROM results WHERE table_id = ?", (table_id,))
            if status != "finished":
                found.append(f"{where} did not finish: {status}")
            if [row[0] for row in log] != list(range(1, version + 1)):
                found.append(f"{where}: its versions and its log disagree")
            if not log_matches(expected.get(table_id, []), moves):
                answered = sum(move.certain for move in expected.get(table_id, []))
                found.append(
                    f"{where}: the log ({len(moves)} moves) is not the {answered} answered moves plus"
                    f" those in flight at a kill: {first_difference(expected.get(table_id, []), moves)}"
                )
            game = GAMES[game_id]
            try:
                replayed = replay_to(game, players, json.loads(options), read_log(game, entries), 0)
            except Unreplayable as error:
                found.append(f"{where}: the log does not replay ({error.code})")
            else:
                if not same_state(replayed.final, json.loads(stored)):
                    found.append(f"{where}: the stored state is not the replay of its log")
            if results.fetchone()[0] != players:
                found.append(f"{where}: not one result per seat")
    return found


def test_kills_at_random_instants_lose_no_answered_move_and_apply_none_twice(tmp_path: Path) -> None:
    seed = int(os.environ.get("CRASH_SEED") or (13 if os.environ.get("CI") else random.randrange(1 << 32)))
    database, log = tmp_path / "crash.db", tmp_path / "drivers.log"
    runs = play_with_kills(database, log, random.Random(seed))
    note = f"(CRASH_SEED={seed}; the drivers' log: {log})"

    kills = sum(run.killed for run in runs)
    assert kills >= 20, f"only {kills} kills before every game ended {note}"
    refused = [line for run in runs for line in run.lines if line.startswith("REFUSED")]
    assert not refused, f"legal moves were refused {note}:\n" + "\n".join(refused[:10])
    found = problems(database, runs)
    assert not found, f"after {kills} kills {note}:\n" + "\n".join(found)
