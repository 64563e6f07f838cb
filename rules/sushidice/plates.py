"""Which dice fill a plate: what completes it (the bell), what a computer keeps toward it, and the
clicks that get there."""

from __future__ import annotations

from collections.abc import Sequence

from rules.engine import Action
from rules.sushidice.pieces import (
    COMBO,
    FACES,
    PLATE_NAMES,
    SET_SIZE,
    STAR,
    STAR_DICE,
    SUSHI,
    BringBack,
    DiceSet,
    Roll,
    SetAside,
)


def filling(plate: str, faces: Sequence[str | None], kept: Sequence[bool] = ()) -> list[int]:
    """The dice (by number) filling as much of the plate as possible; kept dice first among equals."""
    if plate != COMBO:
        return [die for die, face in enumerate(faces) if face in (plate, STAR)]
    dice = range(len(faces))
    order = [*(die for die in dice if kept[die]), *(die for die in dice if not kept[die])] if kept else dice
    filling: list[int] = []
    stars: list[int] = []
    missing = set(SUSHI)
    for die in order:  # a sushi face fills only its own sushi, once
        face = faces[die]
        if face == STAR:
            stars.append(die)
        elif face in missing:
            missing.discard(face)
            filling.append(die)
    # The first star is the combo's own star; the others stand for missing sushi.
    filling.extend(stars[: 1 + len(missing)])
    return sorted(filling)


def plate_complete(plate: str, faces: list[str]) -> bool:
    """Whether six dice showing `faces` complete `plate` (a sushi name or "combo"); stars are wild."""
    if plate not in PLATE_NAMES:
        raise ValueError(f"unknown plate {plate!r}")
    if len(faces) != SET_SIZE or any(face not in FACES for face in faces):
        raise ValueError(f"six faces among {FACES} expected, got {faces!r}")
    return len(filling(plate, faces)) == SET_SIZE


def keep_toward(plate: str, faces: Sequence[str | None], kept: Sequence[bool]) -> list[int]:
    """The dice a computer keeps toward `plate`: its filling, unless that leaves the plate out of reach.

    Only the combo can be: its own star needs a star die, so when the filling has no star and takes
    every star die (showing sushi), the rest are yuck dice that never throw a star. Then one star die
    goes back to be thrown: the one whose sushi the other dice can best stand in for.
    """
    best = filling(plate, faces, kept)
    if plate != COMBO or any(faces[die] == STAR for die in best) or not set(STAR_DICE) <= set(best):
        return best
    freed = ([None if die == free else face for die, face in enumerate(faces)] for free in STAR_DICE)
    return max((filling(plate, others, kept) for others in freed), key=len)


def step_toward(dice: DiceSet, keep: Sequence[int]) -> Action:
    """The next click toward having exactly `keep` set aside, then the throw (the default move,
    and every computer's, once it knows which dice to keep)."""
    for die in keep:
        if not dice.set_aside[die]:
            return SetAside(die)
    for die in range(SET_SIZE):
        if dice.set_aside[die] and die not in keep:
            return BringBack(die)
    return Roll()
