"""Sushizock's hard computer: every turn played exactly for the game's value of where it ends.

Each decision of a turn (which dice to set aside, whether to throw again, which tile to take or steal)
maximises the expected value of the turn's end, over every dice outcome exactly (`turn.Turn`, memoised
over the dice set aside and the throws left). A turn's end is valued as a whole position, not a tile:

- `estimates`: every seat's expected final score. A sushi counts at the end only while the bone pile is
  as high, so each pile is valued against the tiles its seat will still take: the rows' tiles dealt one
  a turn from the seat to move (the end of the rows), each a sushi or a bone as the rows hold them.
- `utility`: a seat's chance to win from those estimates and how much the remaining tiles can still
  swing (the score gap counts for more as the rows run out; a finished game is known but for the
  tiles nobody has seen). A steal counts by what it takes from whoever it takes it from.
- The next seat's whole turn follows the take, played exactly over the dice as a tile player plays
  it (the game's tile model, `values.TileValues`, as normal weighs tiles), and the take is worth our
  expected utility of the ends that turn reaches: what the take leaves for the next player and what
  that player will then leave for us. (Measured against the former normal, 1,000 games at five
  players: 0.27 with this reply against 0.22 without one and 0.23 with a paranoid reply that plays
  against us.)

Hard reads only what everybody sees: the rows, each pile's height and top tile. A tile under a top
counts as the average of the tiles nobody has seen. The values found for a table are kept for every
decision of the turn (they do not depend on the dice), and for later turns that reach the same table.

Measured (docs/BENCHMARKS.md): hard wins 0.72 of two-player games against normal, which looks one
throw ahead, and one hard among four normals 0.31 (fair 0.20). Against a normal whose turn was exact
over the dice too, it stayed a point a game ahead (0.55): the reply it models is that stronger player.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rules.sushizock.pieces import SUSHI, SushizockState, forced_tile
from rules.sushizock.turn import Reply, TakeKey, Turn, tile_worth
from rules.sushizock.values import hidden_tiles

SIGMA_END = 2.0
"""Score spread left when the rows are empty (the buried tiles nobody has seen)."""
SIGMA_TILE = 2.2
"""Score spread each tile still to be taken adds (its variance; at least a sushi's or a bone's)."""
MARGIN = 0.01
"""A point of margin, in chances to win: breaks ties toward the bigger lead, or the smaller loss."""


@dataclass(frozen=True)
class Position:
    """What everybody sees between turns; a pile's buried tiles hold the unseen average."""

    players: int
    turn: int
    sushi_row: tuple[int, ...]
    bone_row: tuple[int, ...]
    sushi_piles: tuple[tuple[float, ...], ...]
    bone_piles: tuple[tuple[float, ...], ...]
    over: bool = False
    buried: tuple[float, float] = (0.0, 0.0)
    """The averages of the unseen sushi and bones (what the piles hold below their tops)."""


def public(state: SushizockState) -> Position:
    sushi, bones = hidden_tiles(state)
    buried_sushi = sum(sushi) / len(sushi) if sushi else 0.0
    buried_bone = sum(bones) / len(bones) if bones else 0.0

    def shown(pile: list[int], buried: float) -> tuple[float, ...]:
        return (buried,) * (len(pile) - 1) + (float(pile[-1]),) if pile else ()

    return Position(
        players=state.players,
        turn=state.turn,
        sushi_row=tuple(state.sushi_row),
        bone_row=tuple(state.bone_row),
        sushi_piles=tuple(shown(pile, buried_sushi) for pile in state.sushi_piles),
        bone_piles=tuple(shown(pile, buried_bone) for pile in state.bone_piles),
        buried=(buried_sushi, buried_bone),
    )


def after(position: Position, key: TakeKey) -> Position:
    """The position once the seat to move ends its turn with `key`."""
    seat = position.turn
    rows = {SUSHI: list(position.sushi_row), "bone": list(position.bone_row)}
    piles = {SUSHI: [list(p) for p in position.sushi_piles], "bone": [list(p) for p in position.bone_piles]}
    if key[0] == "steal":
        _, pile, target, depth = key
        tile = piles[pile][target].pop(len(piles[pile][target]) - depth)
    else:
        if key[0] == "forced":
            pile, index = forced_tile(position.sushi_row, position.bone_row)
        else:
            pile, index = key[1], key[2] - 1
        tile = float(rows[pile].pop(index))
    piles[pile][seat].append(tile)
    over = not rows[SUSHI] and not rows["bone"]
    return Position(
        players=position.players,
        turn=seat if over else (seat + 1) % position.players,
        sushi_row=tuple(rows[SUSHI]),
        bone_row=tuple(rows["bone"]),
        sushi_piles=tuple(tuple(p) for p in piles[SUSHI]),
        bone_piles=tuple(tuple(p) for p in piles["bone"]),
        over=over,
        buried=position.buried,
    )


def estimates(position: Position) -> list[float]:
    """Every seat's expected final score: its piles as they stand, and the tiles it will still take
    (one a turn from the seat to move, a sushi with the rows' share of sushi), counted as the game
    counts them: the bottom sushi, as many as the bones."""
    sushi_row, bone_row = position.sushi_row, position.bone_row
    left = len(sushi_row) + len(bone_row)
    share = len(sushi_row) / left if left else 0.0
    sushi_mean = sum(sushi_row) / len(sushi_row) if sushi_row else 0.0
    bone_mean = sum(bone_row) / len(bone_row) if bone_row else 0.0
    found: list[float] = []
    for seat in range(position.players):
        takes = sum(1 for i in range(left) if (position.turn + i) % position.players == seat)
        sushi, bones = position.sushi_piles[seat], position.bone_piles[seat]
        prefix = [0.0]
        for tile in sushi:
            prefix.append(prefix[-1] + tile)
        # Each take a sushi with the rows' share of sushi. Measured against the former normal (200 games
        # each): steering the takes toward as many sushi as bones valued early bones too highly (0.44);
        # leaving out the sushi still to come changed nothing (0.53).
        value = sum(bones) + takes * (1 - share) * bone_mean
        for more in range(takes + 1):  # `more` of the takes sushi, the rest bones
            chance = math.comb(takes, more) * share**more * (1 - share) ** (takes - more)
            height = len(bones) + takes - more
            room = max(0, min(more, height - len(sushi)))
            counted = prefix[min(height, len(sushi))] + sushi_mean * room
            value += chance * counted
        found.append(value)
    return found


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def utility(position: Position, seat: int) -> float:
    """`seat`'s chance to win from `position`, roughly, plus a little for its margin."""
    values = estimates(position)
    left = len(position.sushi_row) + len(position.bone_row)
    sigma = math.sqrt(SIGMA_END**2 + SIGMA_TILE**2 * left)
    others = [value for other, value in enumerate(values) if other != seat]
    win = math.prod(_phi((values[seat] - other) / sigma) for other in others)
    return win + MARGIN * (values[seat] - max(others))


class Solver:
    """Hard's values of a turn's ends, per public position (a cache only)."""

    def __init__(self) -> None:
        self._known: dict[Position, dict[TakeKey, float]] = {}

    def forget(self) -> None:
        self._known.clear()

    def turn(self, state: SushizockState) -> Turn:
        """The turn of the seat to move, each end valued after the next seat's turn."""
        root = public(state)
        known = self._known.get(root)
        if known is None:
            if len(self._known) > 256:
                self._known.clear()
            known = self._known[root] = {}
        seat = root.turn

        def worth(key: TakeKey) -> float:
            if key not in known:
                known[key] = self._value(after(root, key), seat)
            return known[key]

        return Turn(state, worth)

    def _value(self, position: Position, seat: int) -> float:
        if position.over:
            return utility(position, seat)
        tiles = tile_worth(position, position.buried)  # the next seat weighs tiles as normal does
        reply = Reply(position, tiles, lambda key: utility(after(position, key), seat))
        return reply.expected()
