"""Chaos: seated and unseated members press random components and run random slash commands in every
game, for thousands of seeded steps; the bot must answer every interaction exactly once, log no
error and show no hidden information in the channel (the steps and the oracles: `tests/e2e/chaos.py`).

A failure names the game, its seed and the step; the same seed replays the same run.
"""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

import rules.kaiten.game
from rules.registry import GAMES
from tests.e2e.chaos import Chaos, error_records
from tests.e2e.helpers import Table

SEEDS = {"sushizock": 1301, "sushigo": 1302, "rockthebock": 1303, "sushidice": 1304, "kaiten": 1305}
# Steps per game, ~2,000 in all: each game's run costs a few seconds of CPU (Kaiten draws its board
# as a picture after every move, so its run is the shortest).
STEPS = {"sushizock": 420, "sushigo": 420, "rockthebock": 420, "sushidice": 400, "kaiten": 320}

# simcord waits in real time for a bot timer due within its settle time-out, and fires a parked
# timer once that much real time has passed. So every real-time clock of the games runs SCALE times
# slower (Sushi Dice's board refresh and computer moves, Kaiten's chopsticks windows): none can
# fire in real time during a run, only when a step moves the virtual clock, and a run replays exactly.
SCALE = 30
SETTLE = 1.5  # seconds of real time the bot has to answer one click or command


@pytest.fixture(autouse=True)
def replayable(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every new game's seed comes from the run's seed; the games' real-time clocks slow down."""
    draw = random.Random(SEEDS[request.node.callspec.params["game_id"]] * 7919)
    monkeypatch.setattr("secrets.randbits", lambda bits: draw.getrandbits(bits))
    for level, (buttons, widest, shortest) in rules.kaiten.game.DEXTERITY_LEVELS.items():
        monkeypatch.setitem(
            rules.kaiten.game.DEXTERITY_LEVELS, level, (buttons, widest * SCALE, shortest * SCALE)
        )
    monkeypatch.setattr(rules.kaiten.game, "SECONDS_PER_STEP", rules.kaiten.game.SECONDS_PER_STEP * SCALE)
    monkeypatch.setattr(
        rules.kaiten.game, "SECONDS_PER_NEIGHBOUR", rules.kaiten.game.SECONDS_PER_NEIGHBOUR * SCALE
    )


@pytest.mark.parametrize("game_id", list(GAMES))
async def test_chaos(simcord_env: Any, game_id: str) -> None:
    assert set(GAMES) == set(SEEDS) == set(STEPS), "every game has its chaos seed and steps"
    env = simcord_env
    env.settle_timeout = SETTLE
    tables = env.bot.get_cog("Tables")
    for cog in tables.games.values():
        cog.board_refresh_interval *= SCALE
        cog.computer_delay *= SCALE
    env.bot.get_cog("Roll").draw = random.Random(SEEDS[game_id]).randrange  # /roll's dice too
    # ann and ben take DMs, cat has them closed (the "My hand" fallback); dan and eve sit down only if
    # the chaos makes them; eve may change the server's settings; dan's nickname would ping everyone
    # if the bot let it
    table = Table(env, tables.games[game_id].group, ["ann", "ben", "cat"], closed_dms=("cat",))
    admins = table.guild.create_role(
        "Admins", permissions=discord.Permissions(manage_guild=True, manage_channels=True)
    )
    with error_records() as errors:
        await table.seat_everyone()
        table.players["dan"] = table.guild.add_member(env.create_user("dan"), nick="@everyone 🍣")
        table.players["eve"] = table.guild.add_member(env.create_user("eve"), roles=[admins])
        chaos = Chaos(env, table, game_id, SEEDS[game_id], errors)
        await chaos.run(STEPS[game_id])
        games = [record.status for record in await tables.store.every_table()]
    print(
        f"\nchaos {game_id} seed={chaos.seed}: {chaos.step_number} steps, tables {games}, {chaos.summary()}"
    )
