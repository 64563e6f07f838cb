"""The last cards of a Sushi Go! round at two players, searched exactly.

From the second turn of a round at two players a seat knows both hands: the other one is the hand it
passed, short of the card just picked from it, which the seat also saw when it was revealed (the
search's `known_hands`). What is left of the round is then perfect information but for the picks
being simultaneous; `best_pick` plays it out to the round's end over every pair of picks and chooses
the pick whose worst reply is best (maximin: the opponent is credited with knowing the pick). The
round's end is valued as the search values it (`estimate`: the scores, the puddings' promise).
"""

from __future__ import annotations

from collections.abc import Callable

from rules.sushigo.game import SushiGoGame
from rules.sushigo.state import Pick, SushiGoState

GAME = SushiGoGame()
CARDS_LEFT = 4
"""Hands of at most this many cards are searched exactly: 4 without chopsticks on the table (576 plays
of the rest of the round), 3 with them (a pair of cards is a pick too)."""


def searchable(state: SushiGoState, known: int) -> bool:
    """Whether the rest of the round is small enough, and known (`known`: hands the seat knows)."""
    size = len(state.hands[0]) + (len(state.picks[0].cards) if state.picks[0] is not None else 0)
    if state.players != 2 or known != 2 or size > CARDS_LEFT:
        return False
    return size < CARDS_LEFT or not any("chopsticks" in tableau for tableau in state.tableaux)


def _options(state: SushiGoState, seat: int) -> list[Pick]:
    return list(dict.fromkeys(GAME.legal_actions(state, seat)))


def _value(
    state: SushiGoState,
    seat: int,
    round_: int,
    copy: Callable[[SushiGoState], SushiGoState],
    score: Callable[[SushiGoState, int], float],
) -> float:
    if state.over or state.round != round_:
        return score(state, seat)
    other = 1 - seat
    best = -1e9
    for mine in _options(state, seat):
        worst = 1e9
        for theirs in _options(state, other):
            trial = copy(state)
            GAME.apply(trial, seat, mine)
            GAME.apply(trial, other, theirs)
            worst = min(worst, _value(trial, seat, round_, copy, score))
            if worst <= best:
                break  # this pick cannot beat the best one found
        best = max(best, worst)
    return best


def best_pick(
    world: SushiGoState,
    seat: int,
    copy: Callable[[SushiGoState], SushiGoState],
    score: Callable[[SushiGoState, int], float],
) -> Pick:
    """`world`: the state with both hands as the seat knows them and nobody's pick made."""
    other = 1 - seat
    found: list[tuple[float, int, Pick]] = []
    best = -1e9
    for index, mine in enumerate(_options(world, seat)):
        worst = 1e9
        for theirs in _options(world, other):
            trial = copy(world)
            GAME.apply(trial, seat, mine)
            GAME.apply(trial, other, theirs)
            worst = min(worst, _value(trial, seat, world.round, copy, score))
            if worst < best:
                break
        best = max(best, worst)
        found.append((worst, -index, mine))
    return max(found)[2]
