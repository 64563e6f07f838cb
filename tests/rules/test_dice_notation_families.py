"""The notation as people type it into other dice bots, a table per family of notation.

Cases are written from the bots' published documentation (Dice Maiden's README, d20's (Avrae's)
README, Roll20's Dice Reference). Each case says what Sushi Bar answers: a total with fixed dice,
a label, or a refusal that carries our spelling. Nothing is read as something else without a word:
every suggestion rolls, with the same dice, what the other bot would have rolled.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules.dice_notation import (
    MAX_THROWS,
    DiceRequest,
    DiceRoll,
    RollError,
    Several,
    SeveralRoll,
    evaluate,
    parse,
    roll,
)
from tests.rules.dice_notation_documented import AVRAE, D20, DICE_MAIDEN, meaning, reading, tally


def fixed(*faces: int) -> tuple[list[int], object]:
    sizes: list[int] = []
    queue: Iterator[int] = iter(faces)

    def draw(size: int) -> int:
        sizes.append(size)
        return next(queue) - 1

    return sizes, draw


def totals(text: str, *faces: int) -> list[int]:
    _, draw = fixed(*faces)
    return roll(text, draw).totals  # type: ignore[arg-type]


Rolled = tuple[str, tuple[int, ...], list[int]]
"""An expression read as the bot reads it: (expression, faces thrown in order, totals)."""
Hinted = tuple[str, str, str, tuple[int, ...], list[int]]
"""An expression refused with ours: (expression, code, suggestion, faces for it, its totals)."""


# ---------------------------------------------------------------- read as the other bot reads them

READ: dict[str, list[Rolled]] = {
    "arithmetic": [
        ("2d6 + 3d10", (1, 2, 3, 4, 5), [15]),  # Dice Maiden
        ("3d6 + 5", (1, 2, 3), [11]),  # Dice Maiden
        ("1d20+5", (10,), [15]),  # d20
        ("1d4 * 3", (2,), [6]),
        ("5d6 / 3", (1, 2, 3, 4, 6), [5]),  # 16 / 3, rounded at the end
        ("(1d6+1)/2*2", (4,), [5]),  # exact: 5/2*2, where rounding each step would give 4
        ("-7/2", (), [-3]),  # toward zero, as d20's int()
        ("7//2", (), [3]),  # d20's int division
        ("-7//2", (), [-4]),
        ("10 % 4", (), [2]),  # d20's modulo
        ("d20 % 2", (7,), [1]),
    ],
    "keep and drop": [
        ("4d6kh3", (4, 4, 6, 3), [14]),  # d20
        ("2d20kl1", (5, 17), [5]),
        ("4d6d1", (1, 3, 5, 6), [14]),  # Roll20's and Dice Maiden's drop-lowest
        ("8d100d3", (10, 20, 30, 40, 50, 60, 70, 80), [300]),  # Roll20
        ("4d10kl3", (1, 2, 9, 10), [12]),  # Dice Maiden, written onto the die
        ("3d10k2", (2, 9, 7), [16]),
    ],
    "explode": [
        ("3d6!", (6, 6, 1, 2, 3), [18]),  # again and again
        ("3d6e6", (6, 6, 1, 2), [15]),  # Dice Maiden: once — the new 6 does not explode
        ("3d6e", (6, 6, 1, 2), [15]),  # `e` is `e` at the highest face
        ("3d6ie6", (6, 6, 1, 2, 3), [18]),  # Dice Maiden's indefinite explosion
        ("d10e8", (9, 10), [19]),  # at 8 or more, once
        ("3d6!!", (6, 6, 2, 1, 3), [18]),  # Roll20's compounding: one die of 6+6+2
        ("d6!!>4", (5, 6, 1), [12]),
        ("d6!5", (5, 5, 2), [12]),  # Roll20: on exactly 5
    ],
    "reroll": [
        ("4d6r1", (1, 1, 3, 4, 5), [13]),  # once, as every bot reads `r1`: the second 1 stays
        ("4d6ir2", (1, 2, 6, 3, 4, 5), [18]),  # Dice Maiden: 2 or less, until it isn't
        ("2d6ro<3", (1, 3, 6), [9]),  # d20
        ("10d20rr<20", (*[19] * 200, *[20] * 10), [200]),  # until it fails: every die ends at 20
        ("8d6mi2", (1, 6, 4, 2, 6, 2, 5, 6), [33]),  # d20
    ],
    "successes": [
        ("6d10t7", (7, 8, 1, 2, 10, 6), [3]),  # Dice Maiden, written onto the die
        ("5d10t8f1", (8, 9, 1, 1, 3), [0]),
        ("10d10>=8", (8, 9, 10, 1, 2, 3, 4, 5, 6, 7), [3]),
    ],
    "sets": [
        ("(1d4 + 1, 3, 2d6kl1)kh1", (2, 2, 5), [3]),  # d20's README example
        ("(1d20+5, 1d20+5)kh1", (4, 15), [20]),
        ("(1, 2, 3)", (), [6]),
        ("(3d6,)", (1, 2, 3), [6]),
        ("-1d8 + 4 - (3, 1d4)kh1", (8, 3), [-7]),  # d20's README
    ],
    "repeat and several": [
        ("6 4d6", tuple([1, 2, 3, 4] * 6), [10] * 6),  # Dice Maiden: six sets
        ("3 d20", (1, 2, 3), [1, 2, 3]),  # three rolls, not 3d20
        ("6#4d6kh3", tuple([1, 2, 3, 4] * 6), [9] * 6),
        ("1d20+5; 2d6+3", (10, 1, 2), [15, 6]),
        ("d20; d20; d20; d20", (1, 2, 3, 4), [1, 2, 3, 4]),
    ],
    "advantage": [
        ("d20+5 adv", (3, 17), [22]),
        ("2d20kh1+5", (3, 17), [22]),  # Avrae's advantage, spelled out
    ],
    "Dice Maiden's modifiers after a space": [
        ("3d10 d1", (2, 9, 7), [16]),
        ("3d10 k2", (2, 9, 7), [16]),
        ("4d10 kl3", (1, 2, 9, 10), [12]),
        ("3d6 e6", (6, 6, 1, 2), [15]),  # once
        ("3d6 ie6", (6, 6, 1, 2, 3), [18]),
        ("4d6 r2", (2, 1, 3, 4, 5), [13]),  # 2 or less, once: the 1 it rerolled into stays
        ("4d6 ir2", (1, 2, 6, 3, 4, 5), [18]),
        ("6d10 t7", (7, 8, 1, 2, 10, 6), [3]),
        ("5d10 t8 f1", (8, 9, 1, 1, 3), [0]),
        ("10d6 e6 k8 +4", (1, 2, 3, 4, 5, 1, 2, 3, 4, 5), [32]),
        ("6 4d6 k3", tuple([1, 2, 3, 4] * 6), [9] * 6),
        ("4d6 kh3", (4, 4, 6, 3), [14]),  # ours, written apart
        ("4d6 rg5", (6, 1, 2, 5, 3, 4), [10]),  # 5 or more, once
        ("6d10 tl3", (1, 2, 3, 4, 9, 10), [3]),  # the dice at 3 or less
        ("1d20 ie20 + 2d6 ie6", (20, 3, 6, 1, 4), [34]),  # each die its own words
        ("2d20 k1+5 + 1d4", (3, 17, 2), [24]),
    ],
    "Dice Maiden's modifiers written together": [
        ("1d10+3d6 k2d1", (5, 1, 4, 6), [15]),  # drop the lowest first, then keep 2: 4 and 6
        ("4d6 k3d1r1", (1, 2, 3, 4, 5), [12]),  # the 1 rerolled once, then the lowest dropped
        ("6d10 e6k4d1", (1, 2, 3, 4, 5, 7, 2), [19]),  # the 7's explosion is a die of its own: 7, 5, 4, 3
    ],
}


@pytest.mark.parametrize(
    ("text", "faces", "expected"),
    [pytest.param(*case, id=f"{family}: {case[0]}") for family, cases in READ.items() for case in cases],
)
def test_read_as_the_other_bot_reads_it(text: str, faces: tuple[int, ...], expected: list[int]):
    assert totals(text, *faces) == expected


@pytest.mark.parametrize(
    ("text", "expression", "label"),
    [
        ("1d20 I rolled a d20", "1d20", "I rolled a d20"),  # d20's comment
        ("1d20+5 Roll for Initiative", "1d20+5", "Roll for Initiative"),  # Roll20
        ("2d6 keep", "2d6", "keep"),  # a word is a label, even one made of modifier letters
        ("2d6 # d1", "2d6", "d1"),  # after `#`, anything is a label
        ('2d6 "d1 fire"', "2d6", "d1 fire"),  # in quotes too
        ("d20 adv to hit", "d20 adv", "to hit"),
    ],
)
def test_labels(text: str, expression: str, label: str):
    request = parse(text)
    assert isinstance(request, DiceRequest)
    assert (request.text, request.label) == (expression, label)


def test_several_rolls_keep_their_own_labels():
    _, draw = fixed(12, 3, 4)
    result = evaluate(parse("1d20+5 to hit; 2d6+3 fire"), draw)  # type: ignore[arg-type]
    assert isinstance(result, SeveralRoll)
    assert [part.request.label for part in result.rolls] == ["to hit", "fire"]
    assert result.totals == [17, 10] and result.tally == {20: (1, 12), 6: (2, 7)}


# ---------------------------------------------------------------- refused, with ours

HINTED: dict[str, list[Hinted]] = {
    "Dice Maiden's modifiers after a number, not a die": [
        ("3d6+5 e6", "spaced", "3d6e6+5", (1, 2, 3), [11]),
    ],
    "Dice Maiden's comment and advantage": [
        ("4d6 ! Hello World!", "comment_bang", "4d6 Hello World!", (1, 2, 3, 4), [10]),
        ("1d20 ! Attack", "comment_bang", "1d20 Attack", (12,), [12]),
        ("+d20", "sign_die", "d20 adv", (3, 17), [17]),
        ("-d20", "sign_die", "d20 dis", (3, 17), [3]),
        ("+d20+5 to hit", "sign_die", "d20+5 adv to hit", (3, 17), [22]),
        ("+d6", "sign_die", "2d6kh1", (2, 5), [5]),
        ("-d8", "sign_die", "2d8kl1", (2, 5), [2]),
    ],
    "other compact spellings": [
        ("4d6r2", "reroll_r", "4d6ro<=2", (2, 1, 3, 4, 5), [13]),
        ("4d6r<3", "reroll_r", "4d6rr<3", (1, 2, 3, 4, 5, 6), [18]),  # Roll20-style, until
        ("4d6pl1", "drop_p", "4d6dl1", (1, 3, 5, 6), [14]),  # d20's drop
        ("4d6ph1", "drop_p", "4d6dh1", (1, 3, 5, 6), [9]),
        ("d6e>4", "explode_compare", "d6!>4", (5, 6, 1), [12]),  # d20's explode
        ("{1d20+5, 1d20+5}kh1", "braces", "(1d20+5, 1d20+5)kh1", (4, 15), [20]),  # Roll20's groups
        ("2d6x3", "times_x", "2d6*3", (1, 2), [9]),
        ("2d20kh>=15", "keep_compare", "2d20kh1>=15", (3, 17), [1]),
    ],
}


@pytest.mark.parametrize(
    ("text", "code", "suggestion", "faces", "expected"),
    [pytest.param(*case, id=f"{family}: {case[0]}") for family, cases in HINTED.items() for case in cases],
)
def test_refused_with_ours_which_rolls_what_the_other_bot_meant(
    text: str, code: str, suggestion: str, faces: tuple[int, ...], expected: list[int]
):
    with pytest.raises(RollError) as raised:
        parse(text)
    assert raised.value.code == code
    assert raised.value.params.get("suggestion") == suggestion
    assert 0 <= raised.value.position < len(text)
    assert totals(suggestion, *faces) == expected


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("4d6k>3", "keep_compare"),  # d20 keeps the dice above 3: no rank rule says that
        ("4d6p3", "drop_p"),  # d20 drops the 3s
        ("d20ra1", "reroll_add"),  # d20's reroll-and-add
        ("d6e<2", "explode_compare"),
    ],
)
def test_refused_without_a_like_for_like(text: str, code: str):
    with pytest.raises(RollError) as raised:
        parse(text)
    assert raised.value.code == code and "suggestion" not in raised.value.params


# ---------------------------------------------------------------- the throw budget on the worst inputs

WORST = [
    # (expression, refused with, thrown before refusing)
    ("20#50d1000rr<1000!>=2", "explode_every_face", 0),  # would settle on 1000 and explode forever
    ("20#50d1000rr<1000", "throw_budget", 0),  # a million throws expected
    ("20#50d1000!>=2", "throw_budget", 0),
    ("20#50d10!!>=2", "throw_budget", 0),
    ("10#100d100ro<100!>1", "throw_budget", 0),
    ("100d1000rr<1000; 100d6", "throw_budget", 0),
    ("50d100rr<100", "throws_spent", MAX_THROWS),  # 5,000 expected; every die comes up 1
    ("d20rr<20; d20rr<20; d20rr<20; d20rr<20", "throws_spent", MAX_THROWS),
]


@pytest.mark.parametrize(("text", "code", "thrown"), WORST)
def test_the_worst_inputs_are_refused_before_or_at_the_budget(text: str, code: str, thrown: int):
    sizes: list[int] = []

    def ones(size: int) -> int:
        sizes.append(size)
        return 0

    with pytest.raises(RollError) as raised:
        roll(text, ones)
    assert raised.value.code == code and raised.value.text == text
    assert len(sizes) == thrown  # aborted the moment the budget ran out, not after the fact


def test_rr_rerolls_until_the_condition_fails_within_the_budget():
    """`1d20rr<20` always ends on 20 (it once came out below 20 in 71 of 200 rolls)."""
    sizes, draw = fixed(*range(1, 20), 20)
    result = roll("1d20rr<20", draw)  # type: ignore[arg-type]
    assert isinstance(result, DiceRoll) and result.totals == [20] and len(sizes) == 20


# ---------------------------------------------------------------- issue 47: no notation taken for a label

ISSUE_47_READ = [
    # (as typed, what it is read as): what Dice Maiden rolls
    ("1d10+3d6 k2d1", "1d10+3d6dl1kh2"),  # it drops before it keeps
    ("4d6 k3d1r1", "4d6dl1kh3ro1"),
    ("6d10 e6k4d1", "6d10e6dl1kh4"),
    ("4d6 rg2", "4d6ro>=2"),
    ("4d6 irg2", "4d6rr>=2"),
    ("6d10 tl6", "6d10<=6"),
    ("1d20+2d6 k1e6", "1d20+2d6e6kh1"),
    ("1d6 t4f1ie6", "1d6t4f1ie6"),
    ("2d20 k1+5 + 1d4", "2d20kh1+5 + 1d4"),
    ("2d20 kl1+3 + 1d6", "2d20kl1+3 + 1d6"),
]

ISSUE_47_REFUSED = [
    # (as typed, refused with, where): Dice Maiden's modifiers with no like-for-like here
    ("1d20+2d6 km1", "syntax", 9),  # the middle die
    ("1d6 km0", "syntax", 4),
    ("6d10 e6km4d1", "syntax", 7),
    ("4d6 km3d1r1", "syntax", 4),
    ("4d6 b1", "syntax", 4),  # botches
    ("6d10 b", "syntax", 5),
    ("4d6 i", "syntax", 4),  # imploding
    ("4d6 i1", "syntax", 4),
    ("6d10 i3", "syntax", 5),
    ("1d10 i1 e10", "syntax", 5),
    ("4d6 i1 e6 + 2", "syntax", 4),
    ("5d10 t7ds10", "syntax", 7),  # doubles
    ("1d6 adv1 + 4 - 2", "syntax", 4),  # Open Legend's advantage
    ("3d8 gb", "syntax", 4),  # Godbound's chart
    ("2d10 gbs", "syntax", 5),
    ("1d8 ie8 + 1d6 ie6 k1", "syntax", 18),  # keeping the one die of a term: its alias meant both
    ("1d20+3 t8f1", "spaced", 7),  # after `+3`, not a die: ours suggested
]


@pytest.mark.parametrize(("text", "ours"), ISSUE_47_READ)
def test_modifiers_after_a_space_are_read_as_dice_maiden_reads_them(text: str, ours: str):
    request = parse(text)
    assert isinstance(request, DiceRequest) and request.label is None
    assert meaning(request) == meaning(parse(ours))


@pytest.mark.parametrize(("text", "code", "position"), ISSUE_47_REFUSED)
def test_modifiers_with_no_like_for_like_are_refused_where_they_stand(text: str, code: str, position: int):
    with pytest.raises(RollError) as raised:
        parse(text)
    assert (raised.value.code, raised.value.position, raised.value.text) == (code, position, text)


@pytest.mark.parametrize(
    ("text", "expression", "label"),
    [
        ("4d6 k3 Strength", "4d6kh3", "Strength"),  # the modifiers read, the words after them a label
        ("2d6 bike", "2d6", "bike"),  # modifier letters, but a word
        ("2d6 e fire", "2d6", "e fire"),  # a lone letter before more words
        ("d20 i think so", "d20", "i think so"),
        ("1d20+5 to hit; 2d6 k1 fire", "1d20+5", "to hit"),
    ],
)
def test_words_stay_labels(text: str, expression: str, label: str):
    request = parse(text)
    first = request.parts[0] if isinstance(request, Several) else request
    assert isinstance(first, DiceRequest)
    assert (first.text, first.label) == (expression, label)


def test_an_error_in_modifiers_read_after_a_space_points_at_them_as_typed():
    with pytest.raises(RollError) as raised:
        parse("2d6 + d6 ie1")
    assert (raised.value.code, raised.value.position) == ("explode_every_face", 9)


# ---------------------------------------------------------------- the bots' documented expressions


def _e6_of_another_bot(bot: str, text: str) -> bool:
    """d20's and Avrae's `e6` explodes again and again; /roll's is Dice Maiden's, once (its help says so,
    and tests/e2e pins `2d6e6`): the one spelling the bots disagree on."""
    return bot != "Dice Maiden" and "e6" in text


def _documented() -> Iterator[object]:
    for bot, documented in (("Dice Maiden", DICE_MAIDEN), ("d20", D20), ("Avrae", AVRAE)):
        for text, ours in documented:
            if not _e6_of_another_bot(bot, text):
                yield pytest.param(text, ours, id=f"{bot}: {text}")


def test_e6_is_dice_maidens_for_every_bot():
    """Where Dice Maiden and d20 disagree, /roll reads `e6` as Dice Maiden does: once, not again and
    again (`!`); the d20 and Avrae expressions that spell it so are read that way, not misread silently
    as something else."""
    disagreeing = [text for text, _ in (*D20, *AVRAE) if "e6" in text]
    assert disagreeing, "the documented lists have no e6 left: drop this test"
    for text in disagreeing:
        request = parse(text)
        assert isinstance(request, DiceRequest)
        expression, _, label = text.partition(" ")
        assert (request.text, request.label) == (expression, label or None)  # all of it read as typed
        assert "e6" in expression and "!" not in expression  # Dice Maiden's once, as /rolls help says


@pytest.mark.parametrize(("text", "ours"), list(_documented()))
def test_no_documented_expression_is_misread(text: str, ours: str | None):
    if ours is not None:
        parse(ours)  # the table's own spelling rolls
    assert reading(text, ours) != "misread"


def test_most_of_dice_maidens_documented_expressions_are_understood_as_typed():
    readings = tally(DICE_MAIDEN)
    assert len(readings["understood"]) >= 0.7 * len(DICE_MAIDEN)
    assert readings["misread"] == []
