"""Sushi Go!'s computer players: a quick table for rollouts and `easy`, an outlook model for `normal`,
the shared search for `hard` (and at two players the last cards of a round exactly: `endgame.py`).

What a seat knows (and all these read): its own hand, every tableau, the kept puddings, the discard
(every earlier tableau was on the table), and the hands it has passed on this round — a hand it held
is now at a seat to its left, short of the picks revealed since, so `hands[j] + picks[j]` is known as
a whole for those seats (which card of it was just picked is not). Every other hand and the deck are
drawn from the unseen cards; nothing else of the state is read.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from rules.computer.brain import SearchedBrain
from rules.computer.search import margin_utility
from rules.engine import Game, Rng
from rules.sushigo.endgame import best_pick, searchable
from rules.sushigo.game import HAND_SIZE, ROUNDS, SushiGoGame
from rules.sushigo.scoring import CARDS, DECK, DUMPLING_POINTS, MAKI_ROLLS, NIGIRI, nigiri
from rules.sushigo.state import Pick, SushiGoState

TOTAL = Counter(DECK)
SCALE = 8.0
"""Points that make a clear lead (the search's utility)."""


def copy_state(state: SushiGoState) -> SushiGoState:
    """A copy a rollout may change (round_points' inner lists are never changed in place)."""
    return SushiGoState(
        players=state.players,
        rng=Rng(state.rng.state),
        options=dict(state.options),
        round=state.round,
        turn=state.turn,
        deck=list(state.deck),
        hands=[list(hand) for hand in state.hands],
        picks=list(state.picks),
        tableaux=[list(tableau) for tableau in state.tableaux],
        puddings=list(state.puddings),
        discard=list(state.discard),
        scores=list(state.scores),
        round_points=list(state.round_points),
        pudding_points=list(state.pudding_points),
        last=state.last,
        over=state.over,
    )


def turn_size(state: SushiGoState) -> int:
    """Cards every hand held at the start of this turn (public)."""
    pick = state.picks[0]
    return len(state.hands[0]) + (len(pick.cards) if pick is not None else 0)


def known_hands(state: SushiGoState, seat: int) -> dict[int, list[str]]:
    """Per seat whose hand `seat` has held this round, that hand as a sorted whole (its pick put back)."""
    known: dict[int, list[str]] = {}
    for other in range(state.players):
        if other == seat or 1 <= (other - seat) % state.players <= state.turn - 1:
            pick = state.picks[other]
            known[other] = sorted(state.hands[other] + list(pick.cards if pick is not None else ()))
    return known


def unseen(state: SushiGoState, known: dict[int, list[str]]) -> Counter[str]:
    """Cards whose place the seat cannot know: the deck and the hands it has not held."""
    pool = Counter(TOTAL)
    for cards in known.values():
        pool.subtract(cards)
    for tableau in state.tableaux:
        pool.subtract(tableau)
    pool.subtract(state.discard)
    pool["pudding"] -= sum(state.puddings)
    return +pool


def determinize(state: SushiGoState, seat: int, rng: random.Random) -> SushiGoState:
    """A world: hands not held by `seat` and the deck dealt from the unseen cards; nobody has picked."""
    world = copy_state(state)
    known = known_hands(state, seat)
    pool = sorted(unseen(state, known).elements())
    rng.shuffle(pool)
    size = turn_size(state)
    for other in range(state.players):
        world.picks[other] = None
        if other in known:
            world.hands[other] = list(known[other])
        else:
            world.hands[other], pool = pool[:size], pool[size:]
    world.deck = pool
    world.rng = Rng(rng.getrandbits(64))
    return world


# ---------------------------------------------------------------- the quick table (rollouts, easy)


def quick_value(card: str, count: Counter[str], wasabi: int, later: int, players: int) -> float:
    """A rough worth of adding `card` to a tableau with `count`, `wasabi` unused and `later` picks to come."""
    if card == "tempura":
        return 5.0 if count["tempura"] % 2 else 2.5 if later >= 1 else 0.0
    if card == "sashimi":
        held = count["sashimi"] % 3
        return (
            10.0 if held == 2 else (4.0 if later >= 1 else 0.0) if held == 1 else 2.5 if later >= 2 else 0.0
        )
    if card == "dumpling":
        return (1.5, 2.5, 3.5, 4.0, 5.0, 0.0)[min(count["dumpling"], 5)]
    if card in NIGIRI:
        return NIGIRI[card] * (3.0 if wasabi else 1.0)
    if card == "wasabi":
        return (4.0 if later >= 3 else 2.5 if later >= 1 else 0.0) / (1 + wasabi)
    if card in MAKI_ROLLS:
        return 1.1 * MAKI_ROLLS[card]
    if card == "pudding":
        return 2.0 if players == 2 else 3.0
    return 2.0 if later >= 4 and not count["chopsticks"] else 0.0  # chopsticks


def quick_pick(state: SushiGoState, seat: int, rng: random.Random, noise: float) -> Pick:
    hand = state.hands[seat]
    tableau = state.tableaux[seat]
    count = Counter(tableau)
    wasabi = nigiri(tableau)[1] if count["wasabi"] else 0
    later = len(hand) - 1
    ranked = sorted(
        (quick_value(card, count, wasabi, later, state.players) + noise * rng.random(), card)
        for card in dict.fromkeys(hand)  # each card once in hand order (a set's order changes per process)
    )
    best = ranked[-1][1]
    if count["chopsticks"] and len(hand) >= 2:
        count[best] += 1
        wasabi = max(0, wasabi + (best == "wasabi") - (best in NIGIRI and wasabi > 0))
        rest = list(hand)
        rest.remove(best)
        second_value, second = max(
            (quick_value(card, count, wasabi, later - 1, state.players), card) for card in set(rest)
        )
        if second_value >= 4.0:
            return Pick(best, second)
    return Pick(best)


# ---------------------------------------------------------------- the outlook (normal)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _tail(chances: Sequence[float], most: int) -> list[float]:
    """P(at least r successes) for r = 0..most, from independent chances (a Poisson binomial)."""
    exact = [1.0] + [0.0] * most
    for chance in chances:
        for r in range(most, 0, -1):
            exact[r] = exact[r] * (1 - chance) + exact[r - 1] * chance
        exact[0] *= 1 - chance
    tails = [0.0] * (most + 1)
    running = 1.0
    for r in range(most + 1):
        tails[r] = running
        running -= exact[r]
    return tails


def _dumpling_points(count: float) -> float:
    """DUMPLING_POINTS between whole counts (an expected count is rarely whole)."""
    low = min(int(count), 5)
    if low >= 5:
        return float(DUMPLING_POINTS[5])
    return DUMPLING_POINTS[low] + (count - low) * (DUMPLING_POINTS[low + 1] - DUMPLING_POINTS[low])


def first_second(mine: float, others: Sequence[float], sigma: float) -> tuple[float, float]:
    """Chances to end with the most of something, and the second most, against noisy estimates."""
    beats = [_phi((mine - other) / sigma) for other in others]
    first = math.prod(beats)
    second = 0.0
    for index, beat in enumerate(beats):
        second += (1 - beat) * math.prod(b for j, b in enumerate(beats) if j != index)
    return first, second


def pudding_points(mine: float, others: Sequence[float], sigma: float) -> float:
    """Expected pudding points at the game's end."""
    most = math.prod(_phi((mine - other) / sigma) for other in others)
    if len(others) == 1:
        return 6.0 * most
    fewest = math.prod(_phi((other - mine) / sigma) for other in others)
    return 6.0 * most - 6.0 * fewest


class Outlook:
    """What a seat can expect from the rest of the round, to value a tableau (normal's model).

    Each later pick comes from a hand now at a seat to the right; a hand the seat has held is known,
    the others follow the unseen cards. A card is `available` at a pick when it has survived the picks
    made from that hand on the way (as if the others picked at random).
    """

    def __init__(self, state: SushiGoState, seat: int) -> None:
        self.state = state
        self.seat = seat
        players = state.players
        known = known_hands(state, seat)
        pool = unseen(state, known)
        pool_size = max(1, sum(pool.values()))
        size = turn_size(state)
        self.later = size - 1
        self.available: dict[str, list[float]] = {card: [] for card in CARDS}
        for step in range(1, self.later + 1):
            source = (seat - step) % players
            left = size - step  # cards of that hand when it reaches the seat
            hand = Counter(known[source]) if source in known else None
            for card in CARDS:
                if hand is not None:
                    copies = hand[card]
                    chance = 0.0 if copies <= 0 else 1.0 - _all_gone(size, copies, step)
                else:
                    chance = 1.0 - (1.0 - pool[card] / pool_size) ** left
                self.available[card].append(chance)
        rolls_per_card = sum(rolls * pool[card] for card, rolls in MAKI_ROLLS.items()) / pool_size
        self.future_rolls = 0.5 * self.later * rolls_per_card
        self.maki_sigma = 1.0 + 1.2 * math.sqrt(self.later)
        self.rolls = [
            sum(MAKI_ROLLS.get(card, 0) for card in state.tableaux[other]) + self.future_rolls
            for other in range(players)
        ]
        picks_after = self.later + (ROUNDS - state.round) * HAND_SIZE[players]
        self.future_puddings = 0.5 * picks_after * pool["pudding"] / pool_size
        self.pudding_sigma = 0.6 + math.sqrt(self.future_puddings + 0.2)
        self.puddings = [
            state.puddings[other] + state.tableaux[other].count("pudding") + self.future_puddings
            for other in range(players)
        ]
        self.tempura = _tail(self.available["tempura"], 1)
        self.sashimi = _tail(self.available["sashimi"], 2)
        any_nigiri = [
            1.0 - math.prod(1.0 - self.available[card][i] for card in NIGIRI) for i in range(self.later)
        ]
        self.nigiri = _tail(any_nigiri, 3)
        weights = [NIGIRI[card] * pool[card] for card in NIGIRI]
        copies = sum(pool[card] for card in NIGIRI)
        self.nigiri_worth = min(3.0, sum(weights) / copies + 0.6) if copies else 2.0
        self.dumplings = 0.5 * sum(self.available["dumpling"])

    def value(self, player: int, tableau: Sequence[str]) -> float:
        """What `tableau` would be worth to `player` at the round's end, the game's puddings included.

        For another player than the outlook's own seat this is a guess through the seat's eyes (the
        cards to come as the seat expects them), never what that player knows.
        """
        rolls_of_others = [r for other, r in enumerate(self.rolls) if other != player]
        puddings_of_others = [p for other, p in enumerate(self.puddings) if other != player]
        puddings = self.state.puddings[player]
        count = Counter(tableau)
        tempura, sashimi, dumplings = count["tempura"], count["sashimi"], count["dumpling"]
        value = 5.0 * (tempura // 2) + (tempura % 2) * 2.5 * self.tempura[1]
        held = sashimi % 3
        value += 10.0 * (sashimi // 3)
        if held:  # each card of an unfinished set: its share, if the set gets finished
            value += held * (10.0 / 3) * self.sashimi[3 - held]
        if dumplings >= 5:
            value += 15.0
        elif dumplings:
            expected = min(5.0, dumplings + self.dumplings)
            value += dumplings * _dumpling_points(expected) / expected
        points, unused = nigiri(list(tableau))
        value += points
        for extra in range(1, min(unused, 3) + 1):
            value += 2.0 * self.nigiri_worth * self.nigiri[extra]
        rolls = sum(MAKI_ROLLS.get(card, 0) for card in tableau)
        if rolls:
            first, second = first_second(rolls + self.future_rolls, rolls_of_others, self.maki_sigma)
            value += 6.0 * first + 3.0 * second
        mine = puddings + count["pudding"] + self.future_puddings
        value += pudding_points(mine, puddings_of_others, self.pudding_sigma)
        if count["chopsticks"] and self.later >= 2:
            value += 2.0 if self.later >= 4 else 1.0
        return value


def _all_gone(size: int, copies: int, gone: int) -> float:
    """P(every copy of a card is among `gone` cards taken at random from a hand of `size`)."""
    if gone < copies:
        return 0.0
    return math.comb(size - copies, gone - copies) / math.comb(size, gone)


def normal_scores(state: SushiGoState, seat: int) -> list[tuple[float, Pick]]:
    """Every legal pick with normal's worth: own gain, plus a share of what it keeps from the next seat."""
    game = SushiGoGame()
    legal = game.legal_actions(state, seat)
    outlook = Outlook(state, seat)
    tableau = state.tableaux[seat]
    base = outlook.value(seat, tableau)
    victim = (seat + 1) % state.players  # who gets the hand next
    denial_weight = 0.35 if state.players == 2 else 0.15
    theirs = state.tableaux[victim]
    their_base = outlook.value(victim, theirs)
    denial = {
        card: max(0.0, outlook.value(victim, [*theirs, card]) - their_base) for card in set(state.hands[seat])
    }
    scored: list[tuple[float, Pick]] = []
    for pick in legal:
        after = [*tableau, *pick.cards]
        if pick.second is not None:
            after.remove("chopsticks")
        gain = outlook.value(seat, after) - base
        gain += denial_weight * sum(denial.get(card, 0.0) for card in pick.cards)
        scored.append((gain, pick))
    return scored


# ---------------------------------------------------------------- the brain


class SushiGoBrain(SearchedBrain[SushiGoState, Pick]):
    """Hooks for the search (rules.computer.search) and the three levels."""

    game = SushiGoGame()
    rollouts: ClassVar[dict[int, int]] = {2: 400, 3: 360, 4: 320, 5: 300}

    def budget(self, state: SushiGoState) -> int:
        return self.rollouts[state.players]

    def copy(self, state: SushiGoState) -> SushiGoState:
        return copy_state(state)

    def determinize(self, state: SushiGoState, seat: int, rng: random.Random) -> SushiGoState:
        return determinize(state, seat, rng)

    def candidates(self, state: SushiGoState, seat: int, rng: random.Random) -> list[Pick]:
        ranked = sorted(normal_scores(state, seat), key=lambda item: -item[0])
        singles = [pick for _, pick in ranked if pick.second is None][:5]
        pairs = [pick for _, pick in ranked if pick.second is not None][:2]
        return singles + pairs

    def realize(self, state: SushiGoState, seat: int, action: Pick, rng: random.Random) -> Pick:
        return action

    def rollout(self, state: SushiGoState, seat: int, rng: random.Random) -> Pick:
        return quick_pick(state, seat, rng, noise=1.0)

    def horizon(self, state: SushiGoState, root: SushiGoState) -> bool:
        return state.round != root.round

    def outcome(self, state: SushiGoState, seat: int) -> float:
        return margin_utility(estimate(state), seat, SCALE)

    def hard(
        self, game: Game[SushiGoState, Pick], state: SushiGoState, seat: int, rng: random.Random, budget: int
    ) -> Pick:
        """The shared search; the last cards of a round at two players, once both hands are known,
        searched exactly instead (`endgame.py`)."""
        if searchable(state, len(known_hands(state, seat))):
            world = determinize(state, seat, rng)
            return best_pick(world, seat, copy_state, self.outcome)
        return super().hard(game, state, seat, rng, budget)

    # ------------------------------------------------------------ levels

    def easy(self, state: SushiGoState, seat: int, rng: random.Random) -> Pick:
        return quick_pick(state, seat, rng, noise=3.0)

    def normal(self, state: SushiGoState, seat: int, rng: random.Random) -> Pick:
        return max(normal_scores(state, seat), key=lambda item: item[0])[1]


def estimate(state: SushiGoState) -> list[float]:
    """Final scores as they stand: exact once over, else the points so far plus the puddings' promise."""
    if state.over:
        return [float(score) for score in state.scores]
    players = state.players
    rounds_left = ROUNDS - state.round + 1
    future = 0.5 * rounds_left * HAND_SIZE[players] * DECK["pudding"] / sum(DECK.values())
    sigma = 0.6 + math.sqrt(future + 0.2)
    puddings = [state.puddings[seat] + state.tableaux[seat].count("pudding") for seat in range(players)]
    return [
        state.scores[seat]
        + pudding_points(puddings[seat], [p for other, p in enumerate(puddings) if other != seat], sigma)
        for seat in range(players)
    ]


BRAIN = SushiGoBrain()
