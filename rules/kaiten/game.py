"""Kaiten Sushi: fetch sushi with chopsticks from a 6x6 board onto a 3x3 plate of scoring lines.

Geometry: board cells 0..35 and plate cells 0..8 row-major, pines 0..23 the sake's edge spaces in
clockwise order (rules/kaiten/board.py). Seat i sits at side i (0 top, 1 right, 2 bottom, 3 left).
Seat 0 starts, so the sake starts on pine 0, the first pine of the top side. Turns go in seat order
(clockwise).

A turn, in order (`state.step` names where it stands):
- "wasabi_or_fetch": the player may spend a wasabi to move the sake 1 or 2 pines (Wasabi(steps), steps in
  -2, -1, 1, 2, positive = clockwise) onto a line holding sushi, then must fetch (Fetch(cell, success)).
  "fetch" is the same step after a wasabi was spent (no second wasabi).
- Fetch(cell, success): `success` is the outcome of the dexterity challenge, which the cog runs before
  applying (see below). Success: the sushi leaves the board, its condiment tile is revealed and gained,
  and the step becomes "place". Failure: the sushi stays, the tile stays hidden, the player takes a soy,
  and the turn goes on with the sake.
- "place": Place(cell) puts the fetched sushi on the plate: the first in a corner, later ones orthogonally
  next to one already there. Its new black/white edges need ginger (GAMES.md step 3): with enough ginger
  all are covered at once; with fewer, `ginger_choices` lists what the player may do and, when the
  choices differ, the step becomes "ginger". Edges left bare on earlier turns stay bare for good
  ("the ingredient and the rice must be put separately"): ginger gained later waits for later edges.
  Then the sake moves clockwise to the next pine whose line crosses the cell fetched from (on a failure
  too: the cell of the attempt).
- "ginger": Ginger(edges) covers those of the new edges; the legal actions are the distinct choices (one
  per set of lines left spoiled; a choice spoiling every line another spoils and more is never offered,
  it can only lose points). `default_action` and `computer_action` spoil the fewest lines, then keep the
  plate's best prospects. Then the turn goes on as after a placement.
- "refill": if the sake's line then holds no sushi and the reserve is not empty, Refill(black_nearer) puts
  the next reserve pair on the two cells of that line nearest the sake, the player choosing which rice goes
  nearer. With the reserve empty, the sake moves on clockwise to the next line holding sushi by itself.
- The turn passes to the next seat whose plate is not full (a full plate has nothing left to do). The game
  ends as soon as every plate is full; the last placement skips the sake and refill steps.

Dexterity (option "dexterity": normal, relaxed, strict, off). `challenge(state, cell)` is a pure function:
the number of buttons, the button holding the chopsticks and the time window for fetching that cell now,
or None when the option is off (every fetch succeeds; Fetch(success=False) is then refused). The button
is drawn from a generator seeded by a hash of (state.rng, state.turn, cell), so the cog may call it any
number of times (before and after a restart) and gets the same answer without touching the state; it
then applies Fetch(cell, success=pressed the target within the window). A computer player fetches the
cell of `default_action` and succeeds when `computer_fetch_succeeds(state, cell)` (a fixed probability
per level, drawn the same restart-safe way): `computer_action(state, seat)` is exactly that, for the table
to play computer seats with. `default_action` for a human time-out on a fetch is a failed fetch: the
challenge timed out.

Refusal codes:
- game_over: the game has ended.
- not_your_turn: another seat is to move.
- unknown_action: not an action of this game.
- malformed_action: a field has the wrong type (params: kind).
- wrong_step: this action does not belong to the current step (params: step).
- wasabi_already_used: a wasabi was already spent this turn.
- no_wasabi: the player has no wasabi left.
- bad_steps: the sake moves 1 or 2 pines either way (params: steps).
- empty_line: the sake would end on a line without sushi (params: pine).
- bad_cell: no such board cell (params: cell).
- no_sushi: that board cell holds no sushi (params: cell).
- not_on_line: that cell is not on the sake's line (params: cell, pine).
- dexterity_off: with the dexterity challenge off a fetch always succeeds.
- bad_plate_cell: no such plate cell (params: cell).
- plate_cell_taken: that plate cell already holds a sushi (params: cell).
- not_a_corner: the first sushi goes in a corner of the plate (params: cell).
- not_adjacent: a sushi goes orthogonally next to one already on the plate (params: cell).
- not_a_ginger_choice: those edges are not one of the ginger choices offered now.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.codec import ActionCodec, Codecs, StateCodec
from rules.engine import Action, Event, IllegalAction, Rng, require, table_options
from rules.kaiten.board import CELLS, CORNERS, PINE_COUNT, PINES, PLATE_CELLS, SIZE, neighbours, next_pine
from rules.kaiten.plate import BLACK, INGREDIENTS, WASABI_POINTS, WHITE, GingerChoice, legal_plate_cells
from rules.kaiten.prospect import best_ginger, best_placement
from rules.kaiten.state import (
    Fetch,
    Ginger,
    KaitenState,
    Place,
    Refill,
    Wasabi,
    check_fetch,
    fetchable,
    full,
    is_bool,
    is_int,
    line_has_sushi,
    placed_choices,
    ranking_of,
    refill_cells,
    scores_of,
    wasabi_moves,
)
from rules.kaiten.view import KaitenView, build_view

PER_INGREDIENT = 8
PER_RICE = 24
RESERVE_PAIRS = 6
TILES: tuple[str, ...] = ("ginger",) * 20 + ("wasabi",) * 4 + ("ginger_wasabi",) * 2 + ("blank",) * 10
"""The 36 condiment tiles, one under each board cell."""
TWO_PLAYER_REMOVED: tuple[str, ...] = ("B:black", "B:red", "B:brown", "W:green", "W:yellow", "W:beige")
"""Set aside with 2 players: one ingredient of each colour, 3 black and 3 white rice."""

DEXTERITY_LEVELS: dict[str, tuple[int, float, float]] = {
    "relaxed": (3, 8.0, 4.5),
    "normal": (4, 6.0, 3.0),
    "strict": (5, 4.5, 2.0),
}
"""Per level: buttons in the row, the window for the nearest free-standing sushi, the shortest window."""
SECONDS_PER_STEP = 0.5
"""Less time per cell between the sake and the sushi (reaching farther)."""
SECONDS_PER_NEIGHBOUR = 0.25
"""Less time per sushi next to it on the board (a crowded cell is harder to grip)."""
COMPUTER_SUCCESS: dict[str, float] = {"relaxed": 0.9, "normal": 0.8, "strict": 0.65, "off": 1.0}
"""How often a computer player's fetch succeeds, per dexterity level."""


# ---------------------------------------------------------------- dexterity


@dataclass(frozen=True)
class Challenge:
    """The chopsticks challenge for one fetch: press button `target` (0-based) of `buttons` in time."""

    buttons: int
    target: int
    window_seconds: float
    distance: int
    """Cells between the sake and the sushi (0 = the first cell of the line)."""
    neighbours: int
    """Sushi orthogonally next to it on the board."""


def challenge_roll(state: KaitenState, cell: int, salt: int = 0) -> int:
    """A 64-bit number fixed by (the state's generator, the turn number, the cell, salt).

    Reads `state.rng` without advancing it: the same state always gives the same roll, also after a
    restart, and a new turn gives a fresh one.
    """
    mixer = Rng(state.rng.state)
    for value in (state.turn, cell, salt):
        mixer = Rng(mixer.next64() ^ value)
    return mixer.next64()


def challenge(state: KaitenState, cell: int, roll: int | None = None) -> Challenge | None:
    """The dexterity challenge for fetching `cell` now, or None when the dexterity option is off.

    Raises IllegalAction (the codes Fetch would give) when the cell may not be fetched now. `roll`
    overrides the restart-safe `challenge_roll` (tests).
    """
    check_fetch(state, cell)
    level = state.options["dexterity"]
    if level == "off":
        return None
    buttons, widest, shortest = DEXTERITY_LEVELS[level]
    distance = PINES[state.sake].cells.index(cell)
    crowd = sum(1 for n in neighbours(cell, SIZE) if state.board[n] is not None)
    window = max(shortest, widest - SECONDS_PER_STEP * distance - SECONDS_PER_NEIGHBOUR * crowd)
    if roll is None:
        roll = challenge_roll(state, cell)
    return Challenge(buttons, Rng(roll).below(buttons), window, distance, crowd)


def computer_fetch_succeeds(state: KaitenState, cell: int) -> bool:
    """Whether a computer player's fetch of `cell` succeeds now: COMPUTER_SUCCESS per level, restart-safe."""
    return Rng(challenge_roll(state, cell, salt=1)).chance(COMPUTER_SUCCESS[state.options["dexterity"]])


# ---------------------------------------------------------------- the game


class KaitenGame(Codecs[KaitenState, Action]):
    id = "kaiten"
    title = "Kaiten Sushi"
    min_players = 2
    max_players = 4
    options: ClassVar[dict[str, tuple[str, ...]]] = {
        "arrangement": ("random", "checkerboard", "stripes", "halves"),
        "dexterity": ("normal", "relaxed", "strict", "off"),
    }

    _codec = StateCodec(KaitenState)
    _actions = ActionCodec(Wasabi, Fetch, Place, Ginger, Refill)

    # ------------------------------------------------------------ setup

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> KaitenState:
        chosen = table_options(self, players, options)
        rng = Rng(seed)
        tiles = list(TILES)
        rng.shuffle(tiles)
        ingredients = [colour for colour in INGREDIENTS for _ in range(PER_INGREDIENT)]
        removed: list[str] = []
        if players == 2:
            removed = list(TWO_PLAYER_REMOVED)
            for sushi in removed:
                ingredients.remove(sushi.split(":")[1])
        rng.shuffle(ingredients)
        # With 2 players the last column starts empty (the 6 removed sushi leave 30 for the board).
        cells = [c for c in range(CELLS) if players > 2 or c % SIZE != SIZE - 1]
        rice = self._rice(chosen["arrangement"], cells, rng)
        board: list[str | None] = [None] * CELLS
        for cell in cells:
            board[cell] = f"{rice[cell]}:{ingredients.pop()}"
        reserve = [
            (f"{BLACK}:{ingredients.pop()}", f"{WHITE}:{ingredients.pop()}") for _ in range(RESERVE_PAIRS)
        ]
        assert not ingredients
        return KaitenState(
            players=players,
            rng=rng,
            options=chosen,
            board=board,
            tiles=tiles,
            revealed=[False] * CELLS,
            reserve=reserve,
            removed=removed,
            plates=[[None] * PLATE_CELLS for _ in range(players)],
            ginger=[1] * players,
            wasabi=[1] * players,
            soy=[0] * players,
            ginger_edges=[[] for _ in range(players)],
            gained=[[] for _ in range(players)],
        )

    @staticmethod
    def _rice(arrangement: str, cells: list[int], rng: Rng) -> dict[int, str]:
        """Rice colour per board cell: half black, half white. Stripes run along rows and halves split
        top (black) from bottom (white), so both stay balanced when the last column is empty."""
        if arrangement == "random":
            rice = [BLACK] * (len(cells) // 2) + [WHITE] * (len(cells) // 2)
            rng.shuffle(rice)
            return dict(zip(cells, rice, strict=True))

        def black(cell: int) -> bool:
            row, col = divmod(cell, SIZE)
            if arrangement == "checkerboard":
                return (row + col) % 2 == 0
            if arrangement == "stripes":
                return row % 2 == 0
            return row < SIZE // 2

        return {cell: BLACK if black(cell) else WHITE for cell in cells}

    # ------------------------------------------------------------ questions

    def to_move(self, state: KaitenState) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.current})

    def is_over(self, state: KaitenState) -> bool:
        return state.over

    def scores(self, state: KaitenState) -> list[int]:
        return scores_of(state)

    def ranking(self, state: KaitenState) -> list[int]:
        return ranking_of(state)

    def legal_actions(self, state: KaitenState, seat: int) -> list[Action]:
        if state.over or seat != state.current:
            return []
        if state.step in ("wasabi_or_fetch", "fetch"):
            outcomes = (True,) if state.options["dexterity"] == "off" else (True, False)
            actions: list[Action] = [Fetch(cell, ok) for cell in fetchable(state) for ok in outcomes]
            actions.extend(Wasabi(steps) for steps in wasabi_moves(state, seat))
            return actions
        if state.step == "place":
            return [Place(cell) for cell in legal_plate_cells(state.plates[seat])]
        if state.step == "ginger":
            return [Ginger(choice.covered) for choice in placed_choices(state, seat)]
        return [Refill(True), Refill(False)]

    def default_action(self, state: KaitenState, seat: int) -> Action:
        """Greedy: the fetch (or wasabi move, if its line is worth more than the wasabi's 2 points) that
        adds most to the plate's prospects; nearest the sake among equals. A fetch comes back failed (a
        timed-out challenge) unless the dexterity is off; a computer player's cog decides success."""
        require(not state.over and seat == state.current, "not_your_turn", seat=seat)
        if state.step == "place":
            assert state.holding is not None
            return Place(best_placement(state, seat, state.holding)[1])
        if state.step == "ginger":
            assert state.placed is not None
            plate, edges = state.plates[seat], state.ginger_edges[seat]
            return Ginger(best_ginger(plate, edges, state.ginger[seat], state.placed)[1].covered)
        if state.step == "refill":
            # Which rice goes nearer only changes the next players' options, not this plate.
            return Refill(True)
        value, cell = self._best_fetch(state, seat, state.sake)
        best: Action = Fetch(cell, state.options["dexterity"] == "off")
        for steps in wasabi_moves(state, seat):
            moved = self._best_fetch(state, seat, (state.sake + steps) % PINE_COUNT)[0] - WASABI_POINTS
            if moved > value:
                value, best = moved, Wasabi(steps)
        return best

    def computer_action(self, state: KaitenState, seat: int) -> Action:
        """A computer player's move: `default_action`, whose fetch succeeds with the level's COMPUTER_SUCCESS
        (restart-safe, see `computer_fetch_succeeds`) instead of timing out; without it a computer seat
        would never fill its plate and the game would never end."""
        action = self.default_action(state, seat)
        if isinstance(action, Fetch):
            return Fetch(action.cell, computer_fetch_succeeds(state, action.cell))
        return action

    def _best_fetch(self, state: KaitenState, seat: int, pine: int) -> tuple[float, int]:
        best: tuple[float, int] | None = None
        for cell in PINES[pine].cells:
            sushi = state.board[cell]
            if sushi is None:
                continue
            value = best_placement(state, seat, sushi)[0]
            if best is None or value > best[0]:
                best = (value, cell)
        assert best is not None, "the sake's line holds no sushi"
        return best

    # ------------------------------------------------------------ acting

    def apply(self, state: KaitenState, seat: int, action: Action) -> list[Event]:
        require(not state.over, "game_over")
        require(seat in self.to_move(state), "not_your_turn", seat=seat)
        if isinstance(action, Wasabi):
            events = self._wasabi(state, seat, action)
        elif isinstance(action, Fetch):
            events = self._fetch(state, seat, action)
        elif isinstance(action, Place):
            events = self._place(state, seat, action)
        elif isinstance(action, Ginger):
            events = self._ginger(state, seat, action)
        elif isinstance(action, Refill):
            events = self._refill(state, seat, action)
        else:
            raise IllegalAction("unknown_action", kind=getattr(action, "kind", None))
        state.last = copy.deepcopy(events)
        return events

    def _wasabi(self, state: KaitenState, seat: int, action: Wasabi) -> list[Event]:
        require(state.step in ("wasabi_or_fetch", "fetch"), "wrong_step", step=state.step)
        require(state.step == "wasabi_or_fetch", "wasabi_already_used")
        steps = action.steps
        require(is_int(steps) and steps in (-2, -1, 1, 2), "bad_steps", steps=steps)
        require(state.wasabi[seat] > 0, "no_wasabi")
        target = (state.sake + steps) % PINE_COUNT
        require(line_has_sushi(state, target), "empty_line", pine=target)
        event: Event = {"type": "wasabi_used", "seat": seat, "steps": steps, "from": state.sake, "to": target}
        state.wasabi[seat] -= 1
        state.sake = target
        state.step = "fetch"
        return [event]

    def _fetch(self, state: KaitenState, seat: int, action: Fetch) -> list[Event]:
        check_fetch(state, action.cell)
        require(is_bool(action.success), "malformed_action", kind=Fetch.kind)
        require(action.success or state.options["dexterity"] != "off", "dexterity_off")
        cell = action.cell
        sushi = state.board[cell]
        state.fetched_from = cell
        if not action.success:
            state.soy[seat] += 1
            events: list[Event] = [
                {"type": "dropped", "seat": seat, "cell": cell, "sushi": sushi, "soy": state.soy[seat]}
            ]
            # Nothing new on the plate, so no ginger is due (a bare edge means the ginger ran out).
            return events + self._move_sake(state, seat)
        state.board[cell] = None
        state.holding = sushi
        condiment = None
        if not state.revealed[cell]:  # a refilled cell's tile was taken by an earlier fetch
            condiment = state.tiles[cell]
            state.revealed[cell] = True
            state.gained[seat].append(condiment)
            state.ginger[seat] += int(condiment in ("ginger", "ginger_wasabi"))
            state.wasabi[seat] += int(condiment in ("wasabi", "ginger_wasabi"))
        state.step = "place"
        return [{"type": "fetched", "seat": seat, "cell": cell, "sushi": sushi, "condiment": condiment}]

    def _place(self, state: KaitenState, seat: int, action: Place) -> list[Event]:
        require(state.step == "place", "wrong_step", step=state.step)
        cell = action.cell
        plate = state.plates[seat]
        require(is_int(cell) and 0 <= cell < PLATE_CELLS, "bad_plate_cell", cell=cell)
        require(plate[cell] is None, "plate_cell_taken", cell=cell)
        if all(s is None for s in plate):
            require(cell in CORNERS, "not_a_corner", cell=cell)
        else:
            require(cell in legal_plate_cells(plate), "not_adjacent", cell=cell)
        plate[cell] = state.holding
        state.holding = None
        state.placed = cell
        events: list[Event] = [{"type": "placed", "seat": seat, "cell": cell, "sushi": plate[cell]}]
        choices = placed_choices(state, seat)
        if len(choices) > 1:  # a real choice: the player's (step 3)
            state.step = "ginger"
            return events
        return events + self._after_plate(state, seat, choices[0])

    def _ginger(self, state: KaitenState, seat: int, action: Ginger) -> list[Event]:
        require(state.step == "ginger", "wrong_step", step=state.step)
        chosen = [choice for choice in placed_choices(state, seat) if choice.covered == action.edges]
        require(len(chosen) == 1, "not_a_ginger_choice")
        return self._after_plate(state, seat, chosen[0])

    def _after_plate(self, state: KaitenState, seat: int, ginger: GingerChoice) -> list[Event]:
        """Step 3, ginger, then the sake and the refill unless that filled the last plate."""
        events: list[Event] = []
        state.placed = None
        if ginger.covered or ginger.bare:
            state.ginger[seat] -= len(ginger.covered)
            state.ginger_edges[seat].extend(ginger.covered)
            events.append(
                {
                    "type": "ginger",
                    "seat": seat,
                    "laid": [list(edge) for edge in ginger.covered],
                    "missing": [list(edge) for edge in ginger.bare],
                }
            )
        if all(full(plate) for plate in state.plates):
            state.over = True
            state.step = "over"
            state.fetched_from = None
            events.append({"type": "game_over", "scores": self.scores(state), "ranking": self.ranking(state)})
            return events
        return events + self._move_sake(state, seat)

    def _move_sake(self, state: KaitenState, seat: int) -> list[Event]:
        """Steps 4-5: the sake to the next line through the fetched cell; a refill if that line is empty."""
        events: list[Event] = []
        cell = state.fetched_from
        target = next_pine(state.sake, lambda pine: cell in PINES[pine].cells)
        events.append(
            {"type": "sake_moved", "seat": seat, "from": state.sake, "to": target, "reason": "fetch"}
        )
        state.sake = target
        if not line_has_sushi(state, target):
            if state.reserve:
                state.step = "refill"
                return events
            # The board always keeps sushi until every plate is full (at least 12 never reach a plate).
            target = next_pine(state.sake, lambda pine: line_has_sushi(state, pine))
            events.append(
                {"type": "sake_moved", "seat": seat, "from": state.sake, "to": target, "reason": "no_reserve"}
            )
            state.sake = target
        return events + self._next_turn(state)

    def _refill(self, state: KaitenState, seat: int, action: Refill) -> list[Event]:
        require(state.step == "refill", "wrong_step", step=state.step)
        require(is_bool(action.black_nearer), "malformed_action", kind=Refill.kind)
        near, far = refill_cells(state)
        black, white = state.reserve.pop(0)
        state.board[near], state.board[far] = (black, white) if action.black_nearer else (white, black)
        event: Event = {
            "type": "refilled",
            "seat": seat,
            "near": near,
            "far": far,
            "near_sushi": state.board[near],
            "far_sushi": state.board[far],
            "reserve_left": len(state.reserve),
        }
        return [event, *self._next_turn(state)]

    def _next_turn(self, state: KaitenState) -> list[Event]:
        """Clockwise to the next seat whose plate still has room."""
        seats = [(state.current + step) % state.players for step in range(1, state.players + 1)]
        candidate = next(s for s in seats if not full(state.plates[s]))
        state.current = candidate
        state.turn += 1
        state.step = "wasabi_or_fetch"
        state.fetched_from = None
        return [{"type": "turn", "seat": candidate, "turn": state.turn}]

    # ------------------------------------------------------------ showing

    def view(self, state: KaitenState, seat: int | None) -> KaitenView:
        return build_view(state, seat)


GAME = KaitenGame()
