"""Sushizock im Gockelwok end to end: the real bot against simcord, played by its dice toggles, buttons,
the Steal button's private choice, and slash.

Rigging the dice: the engine's dice come from the RNG inside the game state, so a
test cannot ask for three chopsticks. Where a test needs a particular throw (a steal,
a blind steal, a forced take), the player first throws for real, then `rig()` rewrites
that throw in the live game state — the same `TableRecord` the table caches — and
saves it through the table's `TableStore` as a new version (exactly what an action
does). The board on screen is then outdated, so the player re-posts it with
`/sushizock status`, as anyone would, and carries on with the rigged dice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cogs.games.sushizock.render import tile_text
from cogs.kit.words.bidi import plain
from rules.sushizock.game import GAME, ForcedTake, Roll, Steal, SushizockState, Take
from tests.e2e.helpers import (
    Table,
    action_value,
    body_lines,
    buttons,
    footer_of,
    heading_of,
    label_starting,
    labels,
    payload,
    selects,
    text_of,
)

SEED = 20240611
pytestmark = pytest.mark.seed(SEED)  # every new game's seed
NAMES = ["alice", "bob", "carol"]


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", "cogs.games.sushizock.cog", "cogs.stats.leaderboard")


# ---------------------------------------------------------------- helpers


def headline(message: Any) -> str:
    """The line under a card's heading: what the turn's player reads first (the dice, whose turn)."""
    lines = body_lines(message)
    return lines[0] if lines else ""


def points(score: int) -> str:
    """A final score as the board words it: "1 point", "−3 points" (a true minus sign)."""
    number = f"−{-score}" if score < 0 else str(score)
    return f"{number} point" if abs(score) == 1 else f"{number} points"


def explained(sushi: list[int], bones: list[int]) -> str:
    """The line under a player's final score: the sushi that count (as many as the bones, from the
    bottom) and their sum, the ones above the bone pile struck, then every bone and their sum."""

    def tiles(pile: list[int]) -> str:
        return " ".join(tile_text(tile) for tile in pile)

    counted, over = sushi[: len(bones)], sushi[len(bones) :]
    height = f"{len(bones)} tile" if len(bones) == 1 else f"{len(bones)} tiles"
    worthless = f" (~~{tiles(over)}~~: higher than the bone pile of {height}, worthless)" if over else ""
    if not sushi:
        part = "🍣 no sushi"
    elif not counted:
        part = f"🍣 **0** (~~{tiles(over)}~~: no bones, so no sushi counts)"
    else:
        part = f"🍣 {tiles(counted)} = **{tile_text(sum(counted))}**{worthless}"
    bone = f"🦴 {tiles(bones)} = **{tile_text(sum(bones))}**" if bones else "🦴 no bones"
    return f"╰ {part} · {bone}"


async def started(env: Any, names: list[str] = NAMES) -> Table:
    await env.bot.tree.sync()
    table = Table(env, "sushizock", names)
    await table.seat_everyone()
    return table


async def rig(env: Any, table: Table, change: Callable[[SushizockState], None]) -> None:
    """Rewrite the live game state through the table's storage, then re-post the board."""
    await table.rig(change)
    seat = (await table.live()).public()["turn"]
    await table.slash(NAMES[seat] if seat is not None else NAMES[0], "status")


def throw(
    faces: list[str], *, throws: int, set_aside: list[str] | None = None
) -> Callable[[SushizockState], None]:
    def change(state: SushizockState) -> None:
        state.thrown = list(faces)
        state.set_aside = list(set_aside or [])
        state.throws = throws

    return change


async def toggle(table: Table, name: str, die: int) -> Any:
    """Click the board's toggle of a die (0-based), whatever it is labelled now."""
    found = [item for item in buttons(table.board) if payload(item).startswith("u:keep.")]
    return await table.click(name, str(found[die].label))


async def steal_step(table: Table, name: str) -> Any:
    """Click "Steal": its answer, to the clicker alone, holds the steals on offer."""
    asked = await table.press(name, "Steal from a ")
    assert asked.ephemeral and selects(asked.response.message), text_of(asked.response)
    return asked


async def by_buttons(table: Table, name: str, action: Any) -> None:
    """Play one engine action the way a player does on the board."""
    if isinstance(action, Roll) and not action.keep:
        result = await table.click(name, "Roll all 5 dice")
    elif isinstance(action, Roll):
        for die in action.keep:  # the dice to set aside, toggled one by one
            marked = await toggle(table, name, die)
            assert not marked.ephemeral, marked.response and text_of(marked.response)
        left = 5 - len((await table.state()).set_aside) - len(action.keep)
        result = await table.press(name, f"Roll {left} di")
    elif isinstance(action, Take):
        result = await table.press(name, f"Take {action.pile} #")
    elif isinstance(action, ForcedTake):
        result = await table.press(name, "Forced:")
    else:
        assert isinstance(action, Steal)
        asked = await steal_step(table, name)
        menu = selects(asked.response.message)[0]
        heights = [plain(option.description or "") for option in menu.options]
        assert heights and all(height.endswith((" 1 tile", " tiles")) for height in heights), heights
        assert not [height for height in heights if height.endswith(" 1 tiles")]
        chosen = await table.choose(name, [action_value(GAME.id, action)], asked.response.message, part="a")
        # it names where the board is: the table's thread, a click away
        said = text_of(chosen.response.message)
        assert said == f"Your move is in. The board in <#{table.channel.id}> shows the rest."
        return
    assert not result.ephemeral, result.response and text_of(result.response)


async def by_slash(table: Table, name: str, action: Any) -> Any:
    """Play one engine action with the slash commands; returns the ephemeral confirmation."""
    if isinstance(action, Roll):
        options = {"set_aside": " ".join(str(index + 1) for index in action.keep)} if action.keep else {}
        result = await table.slash(name, "roll", **options)
    elif isinstance(action, Take):
        result = await table.slash(name, "take", kind=action.pile)
    elif isinstance(action, ForcedTake):
        result = await table.slash(name, "take", kind="forced")
    else:
        assert isinstance(action, Steal)
        victim = table.member(NAMES[action.target])
        result = await table.slash(name, "steal", player=victim, position=action.position)
    assert result.ephemeral
    assert text_of(result.response).startswith("✅ You "), text_of(result.response)
    return result


# ---------------------------------------------------------------- the whole game


async def test_three_players_play_to_the_end_with_steals_and_a_forced_take(simcord_env):
    env = simcord_env
    table = await started(env)
    board = table.board
    alice = table.member("alice")
    assert headline(board) == f"🎲 <@{alice.id}>'s turn — the first throw, all five dice."
    assert labels(board)[0] == "Roll all 5 dice"
    text = text_of(board)
    assert "▶️ **alice** · 🍣 — · 🦴 —" in text and "\nbob · 🍣 — · 🦴 —" in text
    assert body_lines(board)[1].startswith("🍣 +")  # the sushi row, then the fishbones
    assert "🔵 blue chopsticks steal sushi" in footer_of(board)  # the first board only

    # Turn 1, alice: she throws; the test makes it her third throw showing 3 🔵 and 2 🔴. Nobody
    # has a pile to steal from and no die shows sushi or bone: only the forced portion remains.
    await table.click("alice", "Roll all 5 dice")
    await rig(env, table, throw(["blue", "blue", "blue", "red", "red"], throws=3))
    board = table.board
    assert headline(board).endswith("→ 3 🔵 · 2 🔴 — nothing fits: the **forced portion**")
    forced = label_starting(board, "Forced: take bone #")
    assert forced.endswith("(−4)")
    assert not selects(board) and not [label for label in labels(board) if label.startswith(("Roll", "Take"))]
    done = await table.slash("alice", "take")  # no kind: the forced take is the only move
    assert done.ephemeral and "forced portion" in text_of(done.response) and "−4" in text_of(done.response)
    board = table.board
    assert "▶️ **bob**" in text_of(board)
    assert "Last move: alice had to take the forced portion, bone #" in text_of(board)
    assert "alice · 🍣 — · 🦴 top −4 (1 tile)" in text_of(board)
    assert not footer_of(board)  # the legend was the first board's

    # Turn 2, bob: the engine's own choice, played with the dice toggles and buttons.
    await play_turn(env, table, use_slash=False)

    # Turn 3, carol: three chopsticks after her first throw steal a top tile, chosen on the board.
    await table.slash("carol", "roll")
    state = await table.state()
    colour = "blue" if any(state.sushi_piles[seat] for seat in (0, 1)) else "red"
    pile = "sushi" if colour == "blue" else "bone"
    target = next(seat for seat in (0, 1) if getattr(state, f"{pile}_piles")[seat])
    top = getattr(state, f"{pile}_piles")[target][-1]
    await rig(env, table, throw([colour, colour, colour, "sushi", "bone"], throws=1))
    board = table.board
    assert f"Steal from a {pile} pile" in labels(board)  # the board names no target: that is asked privately
    assert labels(board)[:5] == [f"Die {n}" for n in range(1, 6)]  # or set dice aside and throw again
    stranger = await table.member("dave").click(board, label=f"Steal from a {pile} pile")
    assert stranger.ephemeral and "not seated" in text_of(stranger.response)
    early = await table.click("alice", f"Steal from a {pile} pile")
    assert (
        early.ephemeral and text_of(early.response) == "It's carol's turn — only they may use these buttons."
    )
    asked = await steal_step(table, "carol")
    assert (
        text_of(asked.response)
        == f"🥢 Three chopsticks: choose whose {pile} pile you take the top tile from."
    )
    offered = [plain(option.label) for option in selects(asked.response.message)[0].options]
    assert any(label.startswith(f"🥢 {NAMES[target]}: the top, ") for label in offered), offered
    assert not [m for m in table.public_messages() if "Three chopsticks" in text_of(m)]  # nobody else sees it
    await by_buttons(table, "carol", Steal(target, 1))
    announced = [m for m in table.public_messages() if text_of(m).startswith("🥢 carol stole")]
    assert announced and f"{NAMES[target]}'s {pile} pile" in text_of(announced[-1])
    state = await table.state()
    assert getattr(state, f"{pile}_piles")[2][-1] == top

    # Then everyone plays on, turn by turn, alternating buttons and slash commands. Once a pile
    # of an opponent is two tiles high, the player to move gets four chopsticks: a blind steal of
    # the second tile by the board's two selects, and later one by `/sushizock steal position:2`.
    blind_by_select = blind_by_slash = False
    turns = 3
    while True:
        state, view = await table.state(), await table.view()
        if view["over"]:
            break
        seat = view["turn"]
        if not (blind_by_select and blind_by_slash) and turns >= 5:
            victim = next(
                (
                    (other, pile)
                    for other in range(3)
                    for pile in ("sushi", "bone")
                    if other != seat and view[f"{pile}_piles"][other]["height"] >= 2
                ),
                None,
            )
            if victim is not None:
                other, pile = victim
                colour = "blue" if pile == "sushi" else "red"
                await table.slash(NAMES[seat], "roll")
                await rig(env, table, throw([colour] * 4 + ["bone"], throws=1))
                buried = getattr(state, f"{pile}_piles")[other][-2]
                if not blind_by_select:
                    await by_buttons(table, NAMES[seat], Steal(other, 2))
                    blind_by_select = True
                else:
                    done = await by_slash(table, NAMES[seat], Steal(other, 2))
                    assert "blind" in text_of(done.response)
                    blind_by_slash = True
                lines = [text_of(m) for m in table.public_messages() if "reached blind" in text_of(m)]
                assert lines and f"pulled out **{tile_text(buried)}**" in lines[-1]
                turns += 1
                continue
        await play_turn(env, table, use_slash=turns % 2 == 1)
        turns += 1
    assert blind_by_select and blind_by_slash

    # The end: the results are posted, every number in them explained; the leaderboard knows.
    scores = GAME.scores(state)
    results = next(m for m in reversed(table.public_messages()) if "final result" in heading_of(m))
    # One message says the scores: the results (the board is gone, nothing of the game's repeats them).
    scored = [m.id for m in table.public_messages() if f"— {points(scores[0])}" in text_of(m)]
    assert scored == [results.id]
    assert not [m for m in table.public_messages() if "turned over" in heading_of(m)]
    description = "\n".join(body_lines(results))
    for seat, name in enumerate(NAMES):
        member = table.member(name)
        why = explained(state.sushi_piles[seat], state.bone_piles[seat])
        assert f"<@{member.id}> — {points(scores[seat])}\n{why}" in description
    assert "~~" in description  # somebody's sushi stuck out above their bone pile
    assert "⚖️" not in description  # Sushizock has no tie-break to name
    standings = await table.member("alice").slash(table.channel, "leaderboard", game="sushizock")
    shown = text_of(standings.response)
    assert all(f"<@{table.member(name).id}>" in shown for name in NAMES)


async def play_turn(env: Any, table: Table, *, use_slash: bool) -> None:
    """One whole turn as the engine's computer player would choose it, played by a person."""
    view = await table.view()
    seat = view["turn"]
    while True:
        state, view = await table.state(), await table.view()
        if view["over"] or view["turn"] != seat:
            return
        action = GAME.default_action(state, seat)
        if use_slash:
            await by_slash(table, NAMES[seat], action)
        else:
            await by_buttons(table, NAMES[seat], action)


# ---------------------------------------------------------------- focused


async def test_toggles_mark_dice_and_strangers_and_other_players_are_refused(simcord_env):
    env = simcord_env
    table = await started(env)
    stranger = await table.member("dave").click(table.board, label="Roll all 5 dice")
    assert stranger.ephemeral and "not seated" in text_of(stranger.response)
    early = await table.click("bob", "Roll all 5 dice")
    assert early.ephemeral and text_of(early.response) == "It isn't your turn."

    await table.click("alice", "Roll all 5 dice")
    await rig(env, table, throw(["sushi", "sushi", "bone", "blue", "red"], throws=1))
    board = table.board
    alice = table.member("alice")
    dice = "`1` 🍣  `2` 🍣  `3` 🦴  `4` 🔵  `5` 🔴"
    assert headline(board) == f"🎲 <@{alice.id}> · throw 1 of 3: {dice} → 2 🍣 · 1 🦴 · 1 🔵 · 1 🔴"
    # A toggle per die, its face as its emoji; "Roll" waits for a die set aside; the takes the dice allow.
    toggles = [item for item in buttons(board) if payload(item).startswith("u:keep.")]
    assert [str(item.emoji) for item in toggles] == ["🍣", "🍣", "🦴", "🔵", "🔴"]
    assert labels(board)[5:] == [
        "Mark dice to set aside, then roll",
        label_starting(board, "Take sushi #2 ("),
        label_starting(board, "Take bone #1 ("),
        "How to play",  # the table's own row
    ]
    assert "Mark dice to set aside, then roll" not in labels(board, enabled_only=True)

    refused = await table.click("bob", "Die 1")
    assert (
        refused.ephemeral
        and text_of(refused.response) == "It's alice's turn — only they may use these buttons."
    )
    refused = await table.member("dave").click(board, label="Die 1")
    assert refused.ephemeral and "not seated" in text_of(refused.response)

    marked = await table.click("alice", "Die 1")
    assert not marked.ephemeral  # the board itself shows the mark
    board = table.board
    assert headline(board).startswith(f"🎲 <@{alice.id}> · throw 1 of 3: `1` 🍣 📌  `2` 🍣  `3`")
    assert labels(board)[:2] == ["Die 1 📌", "Die 2"] and "Roll 4 dice" in labels(board, enabled_only=True)
    assert labels(board)[-1] == "How to play"  # the table's own row stays under a marked board
    await table.click("alice", "Die 2")
    await table.click("alice", "Die 3")
    await table.click("alice", "Die 3 📌")  # toggled back: die 3 is thrown again
    assert labels(table.board)[:3] == ["Die 1 📌", "Die 2 📌", "Die 3"]
    assert (await table.state()).set_aside == []  # marks are the board's, not the game's
    await table.click("alice", "Roll 3 dice")
    state, view = await table.state(), await table.view()
    assert state.set_aside == ["sushi", "sushi"] and view["throws"] == 2
    content = headline(table.board)
    assert (
        content.startswith(f"🎲 <@{alice.id}> · throw 2 of 3: `1` ") and " · set aside: 🍣 🍣 → " in content
    )
    assert "📌" not in content  # a new throw: nothing is marked yet
    assert len([item for item in buttons(table.board) if payload(item).startswith("u:keep.")]) == 3


async def test_slash_commands_explain_what_is_wrong(simcord_env):
    env = simcord_env
    table = await started(env)
    done = await table.slash("alice", "roll")
    assert done.ephemeral and text_of(done.response).startswith("✅ You threw ")
    for text in ("one", "²", "①", "1 ³", "0", "1 " + "9" * 30):  # only short die numbers from 1 up
        bad = await table.slash("alice", "roll", set_aside=text)
        assert bad.ephemeral and "by their numbers" in text_of(bad.response), text
    far = await table.slash("alice", "roll", set_aside="1 9")
    assert far.ephemeral and "isn't part of the current throw" in text_of(far.response)
    none = await table.slash("alice", "roll")
    assert none.ephemeral and "Set aside at least one die" in text_of(none.response)
    too_many = await table.slash("alice", "roll", set_aside="1 2 3 4 5")
    assert too_many.ephemeral and "Leave at least one of the 5 dice" in text_of(too_many.response)
    other = await table.slash("bob", "take", kind="sushi")
    assert other.ephemeral and text_of(other.response) == "It isn't your turn."
    other = await table.slash("bob", "take")
    assert other.ephemeral and text_of(other.response) == "It isn't your turn."
    outsider = await table.slash("dave", "take")
    assert outsider.ephemeral and "not seated" in text_of(outsider.response)
    stranger = await table.slash("alice", "steal", player=table.member("dave"))
    assert stranger.ephemeral and "dave isn't playing" in text_of(stranger.response)

    # Two sushi and two bones: `take` without a kind asks which; with a kind it takes.
    await rig(env, table, throw(["sushi", "sushi", "bone", "bone", "blue"], throws=1))
    which = await table.slash("alice", "take")
    assert which.ephemeral and "sushi or a fishbone" in text_of(which.response)
    no_steal = await table.slash("alice", "steal", player=table.member("bob"))
    assert no_steal.ephemeral and "three chopsticks" in text_of(no_steal.response)
    took = await table.slash("alice", "take", kind="bone")
    assert took.ephemeral and text_of(took.response).startswith("✅ You took bone #2: ")
    assert "alice took bone #2" in text_of(table.board)


async def test_slash_commands_without_a_game_say_so(simcord_env):
    env = simcord_env
    await env.bot.tree.sync()
    table = Table(env, "sushizock", NAMES)
    for command, options in (("take", {}), ("steal", {"player": table.member("bob")}), ("roll", {})):
        refused = await table.slash("alice", command, **options)
        assert refused.ephemeral and "no game running here" in text_of(refused.response), command


async def test_forced_take_by_button_and_rules(simcord_env):
    env = simcord_env
    table = await started(env, ["alice", "bob"])
    rules = await table.slash("bob", "rules")
    assert rules.ephemeral and "Sushizock" in heading_of(rules.response)
    await table.click("alice", "Roll all 5 dice")
    await rig(env, table, throw(["red"], throws=2, set_aside=["blue", "blue", "red", "red"]))
    board = table.board
    assert "· last throw (2 of 3): `1` 🔴 · set aside: 🔵 🔵 🔴 🔴 → 2 🔵 · 3 🔴 — nothing fits" in headline(
        board
    )
    await table.press("alice", "Forced: take bone #")
    view = await table.view()
    assert view["bone_piles"][0] == {"height": 1, "top": -4} and view["turn"] == 1
    assert "Last move: alice had to take the forced portion" in text_of(table.board)

    # Bob's four red chopsticks reach blind into alice's one-tile bone pile: there is no second tile.
    await table.click("bob", "Roll all 5 dice")
    await rig(env, table, throw(["red", "red", "red", "red", "sushi"], throws=1))
    deep = await table.slash("bob", "steal", player=table.member("alice"), position=2)
    assert deep.ephemeral
    assert text_of(deep.response) == "That pile has only 1 tile — there is no tile 2 from the top."


async def test_a_throw_that_allows_nothing_asks_for_another_throw(simcord_env):
    env = simcord_env
    table = await started(env, ["alice", "bob"])
    await table.click("alice", "Roll all 5 dice")
    # Five chopsticks and nobody has a pile to steal from: nothing to take, but two throws are left.
    await rig(env, table, throw(["blue", "blue", "blue", "red", "red"], throws=1))
    board = table.board
    assert headline(board).endswith("→ 3 🔵 · 2 🔴") and "forced" not in headline(board)
    assert not [label for label in labels(board) if label.startswith(("Take", "Forced"))]
    assert labels(board) == [
        *(f"Die {n}" for n in range(1, 6)),
        "Mark dice to set aside, then roll",
        "How to play",
    ]
    await table.click("alice", "Die 4")
    await table.click("alice", "Die 5")
    await table.click("alice", "Roll 3 dice")  # the only way on: set dice aside and throw the rest
    assert (await table.state()).set_aside == ["red", "red"]
