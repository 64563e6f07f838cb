"""A /roll of Rock the Bock's dice in the squares and words of its table: the dice, then each colour
counted ("🐏 bocks ×3", "🟦 blue goats ×2")."""

from __future__ import annotations

from collections import Counter

from cogs.games.rockthebock.render import SQUARES
from cogs.kit.words.catalogs import Localish
from cogs.kit.words.text import plural
from rules.rockthebock.game import COLOURS


def lines(faces: tuple[str, ...], locale: Localish) -> list[str]:
    counts = Counter(faces)
    summary = " · ".join(
        plural(f"rockthebock.face.{colour}", counts[colour], locale) for colour in COLOURS if counts[colour]
    )
    return [" ".join(SQUARES[face] for face in faces), summary]
