"""What a game of Sushi Dice is made of: its dice and plates, its actions, its state and its view
(the rules that move them are game.py)."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, NotRequired, TypedDict

from rules.engine import Action, Event, Rng, ViewHeader

SUSHI: tuple[str, ...] = ("maguro", "sake", "ebi", "tamago", "kappa")
STAR = "star"
YUCK = "yuck"
COMBO = "combo"
PLATE_NAMES: tuple[str, ...] = (*SUSHI, COMBO)
FACES: tuple[str, ...] = (*SUSHI, STAR, YUCK)
STAR_DIE: tuple[str, ...] = (*SUSHI, STAR)
YUCK_DIE: tuple[str, ...] = (*SUSHI, YUCK)
DICE: tuple[tuple[str, ...], ...] = (STAR_DIE, STAR_DIE, STAR_DIE, YUCK_DIE, YUCK_DIE, YUCK_DIE)
"""The faces of the six dice of a set, by die number."""
SET_SIZE = len(DICE)
STAR_DICE: tuple[int, ...] = tuple(die for die, faces in enumerate(DICE) if STAR in faces)
SET_COLOURS: tuple[str, ...] = ("red", "blue")
PLATE_DECK: tuple[str, ...] = (*(sushi for sushi in SUSHI for _ in range(3)), *(COMBO,) * 4)
FACE_UP = 3
HOST = 0
PLATES_TO_WIN: dict[int, int] = {2: 6, 3: 5, 4: 5, 5: 4, 6: 4}
if len(PLATE_DECK) <= max(players * (target - 1) for players, target in PLATES_TO_WIN.items()):
    # The engine relies on it: a game always ends by plate count before the face-up plates run out.
    raise RuntimeError("too few plates: a game could run out of plates before anyone wins")


# ---------------------------------------------------------------- actions


@dataclass(frozen=True)
class Challenge(Action):
    """The host picks the first opponent (before the first duel only)."""

    kind: ClassVar[str] = "challenge"
    opponent: int


@dataclass(frozen=True)
class Roll(Action):
    """Throw every die of the own set that is not set aside (all six on the first throw of a duel)."""

    kind: ClassVar[str] = "roll"


@dataclass(frozen=True)
class SetAside(Action):
    kind: ClassVar[str] = "set_aside"
    die: int


@dataclass(frozen=True)
class BringBack(Action):
    kind: ClassVar[str] = "bring_back"
    die: int


@dataclass(frozen=True)
class Ring(Action):
    """Ring the bell for the face-up plate in slot `plate` (0-2)."""

    kind: ClassVar[str] = "ring"
    plate: int


@dataclass(frozen=True)
class Yuck(Action):
    """Call Yuck on the opponent; `seen` is the stamp of the published board the caller saw."""

    kind: ClassVar[str] = "yuck"
    seen: int


@dataclass(frozen=True)
class Chop(Action):
    """End the duel; `seen` is the board stamp the caller saw, `partner` the seat given the other set."""

    kind: ClassVar[str] = "chop"
    seen: int
    partner: int


DUEL_ACTIONS = (Roll, SetAside, BringBack, Ring, Yuck)
"""What the two duelists do."""


# ---------------------------------------------------------------- state


@dataclass
class DiceSet:
    colour: str
    holder: int
    """The seat holding the set; -1 for blue until the host has challenged."""
    faces: list[str | None] = field(default_factory=lambda: [None] * SET_SIZE)
    """What each die shows; None while unthrown in this duel."""
    set_aside: list[bool] = field(default_factory=lambda: [False] * SET_SIZE)
    throw: int = 0
    """Serial number (game-wide) of this set's latest throw; 0 = never thrown."""
    thrown: list[int] = field(default_factory=list[int])
    """Per die, the serial of its latest throw (0 = never thrown)."""
    yucks: list[int] = field(default_factory=list[int])
    """The serials of this duel's throws (since the latest call on the set) after which the set began or
    ceased to show a yuck, oldest first: the board stamped s showed one when an odd number are <= s."""
    called: int = 0
    """The serial of the re-throw a Yuck! forced on the set in this duel (0 = none): boards older than it
    are too late to call on."""

    def __post_init__(self) -> None:
        if not self.thrown:
            # A new set, or one stored before dice had serials of their own: every die that shows a
            # face gets the set's latest throw, which never dates a yuck earlier than it was thrown.
            self.thrown = [0 if face is None else self.throw for face in self.faces]
        if not self.yucks and YUCK in self.faces:
            # Stored before the yucks were dated: shown since the earliest throw of a die showing one.
            self.yucks = [min(self.thrown[die] for die, face in enumerate(self.faces) if face == YUCK)]

    def shows_yuck(self) -> bool:
        return YUCK in self.faces

    def showed_yuck(self, stamp: int) -> bool:
        """Whether the board stamped `stamp` showed a yuck on this set (in this duel)."""
        return bisect_right(self.yucks, stamp) % 2 == 1

    def dated(self, serial: int) -> None:
        """Date what the set shows after its throw `serial`: a yuck appearing or gone is noted."""
        if self.shows_yuck() != (len(self.yucks) % 2 == 1):
            self.yucks.append(serial)


@dataclass
class SushiDiceState:
    players: int
    rng: Rng
    options: dict[str, str] = field(default_factory=dict[str, str])
    phase: str = "challenge"
    """Either "challenge" (the host picks the first opponent; 3+ players) or "duel" (from then on)."""
    pile: list[str] = field(default_factory=list[str])
    """Face-down plates; the last one is revealed next."""
    face_up: list[str] = field(default_factory=list[str])
    plates: list[list[str]] = field(default_factory=list[list[str]])
    """Per seat, the plates won, in the order taken."""
    sets: list[DiceSet] = field(default_factory=list[DiceSet])
    """Red, then blue."""
    throws: int = 0
    """Throws so far in the game: the serial of the latest one, the board stamp."""
    duel: int = 0
    duel_from: int = 0
    """The board stamp when the current duel began: no call on a board that old names this duel."""
    previous: list[int] = field(default_factory=list[int])
    """The seats that dueled in the duel before the current one (none before the second duel)."""
    ended: dict[str, Any] | None = None
    """How the duel before the current one ended: its "rang" or "chop" event."""
    over: bool = False
    last: dict[str, Any] | None = None


# ---------------------------------------------------------------- the view


Phase = Literal["challenge", "duel", "over"]
"""Where play stands: the host picks the first opponent, a duel is on, or the game is over."""


class DuelistView(TypedDict):
    """One duelist of the current duel: the set they hold and what its six dice show."""

    seat: int
    set: str
    """"red" or "blue"."""
    faces: list[str | None]
    """What each die shows; None while unthrown in this duel."""
    set_aside: list[bool]
    throw: int
    """The serial of this set's latest throw; 0 = never thrown."""
    yuck: bool
    """Whether a die shows a yuck."""
    complete: list[int]
    """The face-up slots the six dice complete."""


class SushiDiceView(ViewHeader):
    """What `view()` shows. Header: `turn` is the host while it challenges, None in a duel (both act
    at once) and once over; `round` is always None; `phase` is always a `Phase`; `last` holds the
    headline event of the latest action (the state keeps only that one).
    """

    phase: Phase

    host: int
    duel: int
    """Duels started so far (the current duel's number)."""
    target: int
    """Plates a seat must own to win."""
    face_up: list[str]
    pile: int
    """Face-down plates left (their order is hidden)."""
    plates: list[list[str]]
    """Per seat, the plates won, in the order taken."""
    duelists: list[DuelistView]
    """Red, then blue; empty before the host has challenged."""
    stamp: int
    """The serial of the latest throw of the game (what a Yuck! or a Chop! names)."""
    chop_possible: bool
    """Both duelists show a yuck (with someone outside the duel to call Chop!)."""
    previous: list[int]
    """The seats that dueled in the duel before this one."""
    ended: Event | None
    """How the duel before this one ended: its "rang" or "chop" event (None before the second duel)."""
    set: NotRequired[str | None]
    """Private views only: the colour of the set the seat duels with, None when it does not duel."""
