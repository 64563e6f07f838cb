"""All five engines keep the same promises: the Game protocol, options, ranks and determinism."""

from __future__ import annotations

import importlib
import importlib.util
import json
import pkgutil
import random
import typing
from typing import Any

import pytest

import rules
from rules.engine import Game, IllegalAction, Rng, ViewHeader, shared_ranks
from rules.registry import GAMES

GAME_IDS = sorted(GAMES)


def test_every_game_package_in_rules_is_registered():
    """rules.registry is the one list of games: every game package in rules/ is in it, and only those."""
    engines = {}
    for module in pkgutil.iter_modules(rules.__path__):
        if module.ispkg and importlib.util.find_spec(f"rules.{module.name}.game") is not None:
            engines[module.name] = importlib.import_module(f"rules.{module.name}.game").GAME
    assert engines, "no engine found"
    assert {game.id: game for game in engines.values()} == GAMES
    assert all(name == game.id for name, game in engines.items()), "a game's package is named by its id"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_implements_the_protocol(game_id: str):
    game = GAMES[game_id]
    assert isinstance(game, Game)
    assert game.id == game_id
    assert 2 <= game.min_players <= game.max_players <= 6
    assert isinstance(game.options, dict)
    for name, values in game.options.items():
        assert isinstance(name, str) and values and all(isinstance(value, str) for value in values)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_player_counts_and_options_are_checked(game_id: str):
    game = GAMES[game_id]
    for players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(ValueError):
            game.new(players, 1)
    with pytest.raises(ValueError):
        game.new(game.min_players, 1, {"no_such_option": "x"})


def _play(game: Game, seed: int, steps: int = 400) -> str:
    """Random legal play from a seed; the dumped state it reaches."""
    chooser = random.Random(seed)
    state = game.new(game.min_players, seed)
    for _ in range(steps):
        if game.is_over(state):
            break
        seat = chooser.choice(sorted(game.to_move(state)))
        game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
    return json.dumps(game.dump(state), sort_keys=True)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_same_seed_and_same_actions_give_the_same_game(game_id: str):
    game = GAMES[game_id]
    assert _play(game, 7) == _play(game, 7)
    assert _play(game, 7) != _play(game, 8)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_views_are_json_and_name_the_movers(game_id: str):
    game = GAMES[game_id]
    state = game.new(game.max_players, 3)
    for seat in [None, *range(game.max_players)]:
        view = game.view(state, seat)
        json.dumps(view)
        assert view["to_move"] == sorted(game.to_move(state))
        assert view["over"] is False
        assert len(view["scores"]) == game.max_players


HEADER = typing.get_type_hints(ViewHeader)


def _check_header(game: Game[Any, Any], state: Any, seat: int | None) -> None:
    view = game.view(state, seat)
    missing = set(HEADER) - set(view)
    assert not missing, f"{game.id} view lacks {missing}"
    over = game.is_over(state)
    assert view["seat"] == seat
    assert view["to_move"] == sorted(game.to_move(state))
    assert view["over"] is over
    assert view["turn"] is None or view["turn"] in view["to_move"], "turn is the seat to act"
    assert view["round"] is None or (isinstance(view["round"], int) and view["round"] >= 1)
    assert isinstance(view["phase"], str) and (view["phase"] == "over") == over
    assert len(view["scores"]) == len(game.scores(state))
    assert (view["ranking"] == game.ranking(state)) if over else view["ranking"] is None
    assert isinstance(view["last"], list)
    assert all(isinstance(event, dict) and isinstance(event.get("type"), str) for event in view["last"])


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_view_starts_with_the_same_header(game_id: str):
    """seat, to_move, turn (a seat), round, phase, over, scores, ranking, last: one meaning everywhere."""
    game = GAMES[game_id]
    for players in sorted({game.min_players, game.max_players}):
        chooser = random.Random(players)
        state = game.new(players, 21)
        steps = 0
        while True:
            for seat in [None, *range(players)]:
                _check_header(game, state, seat)
            if game.is_over(state) or steps == 1500:
                break
            seat = chooser.choice(sorted(game.to_move(state)))
            game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
            steps += 1
        assert game.view(state, None)["last"] or steps == 0, "the last action is reported"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_unknown_actions_are_refused_with_a_code(game_id: str):
    game = GAMES[game_id]
    with pytest.raises(IllegalAction) as caught:
        game.decode_action({"type": "teleport"})
    assert caught.value.code == "unknown_action"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_default_action_is_always_legal(game_id: str):
    game = GAMES[game_id]
    chooser = random.Random(5)
    state = game.new(game.min_players, 11)
    for _ in range(300):
        if game.is_over(state):
            break
        seat = chooser.choice(sorted(game.to_move(state)))
        action = game.default_action(state, seat)
        assert action in game.legal_actions(state, seat)
        game.apply(state, seat, action)


def test_shared_ranks_skip_after_a_tie():
    assert shared_ranks([10, 10, 5]) == [1, 1, 3]
    assert shared_ranks([(3, 1), (3, 2), (1, 9)]) == [2, 1, 3]


def test_rng_is_restored_exactly():
    rng = Rng(123)
    [rng.below(6) for _ in range(10)]
    copy = Rng(rng.state)
    assert [rng.below(1000) for _ in range(20)] == [copy.below(1000) for _ in range(20)]
    items = list(range(20))
    Rng(5).shuffle(items)
    assert sorted(items) == list(range(20)) and items != list(range(20))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_actions_are_values(game_id: str):
    """An action is a frozen value: equal actions hash alike (the bot caches an action's encoding)."""
    game = GAMES[game_id]
    state = game.new(game.max_players, 3)
    for seat in sorted(game.to_move(state)):
        for action in game.legal_actions(state, seat):
            twin = game.decode_action(game.encode_action(action))
            assert twin == action and hash(twin) == hash(action)
