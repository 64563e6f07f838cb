"""A /roll of Dice Race's dice: their pips, and what they add up to."""

from __future__ import annotations

from cogs.kit.words.catalogs import Localish
from cogs.kit.words.text import number, t


def lines(faces: tuple[str, ...], locale: Localish) -> list[str]:
    pips = [int(face) for face in faces]
    shown = " + ".join(number(pip, locale) for pip in pips)
    return [t("toy.roll.thrown", locale, pips=shown, total=sum(pips))]
