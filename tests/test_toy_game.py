"""A sixth game needs no test file to know it: a toy game (tests/toy/, a dice race for two or three),
installed as a temporary package on each side and registered like the five, passes every per-game
check of the shared suites — protocol, codecs, computers, replays, shape — and the catalog parity.
The checks are found in those modules, not listed here: every `test_*` taking a game id."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cogs.kit.words.catalogs import DEFAULT_LANGUAGE, catalog
from rules.computer.brain import LEVELS
from rules.registry import GAMES, REGISTERED
from tests import toy
from tests.cogs import test_locales, test_shape
from tests.rules import test_codec, test_computer, test_protocol, test_replay

SUITES = (test_protocol, test_codec, test_computer, test_replay, test_shape)
LANGUAGES = [DEFAULT_LANGUAGE, *test_locales.TRANSLATIONS]


@pytest.fixture(scope="module", autouse=True)
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with toy.installed(tmp_path_factory.mktemp("toy")):
        yield


def _checks(parameters: set[str]) -> list[Any]:
    """Every test of the shared suites whose parameters are exactly `parameters`."""
    found = []
    for module in SUITES:
        for name, check in vars(module).items():
            wanted = name.startswith("test_") and inspect.isfunction(check)
            if wanted and set(inspect.signature(check).parameters) == parameters:
                found.append(pytest.param(check, id=f"{module.__name__.rsplit('.', 1)[-1]}.{name}"))
    return found


def test_the_toy_game_is_registered_from_its_temporary_packages() -> None:
    entry = REGISTERED[toy.GAME_ID]
    assert GAMES[toy.GAME_ID] is entry.game and entry.package == toy.RULES and entry.cogs == toy.COGS
    assert Path(inspect.getfile(type(entry.game))).parent.name == toy.RULES
    assert catalog("de")["toy.name"] == "Würfelrennen"  # its own cogs package's words


@pytest.mark.parametrize("check", _checks({"game_id"}))
def test_every_per_game_check_passes(check: Callable[..., None]) -> None:
    check(toy.GAME_ID)


@pytest.mark.parametrize("check", _checks({"game_id", "level"}))
@pytest.mark.parametrize("level", LEVELS)
def test_every_per_game_check_passes_at_every_level(check: Callable[..., None], level: str) -> None:
    check(toy.GAME_ID, level)


def test_there_are_checks_of_every_suite() -> None:
    found = {param.id.split(".")[0] for param in _checks({"game_id"}) + _checks({"game_id", "level"})}
    assert found == {module.__name__.rsplit(".", 1)[-1] for module in SUITES}


@pytest.mark.parametrize("language", LANGUAGES)
def test_its_catalogs_are_checked_with_every_other(language: str) -> None:
    assert f"{toy.COGS}.json" in test_locales._files(language)
    for name, check in vars(test_locales).items():
        if name.startswith("test_") and set(inspect.signature(check).parameters) == {"language"}:
            check(language)
