"""Every end-to-end test leaves a transcript of what players saw, and its words are checked."""

from __future__ import annotations

import os
import random
import re
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from cogs.tables import loaded_tables
from tests.e2e import transcript

TRANSCRIPTS = Path(__file__).resolve().parents[2] / "transcripts"


@pytest.fixture(autouse=True)
def fixed_seeds(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """SUSHIBAR_FIXED_SEEDS=1: every table's seed is drawn from the test's own name, so two runs of
    the suite deal the same games and a change meant to change no behaviour shows identical
    transcripts (`diff -r` of two transcripts folders)."""
    if os.environ.get("SUSHIBAR_FIXED_SEEDS"):
        monkeypatch.setattr(secrets, "randbits", random.Random(request.node.nodeid).getrandbits)


def _commands(bot: Any) -> dict[str, set[str]]:
    """Registered slash commands: name -> its subcommands (empty for a plain command)."""
    found: dict[str, set[str]] = {}
    for command in bot.tree.get_commands():
        subs = set()
        if isinstance(command, app_commands.Group):
            subs = {sub.name for sub in command.commands}
        found[command.name] = subs
    return found


@pytest.fixture(autouse=True)
async def words_players_read(request: pytest.FixtureRequest, simcord_env: Any) -> AsyncIterator[None]:
    transcript.ACTIONS.clear()
    yield
    env = simcord_env
    names = {user_id: user.name for user_id, user in env.backend.users.items()}
    dm_channels = {
        channel: f"DM @{names.get(user, user)}" for user, channel in env.backend.dm_channels.items()
    }
    text = transcript.render(env, names, dm_channels)
    module = Path(str(request.node.fspath)).stem
    path = TRANSCRIPTS / module / (re.sub(r"[^\w.-]+", "_", request.node.name) + ".txt")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    said = transcript.lines(env, names, dm_channels)
    found = transcript.problems(said, _commands(env.bot))
    found += await _unpinged_turns(env, said)
    if found:
        pytest.fail(f"players would read these ({path}):\n" + "\n".join(found[:20]), pytrace=False)


async def _unpinged_turns(env: Any, said: list[transcript.Line]) -> list[str]:
    """Every time a human came to owe a move (after a game's first turn) and then made it, they had
    been told by a NEW message that pings them — an edit of the board notifies nobody."""
    tables = loaded_tables(env.bot)
    if tables is None:
        return []
    owed: dict[int, int] = {}
    for record in await tables.store.every_table():
        cog = tables.games.get(record.game_id)
        if cog is not None:
            for user, count in (await transcript.turns_owed(tables.store, cog, record)).items():
                owed[user] = owed.get(user, 0) + count
    pinged: dict[int, int] = {}
    for line in said:
        for user in line.pings:
            pinged[user] = pinged.get(user, 0) + 1
        if line.where.startswith("DM @") and line.raw.startswith("🔔"):  # a turn ping by DM, in any language
            user = next((u for u, c in env.backend.dm_channels.items() if c == line.target), None)
            if user is not None:
                pinged[user] = pinged.get(user, 0) + 1
    names = {user_id: user.name for user_id, user in env.backend.users.items()}
    return [
        f"{names.get(user, user)} came to owe a move {count} times but was pinged {pinged.get(user, 0)} times"
        for user, count in owed.items()
        if pinged.get(user, 0) < count
    ]
