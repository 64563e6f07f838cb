"""A present-value Sushi Go! player, the yardstick for hard at 2 players (issue 15).

Each card in hand is valued by its expected contribution to the final score given the cards still to
come: a set's points shared among its cards and weighed by the chance of finishing it from the cards
this seat will still see, nigiri by the wasabi under them, a wasabi by the nigiri it may still get,
maki and pudding by the expected change in their awards as the table stands, chopsticks as an option
(the second card of a hand to come). It picks the card of highest present value, and spends
chopsticks when the second best card beats keeping them for later. No search, no denial.

It remembers what a careful player remembers: the hands it has held this round and every tableau.
Written independently of rules/computer (it shares only the engine's scoring: its constants and how
nigiri meet wasabi).
"""

from __future__ import annotations

import math
from collections import Counter

from rules.sushigo import scoring
from rules.sushigo.game import HAND_SIZE, ROUNDS
from rules.sushigo.scoring import DECK, DUMPLING_POINTS, MAKI_ROLLS, NIGIRI
from rules.sushigo.state import Pick, SushiGoState


def _cards_to_come(state: SushiGoState, seat: int) -> tuple[dict[str, float], int]:
    """The cards this seat may still see this round, as counts, and how many picks it still makes."""
    players = state.players
    seen: Counter[str] = Counter()
    for other in range(players):
        pick = state.picks[other]
        if other == seat or 1 <= (other - seat) % players <= state.turn - 1:
            seen.update(state.hands[other])
            if pick is not None:
                seen.update(pick.cards)
    unseen = Counter(DECK)
    unseen.subtract(seen)
    for tableau in state.tableaux:
        unseen.subtract(tableau)
    unseen.subtract(state.discard)
    unseen["pudding"] -= sum(state.puddings)
    unseen = +unseen
    hand = len(state.hands[seat])
    later = hand - 1
    # Hands not yet held come from the unseen cards: they hold as many as ours.
    unknown = sum(
        1 for other in range(players) if other != seat and not 1 <= (other - seat) % players <= state.turn - 1
    )
    pool_size = max(1, sum(unseen.values()))
    coming: dict[str, float] = dict.fromkeys(DECK, 0.0)  # expected copies, the hands not yet held by share
    for other in range(players):
        if other != seat and 1 <= (other - seat) % players <= state.turn - 1:
            pick = state.picks[other]
            for card in [*state.hands[other], *(pick.cards if pick is not None else ())]:
                coming[card] += 1
    scale = unknown * hand / pool_size
    for card, copies in unseen.items():
        coming[card] += copies * scale
    for card in state.hands[seat]:
        coming[card] += 1
    return coming, later


def _chance_at_least(need: int, per_pick: float, picks: int) -> float:
    if need <= 0:
        return 1.0
    if picks < need:
        return 0.0
    miss = 0.0
    for got in range(need):
        miss += math.comb(picks, got) * per_pick**got * (1 - per_pick) ** (picks - got)
    return 1.0 - miss


def present_values(state: SushiGoState, seat: int) -> dict[str, float]:
    coming, later = _cards_to_come(state, seat)
    total = max(1.0, sum(coming.values()))
    hand_size = len(state.hands[seat])
    tableau = state.tableaux[seat]
    count = Counter(tableau)

    def seen_chance(card: str) -> float:
        """Chance that a given later pick offers the card."""
        share = coming[card] / total
        return 1.0 - (1.0 - share) ** max(1, hand_size - 1)

    _, unused_wasabi = scoring.nigiri(tableau)
    values: dict[str, float] = {}
    for card in set(state.hands[seat]):
        if card == "tempura":
            values[card] = 5.0 if count[card] % 2 else 5.0 * _chance_at_least(1, seen_chance(card), later) / 2
        elif card == "sashimi":
            need = 2 - count[card] % 3
            values[card] = 10.0 * _chance_at_least(need, seen_chance(card), later) / (3 - need)
        elif card == "dumpling":
            held = count[card]
            values[card] = float(DUMPLING_POINTS[min(held + 1, 5)] - DUMPLING_POINTS[min(held, 5)])
            values[card] += 0.5 * later * seen_chance(card) * (1 if held + 1 < 5 else 0)
        elif card in NIGIRI:
            values[card] = NIGIRI[card] * (3.0 if unused_wasabi else 1.0)
        elif card == "wasabi":
            nigiri = sum(coming[name] for name in NIGIRI) / total
            chance = _chance_at_least(1, 1 - (1 - nigiri) ** max(1, hand_size - 1), later)
            best = max((NIGIRI[name] for name in NIGIRI if coming[name] > 0), default=1)
            values[card] = 2.0 * chance * (best + 2) / 2
        elif card in MAKI_ROLLS:
            values[card] = _award_change(state, seat, MAKI_ROLLS[card], later, coming, total, maki=True)
        elif card == "pudding":
            values[card] = _award_change(state, seat, 1, later, coming, total, maki=False)
        else:
            values[card] = 0.0  # chopsticks: an option, valued below from the other cards
    if "chopsticks" in values:
        values["chopsticks"] = _chopsticks_option(state, seat, values, later, count["chopsticks"])
    return values


def _chopsticks_option(
    state: SushiGoState, seat: int, values: dict[str, float], later: int, held: int
) -> float:
    """Chopsticks are an option: on a later turn they take a second card from one hand, so they are
    worth about the second-best card of a hand to come (this hand's other cards as the sample), for
    a player with turns to use them; a second pair adds little."""
    if later < 2:
        return 0.0
    others = sorted((value for card, value in values.items() if card != "chopsticks"), reverse=True)
    second = others[1] if len(others) > 1 else others[0] if others else 0.0
    use = min(1.0, (later - 1) / 3)  # the chance a good pair still comes before the round ends
    return 0.8 * second * use * (0.3 if held else 1.0)


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _award_change(
    state: SushiGoState,
    seat: int,
    amount: int,
    later: int,
    coming: dict[str, float],
    total: float,
    *,
    maki: bool,
) -> float:
    """Expected change of the maki award (this round) or the pudding award (game end) from `amount`
    more rolls / puddings: every player's count so far plus what the cards to come may add, with a
    spread that narrows as the cards run out."""
    players = state.players
    if maki:
        counts = [float(sum(MAKI_ROLLS.get(c, 0) for c in state.tableaux[o])) for o in range(players)]
        per_card = sum(MAKI_ROLLS[name] * coming[name] for name in MAKI_ROLLS) / total
        picks = later
        first, second = 6.0, 3.0
    else:
        counts = [float(state.puddings[o] + state.tableaux[o].count("pudding")) for o in range(players)]
        per_card = coming["pudding"] / total
        picks = later + (ROUNDS - state.round) * HAND_SIZE[players]
        first, second = 6.0, 0.0
    future = 0.4 * picks * per_card
    spread = 0.7 + math.sqrt(0.8 * future + 0.3)

    def award(mine: float) -> float:
        others = [counts[o] + future for o in range(players) if o != seat]
        beats = [_normal_cdf((mine - other) / spread) for other in others]
        most = math.prod(beats)
        value = first * most
        if maki:
            runner_up = sum(
                (1 - beat) * math.prod(b for j, b in enumerate(beats) if j != i)
                for i, beat in enumerate(beats)
            )
            value += second * runner_up
        elif players > 2:
            value -= 6.0 * math.prod(1 - beat for beat in beats)
        return value

    mine = counts[seat] + future
    return award(mine + amount) - award(mine)


def pv_pick(state: SushiGoState, seat: int) -> Pick:
    values = present_values(state, seat)
    ranked = sorted(values.items(), key=lambda item: (-item[1], item[0]))
    best = ranked[0][0]
    if "chopsticks" in state.tableaux[seat] and len(state.hands[seat]) >= 2:
        rest = list(state.hands[seat])
        rest.remove(best)
        seconds = [(values[card], card) for card in set(rest)]
        second_value, second = max(seconds)
        # Worth spending the chopsticks when the second card beats holding on to them for later.
        keep_for_later = 3.0 if len(state.hands[seat]) > 3 else 0.5
        if second_value >= keep_for_later:
            return Pick(best, second)
    return Pick(best)
