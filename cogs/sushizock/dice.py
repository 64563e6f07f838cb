"""A /roll of Sushizock's dice in the emoji of its table: the dice, then how many of each face."""

from __future__ import annotations

from collections import Counter

from cogs.i18n import Localish
from cogs.sushizock.render import FACE_EMOJI


def lines(faces: tuple[str, ...], locale: Localish) -> list[str]:
    counts = Counter(faces)
    summary = " · ".join(f"{counts[face]} {emoji}" for face, emoji in FACE_EMOJI.items() if counts[face])
    return [" ".join(FACE_EMOJI[face] for face in faces), summary]
