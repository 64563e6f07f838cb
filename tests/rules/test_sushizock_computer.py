"""Sushizock's computer players: one tile model, the stand-in's rule of thumb, hard's position values."""

from __future__ import annotations

import pytest

from rules.computer.play import choose, forget
from rules.sushizock.game import GAME, Roll, Steal, SushizockState, Take, score_piles
from rules.sushizock.greedy import greedy_action, keep
from rules.sushizock.solver import Position, after, estimates, public, utility
from rules.sushizock.turn import Turn, tile_worth
from rules.sushizock.values import TileValues


def position(**changes: object) -> SushizockState:
    state = GAME.new(2, 1)
    for name, value in changes.items():
        setattr(state, name, value)
    return state


def test_the_engine_stand_in_is_the_greedy_rule_of_thumb() -> None:
    state = GAME.new(3, 5)
    for step in range(60):
        if GAME.is_over(state):
            break
        seat = state.turn
        action = GAME.default_action(state, seat)
        assert action == greedy_action(GAME, state, seat)
        GAME.apply(state, seat, choose(GAME, state, seat, "normal", step))


def test_a_finished_position_is_worth_its_scores() -> None:
    piles = ([[4, 6], [3]], [[-1, -2], [-4]])
    done = Position(2, 0, (), (), ((4.0, 6.0), (3.0,)), ((-1.0, -2.0), (-4.0,)), over=True)
    assert estimates(done) == [score_piles(piles[0][0], piles[1][0]), score_piles(piles[0][1], piles[1][1])]
    assert utility(done, 0) > 0.9 > 0.1 > utility(done, 1)


def test_a_sushi_above_the_bones_counts_only_with_bones_to_come() -> None:
    """One bone left in the middle: it goes to the seat to move."""
    bare = Position(2, 1, (), (-1,), ((5.0,), ()), ((), ()))
    covered = Position(2, 1, (), (-1,), ((5.0,), ()), ((-2.0,), ()))
    assert estimates(bare)[0] == pytest.approx(0.0)  # seat 1 takes the last tile: the 5 never counts
    assert estimates(covered)[0] == pytest.approx(3.0)
    assert estimates(Position(2, 0, (), (-1,), ((5.0,), ()), ((), ())))[0] == pytest.approx(4.0)


def test_a_steal_moves_the_tile_and_keeps_the_rows() -> None:
    start = Position(2, 0, (2,), (-1,), ((), (3.0, 6.0)), ((), ()))
    moved = after(start, ("steal", "sushi", 1, 1))
    assert moved.sushi_piles == ((6.0,), (3.0,)) and moved.sushi_row == (2,) and moved.turn == 1


def test_hard_takes_the_last_tile_when_it_wins_the_game() -> None:
    """The last bone covers hard's 5 and ends the game in its favour; the steal would play on."""
    state = position(
        sushi_row=[],
        bone_row=[-1],
        sushi_piles=[[5], [3]],
        bone_piles=[[], [-1]],
        throws=3,
        set_aside=["blue", "blue", "blue", "bone"],
        thrown=["sushi"],
    )
    assert GAME.legal_actions(state, 0) == [Take("bone"), Steal(1, 1)]
    forget()
    assert choose(GAME, state, 0, "hard", 1) == Take("bone")


def test_hard_reads_only_the_tops_of_the_piles() -> None:
    state = position(sushi_piles=[[1, 2, 6], [5]], bone_piles=[[-1], [-4, -2]], sushi_row=[3, 4, 3, 1])
    twin = position(sushi_piles=[[2, 1, 6], [5]], bone_piles=[[-1], [-2, -2]], sushi_row=[3, 4, 3, 1])
    twin.bone_piles[1] = [-4, -2]
    assert public(state) == public(twin)
    GAME.apply(state, 0, Roll())
    assert isinstance(choose(GAME, state, 0, "hard", 3), Roll | Take | Steal)


def test_normal_looks_one_throw_ahead_and_throws_with_the_rule_of_thumbs_dice() -> None:
    """normal plans a throw as the turn's last: never worth more than a whole turn's exact plan, the
    same when one throw is left; throwing on, it sets aside what the rule of thumb would."""
    state, step, seen = GAME.new(2, 3), 0, {1: 0, 2: 0}
    while not GAME.is_over(state) and step < 400:
        seat = state.turn
        if state.throws in seen:
            short = Turn(state, tile_worth(state), horizon=1)
            whole = Turn(state, tile_worth(state))
            for roll in (a for a in GAME.legal_actions(state, seat) if isinstance(a, Roll)):
                planned, exact = short.score(roll), whole.score(roll)
                assert planned <= exact + 1e-9 if state.throws == 1 else planned == pytest.approx(exact)
                seen[state.throws] += 1
            action = choose(GAME, state, seat, "normal", step)
            if isinstance(action, Roll):
                assert action == Roll(keep(state, TileValues(state)))
        GAME.apply(state, seat, choose(GAME, state, seat, "normal", step))
        step += 1
    assert seen[1] and seen[2]
