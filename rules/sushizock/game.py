"""Sushizock im Gockelwok: throw dice for sushi, swallow fishbones, pinch portions from the others.

Five dice (faces sushi, sushi, bone, bone, blue chopsticks, red chopsticks) and two rows in the middle:
twelve sushi tiles (+1..+6, two each) and twelve bones (-1 x5, -2 x4, -3 x2, -4). A turn has up to three
throws; the first throws all five dice. After a throw the player takes a portion or sets aside at least
one die of that throw and throws the rest; set-aside dice count toward the result. A throw needs a die
left to throw, so a second throw of a single die leaves no third throw. With the result (set-aside and
thrown dice together) the player may take the Nth sushi for N sushi, the Nth bone for N bones (only if
the row is that long), and with three chopsticks of one colour the top tile of another player's pile of
that colour (blue = sushi, red = bones); four or five chopsticks steal any tile of such a pile, named
blind by its position (1 = top). When the turn must end and nothing can be taken, the most negative bone
of the middle is taken (leftmost on a tie), or with no bones left the lowest sushi. Taken tiles go on
top of the own pile; rows close their gaps. The game ends when the middle is empty; `score_piles`
scores each player. Seat 0 starts.

Hidden: of every pile only its height and top tile are shown, to everybody, the owner included. So the
running scores, which would reveal the tiles below, stay 0 in `view` until the game is over; then the
piles are turned over for scoring.

Refusal codes:
- game_over: the game has ended.
- not_your_turn: another seat is to move.
- unknown_action: not an action of this game.
- malformed_action: (decode_action) an action whose fields are missing or of the wrong type.
- no_throws_left: three throws are made this turn; take a portion.
- no_dice_left: the last throw was a single die, so nothing could be thrown after setting one aside.
- first_throw_all_dice: the first throw of a turn throws all five dice; nothing can be set aside yet.
- must_set_aside: set aside at least one die of the throw before throwing again.
- must_throw_one: at least one die must be left to throw (params: dice).
- no_such_die: the index names no die of the current throw (params: die, dice).
- keep_not_ascending: dice to set aside must be listed once each, in ascending order.
- not_thrown: nothing is thrown yet this turn; roll first.
- no_such_pile: `pile` is neither "sushi" nor "bone" (params: pile).
- none_thrown: no die shows that pile's face (params: pile).
- row_too_short: the row has fewer tiles than the dice count (params: pile, wanted, length).
- no_steal: no colour of chopsticks shows three times or more.
- no_such_seat: the target is not a seat at this table (params: target).
- own_pile: a player cannot steal from themselves.
- pile_empty: the target's pile of that colour is empty (params: target, pile).
- top_only: three chopsticks steal only the top tile, position 1 (params: position).
- no_such_position: the pile has no tile at that position (params: position, height).
- can_still_roll: a forced take only ends a turn that cannot throw again.
- portion_available: a forced take is only for a result that allows no take and no steal.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise
from typing import Any, ClassVar

from rules.codec import ActionCodec, Codecs, StateCodec
from rules.engine import Action, Event, IllegalAction, Rng, require, shared_ranks, table_options
from rules.sushizock.greedy import greedy_action
from rules.sushizock.pieces import (
    BLUE,
    BONE,
    BONE_TILES,
    CHOPSTICKS,
    DICE,
    FACES,
    PILES,
    RED,
    STEAL_BLIND,
    STEAL_TOP,
    SUSHI,
    SUSHI_TILES,
    THROWS,
    FinalPiles,
    ForcedTake,
    ForcedTile,
    Phase,
    PileShown,
    ResultCounts,
    Roll,
    Steal,
    StealOffer,
    SushizockState,
    SushizockView,
    Take,
    TurnOptions,
    forced_tile,
    score_piles,
)

__all__ = [
    "BLUE",
    "BONE",
    "BONE_TILES",
    "CHOPSTICKS",
    "DICE",
    "FACES",
    "GAME",
    "PILES",
    "RED",
    "STEAL_BLIND",
    "STEAL_TOP",
    "SUSHI",
    "SUSHI_TILES",
    "THROWS",
    "FinalPiles",
    "ForcedTake",
    "ForcedTile",
    "Phase",
    "PileShown",
    "ResultCounts",
    "Roll",
    "Steal",
    "StealOffer",
    "SushizockGame",
    "SushizockState",
    "SushizockView",
    "Take",
    "TurnOptions",
    "score_piles",
]


# ---------------------------------------------------------------- the game


def _is_int(value: object) -> bool:
    """An action built in code rather than decoded may hold anything: its numbers are checked."""
    return isinstance(value, int)


class SushizockGame(Codecs[SushizockState, Action]):
    id = "sushizock"
    title = "Sushizock im Gockelwok"
    min_players = 2
    max_players = 5
    options: ClassVar[dict[str, tuple[str, ...]]] = {}

    _codec = StateCodec(SushizockState)
    _actions = ActionCodec(Roll, Take, Steal, ForcedTake)

    # ------------------------------------------------------------ setup

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> SushizockState:
        options = table_options(self, players, options)
        rng = Rng(seed)
        sushi_row = list(SUSHI_TILES)
        bone_row = list(BONE_TILES)
        rng.shuffle(sushi_row)
        rng.shuffle(bone_row)
        return SushizockState(
            players=players,
            rng=rng,
            options=options,
            sushi_row=sushi_row,
            bone_row=bone_row,
            sushi_piles=[[] for _ in range(players)],
            bone_piles=[[] for _ in range(players)],
        )

    # ------------------------------------------------------------ questions

    def to_move(self, state: SushizockState) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.turn})

    def is_over(self, state: SushizockState) -> bool:
        return state.over

    def scores(self, state: SushizockState) -> list[int]:
        """True scores of the piles as they lie (view hides them until the end)."""
        return [score_piles(state.sushi_piles[s], state.bone_piles[s]) for s in range(state.players)]

    def ranking(self, state: SushizockState) -> list[int]:
        return shared_ranks(self.scores(state))

    def result(self, state: SushizockState) -> Counter[str]:
        """Faces of the whole result so far: set-aside dice plus the current throw."""
        return Counter(state.set_aside + state.thrown)

    def can_roll(self, state: SushizockState) -> bool:
        """A throw is left and, after setting aside one die, a die would be left to throw."""
        if state.over:
            return False
        if state.throws == 0:
            return True
        return state.throws < THROWS and len(state.thrown) >= 2

    def takeable(self, state: SushizockState, pile: str) -> int | None:
        """N when the Nth tile of that row may be taken now, else None."""
        if state.over or state.throws == 0:
            return None
        wanted = self.result(state)[pile]
        row = state.sushi_row if pile == SUSHI else state.bone_row
        return wanted if 1 <= wanted <= len(row) else None

    def steal_colour(self, state: SushizockState) -> str | None:
        """The colour of chopsticks showing three times or more (five dice allow one at most)."""
        if state.over or state.throws == 0:
            return None
        result = self.result(state)
        for colour in CHOPSTICKS:
            if result[colour] >= STEAL_TOP:
                return colour
        return None

    def steal_targets(self, state: SushizockState) -> list[int]:
        """Seats whose pile matching the chopsticks has a tile to steal."""
        colour = self.steal_colour(state)
        if colour is None:
            return []
        piles = self._piles(state, CHOPSTICKS[colour])
        return [s for s in range(state.players) if s != state.turn and piles[s]]

    def blind_steal(self, state: SushizockState) -> bool:
        colour = self.steal_colour(state)
        return colour is not None and self.result(state)[colour] >= STEAL_BLIND

    def forced(self, state: SushizockState) -> bool:
        """The turn must end and neither a take nor a steal is possible."""
        if state.over or state.throws == 0 or self.can_roll(state):
            return False
        return (
            self.takeable(state, SUSHI) is None
            and self.takeable(state, BONE) is None
            and not self.steal_targets(state)
        )

    def forced_tile(self, state: SushizockState) -> tuple[str, int]:
        """The forced take: (pile, 0-based index in its row), by `pieces.forced_tile`."""
        return forced_tile(state.sushi_row, state.bone_row)

    def legal_actions(self, state: SushizockState, seat: int) -> list[Action]:
        if state.over or seat != state.turn:
            return []
        if state.throws == 0:
            return [Roll()]
        actions: list[Action] = [Take(pile) for pile in PILES if self.takeable(state, pile) is not None]
        colour = self.steal_colour(state)
        if colour is not None:
            piles = self._piles(state, CHOPSTICKS[colour])
            blind = self.blind_steal(state)
            for target in self.steal_targets(state):
                depth = len(piles[target]) if blind else 1
                actions.extend(Steal(target, position) for position in range(1, depth + 1))
        if self.forced(state):
            actions.append(ForcedTake())
        if self.can_roll(state):
            indices = range(len(state.thrown))
            for size in range(1, len(state.thrown)):
                actions.extend(Roll(keep) for keep in combinations(indices, size))
        return actions

    # ------------------------------------------------------------ the stand-in

    def default_action(self, state: SushizockState, seat: int) -> Action:
        """Greedy on public information (`greedy.py`): take a good portion, else keep the dice that help."""
        return greedy_action(self, state, seat)

    # ------------------------------------------------------------ acting

    def apply(self, state: SushizockState, seat: int, action: Action) -> list[Event]:
        require(not state.over, "game_over")
        require(seat in self.to_move(state), "not_your_turn", seat=seat)
        if isinstance(action, Roll):
            self._check_roll(state, action)
            return self._roll(state, seat, action)
        if isinstance(action, Take):
            self._check_take(state, action)
            return self._take(state, seat, action)
        if isinstance(action, Steal):
            self._check_steal(state, action)
            return self._steal(state, seat, action)
        if isinstance(action, ForcedTake):
            require(state.throws > 0, "not_thrown")
            require(not self.can_roll(state), "can_still_roll")
            require(self.forced(state), "portion_available")
            return self._forced_take(state, seat)
        raise IllegalAction("unknown_action", kind=getattr(action, "kind", None))

    def _check_roll(self, state: SushizockState, action: Roll) -> None:
        keep = action.keep
        if state.throws == 0:
            require(not keep, "first_throw_all_dice")
            return
        require(state.throws < THROWS, "no_throws_left")
        require(len(state.thrown) >= 2, "no_dice_left")
        require(len(keep) > 0, "must_set_aside")
        for die in keep:
            require(
                _is_int(die) and 0 <= die < len(state.thrown),
                "no_such_die",
                die=die,
                dice=len(state.thrown),
            )
        require(all(a < b for a, b in pairwise(keep)), "keep_not_ascending")
        require(len(keep) < len(state.thrown), "must_throw_one", dice=len(state.thrown))

    def _check_take(self, state: SushizockState, action: Take) -> None:
        require(state.throws > 0, "not_thrown")
        pile = action.pile
        require(pile in PILES, "no_such_pile", pile=pile)
        wanted = self.result(state)[pile]
        require(wanted > 0, "none_thrown", pile=pile)
        length = len(self._row(state, pile))
        require(wanted <= length, "row_too_short", pile=pile, wanted=wanted, length=length)

    def _check_steal(self, state: SushizockState, action: Steal) -> None:
        require(state.throws > 0, "not_thrown")
        colour = self.steal_colour(state)
        require(colour is not None, "no_steal")
        assert colour is not None
        target, position = action.target, action.position
        require(_is_int(target) and 0 <= target < state.players, "no_such_seat", target=target)
        require(target != state.turn, "own_pile")
        pile = CHOPSTICKS[colour]
        height = len(self._piles(state, pile)[target])
        require(height > 0, "pile_empty", target=target, pile=pile)
        require(_is_int(position), "no_such_position", position=position, height=height)
        if not self.blind_steal(state):
            require(position == 1, "top_only", position=position)
        require(1 <= position <= height, "no_such_position", position=position, height=height)

    def _roll(self, state: SushizockState, seat: int, action: Roll) -> list[Event]:
        kept = [state.thrown[i] for i in action.keep]
        remaining = len(state.thrown) - len(kept) if state.throws else DICE
        state.set_aside.extend(kept)
        state.thrown = [FACES[state.rng.below(len(FACES))] for _ in range(remaining)]
        state.throws += 1
        event: Event = {
            "type": "rolled",
            "seat": seat,
            "throw": state.throws,
            "kept": kept,
            "dice": list(state.thrown),
            "set_aside": list(state.set_aside),
        }
        state.last = dict(event)
        return [event]

    def _take(self, state: SushizockState, seat: int, action: Take) -> list[Event]:
        nth = self.result(state)[action.pile]
        return self._move_from_row(state, seat, action.pile, nth - 1, forced=False)

    def _forced_take(self, state: SushizockState, seat: int) -> list[Event]:
        pile, index = self.forced_tile(state)
        return self._move_from_row(state, seat, pile, index, forced=True)

    def _move_from_row(
        self, state: SushizockState, seat: int, pile: str, index: int, *, forced: bool
    ) -> list[Event]:
        tile = self._row(state, pile).pop(index)  # the row closes its gap
        self._piles(state, pile)[seat].append(tile)
        event: Event = {
            "type": "took",
            "seat": seat,
            "pile": pile,
            "nth": index + 1,
            "tile": tile,
            "forced": forced,
        }
        state.last = dict(event)
        return [event, *self.end_turn(state)]

    def _steal(self, state: SushizockState, seat: int, action: Steal) -> list[Event]:
        blind = self.blind_steal(state)
        colour = self.steal_colour(state)
        assert colour is not None
        pile = CHOPSTICKS[colour]
        piles = self._piles(state, pile)
        tile = piles[action.target].pop(len(piles[action.target]) - action.position)
        piles[seat].append(tile)
        event: Event = {
            "type": "stole",
            "seat": seat,
            "target": action.target,
            "pile": pile,
            "position": action.position,
            "blind": blind,
            "tile": tile,
        }
        state.last = dict(event)
        return [event, *self.end_turn(state)]

    def end_turn(self, state: SushizockState) -> list[Event]:
        """The turn is over: the next seat moves, or the game ends (the computer's rollouts call it too)."""
        state.throws = 0
        state.thrown = []
        state.set_aside = []
        if not state.sushi_row and not state.bone_row:
            state.over = True
            return [{"type": "game_over", "scores": self.scores(state), "ranking": self.ranking(state)}]
        state.turn = (state.turn + 1) % state.players
        return [{"type": "turn", "seat": state.turn}]

    # ------------------------------------------------------------ showing

    def view(self, state: SushizockState, seat: int | None) -> SushizockView:
        def shown(pile: list[int]) -> PileShown:
            return {"height": len(pile), "top": pile[-1] if pile else None}

        options: TurnOptions | None = None
        if not state.over:
            colour = self.steal_colour(state)
            targets = self.steal_targets(state)
            options = {
                "sushi": self.takeable(state, SUSHI),
                "bone": self.takeable(state, BONE),
                "steal": None
                if not targets or colour is None
                else {"pile": CHOPSTICKS[colour], "blind": self.blind_steal(state), "targets": targets},
                "forced": self.forced(state),
                "can_roll": self.can_roll(state),
            }
        result = self.result(state)
        phase: Phase = "over" if state.over else "roll" if state.throws == 0 else "choose"
        final_piles: list[FinalPiles] | None = None
        if state.over:
            # The piles are turned over for scoring.
            final_piles = [
                {
                    "sushi_pile": list(state.sushi_piles[s]),
                    "bone_pile": list(state.bone_piles[s]),
                    "counted": min(len(state.sushi_piles[s]), len(state.bone_piles[s])),
                }
                for s in range(state.players)
            ]
        return {
            "seat": seat,
            "to_move": sorted(self.to_move(state)),
            "turn": None if state.over else state.turn,
            "round": None,
            "phase": phase,
            "over": state.over,
            # Running scores would reveal the tiles below the tops.
            "scores": self.scores(state) if state.over else [0] * state.players,
            "ranking": self.ranking(state) if state.over else None,
            "last": self._last_events(state),
            "sushi_row": list(state.sushi_row),
            "bone_row": list(state.bone_row),
            "sushi_piles": [shown(pile) for pile in state.sushi_piles],
            "bone_piles": [shown(pile) for pile in state.bone_piles],
            "thrown": list(state.thrown),
            "set_aside": list(state.set_aside),
            "result": {
                "sushi": result[SUSHI],
                "bone": result[BONE],
                "blue": result[BLUE],
                "red": result[RED],
            },
            "throws": state.throws,
            "throws_left": THROWS - state.throws if self.can_roll(state) else 0,
            "options": options,
            "forced_tile": self._forced_shown(state),
            "final_piles": final_piles,
        }

    def _last_events(self, state: SushizockState) -> list[Event]:
        """The events of the most recent action, as `apply` returned them.

        The state keeps only the acting event; a take or a steal ended the turn, so the
        turn change (or the end of the game) that followed is rebuilt from the state.
        """
        if state.last is None:
            return []
        events: list[Event] = [dict(state.last)]
        if state.last.get("type") in ("took", "stole"):
            if state.over:
                events.append(
                    {"type": "game_over", "scores": self.scores(state), "ranking": self.ranking(state)}
                )
            else:
                events.append({"type": "turn", "seat": state.turn})
        return events

    def _forced_shown(self, state: SushizockState) -> ForcedTile | None:
        if not self.forced(state):
            return None
        pile, index = self.forced_tile(state)
        return {"pile": pile, "nth": index + 1, "tile": self._row(state, pile)[index]}

    # ------------------------------------------------------------ helpers

    @staticmethod
    def _row(state: SushizockState, pile: str) -> list[int]:
        return state.sushi_row if pile == SUSHI else state.bone_row

    @staticmethod
    def _piles(state: SushizockState, pile: str) -> list[list[int]]:
        return state.sushi_piles if pile == SUSHI else state.bone_piles


GAME = SushizockGame()
