"""A finished game replayed from its action log is the game that was played: every public view
along the way, and the final state, come out exactly as the table saw them."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import JSON, Game
from rules.registry import GAMES
from rules.replay import GameLog, Move, Unreplayable, read_log, replay_to, same_state, states, steps
from tests.games import kit

GAME_IDS = sorted(GAMES)
Log = list[tuple[int | None, JSON]]


def play(game: Game[Any, Any], seed: int) -> tuple[Log, list[JSON], JSON, int, dict[str, Any]]:
    """A whole seeded game as the table plays it: the log it writes (with the lobby's table-level
    actions and time-out marks), the public view after each move, the final dump."""
    chooser = random.Random(seed)
    players = chooser.randint(game.min_players, game.max_players)
    options = {name: chooser.choice(values) for name, values in game.options.items()}
    deal = chooser.getrandbits(63)
    log: Log = [(None, {"type": "join", "user": 2}), (None, {"type": "start", "user": 1, "seed": deal})]
    state = game.new(players, deal, options)
    views = [json.loads(json.dumps(game.view(state, None)))]
    while not game.is_over(state):
        seat = chooser.choice(sorted(game.to_move(state)))
        steer = getattr(game, "computer_action", None)
        if steer is not None and chooser.random() < kit(game.id).steered:
            action = steer(state, seat)
        else:
            action = chooser.choice(game.legal_actions(state, seat))
        game.apply(state, seat, action)
        logged = json.loads(json.dumps(game.encode_action(action)))
        if chooser.random() < 0.1:
            logged["by"] = chooser.choice(["timeout", "computer"])
        log.append((seat, logged))
        if chooser.random() < 0.02:  # a player leaves and comes back: table-level, not a move
            log.append((None, {"type": chooser.choice(["leave", "join"]), "user": seat}))
        views.append(json.loads(json.dumps(game.view(state, None))))
    return log, views, game.dump(state), players, options


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_replaying_the_log_gives_back_every_public_view_and_the_final_state(game_id: str, seed: int):
    game = GAMES[game_id]
    log, views, final, players, options = play(game, seed)
    game_log = read_log(game, log)
    replayed = [
        json.loads(json.dumps(game.view(state, None))) for _, state in steps(game, players, options, game_log)
    ]
    assert replayed == views
    last = replay_to(game, players, options, game_log, len(game_log.moves))
    assert same_state(last.final, final)
    assert same_state(game.dump(last.state), final)
    assert game.is_over(last.state)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_any_step_can_be_shown_and_the_end_is_still_checked(game_id: str):
    game = GAMES[game_id]
    log, views, final, players, options = play(game, 20240517)
    game_log = read_log(game, log)
    total = len(game_log.moves)
    for number in (0, 1, total // 2, total):
        replayed = replay_to(game, players, options, game_log, number)
        assert replayed.step.number == number and replayed.total == total
        assert json.loads(json.dumps(game.view(replayed.state, None))) == views[number]
        assert same_state(replayed.final, final)
    assert replay_to(game, players, options, game_log, total + 5).step.number == total
    assert replay_to(game, players, options, game_log, -3).step.number == 0
    middle = replay_to(game, players, options, game_log, total // 2)
    assert middle.step.move is not None and middle.step.move.seat == log_seats(log)[total // 2 - 1]


def log_seats(log: Log) -> list[int]:
    return [seat for seat, _ in log if seat is not None]


def test_states_are_independent_copies_and_time_out_marks_are_kept():
    game = GAMES["sushizock"]
    log, views, _, players, options = play(game, 5)
    game_log = read_log(game, log)
    kept = states(game, players, options, game_log)
    assert len(kept) == len(game_log.moves) + 1 == len(views)
    assert [json.loads(json.dumps(game.view(state, None))) for state in kept] == views
    marked = [(seat, entry["by"]) for seat, entry in log if seat is not None and "by" in entry]
    assert [(move.seat, move.by) for move in game_log.moves if move.by != "player"] == marked


def test_a_game_started_before_seeds_were_logged_cannot_be_replayed():
    game = GAMES["sushizock"]
    log, *_ = play(game, 3)
    unseeded = [(seat, {k: v for k, v in entry.items() if k != "seed"}) for seat, entry in log]
    with pytest.raises(Unreplayable) as caught:
        read_log(game, unseeded)
    assert caught.value.code == "no_seed"


def test_a_log_the_engine_judges_differently_is_refused_not_shown_wrong():
    game = GAMES["rockthebock"]
    log, _, _, players, options = play(game, 11)
    game_log = read_log(game, log)
    first = game_log.moves[0]
    wrong_seat = (first.seat + 1) % players
    tampered = GameLog(game_log.seed, (Move(wrong_seat, first.action), *game_log.moves[1:]))
    with pytest.raises(Unreplayable) as caught:
        replay_to(game, players, options, tampered, 0)
    assert caught.value.code == "diverged"
    with pytest.raises(Unreplayable):
        read_log(game, [*log, (0, {"type": "no_such_move"})])
