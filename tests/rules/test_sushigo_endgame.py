"""Sushi Go!'s hard searches the last cards of a round exactly at two players, once both hands are known."""

from __future__ import annotations

from rules.computer.play import choose
from rules.sushigo.computer import known_hands
from rules.sushigo.endgame import searchable
from rules.sushigo.game import SushiGoGame
from rules.sushigo.state import Pick

GAME = SushiGoGame()


def late_round(hands: list[list[str]], tableaux: list[list[str]]) -> object:
    state = GAME.new(2, 1)
    state.round, state.turn = 1, 10 - len(hands[0]) + 1
    state.hands, state.tableaux = hands, tableaux
    return state


def test_only_a_known_and_short_rest_of_the_round_is_searched() -> None:
    state = GAME.new(2, 3)
    assert not searchable(state, len(known_hands(state, 0)))  # turn 1: the other hand is unknown
    late = late_round([["egg", "squid", "tempura"], ["salmon", "dumpling", "maki1"]], [[], []])
    assert searchable(late, len(known_hands(late, 0)))  # type: ignore[arg-type]


def test_hard_takes_what_the_opponent_would_score_with() -> None:
    """Three cards left: the squid is worth 3 to hard and 9 on the opponent's unused wasabi, who would
    get it with the hand hard passes; the tempura that pairs hard's own is worth less than that."""
    state = late_round(
        [["squid", "egg", "tempura"], ["sashimi", "egg", "egg"]],
        [["sashimi", "sashimi", "tempura"], ["wasabi"]],
    )
    assert choose(GAME, state, 0, "hard", 1) == Pick("squid")  # type: ignore[arg-type]
