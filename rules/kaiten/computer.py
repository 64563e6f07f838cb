"""Kaiten Sushi's computer players. Hidden: the condiment tiles still face down (their mix is known).

normal fetches for its plate's prospects (the engine's placement model), adds what the tile under the
sushi may bring, and keeps an eye on what the sake's next line leaves the next player. hard searches
the candidate moves with rollouts a round of turns ahead, the tiles dealt afresh in every world.
A computer's chopsticks succeed with the table's `COMPUTER_SUCCESS` chance, drawn from its seed.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import ClassVar

from rules.computer.brain import SearchedBrain
from rules.computer.search import margin_utility
from rules.engine import Action, Rng
from rules.kaiten.board import PINE_COUNT, PINES, next_pine
from rules.kaiten.game import COMPUTER_SUCCESS, TILES, KaitenGame
from rules.kaiten.plate import WASABI_POINTS, missing_edges, zeroed_lines
from rules.kaiten.prospect import best_ginger, best_placement, placement, prospect
from rules.kaiten.state import Fetch, KaitenState, Place, Refill, Wasabi, fetchable, wasabi_moves

GAME = KaitenGame()
SCALE = 4.0
GINGER_WORTH = 0.5
"""A ginger in hand, as the engine's prospect counts it."""


def copy_state(state: KaitenState) -> KaitenState:
    return KaitenState(
        players=state.players,
        rng=Rng(state.rng.state),
        options=dict(state.options),
        board=list(state.board),
        tiles=list(state.tiles),
        revealed=list(state.revealed),
        reserve=list(state.reserve),
        removed=list(state.removed),
        sake=state.sake,
        current=state.current,
        step=state.step,
        turn=state.turn,
        holding=state.holding,
        fetched_from=state.fetched_from,
        placed=state.placed,
        plates=[list(plate) for plate in state.plates],
        ginger=list(state.ginger),
        wasabi=list(state.wasabi),
        soy=list(state.soy),
        ginger_edges=[list(edges) for edges in state.ginger_edges],
        gained=[list(gained) for gained in state.gained],
        over=state.over,
        last=state.last,
    )


def face_down(state: KaitenState) -> list[str]:
    """The tiles not yet revealed, sorted (which lies where is what nobody knows)."""
    left = Counter(TILES)
    left.subtract(state.tiles[cell] for cell in range(len(state.tiles)) if state.revealed[cell])
    return sorted(left.elements())


def determinize(state: KaitenState, seat: int, rng: random.Random) -> KaitenState:
    world = copy_state(state)
    tiles = face_down(state)
    rng.shuffle(tiles)
    for cell in range(len(world.tiles)):
        if not world.revealed[cell]:
            world.tiles[cell] = tiles.pop()
    world.rng = Rng(rng.getrandbits(64))
    return world


def tile_worth(state: KaitenState) -> float:
    """What a face-down tile brings on average: a ginger (GINGER_WORTH) or a wasabi (2 points)."""
    tiles = face_down(state)
    if not tiles:
        return 0.0
    ginger = sum(tile in ("ginger", "ginger_wasabi") for tile in tiles)
    wasabi = sum(tile in ("wasabi", "ginger_wasabi") for tile in tiles)
    return (GINGER_WORTH * ginger + WASABI_POINTS * wasabi) / len(tiles)


def plate_estimate(state: KaitenState, seat: int) -> float:
    """A plate's likely final score: full lines exactly, open ones by their best reachable combination."""
    plate = state.plates[seat]
    spoiled = frozenset(zeroed_lines(missing_edges(plate, state.ginger_edges[seat])))
    return (
        prospect(plate, spoiled, state.ginger[seat])
        + WASABI_POINTS * state.wasabi[seat]
        - 2 * state.soy[seat]
    )


def success(state: KaitenState, rng: random.Random) -> bool:
    """Whether a computer's chopsticks hold, at the table's dexterity."""
    level = state.options["dexterity"]
    return level == "off" or rng.random() < COMPUTER_SUCCESS[level]


def fetch_values(state: KaitenState, seat: int, pine: int) -> list[tuple[float, int]]:
    """normal's worth of fetching each sushi on a pine's line: the plate's prospect with it, the tile's
    promise, less a share of what the sake's next line then offers the next player."""
    board = state.board
    unseen = tile_worth(state)
    players = state.players
    following = next_player(state, seat)
    weight = 0.5 if players == 2 else 0.3
    found: list[tuple[float, int]] = []
    for cell in PINES[pine].cells:
        sushi = board[cell]
        if sushi is None:
            continue
        value = best_placement(state, seat, sushi)[0]
        if not state.revealed[cell]:
            value += unseen
        if following is not None:
            value -= weight * _offer(state, following, pine, cell)
        found.append((value, cell))
    return found


def next_player(state: KaitenState, seat: int) -> int | None:
    """Who moves after `seat`: the next seat whose plate still has room (None: nobody else)."""
    for step in range(1, state.players):
        other = (seat + step) % state.players
        if any(sushi is None for sushi in state.plates[other]):
            return other
    return None


def _offer(state: KaitenState, player: int, pine: int, cell: int) -> float:
    """What the best sushi on the sake's next line after fetching `cell` adds to `player`'s plate."""
    after = next_pine(pine, lambda other: cell in PINES[other].cells)
    plate, edges, ginger = (
        tuple(state.plates[player]),
        tuple(state.ginger_edges[player]),
        state.ginger[player],
    )
    spoiled = frozenset(zeroed_lines(missing_edges(plate, edges)))
    base = prospect(plate, spoiled, ginger)
    best = 0.0
    for other in PINES[after].cells:
        sushi = state.board[other]
        if sushi is None or other == cell:
            continue
        best = max(best, placement(plate, edges, ginger, sushi)[0] - base)
    return best


def normal_fetch(state: KaitenState, seat: int) -> list[tuple[float, Action]]:
    """Every fetch and wasabi move with normal's worth (a wasabi move costs the wasabi's points)."""
    options: list[tuple[float, Action]] = [
        (value, Fetch(cell, True)) for value, cell in fetch_values(state, seat, state.sake)
    ]
    for steps in wasabi_moves(state, seat):
        pine = (state.sake + steps) % PINE_COUNT
        best = max(value for value, _ in fetch_values(state, seat, pine))
        options.append((best - WASABI_POINTS, Wasabi(steps)))
    return options


class KaitenBrain(SearchedBrain[KaitenState, Action]):
    rollouts: ClassVar[dict[int, int]] = {2: 240, 3: 200, 4: 180}

    def budget(self, state: KaitenState) -> int:
        return self.rollouts[state.players]

    def copy(self, state: KaitenState) -> KaitenState:
        return copy_state(state)

    def determinize(self, state: KaitenState, seat: int, rng: random.Random) -> KaitenState:
        return determinize(state, seat, rng)

    def candidates(self, state: KaitenState, seat: int, rng: random.Random) -> list[Action]:
        if state.step in ("wasabi_or_fetch", "fetch"):
            ranked = sorted(normal_fetch(state, seat), key=lambda item: -item[0])
            return [action for _, action in ranked[:5]]
        if state.step == "place":
            assert state.holding is not None
            sushi = state.holding
            plate, edges, ginger = state.plates[seat], state.ginger_edges[seat], state.ginger[seat]

            def worth(action: Action) -> float:
                assert isinstance(action, Place)
                trial = list(plate)
                trial[action.cell] = sushi
                return best_ginger(trial, edges, ginger, action.cell)[0]

            cells: list[Action] = [
                action for action in GAME.legal_actions(state, seat) if isinstance(action, Place)
            ]
            return sorted(cells, key=lambda action: -worth(action))[:5]
        return GAME.legal_actions(state, seat)

    def realize(self, state: KaitenState, seat: int, action: Action, rng: random.Random) -> Action:
        if isinstance(action, Fetch):
            return Fetch(action.cell, success(state, rng))
        return action

    def rollout(self, state: KaitenState, seat: int, rng: random.Random) -> Action:
        return self.realize(state, seat, GAME.default_action(state, seat), rng)

    def horizon(self, state: KaitenState, root: KaitenState) -> bool:
        return state.turn > root.turn + state.players

    def outcome(self, state: KaitenState, seat: int) -> float:
        if state.over:
            return margin_utility([float(score) for score in GAME.scores(state)], seat, SCALE)
        estimates = [plate_estimate(state, player) for player in range(state.players)]
        return margin_utility(estimates, seat, SCALE)

    def easy(self, state: KaitenState, seat: int, rng: random.Random) -> Action:
        if state.step in ("wasabi_or_fetch", "fetch") and rng.random() < 0.4:
            return Fetch(rng.choice(fetchable(state)), True)
        if state.step == "place" and rng.random() < 0.3:
            return rng.choice(GAME.legal_actions(state, seat))
        return GAME.default_action(state, seat)

    def normal(self, state: KaitenState, seat: int, rng: random.Random) -> Action:
        if state.step in ("wasabi_or_fetch", "fetch"):
            return max(normal_fetch(state, seat), key=lambda item: item[0])[1]
        if state.step == "ginger":
            return GAME.default_action(state, seat)
        if isinstance(GAME.default_action(state, seat), Refill):
            return self._refill(state, seat)
        return GAME.default_action(state, seat)

    def _refill(self, state: KaitenState, seat: int) -> Action:
        """Which rice goes nearer the sake: the way that offers the next player less."""
        options: list[tuple[float, Action]] = []
        for black_nearer in (True, False):
            trial = copy_state(state)
            GAME.apply(trial, seat, Refill(black_nearer))
            if trial.over or trial.step not in ("wasabi_or_fetch", "fetch"):
                return Refill(True)
            offer = max(value for value, _ in fetch_values(trial, trial.current, trial.sake))
            options.append((-offer, Refill(black_nearer)))
        return max(options, key=lambda item: item[0])[1]


BRAIN = KaitenBrain()
