"""What the shared test suites need of Sushi Go! (rules/testkit.py)."""

from __future__ import annotations

import dataclasses
import random

from rules.engine import Rng
from rules.sushigo.computer import known_hands
from rules.sushigo.game import GAME
from rules.sushigo.state import Pick, SushiGoState
from rules.testkit import Testkit


def twin(state: SushiGoState, seat: int, rng: random.Random) -> SushiGoState:
    """The same game for `seat`: the hands it never held and the deck reshuffled among themselves,
    the pending picks of hands it knows swapped for other cards of those hands, another generator."""
    copy = GAME.load(GAME.dump(state))
    known = known_hands(state, seat)
    strangers = [other for other in range(state.players) if other not in known]
    pool = [card for other in strangers for card in copy.hands[other]] + copy.deck
    for other in strangers:
        pick = copy.picks[other]
        if pick is not None:
            pool += list(pick.cards)
    rng.shuffle(pool)
    for other in strangers:
        pick = copy.picks[other]
        taken = len(pick.cards) if pick is not None else 0
        copy.hands[other], pool = pool[: len(copy.hands[other])], pool[len(copy.hands[other]) :]
        if pick is not None:
            copy.picks[other] = Pick(pool[0]) if taken == 1 else Pick(pool[0], pool[1])
            pool = pool[taken:]
    copy.deck = pool
    for other in known:
        pick = copy.picks[other]
        if other != seat and pick is not None and pick.second is None:
            swap = next((card for card in copy.hands[other] if card != pick.card), None)
            if swap is not None:
                copy.hands[other].remove(swap)
                copy.hands[other].append(pick.card)
                copy.picks[other] = Pick(swap)
    copy.rng = Rng(rng.getrandbits(64))
    return copy


def scramble(state: SushiGoState, rng: random.Random) -> None:
    """Every card nobody sees (the deck, the hands, the secret picks) dealt anew, each hand and pick
    keeping its size (a pick leaves its hand at once; chopsticks pick two)."""
    picked = [[card for card in (pick.card, pick.second) if card] for pick in state.picks if pick]
    pool = list(state.deck) + [card for cards in [*state.hands, *picked] for card in cards]
    rng.shuffle(pool)
    state.deck = [pool.pop() for _ in state.deck]
    state.hands = [[pool.pop() for _ in hand] for hand in state.hands]
    state.picks = [
        None
        if pick is None
        else dataclasses.replace(pick, card=pool.pop(), second=pool.pop() if pick.second else None)
        for pick in state.picks
    ]


TESTKIT = Testkit[SushiGoState, Pick](
    hidden=((2, 31), (4, 47)),
    twin=twin,
    chaos_seed=1302,
    chaos_steps=420,
    # Measured 2.04: a revealing pick is its answer, the board and the other hand by DM; a first pick,
    # at a table picking briskly, only its answer (the board waits for the reveal).
    calls_per_click=2.1,
    scramble=scramble,
    lobby_computers=2,
    typed=("pick", "card", True),
)
