"""Every end-to-end test leaves a transcript of what players saw, and its words are checked."""

from __future__ import annotations

import json
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from cogs.kit import limits
from cogs.kit.words.bidi import plain
from cogs.kit.words.text import t
from cogs.tables import loaded_tables
from tests.e2e import bidi_check, transcript
from tests.e2e.pings_owed import pings_owed

TRANSCRIPTS = Path(__file__).resolve().parents[2] / "transcripts"


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
    _keep_right_to_left_lines(said)
    found = transcript.problems(said, _commands(env.bot))
    found += _over_the_limits(env)
    found += await _unpinged_turns(env, said)
    if found:
        pytest.fail(f"players would read these ({path}):\n" + "\n".join(found[:20]), pytrace=False)


def _over_the_limits(env: Any) -> list[str]:
    """Every payload the bot sent within Discord's documented limits (a refused one reaches nobody),
    its cards within Components V2's."""
    found: list[str] = []
    for request in env.http_requests:
        if isinstance(request.json, dict):
            found += [
                f"{request.method} {request.path}: {problem}" for problem in limits.problems(request.json)
            ]
    return found


def _keep_right_to_left_lines(said: list[transcript.Line]) -> None:
    """SUSHIBAR_RTL_LINES=<file>: every right-to-left line players read is appended to the file, one JSON
    object a line, with how it reads laid out (`bidi_check`), for `bench/rtl_lines.py`'s figures:
    `line`; `problems`, why it would not read right in either paragraph direction (none: it does);
    `fallback`, whether it still reads right once a client drops the isolates."""
    target = os.environ.get("SUSHIBAR_RTL_LINES")
    if not target:
        return
    lines = [part for line in said for unit in line.units for part in unit.split("\n")]
    with open(target, "a", encoding="utf-8") as out:
        out.writelines(
            json.dumps(
                {
                    "line": part,
                    "problems": bidi_check.line_problems(part),
                    "fallback": bidi_check.reads_right_without_isolates(part),
                }
            )
            + "\n"
            for part in lines
            if bidi_check.is_persian(part)
        )


async def _unpinged_turns(env: Any, said: list[transcript.Line]) -> list[str]:
    """Pings help and never nag: a human who owed a move for the server's grace delay or longer was
    pinged once for it (a NEW message — an edit notifies nobody), one who moved sooner was not pinged
    unless a new phase invited them; so each human's 🔔 pings, in the channel or by DM, are exactly
    the pings their games owed them (`pings_owed.py`)."""
    tables = loaded_tables(env.bot)
    if tables is None:
        return []
    owed: dict[int, int] = {}
    unchecked: set[int] = set()
    moment = env.now().timestamp()  # the virtual clock (the bot's own clock is not patched any more)
    for record in await tables.store.every_table():
        cog = tables.games.get(record.game_id)
        if cog is None:
            continue
        found = await pings_owed(
            tables.store, tables.guild_settings, tables.player_settings, cog, record, moment
        )
        unchecked |= found.unchecked
        for user, count in found.pings.items():
            owed[user] = owed.get(user, 0) + count
    # A server whose data was erased (`/settings forget-server`) took its tables' logs along: the pings
    # before that can no longer be accounted for.
    erased = [t("privacy.server.done.title", language) for language in ("en", "de", "es", "fa")]
    last_erased = max(
        (index for index, line in enumerate(said) if any(words in plain(line.raw) for words in erased)),
        default=-1,
    )
    pinged: dict[int, int] = {}
    for index, line in enumerate(said):
        if not plain(line.raw).startswith("🔔"):  # a turn ping, in any language (results notify too)
            continue
        if index < last_erased:
            unchecked |= set(line.pings)
            continue
        users = list(line.pings) if line.where in ("#channel", "#thread") else []
        if line.where.startswith("DM @"):
            users = [u for u, c in env.backend.dm_channels.items() if c == line.target]
        for user in users:
            pinged[user] = pinged.get(user, 0) + 1
    names = {user_id: user.name for user_id, user in env.backend.users.items()}
    return [
        f"{names.get(user, user)} was owed {owed.get(user, 0)} turn pings but got {pinged.get(user, 0)}"
        for user in sorted(owed.keys() | pinged.keys())
        if user not in unchecked and pinged.get(user, 0) != owed.get(user, 0)
    ]
