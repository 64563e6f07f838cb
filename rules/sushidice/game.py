"""Sushi Dice: two duelists race to throw what one of three face-up plates shows (GAMES.md, "Sushi Dice").

Two sets of six dice, "red" and "blue". Dice 0-2 of a set show the five sushi and a star, dice 3-5
the five sushi and a yuck. 19 plates: three of each single-sushi plate (six of that sushi) and four
combo plates (one of each sushi plus a star). A star is wild for any sushi; the combo's own star
needs a star. Three plates lie face up (a slot each, 0-2), the rest are a shuffled face-down pile.

The host (seat 0) holds red and first challenges an opponent, who takes blue (with two players the
only opponent: their first duel starts at once). A duel is real time:
both duelists are in `to_move` together, set dice aside, bring them back and re-throw the rest as
they like; every action is judged on the state at the moment it arrives. A set starts each duel
unthrown (it shows nothing) until its holder presses Roll. The first duelist whose six dice complete
a face-up plate may Ring and takes it; a new plate fills the slot (while the pile lasts: after that
the slot goes and the later slots move up); both sets pass left (seat i -> i+1) and their new
holders duel next. A duelist may call Yuck while the opponent shows a yuck: all six of the
opponent's dice are re-thrown at once and none stays set aside. While both duelists show a yuck,
every seated non-duelist is in `to_move` too and may call Chop: the duel ends without a plate, the
caller takes red and gives blue to a partner with the fewest plates among the other seats, and
those two duel next. The game ends when a seat owns 6 / 5 / 4 plates (2 / 3-4 / 5-6 players);
ranks follow plates. It always ends so before the plates run out: 19 plates are more than
players x (target - 1) at every count, so whoever takes the last plate has reached the target.

Calls are judged on the board the caller pressed on (GAMES.md). Every throw in the game gets the next
serial number; the board `stamp` is the serial of the latest throw of all, so a stamp names what every
die showed. Each set dates when, in this duel, it began or ceased to show a yuck (`DiceSet.yucks`). A
Yuck or a Chop carries the stamp of the board the caller saw (`seen`); it stands when that board showed
a yuck on the opponent (a Chop: on both duelists), whatever was thrown since: throws the board has not
shown do not save the called duelist, who re-throws all six dice. A board older than a call already
made on those dice (`DiceSet.called`) or than the duel now on is too late. Which boards were published,
and when, is the table's to know: it refuses a call on a board replaced more than a second before the
call (cogs/sushidice). `call_stamps` lists the stamps a call may name, newest first.

Refusal codes:
- game_over: the game has ended.
- not_your_turn (seat): the seat may not act now (a spectator outside a Chop chance, a duelist before the
  host has challenged, a seat not at the table).
- unknown_action (kind): not an action of this game (also raised by decode_action).
- malformed_action (kind): decode_action got fields that do not make the action.
- wrong_phase (phase): a Challenge during a duel, or a duel action before the first challenge.
- bad_opponent (opponent): the host must challenge another seat at the table.
- not_a_duelist: only the two duelists roll, set aside, ring and call Yuck.
- not_a_spectator: only seated players outside the duel call Chop.
- bad_die (die): dice are numbered 0-5.
- die_not_thrown (die): an unthrown die cannot be set aside.
- already_set_aside (die) / not_set_aside (die): the die is already aside / is not aside.
- nothing_to_roll: every die is set aside; bring one back first.
- no_such_plate (plate, face_up): plates are the face-up slots 0..face_up-1.
- plate_not_complete (plate, name): the duelist's six dice do not show that plate.
- not_shown_yet (seen, stamp): `seen` is no stamp of this game yet (no board showed it).
- called_late (seen): the board stamped `seen` is older than a Yuck already called on those dice, or
  than the duel now on: the first call won.
- no_yuck_shown (seen): the board stamped `seen` showed no yuck on the opponent.
- no_chop (seen): the board stamped `seen` did not show a yuck on both duelists.
- bad_partner (partner): the partner must be another seat at the table.
- partner_not_fewest (partner, plates, fewest): the partner must have the fewest plates among the
  seats other than the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, cast

from rules.codec import ActionCodec, Codecs, StateCodec
from rules.engine import Action, Event, IllegalAction, Rng, require, shared_ranks, table_options
from rules.sushidice.pieces import (
    COMBO,
    DICE,
    DUEL_ACTIONS,
    FACE_UP,
    FACES,
    HOST,
    PLATE_DECK,
    PLATE_NAMES,
    PLATES_TO_WIN,
    SET_COLOURS,
    SET_SIZE,
    STAR,
    STAR_DICE,
    STAR_DIE,
    SUSHI,
    YUCK,
    YUCK_DIE,
    BringBack,
    Challenge,
    Chop,
    DiceSet,
    DuelistView,
    Phase,
    Ring,
    Roll,
    SetAside,
    SushiDiceState,
    SushiDiceView,
    Yuck,
)
from rules.sushidice.plates import filling as _filling
from rules.sushidice.plates import keep_toward, plate_complete, step_toward

__all__ = [
    "COMBO",
    "DICE",
    "DUEL_ACTIONS",
    "FACES",
    "FACE_UP",
    "GAME",
    "HOST",
    "PLATES_TO_WIN",
    "PLATE_DECK",
    "PLATE_NAMES",
    "SET_COLOURS",
    "SET_SIZE",
    "STAR",
    "STAR_DICE",
    "STAR_DIE",
    "SUSHI",
    "YUCK",
    "YUCK_DIE",
    "BringBack",
    "Challenge",
    "Chop",
    "DiceSet",
    "DuelistView",
    "Phase",
    "Ring",
    "Roll",
    "SetAside",
    "SushiDiceGame",
    "SushiDiceState",
    "SushiDiceView",
    "Yuck",
    "plate_complete",
    "step_toward",
]


def _copied(event: Event) -> Event:
    """A copy of an event that shares nothing with it (events hold plain values and flat lists)."""
    return {
        key: list(cast(list[Any], value)) if isinstance(value, list) else value
        for key, value in event.items()
    }


def _is_index(value: Any, size: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


# ---------------------------------------------------------------- the game


class SushiDiceGame(Codecs[SushiDiceState, Action]):
    id = "sushidice"
    title = "Sushi Dice"
    min_players = 2
    max_players = 6
    options: ClassVar[dict[str, tuple[str, ...]]] = {}

    _codec = StateCodec(SushiDiceState)
    _actions = ActionCodec(Challenge, Roll, SetAside, BringBack, Ring, Yuck, Chop)

    # ------------------------------------------------------------ setup

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> SushiDiceState:
        options = table_options(self, players, options)
        rng = Rng(seed)
        pile = list(PLATE_DECK)
        rng.shuffle(pile)
        face_up = [pile.pop() for _ in range(FACE_UP)]
        state = SushiDiceState(
            players=players,
            rng=rng,
            options=options,
            pile=pile,
            face_up=face_up,
            plates=[[] for _ in range(players)],
            sets=[DiceSet(SET_COLOURS[0], HOST), DiceSet(SET_COLOURS[1], -1)],
        )
        if players == 2:  # the host's only possible opponent: no challenge to make
            state.sets[1].holder = 1 - HOST
            self._start_duel(state, [])
        return state

    # ------------------------------------------------------------ questions

    def to_move(self, state: SushiDiceState) -> frozenset[int]:
        if state.over:
            return frozenset()
        if state.phase == "challenge":
            return frozenset({HOST})
        if self.chop_open(state):
            return frozenset(range(state.players))
        red, blue = state.sets
        return frozenset((red.holder, blue.holder))

    def is_over(self, state: SushiDiceState) -> bool:
        return state.over

    def scores(self, state: SushiDiceState) -> list[int]:
        return [len(plates) for plates in state.plates]

    def ranking(self, state: SushiDiceState) -> list[int]:
        return shared_ranks(self.scores(state))

    def dice_of(self, state: SushiDiceState, seat: int) -> DiceSet | None:
        """The set a seat duels with, None for a spectator (or before the host has challenged)."""
        if state.phase != "duel":
            return None
        for dice in state.sets:
            if dice.holder == seat:
                return dice
        return None

    def opponent_of(self, state: SushiDiceState, dice: DiceSet) -> DiceSet:
        return state.sets[1 - state.sets.index(dice)]

    def chop_possible(self, state: SushiDiceState) -> bool:
        """Both duelists show a yuck now and someone is there to call Chop (what a board shows)."""
        red, blue = state.sets
        return (
            not state.over
            and state.phase == "duel"
            and state.players > 2
            and YUCK in red.faces
            and YUCK in blue.faces
        )

    def chop_open(self, state: SushiDiceState) -> bool:
        """A Chop may still be called: a board of this duel showed both yucks, and no Yuck came since."""
        return (
            not state.over
            and state.phase == "duel"
            and state.players > 2
            and bool(self.call_stamps(state, state.sets))
        )

    def complete_plates(self, state: SushiDiceState, dice: DiceSet) -> list[int]:
        """The face-up slots the set's six dice complete."""
        return [
            slot for slot, plate in enumerate(state.face_up) if len(_filling(plate, dice.faces)) == SET_SIZE
        ]

    def call_stamps(self, state: SushiDiceState, sets: Sequence[DiceSet]) -> list[int]:
        """The board stamps a call on a yuck of each of `sets` may name, newest first: those of this duel,
        since the latest call on them, whose board showed a yuck on each."""
        if state.phase != "duel" or any(not dice.yucks for dice in sets):
            return []
        oldest = max(max(dice.yucks[0], dice.called, state.duel_from + 1) for dice in sets)
        return [
            stamp
            for stamp in range(state.throws, oldest - 1, -1)
            if all(dice.showed_yuck(stamp) for dice in sets)
        ]

    def chop_partners(self, state: SushiDiceState, seat: int) -> list[int]:
        """The seats a Chop caller may give the other set to: the fewest plates among the others."""
        others = [other for other in range(state.players) if other != seat]
        fewest = min(len(state.plates[other]) for other in others)
        return [other for other in others if len(state.plates[other]) == fewest]

    def legal_actions(self, state: SushiDiceState, seat: int) -> list[Action]:
        if seat not in self.to_move(state):
            return []
        if state.phase == "challenge":
            return [Challenge(other) for other in range(state.players) if other != HOST]
        dice = self.dice_of(state, seat)
        if dice is None:
            partners = self.chop_partners(state, seat)
            return [
                Chop(seen, partner) for seen in self.call_stamps(state, state.sets) for partner in partners
            ]
        actions: list[Action] = []
        if not all(dice.set_aside):
            actions.append(Roll())
        actions.extend(
            SetAside(die)
            for die in range(SET_SIZE)
            if dice.faces[die] is not None and not dice.set_aside[die]
        )
        actions.extend(BringBack(die) for die in range(SET_SIZE) if dice.set_aside[die])
        actions.extend(Ring(slot) for slot in self.complete_plates(state, dice))
        actions.extend(Yuck(seen) for seen in self.call_stamps(state, [self.opponent_of(state, dice)]))
        return actions

    def default_action(self, state: SushiDiceState, seat: int) -> Action:
        """What the table plays for an idle duelist: a Roll (GAMES.md), or the bell when it is already won."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("not_your_turn", seat=seat)
        for preferred in (Ring, Roll):
            for action in legal:
                if isinstance(action, preferred):
                    return action
        return self.computer_action(state, seat)

    def computer_action(self, state: SushiDiceState, seat: int) -> Action:
        """A computer player's move: ring, else throw, set aside toward the best plate and roll.

        It always makes progress (GAMES.md): what it keeps aside can always still complete the plate
        it aims at (`keep_toward`), so every throw may win it. Never Yuck: a call names the board the caller
        saw, and only the Discord layer knows what the board has shown.
        """
        if seat not in self.to_move(state):
            raise IllegalAction("not_your_turn", seat=seat)
        if state.phase == "challenge":
            return Challenge((HOST + 1) % state.players)
        dice = self.dice_of(state, seat)
        if dice is None:  # a spectator moves only to Chop: on the latest board it may, to the first partner
            return Chop(self.call_stamps(state, state.sets)[0], self.chop_partners(state, seat)[0])
        if None in dice.faces:  # the first throw of a duel throws all six
            return Roll()
        keeps = [keep_toward(plate, dice.faces, dice.set_aside) for plate in state.face_up]
        for slot, keep in enumerate(keeps):
            if len(keep) == SET_SIZE:
                return Ring(slot)
        # keep is not the whole set (else a plate would be complete), so the throw can complete it
        return step_toward(dice, max(keeps, key=len, default=list[int]()))

    # ------------------------------------------------------------ acting

    def apply(self, state: SushiDiceState, seat: int, action: Action) -> list[Event]:
        require(not state.over, "game_over")
        if isinstance(action, Chop):
            # A spectator's late Chop gets the Chop refusal that says why, not "not your turn".
            spectator = (
                state.phase == "duel" and _is_index(seat, state.players) and self.dice_of(state, seat) is None
            )
            require(spectator or seat in self.to_move(state), "not_your_turn", seat=seat)
            require(state.phase == "duel", "wrong_phase", phase=state.phase)
            require(spectator, "not_a_spectator")
            self._check_chop(state, seat, action)
            return self._chop(state, seat, action.partner)
        require(seat in self.to_move(state), "not_your_turn", seat=seat)
        if isinstance(action, Challenge):
            require(state.phase == "challenge", "wrong_phase", phase=state.phase)
            require(
                _is_index(action.opponent, state.players) and action.opponent != seat,
                "bad_opponent",
                opponent=action.opponent,
            )
            return self._challenge(state, seat, action.opponent)
        if not isinstance(action, DUEL_ACTIONS):
            raise IllegalAction("unknown_action", kind=getattr(action, "kind", None))
        require(state.phase == "duel", "wrong_phase", phase=state.phase)
        dice = self.dice_of(state, seat)
        if dice is None:
            raise IllegalAction("not_a_duelist")
        if isinstance(action, Roll):
            loose = [die for die in range(SET_SIZE) if not dice.set_aside[die]]
            require(bool(loose), "nothing_to_roll")
            return self._done(state, [self._throw(state, dice, loose)])
        if isinstance(action, SetAside):
            require(_is_index(action.die, SET_SIZE), "bad_die", die=action.die)
            require(dice.faces[action.die] is not None, "die_not_thrown", die=action.die)
            require(not dice.set_aside[action.die], "already_set_aside", die=action.die)
            dice.set_aside[action.die] = True
            return self._done(state, [{"type": "set_aside", "seat": seat, "die": action.die}])
        if isinstance(action, BringBack):
            require(_is_index(action.die, SET_SIZE), "bad_die", die=action.die)
            require(dice.set_aside[action.die], "not_set_aside", die=action.die)
            dice.set_aside[action.die] = False
            return self._done(state, [{"type": "brought_back", "seat": seat, "die": action.die}])
        if isinstance(action, Ring):
            slot = action.plate
            require(
                _is_index(slot, len(state.face_up)), "no_such_plate", plate=slot, face_up=len(state.face_up)
            )
            name = state.face_up[slot]
            require(slot in self.complete_plates(state, dice), "plate_not_complete", plate=slot, name=name)
            return self._ring(state, seat, slot)
        opponent = self.opponent_of(state, dice)
        self._check_seen(state, [opponent], action.seen, "no_yuck_shown")
        # The opponent re-throws everything, set-aside dice too, whatever they threw since that board.
        opponent.set_aside = [False] * SET_SIZE
        opponent.yucks = []
        rethrow = self._throw(state, opponent, list(range(SET_SIZE)))
        rethrow["forced"] = True
        opponent.called = state.throws
        return self._done(state, [{"type": "yuck", "seat": seat, "target": opponent.holder}, rethrow])

    def _check_seen(self, state: SushiDiceState, sets: Sequence[DiceSet], seen: Any, code: str) -> None:
        """A call stands on the yucks the board stamped `seen` showed, unless a call came first (GAMES.md)."""
        require(_is_index(seen, state.throws + 1), "not_shown_yet", seen=seen, stamp=state.throws)
        if seen in self.call_stamps(state, sets):
            return
        late = any(seen < dice.called for dice in sets) or (state.duel > 1 and seen <= state.duel_from)
        require(not late, "called_late", seen=seen)
        raise IllegalAction(code, seen=seen)

    def _check_chop(self, state: SushiDiceState, seat: int, action: Chop) -> None:
        require(state.players > 2, "no_chop", seen=action.seen)
        self._check_seen(state, state.sets, action.seen, "no_chop")
        partner = action.partner
        require(_is_index(partner, state.players) and partner != seat, "bad_partner", partner=partner)
        fewest = min(len(state.plates[other]) for other in range(state.players) if other != seat)
        plates = len(state.plates[partner])
        require(plates == fewest, "partner_not_fewest", partner=partner, plates=plates, fewest=fewest)

    def _done(self, state: SushiDiceState, events: list[Event]) -> list[Event]:
        """Remember the headline of what just happened for the board, and hand the events back."""
        state.last = _copied(events[0])
        return events

    def _throw(self, state: SushiDiceState, dice: DiceSet, thrown: list[int]) -> Event:
        state.throws += 1
        for die in thrown:
            dice.faces[die] = state.rng.choice(DICE[die])
            dice.thrown[die] = state.throws
        dice.throw = state.throws
        dice.dated(state.throws)
        return {
            "type": "rolled",
            "seat": dice.holder,
            "set": dice.colour,
            "dice": thrown,
            "faces": list(dice.faces),
            "throw": dice.throw,
        }

    def _start_duel(self, state: SushiDiceState, previous: list[int]) -> Event:
        state.phase = "duel"
        state.duel += 1
        state.duel_from = state.throws
        state.previous = previous
        for dice in state.sets:
            dice.faces = [None] * SET_SIZE
            dice.set_aside = [False] * SET_SIZE
            dice.yucks, dice.called = [], 0
        return {
            "type": "duel_started",
            "duel": state.duel,
            **{dice.colour: dice.holder for dice in state.sets},
        }

    def _challenge(self, state: SushiDiceState, seat: int, opponent: int) -> list[Event]:
        state.sets[1].holder = opponent
        challenged: Event = {"type": "challenged", "seat": seat, "opponent": opponent}
        return self._done(state, [challenged, self._start_duel(state, [])])

    def _chop(self, state: SushiDiceState, seat: int, partner: int) -> list[Event]:
        previous = [dice.holder for dice in state.sets]
        state.sets[0].holder = seat
        state.sets[1].holder = partner
        chopped: Event = {"type": "chop", "seat": seat, "partner": partner}
        state.ended = _copied(chopped)
        return self._done(state, [chopped, self._start_duel(state, previous)])

    def _ring(self, state: SushiDiceState, seat: int, slot: int) -> list[Event]:
        name = state.face_up.pop(slot)
        state.plates[seat].append(name)
        events: list[Event] = [
            {"type": "rang", "seat": seat, "plate": slot, "name": name, "plates": len(state.plates[seat])}
        ]
        state.ended = _copied(events[0])
        if len(state.plates[seat]) >= PLATES_TO_WIN[state.players]:
            return self._done(state, [*events, self._end(state, "plates_won")])
        # Nobody has won, so a plate is still face up (the check under PLATE_DECK).
        if state.pile:
            state.face_up.insert(slot, state.pile.pop())
            events.append({"type": "plate_revealed", "plate": slot, "name": state.face_up[slot]})
        else:  # the slot goes; the later ones move up
            events.append({"type": "pile_empty", "face_up": len(state.face_up)})
        previous = [dice.holder for dice in state.sets]
        for dice in state.sets:
            dice.holder = (dice.holder + 1) % state.players
        events.append(self._start_duel(state, previous))
        return self._done(state, events)

    def _end(self, state: SushiDiceState, reason: str) -> Event:
        state.over = True
        return {
            "type": "game_over",
            "reason": reason,
            "scores": self.scores(state),
            "ranking": self.ranking(state),
        }

    # ------------------------------------------------------------ showing

    def view(self, state: SushiDiceState, seat: int | None) -> SushiDiceView:
        duelists: list[DuelistView] = [
            {
                "seat": dice.holder,
                "set": dice.colour,
                "faces": list(dice.faces),
                "set_aside": list(dice.set_aside),
                "throw": dice.throw,
                "yuck": YUCK in dice.faces,
                "complete": self.complete_plates(state, dice),
            }
            for dice in state.sets
            if state.phase == "duel"
        ]
        phase: Phase = "over" if state.over else "challenge" if state.phase == "challenge" else "duel"
        data: SushiDiceView = {
            "seat": seat,
            "to_move": sorted(self.to_move(state)),
            "turn": HOST if phase == "challenge" else None,
            "round": None,
            "phase": phase,
            "over": state.over,
            "scores": self.scores(state),
            "ranking": self.ranking(state) if state.over else None,
            "last": [] if state.last is None else [_copied(state.last)],
            "host": HOST,
            "duel": state.duel,
            "target": PLATES_TO_WIN[state.players],
            "face_up": list(state.face_up),
            "pile": len(state.pile),
            "plates": [list(plates) for plates in state.plates],
            "duelists": duelists,
            "stamp": state.throws,
            "chop_possible": self.chop_possible(state),
            "previous": list(state.previous),
            "ended": None if state.ended is None else _copied(state.ended),
        }
        if seat is not None:
            dice = self.dice_of(state, seat)
            data["set"] = None if dice is None else dice.colour
        return data


GAME = SushiDiceGame()
