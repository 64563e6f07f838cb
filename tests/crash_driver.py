"""The crash suite's player: the real bot on simcord and a file database, playing random legal moves.

Run by `tests/test_crash.py`, which SIGKILLs it at random instants and starts it again on the same
database. To restart in a blink, this script is a fork server: it imports everything once, then
for each line `go <seed>` on stdin forks a run — a fresh process as far as the database, the bot
and simcord are concerned, since the server itself never opens any of them — waits for it to end
(by itself or killed) and says so. A run:

- makes a server, two members and a channel per game, in the same order every run, before the
  bot starts. A restarted simcord is a new Discord where every message is gone, but its ids follow
  its clock, which every run starts afresh: the tables of earlier runs find their channels and
  players again (where they do not, they are played through `Tables.act` alone);
- resumes every table still playing in the database, and opens up to `--open` games that have no
  table yet, by the slash command, Join and Start;
- plays one random legal action at a time on a random open table: it clicks the button or select
  of the board or of the player's DM that carries the action, if one of the table's current
  components does, else calls `Tables.act`, the same pipeline a click goes through (moves made of
  several interface steps, boards the bot has not redrawn yet);
- when its tables are over, says DONE if every game has finished.

What it prints, one line each, flushed at once:

    LOADED                                   (the server) imports done, waiting for `go`
    RUN <pid>                                (the server) a run has started as process <pid>
    READY <tables>                           every table of this run is playing: kill from now on
    TRY <game> <table_id> <seat> <action>    about to play this action
    ACK <game> <table_id> <seat> <action>    the click (or call) was answered: the move is accepted
    REFUSED <game> <table_id> <seat> <action> <what>   a legal action was refused (a bug)
    DONE                                     every game has finished
    EXIT <pid> <status>                      (the server) the run has ended; -9: it was killed

<action> is the action's JSON (`game.encode_action`, compact, keys sorted). Every line a run printed
comes before its EXIT line: a line is one write, done before the process can be killed.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import os
import random
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, Python puts tests/ first on the path, where tests/rules would hide rules/.
sys.path[:] = [str(ROOT), *(entry for entry in sys.path if Path(entry or ".").resolve() != ROOT / "tests")]

import discord  # noqa: E402
import simcord  # noqa: E402

from bot import EXTENSIONS, Settings, create_bot  # noqa: E402
from cogs.tables.tables import Tables, tables_of  # noqa: E402
from rules.engine import Game  # noqa: E402
from rules.registry import GAMES  # noqa: E402
from tests.e2e.helpers import buttons, payload, selects  # noqa: E402
from tests.games import kit  # noqa: E402  (each game's fastest sensible table)

PLAYERS = ("alice", "bob")
SMART = 0.85  # how often a seat plays the computer's move rather than any legal one: games end sooner


def say(*words: object) -> None:
    sys.stdout.write(" ".join(str(word) for word in words) + "\n")
    sys.stdout.flush()


def encoded(game: Game[Any, Any], action: Any) -> str:
    return json.dumps(game.encode_action(action), separators=(",", ":"), sort_keys=True)


@dataclass
class Playing:
    """One table this run plays: `channel` is None when this Discord has no channel of its id."""

    game_id: str
    table_id: int
    channel_id: int
    channel: Any | None = None


class Driver:
    """One run's player."""

    def __init__(self, env: simcord.Env, rng: random.Random) -> None:
        self.env = env
        self.rng = rng
        # Made before the bot starts, in the same order every run: the same ids every run.
        self.guild = env.create_guild("Crash test")
        self.members = {
            member.id: member for member in map(self.guild.add_member, map(env.create_user, PLAYERS))
        }
        self.channels = {game_id: self._channel(game_id) for game_id in GAMES}

    def _channel(self, name: str) -> Any:
        """A text channel without threads: each run recreates this Discord, channels with the same ids,
        but not the threads an earlier run's bot opened, so the tables are played in the channels."""
        closed = discord.PermissionOverwrite(create_public_threads=False)
        return self.guild.create_text_channel(name, overwrites={self.guild.default_role: closed})

    @property
    def tables(self) -> Tables:
        return tables_of(self.env.bot)

    async def run(self, open_new: int) -> None:
        records = await self.tables.store.every_table()
        known_channels = {record.channel_id for record in records}
        channels = {channel.id: channel for channel in self.channels.values()}
        playing = [
            Playing(record.game_id, record.id or 0, record.channel_id, channels.get(record.channel_id))
            for record in records
            if record.status == "playing"
        ]
        lobbies = [record.id for record in records if record.status == "lobby"]
        if lobbies:  # the test never kills before READY, so no lobby is ever left behind
            raise RuntimeError(f"tables left in the lobby: {lobbies}")
        opened = {record.game_id for record in records}
        for game_id in [game_id for game_id in GAMES if game_id not in opened][:open_new]:
            playing.append(await self.open(game_id, known_channels))
        say("READY", len(playing))
        while playing:
            table = self.rng.choice(playing)
            if not await self.step(table):
                playing.remove(table)
        # Games still to open are opened by the next run (before its READY): this one just ends.
        records = await self.tables.store.every_table()
        everything = {record.game_id for record in records} == set(GAMES)
        if everything and all(record.status == "finished" for record in records):
            say("DONE")

    async def open(self, game_id: str, known_channels: set[int]) -> Playing:
        """A lobby in the game's channel (never one an earlier table used), a second player, Start."""
        channel = self.channels[game_id]
        while channel.id in known_channels:
            channel = self._channel(game_id)
        host, guest = self.members.values()
        cog = self.tables.games[game_id]
        await self.expect(await host.slash(channel, f"{cog.group} new", **kit(game_id).options))
        await self.expect(await guest.click(self.lobby(channel), label="Join"))
        await self.expect(await host.click(self.lobby(channel), label="Start"))
        record = await self.tables.store.open_table(channel.id)
        assert record is not None and record.status == "playing", record
        return Playing(game_id, record.id or 0, channel.id, channel)

    async def expect(self, result: Any) -> None:
        if not result.acknowledged or result.ephemeral:
            content = getattr(result.response, "content", None)
            raise RuntimeError(f"the lobby refused a step: {content!r}")

    def lobby(self, channel: Any) -> discord.Message:
        board = self.board(channel)
        if board is None:
            raise RuntimeError("no lobby in the channel")
        return board

    def board(self, channel: Any) -> discord.Message | None:
        """The table's board: the newest message of the bot with components."""
        for message in reversed(channel.history()):
            if message.author.bot and message.components:
                return message
        return None

    async def step(self, table: Playing) -> bool:
        """Play one random legal action at the table; False once its game is over."""
        ctx = await self.tables.context(table.channel_id)
        if ctx is None or ctx.state is None:
            return False
        game = ctx.game
        seat = self.rng.choice(sorted(game.to_move(ctx.state)))
        legal = game.legal_actions(ctx.state, seat)
        smart = getattr(game, "computer_action", game.default_action)
        action = smart(ctx.state, seat) if self.rng.random() < SMART else self.rng.choice(legal)
        text = encoded(game, action)
        user_id = ctx.record.seats[seat].user_id
        say("TRY", table.game_id, table.table_id, seat, text)
        refusal = await self.play(table, user_id, ctx, seat, action)
        if refusal is None:
            say("ACK", table.game_id, table.table_id, seat, text)
        else:
            say("REFUSED", table.game_id, table.table_id, seat, text, json.dumps(refusal))
        return True

    async def play(self, table: Playing, user_id: int, ctx: Any, seat: int, action: Any) -> str | None:
        """Click the component carrying `action` (on the board, else the player's DM), else call the
        table machinery; None when the move was accepted, else what the refusal said.

        Only a component of the current board counts (its stamp is the table's now): a board that a
        direct call outdated is redrawn in the background, and a click on it would rightly be refused.
        """
        member = self.members.get(user_id)
        if table.channel is not None and member is not None:
            wanted = ctx.game.encode_action(action)
            stamp = str(self.tables.games[table.game_id].stamp(ctx, seat))
            for message, actor in (
                (self.board(table.channel), member),
                (self.dm(member, table), member.user),
            ):
                if message is None:
                    continue
                result = await self.click(actor, message, wanted, stamp)
                if result is not None:
                    if result.acknowledged and not result.ephemeral:
                        return None
                    return str(getattr(result.response, "content", None) or "no answer")
        try:
            await self.tables.act(table.channel_id, user_id, action)
        except Exception as error:  # a refusal: the test reports it
            return f"{type(error).__name__}: {error}"
        return None

    def dm(self, member: Any, table: Playing) -> discord.Message | None:
        """The newest DM to this player with components of this table."""
        marker = f":{table.channel_id}:"
        for message in reversed(member.user.dm_channel.history()):
            if any(marker in (item.custom_id or "") for item in [*buttons(message), *selects(message)]):
                return message
        return None

    async def click(
        self, actor: Any, message: discord.Message, wanted: dict[str, Any], stamp: str
    ) -> Any | None:
        """Press the button or choose the select option whose action is `wanted`; None if there is none."""
        for item in buttons(message):
            meaning = payload(item)
            usable = not item.disabled and current(item, stamp) and meaning.startswith("a:")
            if usable and json.loads(meaning[2:]) == wanted:
                return await actor.click(message, custom_id=item.custom_id)
        for menu in selects(message):
            if menu.disabled or not current(menu, stamp) or payload(menu) != "a":
                continue
            for option in menu.options:
                if json.loads(option.value) == wanted:
                    return await actor.select(message, [option.value], custom_id=menu.custom_id)
        return None


def current(item: discord.Button | discord.SelectMenu, stamp: str) -> bool:
    """A table component (`sb:<game>:<channel>:<stamp>:<payload>`) of the board as it is now."""
    parts = (item.custom_id or "").split(":", 4)
    return len(parts) == 5 and parts[0] in ("sb", "sbs") and parts[3] == stamp


async def play(database: Path, seed: int, open_new: int) -> None:
    bot = create_bot(Settings(token="simcord", database_path=str(database), turn_timeout=300.0), sync=True)
    # A restarted bot reaches for the boards and DMs of an earlier Discord that is gone: those
    # failures are logged (and expected), not errors of this run.
    env = simcord.Env(bot, check_errors=False)
    driver = Driver(env, random.Random(seed))
    await env.start()
    with env.time_context():
        await driver.run(open_new)
    await env.shutdown()


class ForgottenDiscord(logging.Filter):
    """Drops the expected failures of a restarted bot reaching for an earlier Discord's channels,
    messages and users (404): they are not this run's errors, and their tracebacks cost time."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        while error is not None:
            if isinstance(error, discord.NotFound):
                return False
            error = error.__cause__ or error.__context__
        return True


def run(database: Path, seed: int, open_new: int) -> int:
    """One run, in the forked process; its exit status."""
    try:
        asyncio.run(play(database, seed, open_new))
    except BaseException:
        traceback.print_exc()
        return 1
    return 0


def serve(database: Path, open_new: int) -> None:
    """Fork a run for each `go <seed>`, one at a time, until stdin closes."""
    for extension in EXTENSIONS:  # their imports (Pillow...) too: a run only executes them again
        importlib.import_module(extension)
    say("LOADED")
    for line in sys.stdin:
        word, _, seed = line.strip().partition(" ")
        if word != "go":
            continue
        sys.stderr.flush()
        pid = os.fork()  # the server has no thread, no event loop, no connection: a clean copy
        if pid == 0:
            status = run(database, int(seed or 0), open_new)
            sys.stdout.flush()
            sys.stderr.flush()
            # Exit at once: the aiosqlite thread of a bot that failed would keep the process alive.
            os._exit(status)
        say("RUN", pid)
        _, status = os.waitpid(pid, 0)
        say("EXIT", pid, os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="the crash suite's player, a fork server")
    parser.add_argument("database", type=Path)
    parser.add_argument("--open", type=int, default=len(GAMES), help="new games each run may open")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    for handler in logging.getLogger().handlers:
        handler.addFilter(ForgottenDiscord())
    serve(args.database, args.open)
