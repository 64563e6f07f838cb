"""The toy game (tests/toy/) end to end, from its temporary packages: the bot loads its cog like
any registered game's, two players play it through their buttons, one human plays it against a
computer from the lobby (the computers suite's own test), and a short chaos run finds no error, no
unanswered click and no leak (the chaos suite's own test)."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import EXTENSIONS, GAME_EXTENSIONS
from cogs.kit.words.catalogs import catalog
from cogs.tables import tables_of
from rules.registry import GAMES
from tests import toy
from tests.e2e import test_chaos, test_computers
from tests.e2e.helpers import Player, Table, card_texts, play_to_the_end, text_of
from tests.e2e.rigged_dice import DiceScript
from tests.games import extensions as game_extensions
from tests.games import group, kit
from tests.seeds import TableSeeds


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


async def test_a_chaos_run(simcord_env: Any, seeds: TableSeeds, monkeypatch: pytest.MonkeyPatch) -> None:
    seeds.follow(random.Random(kit(toy.GAME_ID).chaos_seed * 7919))  # as the chaos suite's own fixture does
    for game_id in GAMES:
        for module, name, value in kit(game_id).slowed(test_chaos.SCALE):
            monkeypatch.setattr(module, name, value)
    await test_chaos.test_chaos(simcord_env, toy.GAME_ID)


async def test_it_shows_in_games_rules_roll_and_stats_with_its_colour(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Everything a sixth game brings comes from its own two packages: its title in /games, its rules in
    /rules, its dice in /roll and /rolls help, its line on /stats in its own colour."""
    env = simcord_env
    await env.bot.tree.sync()
    table = Table(env, group(toy.GAME_ID), ["alice", "bob"])
    alice = table.member("alice")
    listed = await alice.slash(table.parent, "games")
    assert "Dice Race" in text_of(listed.response)
    rules = await alice.slash(table.parent, "rules", game=toy.GAME_ID)
    assert catalog("en")["toy.rules.text"] in text_of(rules.response)
    rolled = await alice.slash(table.parent, "roll", expression="race")
    assert "2 Dice Race dice" in text_of(rolled.response) and "= **" in "\n".join(card_texts(rolled.response))
    helped = await alice.slash(table.parent, "rolls help")
    assert "`race` (2 Dice Race dice, `race 1` for one)" in text_of(helped.response)

    await table.seat_everyone(**kit(toy.GAME_ID).options)
    await play_to_the_end(table, {seat: Player(table, name) for seat, name in enumerate(table.players)})
    drawn: list[Any] = []
    # The extension's own module (discord.py loads an extension as a module object of its own).
    real = sys.modules["cogs.stats.leaderboard"].stats_png

    def stats_png(name: str, lines: list[Any], *args: Any) -> bytes:
        drawn.extend(lines)
        return real(name, lines, *args)

    monkeypatch.setattr(sys.modules["cogs.stats.leaderboard"], "stats_png", stats_png)
    stats = await alice.slash(table.channel, "stats")
    assert stats.response is not None and stats.response.attachments, text_of(stats.response)
    assert [(line.title, line.colour) for line in drawn] == [("Dice Race", (255, 214, 102))]
