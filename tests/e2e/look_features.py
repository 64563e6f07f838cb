"""The feature answers as players see them: /roll, /games, /rules, /leaderboard, /stats, /history,
/replay and /settings show, each a card, drawn by simcord's Preview after one short game.

Not part of the suite: `bench/look.py` runs it with `tests/e2e/look_games.py` (its Chromium, its
`LOOK_OUT`, `LOOK_LANGUAGES`); pictures go to `LOOK_OUT/features/<language>-<answer>-<screen>.png`.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot import EXTENSIONS
from tests.e2e.helpers import Player, Table, play_to_the_end
from tests.e2e.look_games import LANGUAGE_IDS, Camera, debian_chromium
from tests.games import kit

__all__ = ["debian_chromium"]  # the Preview's browser, for every test here

GAME = "sushizock"  # a short game whose results fill /leaderboard, /stats, /history and /replay


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return EXTENSIONS  # every cog: the features too


@pytest.mark.parametrize("language", LANGUAGE_IDS)
async def test_look_features(simcord_env: Any, language: str) -> None:
    env = simcord_env
    table = Table(env, GAME, ["alice", "bob"])
    camera = Camera(table, "features", language)
    await env.bot.tree.sync()
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(env.create_user("admin"), roles=[admins])
    await admin.slash(table.channel, "settings language", choose=language)
    await table.seat_everyone(**kit(GAME).options)
    await play_to_the_end(table, {seat: Player(table, name) for seat, name in enumerate(table.players)})
    table.players["admin"] = admin  # seen by the camera, after the game
    where = table.parent  # the feature commands are given in the text channel
    answers: dict[str, tuple[str, str, dict[str, Any]]] = {
        "roll": ("alice", "roll", {"expression": "4d6kh3 + 2"}),
        "games": ("alice", "games", {}),
        "rules": ("alice", "rules", {"game": GAME}),
        "leaderboard": ("alice", "leaderboard", {}),
        "leaderboard-picture": ("alice", "leaderboard", {"picture": True}),
        "stats": ("alice", "stats", {}),
        "history": ("alice", "history", {}),
        "replay": ("alice", "replay", {"game": 1}),
        "settings": ("admin", "settings show", {}),
    }
    for moment, (who, command, options) in answers.items():
        result = await table.member(who).slash(where, command, **options)
        if result.response is not None:
            await camera.shoot(moment, result.response.message, viewer=who, channel=where)
    await admin.slash(where, "settings season", new=True)  # the season ends: its podium is posted
    await camera.shoot("podium", where.last_message, viewer="admin", channel=where)
