"""A player with an Arabic-script nickname at a German and a Spanish table: every line that names them
still reads left to right, their name one piece in its place ("🥇 1. @مریم — 27 Punkte", not
"Punkte 27 — مریم@ .1"). The transcript check (`tests/e2e/bidi_check.py`, run on every end-to-end
test) lays each line out both ways; this test makes sure such lines exist and were checked."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cogs.kit.words.bidi import plain
from tests.e2e import bidi_check, transcript
from tests.e2e.helpers import Player, Table, play_to_the_end, text_of
from tests.e2e.languages import admin_sets_language, seat_everyone

NICKNAME = "مریم"


FEATURES = (
    "cogs.stats.leaderboard",
    "cogs.history.cog",
    "cogs.history.replay",
    "cogs.help.cog",
    "cogs.roll.cog",
)


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return (
        "cogs.tables",
        "cogs.games.sushizock.cog",
        "cogs.preferences.settings",
        "cogs.preferences.language",
        *FEATURES,
    )


@pytest.mark.parametrize("language", ["de", "es"])
async def test_an_arabic_script_nickname_reads_in_its_place(simcord_env: Any, language: str) -> None:
    env = simcord_env
    table = Table(env, "sushizock", [NICKNAME, "bob"])
    await env.bot.tree.sync()
    await admin_sets_language(table, language)
    await seat_everyone(table, language)
    players = {seat: Player(table, name) for seat, name in enumerate([NICKNAME, "bob"])}
    await play_to_the_end(table, players)
    names = {user_id: user.name for user_id, user in env.backend.users.items()}
    said = transcript.lines(env, names, {})
    naming = [
        unit
        for line in said
        for unit in line.units
        if NICKNAME in unit or f"<@{table.member(NICKNAME).id}>" in unit
    ]
    assert naming, "no line named the player"
    assert bidi_check.problems(naming) == []
    results = [unit for line in said if line.public for unit in line.units if "🥇" in unit]
    assert results and all(not bidi_check.is_persian(unit) for unit in results)


async def test_every_feature_answer_reads_right_to_left_in_persian(simcord_env: Any) -> None:
    """/leaderboard, /stats, /history, /replay, /games, /rules, /settings show and /roll after a Persian
    game: the transcript check lays out each of their lines both ways."""
    env = simcord_env
    table = Table(env, "sushizock", ["alice", "bob"])
    await env.bot.tree.sync()
    await admin_sets_language(table, "fa")
    await seat_everyone(table, "fa")
    players = {seat: Player(table, name) for seat, name in enumerate(["alice", "bob"])}
    await play_to_the_end(table, players)
    alice = table.member("alice")
    await alice.slash(table.channel, "language", choose="fa")
    listed = await alice.slash(table.channel, "history")
    shown = re.search(r"#(\d+)\*", plain(text_of(listed.response)))  # "**#۱**" (the heading is "### …")
    assert shown, text_of(listed.response)
    number = int(shown[1])
    answers = [
        listed,
        await alice.slash(table.channel, "leaderboard"),
        await alice.slash(table.channel, "stats"),
        await alice.slash(table.channel, "replay", game=number),
        await alice.slash(table.channel, "games"),
        await alice.slash(table.channel, "rules", game="sushizock"),
        await alice.slash(table.channel, "roll", expression="2d6+3"),
    ]
    for answer in answers:
        assert answer.response is not None and text_of(answer.response)
    names = {user_id: user.name for user_id, user in env.backend.users.items()}
    units = [unit for line in transcript.lines(env, names, {}) for unit in line.units]
    persian = [unit for unit in units if bidi_check.is_persian(unit)]
    assert len(persian) > 40 and bidi_check.problems(units) == []
