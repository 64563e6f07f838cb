"""Computer players (rules.computer): legal moves only, blind to what their seat cannot know, games end.

Hard's budget is cut down here (`rollouts=`): the search is the same, only shorter; the arena
(bench/arena.py) is where strength and decision times are measured.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.computer.brain import LEVELS, PACE
from rules.computer.play import choose, forget
from rules.registry import GAMES
from rules.sushidice.game import GAME as DICE_GAME
from rules.sushidice.game import Chop, Yuck
from rules.sushigo import computer as sushigo_computer
from rules.sushigo.state import Pick
from rules.sushizock.computer import Turn, tile_worth
from rules.sushizock.game import Roll, Take
from tests.games import kit
from tests.rules.playing import board, play

ROOT = Path(__file__).resolve().parents[2]
SMALL = 12
"""Hard's rollouts in these tests."""


def _legal(game_id: str, state: Any, seat: int, action: Any) -> bool:
    return kit(game_id).as_listed(action) in GAMES[game_id].legal_actions(state, seat)


# ---------------------------------------------------------------- legal moves only


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("level", LEVELS)
def test_computers_choose_only_legal_actions(game_id: str, level: str) -> None:
    game = GAMES[game_id]
    for players in (game.min_players, game.max_players):
        for moves in (0, 7, 23, 41):
            state = play(game_id, players, 100 + moves, moves)
            if game.is_over(state):
                continue
            for seat in sorted(game.to_move(state)):
                action = choose(game, state, seat, level, 5, published=board(game_id, state), rollouts=SMALL)  # type: ignore[arg-type]
                if action is None:  # a real-time game: nothing to do now (Sushi Dice: no Chop! to call)
                    assert kit(game_id).real_time
                    continue
                assert _legal(game_id, state, seat, action), (players, moves, seat, action)


def test_a_seat_that_may_not_move_is_refused() -> None:
    game = GAMES["sushizock"]
    state = game.new(2, 1)
    with pytest.raises(ValueError):
        choose(game, state, 1, "normal", 0)


# ---------------------------------------------------------------- hidden information stays hidden


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_same_seed_chooses_the_same_whatever_the_seat_cannot_know(game_id: str) -> None:
    game = GAMES[game_id]
    rng = random.Random(game_id)
    for players, moves in kit(game_id).hidden:
        state = play(game_id, players, 7, moves)
        assert not game.is_over(state)
        for seat in sorted(game.to_move(state)):
            twin = kit(game_id).twin(state, seat, rng)
            assert game.dump(twin) != game.dump(state), "the twin differs in what the seat cannot see"
            published = board(game_id, state)
            for level in LEVELS:
                for seed in (1, 2):
                    forget()
                    mine = choose(game, state, seat, level, seed, published=published, rollouts=SMALL)  # type: ignore[arg-type]
                    forget()
                    theirs = choose(game, twin, seat, level, seed, published=published, rollouts=SMALL)  # type: ignore[arg-type]
                    assert mine == theirs, (players, seat, level, seed)


def test_a_sushi_go_computer_remembers_the_hands_it_passed_on() -> None:
    """At two players the opponent's hand is the one this seat just passed: known, not guessed."""
    game = GAMES["sushigo"]
    state = play("sushigo", 2, 3, 4)  # turn 3 of round 1
    assert state.turn == 3
    assert sushigo_computer.known_hands(state, 0) == {
        0: sorted(state.hands[0]),
        1: sorted(state.hands[1]),
    }
    world = sushigo_computer.determinize(state, 0, random.Random(1))
    assert sorted(world.hands[1]) == sorted(state.hands[1]) and world.picks == [None, None]
    assert sorted(world.deck) == sorted(state.deck)
    assert game.legal_actions(world, 1)


# ---------------------------------------------------------------- the blunders issue 15 names


def test_sushi_go_normal_takes_the_deciding_pudding_over_a_lone_tempura() -> None:
    """Round 3, two cards left: a tempura that can never be paired is worth nothing; the pudding
    that breaks the tie for most puddings is worth 6 (and would go to the opponent otherwise)."""
    game = GAMES["sushigo"]
    state = game.new(2, 1)
    state.round, state.turn = 3, 7
    state.deck = []
    state.hands = [["tempura", "pudding"], ["egg", "salmon"]]
    state.tableaux = [["squid", "maki3"], ["maki2", "pudding"]]
    state.puddings = [2, 1]
    for level in ("normal", "hard"):
        assert choose(game, state, 0, level, 1, rollouts=60) == Pick("pudding")  # type: ignore[arg-type]


def test_sushizock_normal_takes_the_bone_that_makes_its_six_count() -> None:
    """Late in the game the last bone, a -1, puts the 6 on top of the sushi pile under cover: take it
    rather than throw again (the stand-in threw again)."""
    game = GAMES["sushizock"]
    state = game.new(2, 1)
    state.sushi_row, state.bone_row = [2, 1], [-1]
    state.sushi_piles = [[3, 6], [5, 4, 2]]
    state.bone_piles = [[-2], [-1, -2, -2]]
    state.throws, state.set_aside, state.thrown = 1, [], ["bone", "sushi", "sushi", "blue", "red"]
    action = choose(game, state, 0, "normal", 1)
    assert action == Take("bone")
    for horizon in (1, 2):  # normal looks one throw ahead; a whole turn's look agrees
        turn = Turn(state, tile_worth(state), horizon=horizon)
        assert turn.score(Take("bone")) > max(turn.score(Roll(keep)) for keep in ((0,), (1, 2), (3,)))


def test_sushi_dice_computers_call_yuck_on_a_board_they_have_seen() -> None:
    game = GAMES["sushidice"]
    state = play("sushidice", 2, 11, 6)
    red, blue = state.sets
    blue.faces = ["maguro", "sake", "ebi", "yuck", "kappa", "tamago"]
    blue.thrown = [state.throws] * 6
    blue.dated(state.throws)  # the board of this stamp shows its yuck, none before
    for level in ("normal", "hard"):
        assert choose(game, state, red.holder, level, 1, published=state.throws) == Yuck(state.throws)  # type: ignore[arg-type]
        # Not on a board that never showed it, and never without a board.
        assert not isinstance(choose(game, state, red.holder, level, 1, published=state.throws - 1), Yuck)  # type: ignore[arg-type]
        assert not isinstance(choose(game, state, red.holder, level, 1), Yuck)  # type: ignore[arg-type]


def test_sushi_dice_spectators_call_chop_and_otherwise_wait() -> None:
    game = GAMES["sushidice"]
    state = play("sushidice", 3, 4, 3)
    for dice in state.sets:
        dice.faces = ["maguro", "sake", "ebi", "yuck", "kappa", "tamago"]
        dice.thrown = [state.throws] * 6
        dice.yucks = [state.throws]
    spectator = next(seat for seat in range(3) if DICE_GAME.dice_of(state, seat) is None)
    action = choose(game, state, spectator, "normal", 1, published=state.throws)
    assert isinstance(action, Chop) and action.seen == state.throws
    assert choose(game, state, spectator, "normal", 1) is None
    assert PACE["hard"].click < PACE["normal"].click < PACE["easy"].click


# ---------------------------------------------------------------- games of computers end


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("level", LEVELS)
def test_games_of_computers_end(game_id: str, level: str) -> None:
    game = GAMES[game_id]
    players = game.min_players if level == "hard" else game.max_players
    state = game.new(players, 42)
    for step in range(20_000):
        if game.is_over(state):
            break
        for seat in sorted(game.to_move(state)):
            if seat not in game.to_move(state):
                continue
            action = choose(game, state, seat, level, step, published=board(game_id, state), rollouts=2)  # type: ignore[arg-type]
            if action is not None:
                game.apply(state, seat, action)
    assert game.is_over(state)
    assert min(game.ranking(state)) == 1


# ---------------------------------------------------------------- the same move in every process

_DECISIONS = """
import json, sys, tempfile
from pathlib import Path
from rules.registry import GAMES
from tests.rules.playing import play
from rules.computer.play import choose
game_id = sys.argv[1]
if game_id not in GAMES:  # the toy game of tests/test_toy_game.py, from its temporary packages
    from tests import toy
    kept = toy.installed(Path(tempfile.mkdtemp()))  # held: a dropped generator would unregister it
    kept.__enter__()
game = GAMES[game_id]
chosen = []
for moves in range(0, 40, 3):
    state = play(game_id, game.max_players, 900 + moves, moves, level="easy")
    if game.is_over(state):
        break
    seat = min(game.to_move(state))
    for level in ("easy", "normal"):
        action = choose(game, state, seat, level, 77 + moves, published=None)
        chosen.append(None if action is None else game.encode_action(action))
print(json.dumps(chosen, sort_keys=True))
"""


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_same_state_and_seed_give_the_same_move_in_every_process(game_id: str) -> None:
    """A decision may not depend on the process's string hashing (the order of a set of card names):
    a replay, or a restart between a decision and its retry, must see the same move."""
    runs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", _DECISIONS, game_id],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(done.stdout)
    assert runs[0] == runs[1]
