"""The toy game (tests/toy/) end to end, from its temporary packages: the bot loads its cog like
any registered game's, two players play it through their buttons, one human plays it against a
computer from the lobby (the computers suite's own test), and a short chaos run finds no error, no
unanswered click and no leak (the chaos suite's own test)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import EXTENSIONS, GAME_EXTENSIONS
from cogs.i18n import catalog
from cogs.tables import tables_of
from rules.registry import GAMES
from tests import toy
from tests.e2e import test_chaos, test_computers
from tests.e2e.helpers import Player, Table, play_to_the_end
from tests.e2e.test_sushidice import DiceScript
from tests.games import extensions as game_extensions
from tests.games import group, kit


@pytest.fixture
def toy_game(tmp_path: Path) -> Iterator[None]:
    folder = tmp_path / "packages"
    folder.mkdir()
    with toy.installed(folder):
        yield


@pytest.fixture
def extensions(toy_game: None) -> tuple[str, ...]:
    """The bot's own extensions, with every registered game's (the toy's included) after the tables."""
    tables, *features = (name for name in EXTENSIONS if name not in GAME_EXTENSIONS)
    return (tables, *game_extensions(), *features)


async def test_two_players_play_a_whole_game_by_their_buttons(simcord_env: Any) -> None:
    table = Table(simcord_env, group(toy.GAME_ID), ["alice", "bob"])
    await table.seat_everyone(**kit(toy.GAME_ID).options)
    await play_to_the_end(table, {seat: Player(table, name) for seat, name in enumerate(table.players)})
    record = await table.tables.store.last_table(table.channel.id)
    assert record is not None and record.status == "finished" and record.game_id == toy.GAME_ID
    assert catalog("en")["results.title"].split("{")[0].strip() in table.public_text()
    assert "Dice Race" in table.public_text()


async def test_one_human_against_a_computer_from_the_lobby(simcord_env: Any) -> None:
    for cog in tables_of(simcord_env.bot).games.values():
        cog.computer_delay = test_computers.QUICK
    await test_computers.test_one_human_against_computers_from_the_lobby(
        simcord_env, DiceScript(), toy.GAME_ID
    )


async def test_a_chaos_run(simcord_env: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    draw = random.Random(kit(toy.GAME_ID).chaos_seed * 7919)  # as the chaos suite's own fixture does
    monkeypatch.setattr("secrets.randbits", lambda bits: draw.getrandbits(bits))
    for game_id in GAMES:
        for module, name, value in kit(game_id).slowed(test_chaos.SCALE):
            monkeypatch.setattr(module, name, value)
    await test_chaos.test_chaos(simcord_env, toy.GAME_ID)
