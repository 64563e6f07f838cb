"""A /roll of a Sushi Dice set in the emoji of its table."""

from __future__ import annotations

from cogs.i18n import Localish
from cogs.sushidice.render import FACE_EMOJI


def lines(faces: tuple[str, ...], locale: Localish) -> list[str]:
    return [" ".join(FACE_EMOJI[face] for face in faces)]
