"""A /roll of Sushizock's dice in the emoji of its table: the dice, then how many of each face."""

from __future__ import annotations

from collections import Counter

from cogs.games.sushizock.render import FACE_EMOJI, face_counts
from cogs.kit.words.catalogs import Localish


def lines(faces: tuple[str, ...], locale: Localish) -> list[str]:
    counts = Counter(faces)
    summary = face_counts({face: counts[face] for face in FACE_EMOJI}, locale)
    return [" ".join(FACE_EMOJI[face] for face in faces), summary]
