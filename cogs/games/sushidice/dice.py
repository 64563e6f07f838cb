"""A /roll of a Sushi Dice set in the emoji of its table."""

from __future__ import annotations

from cogs.games.sushidice.render import FACE_EMOJI
from cogs.kit.words.catalogs import Localish


def lines(faces: tuple[str, ...], locale: Localish) -> list[str]:
    return [" ".join(FACE_EMOJI[face] for face in faces)]
