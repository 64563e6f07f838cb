"""The expressions other dice bots document, each with what that bot rolls for it in Sushi Bar's
spelling (None: nothing here rolls the same, so /roll must refuse it), and how /roll reads them.

Sources, as stored for this project: Dice Maiden's roll_syntax.md and help text (Humblemonk/
dicemaiden-rs) and the README of its Ruby original (Humblemonk/DiceMaiden), its aliases' plain-notation
expansions among them (`4cod` -> `4d10 t8 ie10`, Earthdawn's steps), and the combined modifiers from
its tests quoted in issue 47; d20's README (avrae/d20); Avrae's `!roll` help (avrae/avrae). Alias
names (`4cod`, `sw8`) are left out: they are words, not notation. Expressions written with a
placeholder (`xdy+z`) are taken with 1d20 and 5.

A reading is "understood" when /roll rolls what the other bot rolls (the same dice, modifiers and
label), "refused" when /roll refuses it, and "misread" when /roll rolls something else.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from rules.dice_notation import (
    Binary,
    Dice,
    DiceRequest,
    GameRequest,
    Negate,
    Node,
    Number,
    Request,
    RollError,
    Several,
    parse,
)

_EARTHDAWN = """\
1d4 ie - 2
1d4 ie - 1
1d4 ie
1d6 ie
1d8 ie
1d10 ie
1d12 ie
2d6 ie
1d8 ie + 1d6 ie
2d8 ie
1d10 ie + 1d8 ie
2d10 ie
1d12 ie + 1d10 ie
2d12 ie
1d12 ie + 2d6 ie
1d12 ie + 1d8 ie + 1d6 ie
1d12 ie + 2d8 ie
1d12 ie + 1d10 ie + 1d8 ie
1d20 ie + 2d6 ie
1d20 ie + 1d8 ie + 1d6 ie
1d20 ie + 1d10 ie + 1d6 ie
1d20 ie + 1d10 ie + 1d8 ie
1d20 ie + 2d10 ie
1d20 ie + 1d12 ie + 1d10 ie
1d20 ie + 1d12 ie + 1d8 ie + 1d4 ie
1d20 ie + 1d12 ie + 1d8 ie + 1d6 ie
1d20 ie + 1d12 ie + 2d8 ie
1d20 ie + 2d10 ie + 1d8 ie
1d20 ie + 1d12 ie + 1d10 ie + 1d8 ie
1d20 ie + 1d10 ie + 2d8 ie + 1d6 ie
1d20 ie + 2d10 ie + 1d8 ie + 1d6 ie
1d20 ie + 2d10 ie + 2d8 ie
1d20 ie + 3d10 ie + 1d8 ie
1d20 ie + 1d12 ie + 2d10 ie + 1d8 ie
2d20 ie + 1d10 ie + 1d8 ie + 1d4 ie
2d20 ie + 1d10 ie + 1d8 ie + 1d6 ie
2d20 ie + 1d10 ie + 2d8 ie
2d20 ie + 2d10 ie + 1d8 ie
2d20 ie + 1d12 ie + 1d10 ie + 1d8 ie
2d20 ie + 1d10 ie + 1d8 ie + 2d6 ie
2d20 ie + 1d10 ie + 2d8 ie + 1d6 ie
2d20 ie + 2d10 ie + 1d8 ie + 1d6 ie
2d20 ie + 3d10 ie + 1d8 ie
2d20 ie + 1d12 ie + 2d10 ie + 1d8 ie
2d20 ie + 2d10 ie + 2d8 ie + 1d4 ie
2d20 ie + 2d10 ie + 2d8 ie + 1d6 ie
2d20 ie + 2d10 ie + 3d8 ie
2d20 ie + 3d10 ie + 2d8 ie
"""
"""Earthdawn's steps 1 to 50, as the Ruby README's table writes them (a few steps are the same)."""

Documented = tuple[str, str | None]
"""(as the bot's documentation writes it, the same roll in Sushi Bar's spelling or None)."""

DICE_MAIDEN: list[Documented] = [
    # roll_syntax.md and the help text: basic usage, modifiers, complex examples
    ("2d6", "2d6"),
    ("3d6 + 5", "3d6 + 5"),
    ("4d6 k3", "4d6kh3"),
    ("d%", "d%"),
    ("d100", "d100"),
    ("2d6 + 3d10", "2d6 + 3d10"),
    ("4d6 i1", None),  # imploding: a fresh die subtracted for every 1
    ("6d10 i3", None),
    ("1d10 i1 e10", None),
    ("4d6 i1 e6 + 2", None),
    ("6 4d6", "6 4d6"),
    ("2d6 ; 3d8 ; 1d20; 4d10", "2d6 ; 3d8 ; 1d20; 4d10"),
    ("2d6 ! Fire damage", "2d6 Fire damage"),  # its comment, our label
    ("(Attack) 1d20 + 5", "1d20 + 5 Attack"),
    ("10d6 e6 k8 +4", "10d6e6kh8 +4"),
    ("p 3d6 + 2d4", "3d6 + 2d4"),  # private: the same dice
    ("s 4d6 k3", "4d6kh3"),  # simple output: the same dice
    ("(Fireball) 8d6 ! AOE", "8d6 Fireball AOE"),
    ("4d100 ; 10d6 e6 k8 +4; 3d10 k2; ul 3d100", "4d100 ; 10d6e6kh8 +4; 3d10kh2; 3d100"),
    ("4d10 t8 ie10 f1", "4d10t8ie10f1"),
    ("4d100 ; 3d10 k2", "4d100 ; 3d10kh2"),
    ("4d6 ; 3d8 + 2 ; 1d20", "4d6 ; 3d8 + 2 ; 1d20"),
    ("+d20", "2d20kh1"),
    ("-d20", "2d20kl1"),
    ("+d%", "2d10kl1*10+1d10-10"),  # roll-under: the lower tens die
    ("-d%", "2d10kh1*10+1d10-10"),
    ("3df", "3dF"),  # Fudge dice, as its `3d3 t3 f1`
    ("4df", "4dF"),
    ("3d8 gb", None),  # Godbound's damage chart
    ("2d10 gbs", None),
    ("gb 3d8", None),
    ("gbs 2d10 +5", None),
    ("wng 4d6", None),  # Wrath & Glory's wrath die
    ("wng w2 4d6", None),
    ("wng dn2 4d6", None),
    ("wng dn3 5d6", None),
    ("wng 4d6 !soak", None),
    ("wng dn4 6d6 !exempt", None),
    ("wng dn2 6d6 !exempt", None),
    ("dh 4d10", None),  # Dark Heresy's righteous fury
    ("1d6 adv1 + 4 - 2", None),  # Open Legend's advantage: an extra die dropped before exploding
    ("2d6 ie6 adv1", None),
    ("ol5a1 ! Attack the ogre", None),
    # aliases' expansions written in plain notation
    ("6 4d6 k3", "6 4d6kh3"),
    ("1d20 +5", "1d20 +5"),
    ("1d20 -2", "1d20 -2"),
    ("1d20 +3", "1d20 +3"),
    ("2d20 k1", "2d20kh1"),
    ("2d20 kl1", "2d20kl1"),
    ("2d10 kl1 * 10 + 1d10 - 10", "2d10kl1 * 10 + 1d10 - 10"),
    ("2d10 k1 * 10 + 1d10 - 10", "2d10kh1 * 10 + 1d10 - 10"),
    ("1d20+5 + 1d4", "1d20+5 + 1d4"),
    ("1d20+7 + 1d6", "1d20+7 + 1d6"),
    ("1d20+3 + 1d8", "1d20+3 + 1d8"),
    ("2d20 k1+5 + 1d4", "2d20kh1+5 + 1d4"),
    ("2d20 kl1+3 + 1d6", "2d20kl1+3 + 1d6"),
    ("1d20 + 1d4", "1d20 + 1d4"),
    ("1d20+2 + 1d6", "1d20+2 + 1d6"),
    ("1d20+1 + 1d8", "1d20+1 + 1d8"),
    ("1d20+3 + 1d10", "1d20+3 + 1d10"),
    ("1d20 + 1d8", "1d20 + 1d8"),
    ("4d10 t8 ie10", "4d10t8ie10"),
    ("4d10 t8 ie8", "4d10t8ie8"),
    ("4d10 t8 ie9", "4d10t8ie9"),
    ("4d10 t8 ie10 r7", "4d10t8ie10ro<=7"),  # rote quality: the failures rerolled once
    ("4d10 f1 t8", "4d10f1t8"),
    ("4d10 f1 ie10 t8", "4d10f1ie10t8"),
    ("4d10 f1 t8 c", None),  # 10s cancel 1s
    ("3d3 t3 f1", "3d3t3f1"),
    ("3d6 t4", "3d6t4"),
    ("(1d3 * 10) + 1d4", "(1d3 * 10) + 1d4"),
    ("1d3*10 + 1d4", "1d3*10 + 1d4"),
    ("2d6 + 1d6", "2d6 + 1d6"),
    ("((2d10kl1-1) *10) + 1d10", "((2d10kl1-1) *10) + 1d10"),
    ("((2d10k1-1) *10) + 1d10", "((2d10kh1-1) *10) + 1d10"),
    ("5d6 ie6 t4", "5d6ie6t4"),
    ("4d6 + 1d6 ie", "4d6 + 1d6ie"),
    ("4d6 + 1d6 ie + 2", "4d6 + 1d6ie + 2"),
    ("6d6 t5", "6d6t5"),
    ("4d10 t6 ie10", "4d10t6ie10"),
    ("6d6 t6", "6d6t6"),
    ("1d8 ie8 + 1d6 ie6 k1", None),  # Savage Worlds: the better of the trait and the wild die
    ("1d10 ie10 + 1d6 ie6 k1", None),
    ("1d6 t4f1ie6", "1d6t4f1ie6"),  # D6 Legends
    ("7d6 t4 + 1d6 t4f1ie6", "7d6t4 + 1d6t4f1ie6"),
    ("1d20 ie20 + 2d6 ie6", "1d20ie20 + 2d6ie6"),  # Open Legend
    ("1d20 ie20 + 2d6 ie6 adv2", None),
    ("1d20 ie20 + 2d6 ie6 dis1", None),
    ("1d20 ie20", "1d20ie20"),
    ("1d20 ie20 adv1", None),
    ("5d10 t7ds10", None),  # Exalted: 10s count twice
    ("5d10 t8ds10", None),
    ("10d10 t7ds10", None),
    ("3d10 t6ds10", None),
    ("5d10 t7 t10", None),
    ("4d10 ie10", "4d10ie10"),
    # the Ruby README: modifiers one by one, comments, flags, sets
    ("3d6 e6", "3d6e6"),
    ("3d6 e", "3d6e"),
    ("3d6 ie6", "3d6ie6"),
    ("3d10 d1", "3d10dl1"),
    ("3d10 k2", "3d10kh2"),
    ("4d6 r2", "4d6ro<=2"),
    ("4d6 ir2", "4d6rr<=2"),
    ("6d10 t7", "6d10t7"),
    ("5d10 t8 f1", "5d10t8f1"),
    ("4d10 kl3", "4d10kl3"),
    ("4d6 ! Hello World!", "4d6 Hello World!"),
    ("s 4d6", "4d6"),
    ("4d6 ! unsort", "4d6"),
    ("ul 4d6", "4d6"),
    *[(step, step.replace(" ie", "ie")) for step in dict.fromkeys(_EARTHDAWN.splitlines())],  # its steps
    # several modifiers written together, and modifiers it has and Sushi Bar has not (its tests, issue 47)
    ("1d20+2d6 km1", None),  # the middle die
    ("1d10+3d6 k2d1", "1d10+3d6dl1kh2"),  # it drops, then keeps
    ("4d6 k3d1r1", "4d6dl1kh3ro1"),
    ("6d10 e6k4d1", "6d10e6dl1kh4"),
    ("6d10 e6km4d1", None),
    ("4d6 km3d1r1", None),
    ("1d20+3 t8f1", None),  # a target after `+3`: which dice it counts is its own reading
    ("4d6 rg2", "4d6ro>=2"),  # rerolls 2 or more, once
    ("4d6 irg2", "4d6rr>=2"),
    ("6d10 tl6", "6d10<=6"),
    ("4d6 b1", None),  # botches, counted apart
    ("6d10 b", None),
    ("4d6 i", None),
    ("1d6 km0", None),
    ("1d20+2d6 k1", "1d20+2d6kh1"),
    ("1d20+2d6 k1e6", "1d20+2d6e6kh1"),
    ("2d10 + 3d6 k2", "2d10 + 3d6kh2"),
    ("3d10 t7 + 2d8 e6k2", "3d10t7 + 2d8e6kh2"),
    ("4d10 t8 f1 + 2", "4d10t8f1 + 2"),
    ("2d6 e6 k1", "2d6e6kh1"),
    ("1d20 t10 +5", "1d20t10 +5"),
    ("4d6 k3 ! Primary stat", "4d6kh3 Primary stat"),
]

D20: list[Documented] = [
    ("1d20+5", "1d20+5"),
    ("d20", "d20"),
    ("3d6", "3d6"),
    ("1", "1"),
    ("0.5", None),  # decimals: none here
    ("3.14", None),
    ("()", "0"),
    ("(2,)", "(2,)"),
    ("(1, 3+3, 1d20)", "(1, 3+3, 1d20)"),
    ("(3d6)", "3d6"),
    ("(3d6,)", "(3d6,)"),
    ("4d6kh3", "4d6kh3"),
    ("2d6ro<3", "2d6ro<3"),
    ("8d6mi2", "8d6mi2"),
    ("(1d4 + 1, 3, 2d6kl1)kh1", "(1d4 + 1, 3, 2d6kl1)kh1"),
    ("4d6e6kh3", "4d6!kh3"),  # d20's `e6` explodes on a 6 again and again
    ("3d6 [fire] + 1d4 [piercing]", "3d6 + 1d4"),  # annotations only show
    ("-(1d8 + 3) [healing]", "-(1d8 + 3)"),
    ("(1 [one], 2 [two], 3 [three])", "(1, 2, 3)"),
    ("1d20 I rolled a d20", "1d20 I rolled a d20"),
    ("3d6 + 1d4 + 3", "3d6 + 1d4 + 3"),
    ("1 + 2 + 3 + 4", "1 + 2 + 3 + 4"),
    ("-1d8 + 4 - (3, 1d4)kh1", "-1d8 + 4 - (3, 1d4)kh1"),
    ("1d20", "1d20"),
    ("100d20", "100d20"),
    ("10d20rr<20", "10d20rr<20"),
]

AVRAE: list[Documented] = [
    ("1d20 Attack!", "1d20 Attack!"),
    ("1d20+5 adv Attack with Advantage!", "1d20+5 adv Attack with Advantage!"),
    ("1d20-5 dis Hide with Heavy Armor!", "1d20-5 dis Hide with Heavy Armor!"),
    ("1d20+1d20*5", "1d20+1d20*5"),
    ("1d20kh5", "1d20kh5"),
    ("4d6mi2[fire] Elemental Adept, Fire", "4d6mi2 Elemental Adept, Fire"),
    ("2d6e6 Explode on 6", "2d6! Explode on 6"),  # d20's `e6`: again and again
    ("10d6ra6 Spell Bombardment", None),  # reroll and add
    ("4d6ro<3 Great Weapon Master", "4d6ro<3 Great Weapon Master"),
]

Reading = Literal["understood", "refused", "misread"]


def _shape(node: Node) -> object:
    """An expression without the places of its parts in the text."""
    if isinstance(node, Dice):
        return replace(node, start=0, end=0)
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Binary):
        return (node.op, _shape(node.left), _shape(node.right))
    if isinstance(node, Negate):
        return ("-", _shape(node.operand))
    return ("set", tuple(_shape(item) for item in node.items), node.keep)


def meaning(request: Request) -> object:
    """What a request rolls: its dice and arithmetic, its sets and its label."""
    if isinstance(request, Several):
        return tuple(meaning(part) for part in request.parts)
    if isinstance(request, GameRequest):
        return (request.game, request.count, request.label)
    assert isinstance(request, DiceRequest)
    return (_shape(request.expression), request.sets, request.label or None)


def reading(text: str, ours: str | None) -> Reading:
    try:
        request = parse(text)
    except RollError:
        return "refused"
    return "understood" if ours is not None and meaning(request) == meaning(parse(ours)) else "misread"


def tally(documented: list[Documented]) -> dict[Reading, list[str]]:
    readings: dict[Reading, list[str]] = {"understood": [], "refused": [], "misread": []}
    for text, ours in documented:
        readings[reading(text, ours)].append(text)
    return readings
