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

from cogs.tables import tables_of
from rules.registry import GAMES
from tests.e2e.chaos import Chaos, error_records
from tests.e2e.helpers import Table
from tests.games import kit
from tests.seeds import TableSeeds

# simcord waits in real time for a bot timer due within its settle time-out, and fires a parked
# timer once that much real time has passed. So every real-time clock of the games runs SCALE times
# slower (Sushi Dice's board refresh and computer moves, Kaiten's chopsticks windows): none can
# fire in real time during a run, only when a step moves the virtual clock, and a run replays exactly.
SCALE = 30
SETTLE = 1.5  # seconds of real time the bot has to answer one click or command


@pytest.fixture(autouse=True)
def replayable(request: pytest.FixtureRequest, seeds: TableSeeds, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every new game's seed comes from the run's seed; the games' real-time clocks slow down."""
    seeds.follow(random.Random(kit(request.node.callspec.params["game_id"]).chaos_seed * 7919))
    for game_id in GAMES:  # every game: anyone may open another game's table in the channel
        for module, name, value in kit(game_id).slowed(SCALE):
            monkeypatch.setattr(module, name, value)


@pytest.mark.parametrize("game_id", list(GAMES))
async def test_chaos(simcord_env: Any, game_id: str) -> None:
    env = simcord_env
    seed = kit(game_id).chaos_seed
    env.settle_timeout = SETTLE
    tables = tables_of(env.bot)
    for cog in tables.games.values():
        cog.board_refresh_interval *= SCALE
        cog.computer_delay *= SCALE
    env.bot.get_cog("Roll").draw = random.Random(seed).randrange  # /roll's dice too
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
        chaos = Chaos(env, table, game_id, seed, errors)
        await chaos.run(kit(game_id).chaos_steps)
        games = [record.status for record in await tables.store.every_table()]
    print(
        f"\nchaos {game_id} seed={chaos.seed}: {chaos.step_number} steps, tables {games}, {chaos.summary()}"
    )
