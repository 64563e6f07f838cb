"""The /roll notation: every feature with fixed dice, every limit with where it points, and
hypothesis properties (totals within bounds, kept counts, only RollError ever escapes)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from rules.dice_notation import (
    ERROR_CODES,
    MAX_THROWS,
    DiceRequest,
    DiceRoll,
    Draw,
    GameRequest,
    GameRoll,
    RollError,
    bounds,
    evaluate,
    kept_count,
    parse,
    roll,
    terms,
)
from rules.rockthebock.game import COLOURS
from rules.sushidice.game import DICE as SUSHIDICE_SET
from rules.sushizock.game import FACES as SUSHIZOCK_FACES


def scripted(*faces: int, fate: bool = False) -> tuple[list[int], Draw]:
    """A draw that throws `faces` in order; the list records the sizes asked for."""
    sizes: list[int] = []
    queue: Iterator[int] = iter(faces)

    def draw(size: int) -> int:
        sizes.append(size)
        index = next(queue) + (1 if fate else -1)
        assert 0 <= index < size
        return index

    return sizes, draw


def dice_roll(text: str, *faces: int) -> DiceRoll:
    _, draw = scripted(*faces)
    result = roll(text, draw)
    assert isinstance(result, DiceRoll)
    return result


def total(text: str, *faces: int) -> int:
    result = dice_roll(text, *faces)
    assert len(result.totals) == 1
    return result.totals[0]


def shown(result: DiceRoll, term: int = 0, set_index: int = 0) -> list[tuple[int, bool]]:
    """(value, kept) of each die of one term."""
    return [(die.value, die.kept) for die in result.sets[set_index].terms[term].rolled]


# ---------------------------------------------------------------- dice and arithmetic


def test_plain_dice_and_sides():
    assert total("3d6", 1, 2, 6) == 9
    assert total("d20", 17) == 17
    assert total("D8", 8) == 8
    sizes, draw = scripted(42)
    assert roll("d%", draw).totals == [42]
    assert sizes == [100]


def test_fate_dice_have_minus_zero_plus():
    sizes, draw = scripted(-1, 0, 1, 1, fate=True)
    result = roll("4dF", draw)
    assert result.totals == [1] and sizes == [3, 3, 3, 3]
    assert isinstance(result, DiceRoll)
    assert [die.value for die in result.sets[0].terms[0].rolled] == [-1, 0, 1, 1]
    assert result.tally == {0: (4, 1)}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("2+3*4", 14),
        ("(2+3)*4", 20),
        ("10-2-3", 5),
        ("2*-3", -6),
        ("+4", 4),
        # `/` is exact and the total is rounded once, at the end, toward zero (d20's rule)
        ("7/2", 3),
        ("-7/2", -3),
        ("(7/2)*2", 7),
        ("7/2+7/2", 7),
        ("1/3*3", 1),
        # `//` rounds down where it stands; `%` is what that leaves
        ("7//2", 3),
        ("-7//2", -4),
        ("(7//2)*2", 6),
        ("7%3", 1),
        ("-7%3", 2),
    ],
)
def test_arithmetic_precedence_and_division_rounded_once_at_the_end(text: str, value: int):
    assert total(text) == value


def test_dice_in_arithmetic():
    assert total("2d6+3", 4, 5) == 12
    assert total("-1d4", 3) == -3
    assert total("10-d4", 3) == 7
    assert total("(1d6+2)*3/2", 5) == 10
    assert total("d6*d6", 3, 4) == 12


# ---------------------------------------------------------------- keep and drop


def test_keep_highest_drops_the_rest():
    result = dice_roll("4d6kh3", 1, 3, 5, 6)
    assert shown(result) == [(1, False), (3, True), (5, True), (6, True)]
    assert result.totals == [14]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("4d6k3", 14),
        ("4d6kh", 6),
        ("4d6kl1", 1),
        ("4d6kl2", 4),
        ("4d6dh1", 9),
        ("4d6dl1", 14),
        ("4d6dl1dh1", 8),
    ],
)
def test_keep_and_drop_variants(text: str, value: int):
    assert total(text, 1, 3, 5, 6) == value


def test_keep_more_than_thrown_keeps_all_and_ties_keep_one():
    assert total("2d6kh5", 2, 3) == 5
    result = dice_roll("3d6kh1", 4, 4, 1)
    assert [kept for _, kept in shown(result)] == [True, False, False]


# ---------------------------------------------------------------- exploding, rerolls, limits per die


def test_exploding_on_the_highest_face():
    result = dice_roll("d6!", 6, 6, 2)
    assert result.totals == [14]
    term = result.sets[0].terms[0]
    assert [die.exploded for die in term.rolled] == [True, True, False]


def test_exploding_above_and_at_a_threshold():
    assert total("d10!>8", 9, 10, 3) == 22
    assert total("d10!>8", 8) == 8
    assert total("d10!>=8", 8, 2) == 10


def test_an_explosion_goes_on_as_long_as_the_dice_say():
    result = dice_roll("d6!", *[6] * 30, 2)
    term = result.sets[0].terms[0]
    assert len(term.rolled) == 31 and result.totals == [6 * 30 + 2]


def test_reroll_once_and_until():
    once = dice_roll("d6ro1", 1, 1)
    assert once.totals == [1] and once.sets[0].terms[0].rolled[0].rerolled == (1,)
    assert total("d6ro<3", 2, 5) == 5
    until = dice_roll("d6rr<3", 1, 2, 5)
    assert until.totals == [5] and until.sets[0].terms[0].rolled[0].rerolled == (1, 2)
    assert until.tally == {6: (3, 8)}  # rerolled faces are in the roll log too
    assert total("d6rr>=5", 6, 5, 3) == 3
    assert total("d6rr=2", 2, 4) == 4


def test_rr_rerolls_until_the_condition_fails():
    result = dice_roll("d6rr1", *[1] * 30, 4)
    die = result.sets[0].terms[0].rolled[0]
    assert die.value == 4 and len(die.rerolled) == 30
    assert total("d20rr<20", *range(1, 20), 20) == 20


def test_minimum_and_maximum_per_die():
    result = dice_roll("4d6mi3", 1, 2, 3, 6)
    assert result.totals == [15]
    assert [die.extreme for die in result.sets[0].terms[0].rolled] == [None, None, None, "max"]
    assert total("4d6ma4", 1, 2, 5, 6) == 11
    assert total("2d6mi2ma5", 1, 6) == 7


def test_natural_highest_and_lowest_faces_are_marked():
    result = dice_roll("3d20", 20, 1, 7)
    assert [die.extreme for die in result.sets[0].terms[0].rolled] == ["max", "min", None]


# ---------------------------------------------------------------- successes, sets, advantage


def test_success_counting():
    assert total("5d10>=8", 8, 9, 10, 1, 7) == 3
    assert total("5d10t8", 8, 9, 10, 1, 7) == 3
    assert total("5d10t8f1", 8, 9, 10, 1, 7) == 2
    assert total("3d6>4", 4, 5, 6) == 2
    assert total("3d6<3", 1, 2, 3) == 2
    assert total("3d6<=3", 1, 2, 3) == 3
    assert dice_roll("2d6t5", 1, 6).counts_successes


def test_success_counting_after_keep():
    assert total("4d10kh2t8", 9, 9, 9, 1) == 2


def test_repeated_sets():
    result = dice_roll("3#4d6kh3", 1, 2, 3, 4, 6, 6, 6, 6, 1, 1, 1, 1)
    assert result.totals == [9, 18, 3]
    assert result.request.sets == 3
    assert result.request.text[result.request.body :] == "4d6kh3"


def test_advantage_and_disadvantage():
    assert total("adv", 3, 17) == 17
    assert total("dis", 3, 17) == 3
    assert total("d20+5 adv", 3, 17) == 22
    assert total("1d20+5 dis", 3, 17) == 8
    assert total("ADV+1", 20, 1) == 21


# ---------------------------------------------------------------- labels and the games' dice


@pytest.mark.parametrize(
    ("text", "expression", "label"),
    [
        ("d20+5 to hit", "d20+5", "to hit"),
        ("2d6 fire damage", "2d6", "fire damage"),
        ("2d6 # fire", "2d6", "fire"),
        ("1d20 dex save", "1d20", "dex save"),
        ("d20 adv to hit", "d20 adv", "to hit"),
        ("6#4d6kh3 stats", "6#4d6kh3", "stats"),
        ("bock 7 my turn", "bock 7", "my turn"),
        ("4d6kh3", "4d6kh3", None),
    ],
)
def test_a_trailing_label(text: str, expression: str, label: str | None):
    request = parse(text)
    assert request.text == expression and request.label == label


def test_the_games_dice_use_the_engines_faces():
    sizes, draw = scripted(1, 2, 3, 4, 5)
    sushizock = roll("sushizock", draw)
    assert isinstance(sushizock, GameRoll)
    assert list(sushizock.faces) == list(SUSHIZOCK_FACES[:5]) and sizes == [len(SUSHIZOCK_FACES)] * 5
    assert sushizock.tally == {6: (5, 15)}

    bock = roll("bock", lambda size: size - 1)
    assert isinstance(bock, GameRoll) and bock.faces == (COLOURS[-1],) * 10
    assert len(roll("bock 3", lambda size: 0).faces) == 3  # type: ignore[union-attr]

    dice = roll("sushidice", lambda size: size - 1)
    assert isinstance(dice, GameRoll)
    assert list(dice.faces) == [faces[-1] for faces in SUSHIDICE_SET]
    request = parse("Sushizock 3")
    assert isinstance(request, GameRequest) and request.count == 3 and request.game == "sushizock"


# ---------------------------------------------------------------- limits and errors, with where they point


@pytest.mark.parametrize(
    ("text", "code", "position"),
    [
        ("", "empty", 0),
        ("d6+" * 70, "too_long", 200),
        ("2d6+", "unexpected_end", 4),
        ("((d6)", "unexpected_end", 5),
        ("2d6 + x", "syntax", 6),
        ("2d6x", "syntax", 3),
        ("fireball", "syntax", 0),
        ("d20+1000001", "number_too_big", 4),
        ("0d6", "no_dice", 0),
        ("101d6", "too_many_dice_in_term", 0),
        ("100d6+100d6", "ok", 0),
        ("d6+10#d6", "syntax", 5),
        ("10#100d6", "ok", 0),
        ("11#100d6", "too_many_dice", 3),
        ("100d6+" * 10 + "d6", "too_many_dice", 60),
        ("d1", "sides", 1),
        ("3d1001", "sides", 2),
        ("d0", "sides", 1),
        ("21#d6", "sets", 0),
        ("0#d6", "sets", 0),
        ("4d6!!!", "modifier_twice", 5),
        ("4d6e6!", "modifier_twice", 5),
        ("4d6mi2mi3", "modifier_twice", 6),
        ("d6!>", "comparison_needs_number", 4),
        ("d6rr", "comparison_needs_number", 4),
        ("d6!>0", "explode_every_face", 2),
        ("d6!>=1", "explode_every_face", 2),
        ("d6rr<7", "reroll_every_face", 2),
        ("d6ro<7", "ok", 0),
        ("dF!", "fate_explode", 2),
        ("4d6mi5ma2", "min_above_max", 6),
        ("4d6f1", "failures_need_target", 3),
        ("3d6 adv", "advantage_needs_d20", 4),
        ("2d20 adv", "advantage_needs_d20", 5),
        ("bock 0", "game_dice_count", 5),
        ("bock 101", "game_dice_count", 5),
        ("sushidice 2", "whole_set", 10),
    ],
)
def test_limits_and_errors_point_where_it_went_wrong(text: str, code: str, position: int):
    if code == "ok":
        parse(text)
        return
    with pytest.raises(RollError) as raised:
        parse(text)
    assert (raised.value.code, raised.value.position) == (code, position)
    assert raised.value.text == text.strip()[:200] or code == "too_long"


def test_division_by_zero_is_a_roll_error_at_the_slash():
    with pytest.raises(RollError) as raised:
        roll("1/(d2-1)", lambda size: 0)
    assert (raised.value.code, raised.value.position, raised.value.text) == (
        "division_by_zero",
        1,
        "1/(d2-1)",
    )


def test_every_error_code_is_listed():
    assert len(set(ERROR_CODES)) == len(ERROR_CODES) >= 20


# ---------------------------------------------------------------- properties

SIDES = st.sampled_from(["2", "4", "6", "10", "20", "100", "%", "F"])


@st.composite
def dice_terms(draw: st.DrawFn) -> str:
    count = draw(st.integers(1, 8))
    sides = draw(SIDES)
    high = {"%": 100, "F": 1}.get(sides) or int(sides)
    low = 0 if sides == "F" else 1  # targets are written without a sign
    text = f"{count}d{sides}"
    if sides != "F" and draw(st.booleans()):
        text += draw(
            st.sampled_from(
                [
                    "!",
                    "!!",
                    "e",
                    "ie",
                    f"!>{draw(st.integers(low, high))}",
                    f"!>={draw(st.integers(2, high + 1))}",
                    f"e{draw(st.integers(low, high))}",
                ]
            )
        )
    if draw(st.booleans()):
        kind = draw(st.sampled_from(["ro", "rr", "ir"]))
        text += (
            kind + draw(st.sampled_from(["", "<", "<=", ">", ">=", "="])) + str(draw(st.integers(0, high)))
        )
    if draw(st.booleans()):
        low_limit = draw(st.integers(0, high))
        text += f"mi{low_limit}ma{draw(st.integers(low_limit, high + 2))}"
    for _ in range(draw(st.integers(0, 2))):
        text += draw(st.sampled_from(["kh", "kl", "dh", "dl", "k", "d"])) + str(draw(st.integers(0, 10)))
    if draw(st.booleans()):
        # Right after a plain "!", a comparison reads as the explosion's own ("d6!>=5"), and after
        # a keep or an `e` without its number as a comparison keep or explosion ("kh>3", "e>3", refused
        # for being read differently by other bots): use "t" there.
        targets = ["t"] if text[-1] in "!hlke" else ["t", ">=", ">", "<", "<="]
        text += draw(st.sampled_from(targets)) + str(draw(st.integers(low, high)))
        if draw(st.booleans()):
            text += f"f{draw(st.integers(low, high))}"
    return text


def expressions() -> st.SearchStrategy[str]:
    leaves = dice_terms() | st.integers(0, 50).map(str) | st.sampled_from(["adv", "dis", "d20"])
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%"]), inner).map(
                lambda parts: " ".join(parts)
            ),
            inner.map(lambda text: f"({text})"),
            st.tuples(inner, inner, st.sampled_from(["", "kh1", "kl1", "dh1"])).map(
                lambda parts: f"({parts[0]}, {parts[1]}){parts[2]}"
            ),
            inner.map(lambda text: f"-{text}"),
        ),
        max_leaves=5,
    )


@given(expressions(), st.integers(1, 4), st.randoms(use_true_random=False))
def test_totals_stay_within_the_expressions_bounds(text: str, sets: int, rng: random.Random):
    try:
        request = parse(f"{sets}#{text}")
    except RollError as error:
        assume(error.code not in ("explode_every_face", "reroll_every_face", "too_long", "throw_budget"))
        raise
    assert isinstance(request, DiceRequest)
    low, high = bounds(request.expression)
    try:
        result = evaluate(request, rng.randrange)
    except RollError as error:
        assert error.code in ("division_by_zero", "throws_spent")
        return
    assert isinstance(result, DiceRoll) and len(result.totals) == sets
    for value in result.totals:
        assert low <= value <= high


@given(dice_terms(), st.randoms(use_true_random=False))
def test_kept_counts_follow_the_keep_rules(text: str, rng: random.Random):
    try:
        result = roll(text, rng.randrange)
    except RollError as error:
        assert error.code in ("explode_every_face", "reroll_every_face", "throw_budget", "throws_spent")
        return
    assert isinstance(result, DiceRoll)
    (dice,) = terms(result.request.expression)
    (term,) = result.sets[0].terms
    assert sum(die.kept for die in term.rolled) == kept_count(dice, len(term.rolled))
    assert len(term.rolled) >= dice.count
    kept = sorted(die.value for die in term.rolled if die.kept)
    dropped = [die.value for die in term.rolled if not die.kept]
    if len(dice.keep) == 1 and kept and dropped:  # one rule: the kept dice are the ones it names
        if dice.keep[0].kind in ("kh", "dl"):
            assert min(kept) >= max(dropped)
        else:
            assert max(kept) <= min(dropped)
    for die in term.rolled:
        if die.compounded:  # `!!`: the faces of one die's explosions, added up
            assert die.value == sum(die.compounded) and all(dice.explode.test(f) for f in die.compounded[:-1])  # type: ignore[union-attr]
        else:
            assert dice.clamp(dice.low) <= die.value <= dice.clamp(dice.high)


NOTATION = "0123456789dDF%+-*/()khlrot<>=!fmia#sv ;,pe{}x\"' "


@given(st.text(alphabet=NOTATION, max_size=30) | st.text(max_size=30), st.randoms(use_true_random=False))
def test_only_roll_errors_escape(text: str, rng: random.Random):
    try:
        request = parse(text)
        evaluate(request, rng.randrange)
    except RollError as error:
        assert error.code in ERROR_CODES
        assert 0 <= error.position <= len(error.text)


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("3d6", 3, 18),
        ("4d6kh3", 3, 18),
        ("2d6mi3+1", 7, 13),
        ("d6!", 1, 6 * MAX_THROWS),
        ("d6e6", 1, 12),
        ("(d20, d20+5, 3)kh1", 6, 25),
        ("7/2+d2", 4, 5),
        ("d6%4", 0, 4),
        ("5d10t8f1", -5, 5),
        ("4dF", -4, 4),
        ("10-d4", 6, 9),
        ("12/(d2-3)", -12, -6),
        ("d6/(d2-1)", 1, 6),
    ],
)
def test_bounds(text: str, low: int, high: int):
    request = parse(text)
    assert isinstance(request, DiceRequest)
    assert bounds(request.expression) == (low, high)
