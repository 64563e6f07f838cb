"""Kaiten Sushi: fetch sushi with chopsticks from a 6x6 board onto a 3x3 plate of scoring lines.

Geometry (for the renderer and the cog):
- Board cells 0..35 row-major, cell = row * 6 + column, row 0 at the top, column 0 on the left.
  Plate cells 0..8 row-major the same way.
- Pines 0..23 are the sake's edge spaces in clockwise order, six per side; `PINES[p]` gives the side,
  the position on that side (0..5, in clockwise order), the line (`"row"`/`"column"` and its index)
  and the line's cells nearest the sake first:
    0-5    top side,    left -> right, pine p aims down column p;
    6-11   right side,  top -> bottom, pine p aims along row p - 6 (from the right end);
    12-17  bottom side, right -> left, pine p aims up column 17 - p;
    18-23  left side,   bottom -> top, pine p aims along row 23 - p (from the left end).
- Seat i sits at side i (0 top, 1 right, 2 bottom, 3 left). Seat 0 starts, so the sake starts on
  pine 0, the first pine of the top side. Turns go in seat order (clockwise).

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
import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, ClassVar, Literal, TypedDict, cast

from rules.engine import (
    Action,
    ActionCodec,
    Codecs,
    Event,
    IllegalAction,
    Rng,
    StateCodec,
    ViewHeader,
    require,
    shared_ranks,
    table_options,
)

SIZE = 6
CELLS = SIZE * SIZE
PINE_COUNT = 4 * SIZE
SIDES: tuple[str, ...] = ("top", "right", "bottom", "left")
PLATE_SIZE = 3
PLATE_CELLS = PLATE_SIZE * PLATE_SIZE
CORNERS: tuple[int, ...] = (0, 2, 6, 8)

INGREDIENTS: tuple[str, ...] = ("black", "red", "brown", "green", "yellow", "beige")
PER_INGREDIENT = 8
BLACK, WHITE = "B", "W"
PER_RICE = 24
RESERVE_PAIRS = 6
TILES: tuple[str, ...] = ("ginger",) * 20 + ("wasabi",) * 4 + ("ginger_wasabi",) * 2 + ("blank",) * 10
"""The 36 condiment tiles, one under each board cell."""
TWO_PLAYER_REMOVED: tuple[str, ...] = ("B:black", "B:red", "B:brown", "W:green", "W:yellow", "W:beige")
"""Set aside with 2 players: one ingredient of each colour, 3 black and 3 white rice."""

REFERENCE_CARD: dict[tuple[str, ...], int] = {
    tuple(sorted(combo)): points
    for combo, points in (
        (("black", "red", "brown"), 5),
        (("green", "yellow", "beige"), 4),
        (("black", "yellow", "beige"), 3),
        (("red", "green", "brown"), 2),
        (("red", "green", "yellow"), 2),
        (("green", "beige", "brown"), 2),
    )
}
OTHER_LINE = 1
WASABI_POINTS = 2
SOY_POINTS = -2

PLATE_LINES: tuple[tuple[int, ...], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
)
"""The six scoring lines of a plate: rows 0-2 (top to bottom), then columns 0-2 (left to right)."""

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

_PROSPECT = 0.6
"""default_action's weight for a plate line still open: its best reachable combination, discounted."""


# ---------------------------------------------------------------- geometry


@dataclass(frozen=True)
class Pine:
    index: int
    side: str
    position: int
    line: str
    line_index: int
    cells: tuple[int, ...]
    """The cells of the pine's line, nearest the sake first."""


def _make_pine(index: int) -> Pine:
    side, position = divmod(index, SIZE)
    if side == 0:
        line, line_index = "column", position
        cells = tuple(row * SIZE + line_index for row in range(SIZE))
    elif side == 1:
        line, line_index = "row", position
        cells = tuple(line_index * SIZE + col for col in reversed(range(SIZE)))
    elif side == 2:
        line, line_index = "column", SIZE - 1 - position
        cells = tuple(row * SIZE + line_index for row in reversed(range(SIZE)))
    else:
        line, line_index = "row", SIZE - 1 - position
        cells = tuple(line_index * SIZE + col for col in range(SIZE))
    return Pine(index, SIDES[side], position, line, line_index, cells)


PINES: tuple[Pine, ...] = tuple(_make_pine(p) for p in range(PINE_COUNT))


def _neighbours(cell: int, size: int) -> list[int]:
    row, col = divmod(cell, size)
    found = []
    for r, c in ((row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col)):
        if 0 <= r < size and 0 <= c < size:
            found.append(r * size + c)
    return found


PLATE_EDGES: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(PLATE_CELLS) for b in _neighbours(a, PLATE_SIZE) if a < b
)
"""The 12 orthogonal plate edges as (i, j), i < j, in ascending order."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------- actions


@dataclass(frozen=True)
class Wasabi(Action):
    """Spend a wasabi to move the sake `steps` pines: -2, -1, 1 or 2, positive = clockwise."""

    kind: ClassVar[str] = "wasabi"
    steps: int


@dataclass(frozen=True)
class Fetch(Action):
    """Fetch the sushi on `cell` (on the sake's line); `success` = the dexterity challenge was passed."""

    kind: ClassVar[str] = "fetch"
    cell: int
    success: bool


@dataclass(frozen=True)
class Place(Action):
    """Put the fetched sushi on plate cell `cell` (0..8)."""

    kind: ClassVar[str] = "place"
    cell: int


@dataclass(frozen=True)
class Ginger(Action):
    """Lay the ginger in hand on these new black/white plate edges, each (i, j) with i < j."""

    kind: ClassVar[str] = "ginger"
    edges: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Refill(Action):
    """Lay the next reserve pair on the sake's empty line, the black-rice sushi nearer the sake or not."""

    kind: ClassVar[str] = "refill"
    black_nearer: bool


# ---------------------------------------------------------------- state


@dataclass
class KaitenState:
    players: int
    rng: Rng
    options: dict[str, str] = field(default_factory=dict)
    board: list[str | None] = field(default_factory=list)
    """36 cells: a sushi "B:red" / "W:beige", or None."""
    tiles: list[str] = field(default_factory=list)
    """The condiment tile under each cell; hidden until `revealed` (then gained and gone from the board)."""
    revealed: list[bool] = field(default_factory=list)
    reserve: list[tuple[str, str]] = field(default_factory=list)
    """Reserve pairs in order, each (black-rice sushi, white-rice sushi)."""
    removed: list[str] = field(default_factory=list)
    sake: int = 0
    current: int = 0
    step: str = "wasabi_or_fetch"
    turn: int = 1
    holding: str | None = None
    """The sushi in the chopsticks during the "place" step."""
    fetched_from: int | None = None
    placed: int | None = None
    """The plate cell of the sushi just placed, while its ginger is chosen (the "ginger" step)."""
    plates: list[list[str | None]] = field(default_factory=list)
    ginger: list[int] = field(default_factory=list)
    wasabi: list[int] = field(default_factory=list)
    soy: list[int] = field(default_factory=list)
    ginger_edges: list[list[tuple[int, int]]] = field(default_factory=list)
    """Per seat, the plate edges (i, j), i < j, that got a ginger."""
    gained: list[list[str]] = field(default_factory=list)
    """Per seat, the condiment tiles revealed on their successful fetches."""
    over: bool = False
    last: list[dict[str, Any]] = field(default_factory=list)
    """The events of the last action, for the table to render."""


# ---------------------------------------------------------------- view

KaitenPhase = Literal["wasabi_or_fetch", "fetch", "place", "ginger", "refill", "over"]
"""`state.step`: the steps of a turn (see the module doc), and "over" once every plate is full."""


class PineView(TypedDict):
    """One pine (`PINES[p]`) as plain data."""

    pine: int
    side: str
    position: int
    line: str
    """Either "row" or "column"."""
    index: int
    """The row's or column's index."""
    cells: list[int]
    """The line's cells, nearest the sake first."""


class GingerChoiceView(TypedDict):
    """One way to lay the ginger in hand on the new edges (the "ginger" step)."""

    edges: list[list[int]]
    """The edges [i, j] that get a ginger: Ginger(edges) as lists."""
    bare: list[list[int]]
    """The new edges left without ginger."""
    spoils: list[int]
    """Indexes into PLATE_LINES (rows 0-2, then columns 0-2) this choice newly makes score 0."""


class PlateLineView(TypedDict):
    """One scoring line of a plate (PLATE_LINES order: rows top to bottom, then columns left to right)."""

    line: Literal["row", "column"]
    index: int
    """The row's or column's index, 0-2."""
    cells: list[int]
    """Its plate cells."""
    card: int | None
    """The reference card's points for its three ingredients; None while not full."""
    spoiled: bool
    """A missing ginger on one of its edges makes it score 0."""
    points: int | None
    """What it adds to the score: `card`, or 0 when spoiled; None while it is not full and not spoiled."""


class PlateScoreView(TypedDict):
    """How `score` is counted (GAMES.md): the six lines, then wasabi, soy and rice; they add up to it."""

    lines: list[PlateLineView]
    wasabi: int
    """Points for the unused wasabi (2 each)."""
    soy: int
    """Points for the soy (-2 each)."""
    rice: int
    """Points for the rice of the colour less present (1 each)."""
    fewer_rice: str | None
    """That colour, "B" or "W"; None while both are as many."""


class KaitenPlayerView(TypedDict):
    seat: int
    side: str
    plate: list[str | None]
    ginger: int
    """Ginger in hand (not yet laid)."""
    wasabi: int
    soy: int
    ginger_edges: list[list[int]]
    """Plate edges [i, j] that got a ginger."""
    missing_ginger: list[list[int]]
    """Black/white plate edges [i, j] left without ginger for good (not the `ginger_due` ones)."""
    ginger_placed: int
    condiments: list[str]
    """The tiles gained, in order."""
    full: bool
    score: int
    score_parts: PlateScoreView


class KaitenView(ViewHeader):
    """What the table sees; every seat sees the same but `seat` (the hidden tiles are the only secret).

    Header: `turn` is the acting seat (None once over); `round` is always None (no rounds); `phase` is
    `state.step`, always a `KaitenPhase`. `last` holds the events of the latest action.
    """

    phase: KaitenPhase

    turn_number: int
    """Counts the turns from 1 (it also seeds the chopsticks challenge)."""
    options: dict[str, str]
    size: int
    board: list[str | None]
    condiments: list[str | None]
    """Per board cell, its revealed condiment tile; None while still face down."""
    sake: PineView
    pines: list[PineView]
    reserve: list[list[str]]
    """The reserve pairs in order, each [black-rice sushi, white-rice sushi]."""
    reserve_left: int
    removed: list[str]
    players: list[KaitenPlayerView]
    holding: str | None
    fetched_from: int | None
    fetchable: list[int]
    """Board cells the acting seat may fetch now (empty outside the fetch steps)."""
    wasabi_moves: list[int]
    plate_cells: list[int]
    """Plate cells the held sushi may go on (the "place" step only)."""
    refill_cells: list[int]
    """[near, far]: where the refill goes (the "refill" step only)."""
    placed: int | None
    """The plate cell just filled, whose ginger is being chosen (the "ginger" step only)."""
    ginger_due: list[list[int]]
    """The new black/white edges [i, j] waiting for ginger (the "ginger" step only)."""
    ginger_choices: list[GingerChoiceView]
    """The distinct ways to lay the ginger in hand on them, as offered by `legal_actions`."""


# ---------------------------------------------------------------- scoring


def line_points(ingredients: Sequence[str]) -> int:
    """A full plate line by the reference card, in any order; any other line scores 1."""
    return REFERENCE_CARD.get(tuple(sorted(ingredients)), OTHER_LINE)


def _zeroed_lines(missing: Sequence[tuple[int, int]]) -> set[int]:
    """Indexes into PLATE_LINES of the lines a bare black/white edge spoils."""
    zeroed = set()
    for i, j in missing:
        a, b = sorted((i, j))
        if b == a + 1 and a // PLATE_SIZE == b // PLATE_SIZE:
            zeroed.add(a // PLATE_SIZE)
        elif b == a + PLATE_SIZE:
            zeroed.add(PLATE_SIZE + a % PLATE_SIZE)
        else:
            raise ValueError(f"plate cells {i} and {j} are not orthogonally adjacent")
    return zeroed


@dataclass(frozen=True)
class PlateScore:
    """A plate's score in the rulebook's parts; `total` is the one count `scores` and `score_plate` use."""

    card: tuple[int | None, ...]
    """Per PLATE_LINES: the reference card's points for the line's three ingredients; None while not full."""
    spoiled: frozenset[int]
    """Indexes into PLATE_LINES that a missing ginger makes score 0."""
    wasabi: int
    """Points for the unused wasabi."""
    soy: int
    """Points for the soy (zero or negative)."""
    rice: int
    """Points for the rice of the colour less present."""
    fewer_rice: str | None
    """That colour, BLACK or WHITE; None while both are as many."""

    def line(self, index: int) -> int | None:
        """What PLATE_LINES[index] adds: 0 when spoiled, None while not full (a running score skips it)."""
        return 0 if index in self.spoiled else self.card[index]

    @property
    def total(self) -> int:
        lines = sum(self.line(index) or 0 for index in range(len(PLATE_LINES)))
        return lines + self.wasabi + self.soy + self.rice


def plate_score(
    cells: Sequence[str | None], missing: Sequence[tuple[int, int]], wasabi: int, soy: int
) -> PlateScore:
    """A plate's score by its parts (GAMES.md); lines not yet full count nothing (the running score)."""
    card = tuple(
        None if any(cells[i] is None for i in line) else line_points([str(cells[i])[2:] for i in line])
        for line in PLATE_LINES
    )
    rice = Counter(s[0] for s in cells if s is not None)
    fewer = None if rice[BLACK] == rice[WHITE] else min((BLACK, WHITE), key=lambda colour: rice[colour])
    return PlateScore(
        card=card,
        spoiled=frozenset(_zeroed_lines(missing)),
        wasabi=WASABI_POINTS * wasabi,
        soy=SOY_POINTS * soy,
        rice=min(rice[BLACK], rice[WHITE]),
        fewer_rice=fewer,
    )


def score_plate(cells: list[str], missing_ginger: list[tuple[int, int]], wasabi: int, soy: int) -> int:
    """A finished plate: 6 lines by the reference card (0 with a missing ginger), +2 per unused wasabi,
    -2 per soy, +1 per rice of the colour less present on the plate."""
    if len(cells) != PLATE_CELLS:
        raise ValueError(f"a plate has {PLATE_CELLS} cells, not {len(cells)}")
    for sushi in cells:
        rice, _, ingredient = sushi.partition(":")
        if rice not in (BLACK, WHITE) or ingredient not in INGREDIENTS:
            raise ValueError(f"not a sushi: {sushi!r}")
    for i, j in missing_ginger:
        if not (0 <= i < PLATE_CELLS and 0 <= j < PLATE_CELLS) or cells[i][0] == cells[j][0]:
            raise ValueError(f"cells {i} and {j} are not a black/white pair")
    return plate_score(cells, missing_ginger, wasabi, soy).total


def missing_edges(
    plate: Sequence[str | None], ginger_edges: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Black/white edges of a plate without a ginger, in ascending order."""
    laid = {tuple(sorted(edge)) for edge in ginger_edges}
    bare = []
    for i, j in PLATE_EDGES:
        a, b = plate[i], plate[j]
        if a is not None and b is not None and a[0] != b[0] and (i, j) not in laid:
            bare.append((i, j))
    return bare


Edge = tuple[int, int]


@dataclass(frozen=True)
class GingerChoice:
    """One way to lay ginger on the new edges of a just-placed sushi."""

    covered: tuple[Edge, ...]
    """The new edges that get a ginger: min(ginger in hand, new edges) of them."""
    bare: tuple[Edge, ...]
    """The new edges left without."""
    spoiled: frozenset[int]
    """Every line of the plate that scores 0 after it (earlier bare edges included)."""


def ginger_choices(
    plate: Sequence[str | None], ginger_edges: Sequence[Edge], ginger: int, cell: int
) -> list[GingerChoice]:
    """The distinct ways to cover the new black/white edges around plate cell `cell` (just filled).

    Every ginger in hand must go down while a new edge lacks one, so a choice covers min(ginger, new)
    edges. Choices leaving the same lines spoiled are one choice (the first in ascending edge order
    stands for them), and a choice spoiling every line another spoils and more is dropped (it can only
    lose points; ginger placed, the tie-break, is the same for all). One entry when there is nothing to
    decide (enough ginger, none, or all choices alike); the order is deterministic.
    """
    bare = missing_edges(plate, ginger_edges)
    new = [edge for edge in bare if cell in edge]
    before = _zeroed_lines([edge for edge in bare if cell not in edge])
    found: dict[frozenset[int], GingerChoice] = {}
    for covered in itertools.combinations(new, min(ginger, len(new))):
        left = tuple(edge for edge in new if edge not in covered)
        spoiled = frozenset(before | _zeroed_lines(left))
        found.setdefault(spoiled, GingerChoice(covered, left, spoiled))
    return [choice for choice in found.values() if not any(other < choice.spoiled for other in found)]


def legal_plate_cells(plate: Sequence[str | None]) -> list[int]:
    """Where the next sushi may go: a corner first, then next to one already there."""
    if all(s is None for s in plate):
        return list(CORNERS)
    return [
        cell
        for cell in range(PLATE_CELLS)
        if plate[cell] is None and any(plate[n] is not None for n in _neighbours(cell, PLATE_SIZE))
    ]


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
    _check_fetch(state, cell)
    level = state.options["dexterity"]
    if level == "off":
        return None
    buttons, widest, shortest = DEXTERITY_LEVELS[level]
    distance = PINES[state.sake].cells.index(cell)
    crowd = sum(1 for n in _neighbours(cell, SIZE) if state.board[n] is not None)
    window = max(shortest, widest - SECONDS_PER_STEP * distance - SECONDS_PER_NEIGHBOUR * crowd)
    if roll is None:
        roll = challenge_roll(state, cell)
    return Challenge(buttons, Rng(roll).below(buttons), window, distance, crowd)


def computer_fetch_succeeds(state: KaitenState, cell: int) -> bool:
    """Whether a computer player's fetch of `cell` succeeds now: COMPUTER_SUCCESS per level, restart-safe."""
    return Rng(challenge_roll(state, cell, salt=1)).chance(COMPUTER_SUCCESS[state.options["dexterity"]])


# ---------------------------------------------------------------- rule helpers


def _line_has_sushi(state: KaitenState, pine: int) -> bool:
    return any(state.board[cell] is not None for cell in PINES[pine].cells)


def _fetchable(state: KaitenState) -> list[int]:
    return [cell for cell in PINES[state.sake].cells if state.board[cell] is not None]


def _wasabi_moves(state: KaitenState, seat: int) -> list[int]:
    if state.step != "wasabi_or_fetch" or state.wasabi[seat] <= 0:
        return []
    return [steps for steps in (-2, -1, 1, 2) if _line_has_sushi(state, (state.sake + steps) % PINE_COUNT)]


def _check_fetch(state: KaitenState, cell: int) -> None:
    require(state.step in ("wasabi_or_fetch", "fetch"), "wrong_step", step=state.step)
    require(_is_int(cell) and 0 <= cell < CELLS, "bad_cell", cell=cell)
    require(state.board[cell] is not None, "no_sushi", cell=cell)
    require(cell in PINES[state.sake].cells, "not_on_line", cell=cell, pine=state.sake)


def _next_pine(pine: int, wanted: Callable[[int], bool]) -> int:
    """The next pine clockwise after `pine` whose line satisfies `wanted(pine)`; `pine` itself last."""
    for step in range(1, PINE_COUNT + 1):
        candidate = (pine + step) % PINE_COUNT
        if wanted(candidate):
            return candidate
    raise AssertionError("no pine qualifies")


def _full(plate: Sequence[str | None]) -> bool:
    return all(s is not None for s in plate)


@cache
def _line_prospect(ingredients: tuple[str, ...]) -> float:
    """A line's worth by its ingredients so far (sorted): exact when full, else the best combination
    still reachable, discounted. Cached: the computer asks it thousands of times a game."""
    if len(ingredients) == PLATE_SIZE:
        return line_points(ingredients)
    have = Counter(ingredients)
    reachable = [points for combo, points in REFERENCE_CARD.items() if not have - Counter(combo)]
    return _PROSPECT * max([OTHER_LINE, *reachable])


def _prospect(plate: Sequence[str | None], spoiled: frozenset[int], ginger: int) -> float:
    """default_action's guess at what a plate is worth: full lines exactly, open lines by the best
    combination their ingredients still allow (discounted), spoiled lines nothing, plus ginger in hand."""
    total = 0.0
    for index, line in enumerate(PLATE_LINES):
        if index in spoiled:
            continue
        total += _line_prospect(tuple(sorted(s[2:] for s in (plate[i] for i in line) if s is not None)))
    rice = Counter(s[0] for s in plate if s is not None)
    return total + min(rice[BLACK], rice[WHITE]) + 0.5 * ginger


def _best_ginger(
    plate: Sequence[str | None], ginger_edges: Sequence[Edge], ginger: int, cell: int
) -> tuple[float, GingerChoice]:
    """The ginger choice spoiling the fewest lines, then keeping the best prospects; the first among
    equals. With its prospect."""
    best: tuple[tuple[int, float], float, GingerChoice] | None = None
    for choice in ginger_choices(plate, ginger_edges, ginger, cell):
        value = _prospect(plate, choice.spoiled, ginger - len(choice.covered))
        key = (-len(choice.spoiled), value)
        if best is None or key > best[0]:
            best = (key, value, choice)
    assert best is not None
    return best[1], best[2]


def _best_placement(state: KaitenState, seat: int, sushi: str) -> tuple[float, int]:
    """The best plate cell for `sushi` by `_prospect` (with its best ginger), and its value; the first
    cell among equals."""
    return _placement(tuple(state.plates[seat]), tuple(state.ginger_edges[seat]), state.ginger[seat], sushi)


@lru_cache(maxsize=4096)
def _placement(
    plate: tuple[str | None, ...], ginger_edges: tuple[Edge, ...], ginger: int, sushi: str
) -> tuple[float, int]:
    """`_best_placement` on plain values, cached: a fetch decision asks it for every sushi on up to five
    lines, and only a dozen kinds of sushi exist."""
    best: tuple[float, int] | None = None
    for cell in legal_plate_cells(plate):
        trial = list(plate)
        trial[cell] = sushi
        value = _best_ginger(trial, ginger_edges, ginger, cell)[0]
        if best is None or value > best[0]:
            best = (value, cell)
    assert best is not None
    return best


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
        return [self._plate_score(state, s).total for s in range(state.players)]

    @staticmethod
    def _plate_score(state: KaitenState, seat: int) -> PlateScore:
        plate = state.plates[seat]
        missing = missing_edges(plate, state.ginger_edges[seat])
        return plate_score(plate, missing, state.wasabi[seat], state.soy[seat])

    def ranking(self, state: KaitenState) -> list[int]:
        scores = self.scores(state)
        return shared_ranks(
            [(scores[s], -state.soy[s], len(state.ginger_edges[s])) for s in range(state.players)]
        )

    def legal_actions(self, state: KaitenState, seat: int) -> list[Action]:
        if state.over or seat != state.current:
            return []
        if state.step in ("wasabi_or_fetch", "fetch"):
            outcomes = (True,) if state.options["dexterity"] == "off" else (True, False)
            actions: list[Action] = [Fetch(cell, ok) for cell in _fetchable(state) for ok in outcomes]
            actions.extend(Wasabi(steps) for steps in _wasabi_moves(state, seat))
            return actions
        if state.step == "place":
            return [Place(cell) for cell in legal_plate_cells(state.plates[seat])]
        if state.step == "ginger":
            return [Ginger(choice.covered) for choice in self._ginger_choices(state, seat)]
        return [Refill(True), Refill(False)]

    def default_action(self, state: KaitenState, seat: int) -> Action:
        """Greedy: the fetch (or wasabi move, if its line is worth more than the wasabi's 2 points) that
        adds most to the plate's prospects; nearest the sake among equals. A fetch comes back failed (a
        timed-out challenge) unless the dexterity is off; a computer player's cog decides success."""
        require(not state.over and seat == state.current, "not_your_turn", seat=seat)
        if state.step == "place":
            assert state.holding is not None
            return Place(_best_placement(state, seat, state.holding)[1])
        if state.step == "ginger":
            assert state.placed is not None
            plate, edges = state.plates[seat], state.ginger_edges[seat]
            return Ginger(_best_ginger(plate, edges, state.ginger[seat], state.placed)[1].covered)
        if state.step == "refill":
            # Which rice goes nearer only changes the next players' options, not this plate.
            return Refill(True)
        value, cell = self._best_fetch(state, seat, state.sake)
        best: Action = Fetch(cell, state.options["dexterity"] == "off")
        for steps in _wasabi_moves(state, seat):
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
            value = _best_placement(state, seat, sushi)[0]
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
        require(_is_int(steps) and steps in (-2, -1, 1, 2), "bad_steps", steps=steps)
        require(state.wasabi[seat] > 0, "no_wasabi")
        target = (state.sake + steps) % PINE_COUNT
        require(_line_has_sushi(state, target), "empty_line", pine=target)
        event: Event = {"type": "wasabi_used", "seat": seat, "steps": steps, "from": state.sake, "to": target}
        state.wasabi[seat] -= 1
        state.sake = target
        state.step = "fetch"
        return [event]

    def _fetch(self, state: KaitenState, seat: int, action: Fetch) -> list[Event]:
        _check_fetch(state, action.cell)
        require(isinstance(action.success, bool), "malformed_action", kind=Fetch.kind)
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
        require(_is_int(cell) and 0 <= cell < PLATE_CELLS, "bad_plate_cell", cell=cell)
        require(plate[cell] is None, "plate_cell_taken", cell=cell)
        if all(s is None for s in plate):
            require(cell in CORNERS, "not_a_corner", cell=cell)
        else:
            require(cell in legal_plate_cells(plate), "not_adjacent", cell=cell)
        plate[cell] = state.holding
        state.holding = None
        state.placed = cell
        events: list[Event] = [{"type": "placed", "seat": seat, "cell": cell, "sushi": plate[cell]}]
        choices = self._ginger_choices(state, seat)
        if len(choices) > 1:  # a real choice: the player's (step 3)
            state.step = "ginger"
            return events
        return events + self._after_plate(state, seat, choices[0])

    @staticmethod
    def _ginger_choices(state: KaitenState, seat: int) -> list[GingerChoice]:
        assert state.placed is not None
        plate, edges = state.plates[seat], state.ginger_edges[seat]
        return ginger_choices(plate, edges, state.ginger[seat], state.placed)

    def _ginger(self, state: KaitenState, seat: int, action: Ginger) -> list[Event]:
        require(state.step == "ginger", "wrong_step", step=state.step)
        chosen = [choice for choice in self._ginger_choices(state, seat) if choice.covered == action.edges]
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
        if all(_full(plate) for plate in state.plates):
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
        target = _next_pine(state.sake, lambda pine: cell in PINES[pine].cells)
        events.append(
            {"type": "sake_moved", "seat": seat, "from": state.sake, "to": target, "reason": "fetch"}
        )
        state.sake = target
        if not _line_has_sushi(state, target):
            if state.reserve:
                state.step = "refill"
                return events
            # The board always keeps sushi until every plate is full (at least 12 never reach a plate).
            target = _next_pine(state.sake, lambda pine: _line_has_sushi(state, pine))
            events.append(
                {"type": "sake_moved", "seat": seat, "from": state.sake, "to": target, "reason": "no_reserve"}
            )
            state.sake = target
        return events + self._next_turn(state)

    def _refill(self, state: KaitenState, seat: int, action: Refill) -> list[Event]:
        require(state.step == "refill", "wrong_step", step=state.step)
        require(isinstance(action.black_nearer, bool), "malformed_action", kind=Refill.kind)
        near, far = self._refill_cells(state)
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

    @staticmethod
    def _refill_cells(state: KaitenState) -> tuple[int, int]:
        empty = [cell for cell in PINES[state.sake].cells if state.board[cell] is None]
        return empty[0], empty[1]

    def _next_turn(self, state: KaitenState) -> list[Event]:
        """Clockwise to the next seat whose plate still has room."""
        seats = [(state.current + step) % state.players for step in range(1, state.players + 1)]
        candidate = next(s for s in seats if not _full(state.plates[s]))
        state.current = candidate
        state.turn += 1
        state.step = "wasabi_or_fetch"
        state.fetched_from = None
        return [{"type": "turn", "seat": candidate, "turn": state.turn}]

    # ------------------------------------------------------------ showing

    def view(self, state: KaitenState, seat: int | None) -> KaitenView:
        scores = self.scores(state)
        fetching = not state.over and state.step in ("wasabi_or_fetch", "fetch")
        choosing = not state.over and state.step == "ginger"
        choices = self._ginger_choices(state, state.current) if choosing else []
        due = sorted(choices[0].covered + choices[0].bare) if choices else []
        players: list[KaitenPlayerView] = []
        for s in range(state.players):
            bare = [edge for edge in missing_edges(state.plates[s], state.ginger_edges[s]) if edge not in due]
            players.append(
                {
                    "seat": s,
                    "side": SIDES[s],
                    "plate": list(state.plates[s]),
                    "ginger": state.ginger[s],
                    "wasabi": state.wasabi[s],
                    "soy": state.soy[s],
                    "ginger_edges": [list(edge) for edge in state.ginger_edges[s]],
                    "missing_ginger": [list(edge) for edge in bare],
                    "ginger_placed": len(state.ginger_edges[s]),
                    "condiments": list(state.gained[s]),
                    "full": _full(state.plates[s]),
                    "score": scores[s],
                    "score_parts": self._score_view(self._plate_score(state, s)),
                }
            )
        # Lines spoiled by earlier bare edges are spoiled whatever the choice: not the choice's doing.
        spoiled_before = _zeroed_lines([(i, j) for i, j in players[state.current]["missing_ginger"]])
        phase = cast(KaitenPhase, state.step)
        return {
            "seat": seat,
            "to_move": sorted(self.to_move(state)),
            "turn": None if state.over else state.current,
            "round": None,
            "phase": phase,
            "over": state.over,
            "scores": scores,
            "ranking": self.ranking(state) if state.over else None,
            "last": copy.deepcopy(state.last),
            "turn_number": state.turn,
            "options": dict(state.options),
            "size": SIZE,
            "board": list(state.board),
            # Only revealed tiles: the hidden ones are the game's only secret.
            "condiments": [state.tiles[c] if state.revealed[c] else None for c in range(CELLS)],
            "sake": self._pine_view(PINES[state.sake]),
            "pines": [self._pine_view(pine) for pine in PINES],
            "reserve": [list(pair) for pair in state.reserve],
            "reserve_left": len(state.reserve),
            "removed": list(state.removed),
            "players": players,
            "holding": state.holding,
            "fetched_from": state.fetched_from,
            "fetchable": _fetchable(state) if fetching else [],
            "wasabi_moves": _wasabi_moves(state, state.current) if fetching else [],
            "plate_cells": legal_plate_cells(state.plates[state.current]) if state.step == "place" else [],
            "refill_cells": list(self._refill_cells(state)) if state.step == "refill" else [],
            "placed": state.placed if choosing else None,
            "ginger_due": [list(edge) for edge in due],
            "ginger_choices": [
                {
                    "edges": [list(edge) for edge in choice.covered],
                    "bare": [list(edge) for edge in choice.bare],
                    "spoils": sorted(choice.spoiled - spoiled_before),
                }
                for choice in choices
            ],
        }

    @staticmethod
    def _score_view(score: PlateScore) -> PlateScoreView:
        lines: list[PlateLineView] = [
            {
                "line": "row" if index < PLATE_SIZE else "column",
                "index": index % PLATE_SIZE,
                "cells": list(cells),
                "card": score.card[index],
                "spoiled": index in score.spoiled,
                "points": score.line(index),
            }
            for index, cells in enumerate(PLATE_LINES)
        ]
        return {
            "lines": lines,
            "wasabi": score.wasabi,
            "soy": score.soy,
            "rice": score.rice,
            "fewer_rice": score.fewer_rice,
        }

    @staticmethod
    def _pine_view(pine: Pine) -> PineView:
        return {
            "pine": pine.index,
            "side": pine.side,
            "position": pine.position,
            "line": pine.line,
            "index": pine.line_index,
            "cells": list(pine.cells),
        }


GAME = KaitenGame()
