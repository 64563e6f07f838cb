"""A player with an Arabic-script nickname at a German and a Spanish table: every line that names them
still reads left to right, their name one piece in its place ("🥇 1. @مریم — 27 Punkte", not
"Punkte 27 — مریم@ .1"). The transcript check (`tests/e2e/bidi_check.py`, run on every end-to-end
test) lays each line out both ways; this test makes sure such lines exist and were checked."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e import bidi_check, transcript
from tests.e2e.helpers import Player, Table, play_to_the_end
from tests.e2e.test_languages import admin_sets_language, seat_everyone

NICKNAME = "مریم"


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", "cogs.sushizock.cog", "cogs.settings", "cogs.language")


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
