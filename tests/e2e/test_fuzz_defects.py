"""The defects the fuzz suite was built for (issue 28), each replayed exactly, and the check that the
suite's checker catches an answer path broken on purpose (make-it-fail)."""

from __future__ import annotations

import datetime
from collections.abc import AsyncIterator
from typing import Any

import pytest

from cogs.kit import errors, limits
from tests.e2e.chaos import error_records
from tests.e2e.fuzz import (
    SETTLE,
    Checker,
    Moment,
    Scene,
    crossed,
    slow_clocks,
    snapshot,
    unbounded_options,
    wait,
)
from tests.e2e.helpers import buttons, text_of
from tests.seeds import TableSeeds

pytestmark = pytest.mark.simcord(settle_timeout=SETTLE)


@pytest.fixture
async def checker(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch, seeds: TableSeeds
) -> AsyncIterator[Checker]:
    env = simcord_env
    await env.bot.tree.sync()
    unbounded_options(env)
    slow_clocks(env, monkeypatch, seeds)
    with error_records() as errors_seen:
        yield Checker(env, errors_seen)


def answers(env: Any, result: Any) -> list[int]:
    """Where the interaction's answer came among the bot's requests since it was sent."""
    record = result._interaction
    return [
        index
        for index, request in enumerate(env.http_requests)
        if request.path.startswith(f"/interactions/{record.id}/")
    ]


async def test_a_long_option_value_is_quoted_short(simcord_env: Any, checker: Checker) -> None:
    """`/settings option game:` with 2,100 characters: the refusal used to echo them all (50035, and
    the admin got nothing); it quotes them short now."""
    scene = Scene(simcord_env, Moment("sushigo", "none"))
    eve = scene.members["eve"]
    value = "**sushi**" * 234  # 2,106 characters, markdown in them
    result = await checker.run(
        "eve runs /settings option with a 2,106-character game",
        eve.id,
        scene.channels,
        lambda: eve.slash(scene.channel, "settings option", game=value, option="x", value="y"),
    )
    reply = result.response
    assert reply is not None and reply.ephemeral
    assert len(reply.content) <= limits.ECHO + 100 and "…" in reply.content
    assert "**sushi**" not in reply.content  # quoted as typed, not drawn bold


async def test_a_chopsticks_press_just_after_its_window_is_answered_first(
    simcord_env: Any, checker: Checker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A press that arrives after the window closed but before its time-out ran: the fetch is applied
    (a failed one), and the press is answered first — it was answered only after the move's commit,
    so a commit slower than Discord's 3 s (a busy database) left the player without an answer."""
    env = simcord_env
    scene, challenge = await chopsticks_challenge(env)
    ann = scene.members["ann"]
    cog = next(cog for cog in env.bot.cogs.values() if hasattr(cog, "_chopsticks"))
    grab = cog._chopsticks[scene.where]
    grab.started -= datetime.timedelta(seconds=grab.window + 0.1)  # the window closed a moment ago
    press = buttons(challenge)[0]
    store = scene.tables.store
    save = store.save

    async def slow_save(*args: Any, **kwargs: Any) -> Any:
        env.backend.advance_clock(3.5)  # a busy database: the move's commit takes 3.5 s
        return await save(*args, **kwargs)

    monkeypatch.setattr(store, "save", slow_save)
    before = len(env.http_requests)
    result = await checker.run(
        "ann presses the chopsticks just after the window closed",
        ann.id,
        scene.channels,
        lambda: ann.click(challenge, custom_id=press.custom_id),
    )
    assert answers(env, result)[0] == before, "the press was answered after the move's other requests"
    monkeypatch.setattr(store, "save", save)
    assert "Too slow" in text_of(result.response) and not buttons(result.response)


async def chopsticks_challenge(env: Any) -> tuple[Scene, Any]:
    """A Kaiten table with the dexterity challenge: ann has fetched A1, her chopsticks row is out."""
    scene = Scene(env, Moment("kaiten", "none"))
    ann, ben = scene.members["ann"], scene.members["ben"]
    await ann.slash(scene.channel, "kaiten new", dexterity="strict")
    await ben.slash(scene.channel, "kaiten join")
    await ann.slash(scene.channel, "kaiten start")
    board = scene.board()
    cell = next(b for b in buttons(board) if (b.label or "").startswith("A1"))
    return scene, (await ann.click(board, custom_id=cell.custom_id)).response


async def test_a_chopsticks_press_crossing_the_time_out_is_answered(
    simcord_env: Any, checker: Checker
) -> None:
    """The time-out edited the row away while the press was on its way: the press is answered once."""
    env = simcord_env
    scene, challenge = await chopsticks_challenge(env)
    ann = scene.members["ann"]
    old = snapshot(env, challenge)
    press = buttons(challenge)[0]
    await wait(env, 300)  # the chopsticks window (slowed for the suite) closes: the sushi slips
    assert not buttons(challenge)
    result = await checker.run(
        "ann presses the chopsticks the time-out has already taken away",
        ann.id,
        scene.channels,
        lambda: crossed(ann, old, {"custom_id": press.custom_id, "component_type": 2}),
    )
    assert result.response is not None and result.response.ephemeral


async def test_saved_rolls_of_any_length_are_listed_within_limits(simcord_env: Any, checker: Checker) -> None:
    """/rolls list with long saved rolls stays within an embed's limits (the /roll issue pages it)."""
    scene = Scene(simcord_env, Moment("sushigo", "none"))
    ann = scene.members["ann"]
    for number in range(30):
        name = f"roll{number:02d}" + "x" * 24
        expression = "+".join(["1d6"] * 40)[: 200 + number]
        await checker.run(
            f"ann saves roll {number}",
            ann.id,
            [],
            lambda name=name, expression=expression: ann.slash(
                scene.channel, "rolls save", name=name, expression=expression
            ),
        )
    result = await checker.run(
        "ann lists her rolls", ann.id, [], lambda: ann.slash(scene.channel, "rolls list")
    )
    assert result.response is not None


async def test_a_panel_older_than_its_token_is_let_go_not_retried(simcord_env: Any, checker: Checker) -> None:
    """cat (DMs closed) plays on her "My hand" panel; after 15 minutes its token is dead: the bot stops
    editing it (it tried once a move before, each refused) and her board button opens a new one."""
    env = simcord_env
    scene = Scene(env, Moment("sushigo", "none"))
    ann, cat, eve = scene.members["ann"], scene.members["cat"], scene.members["eve"]
    await eve.slash(scene.channel, "settings timeout", seconds=86400)
    await ann.slash(scene.channel, "sushigo new")
    await cat.slash(scene.channel, "sushigo join")
    await ann.slash(scene.channel, "sushigo start")
    panel = await cat.slash(scene.channel, "sushigo hand")
    token = panel._interaction.token
    await wait(env, 16 * 60)
    before = len(env.http_requests)
    for _ in range(2):  # ann picks by the table's own path: cat's hand changes each round of picks
        assert await scene.play_one()
    retried = [r for r in env.http_requests[before:] if token in r.path]
    assert retried == [], f"the expired panel was edited again: {[(r.method, r.path) for r in retried]}"
    again = await checker.run(
        "cat opens her hand again",
        cat.id,
        scene.channels,
        lambda: cat.slash(scene.channel, "sushigo hand"),
    )
    assert again.response is not None and again.response.ephemeral and again.response.components


async def test_a_joining_name_shows_as_typed(simcord_env: Any, checker: Checker) -> None:
    """ "X joined the table." names the joiner as typed: markdown in a name draws nothing."""
    env = simcord_env
    scene = Scene(env, Moment("sushigo", "none"))
    ann = scene.members["ann"]
    joiner = scene.guild.add_member(env.create_user("fancy"), nick="**big**_name_")
    await ann.slash(scene.channel, "sushigo new")
    await checker.run(
        "fancy joins", joiner.id, scene.channels, lambda: joiner.slash(scene.channel, "sushigo join")
    )
    said = "\n".join(text_of(m) for channel in scene.channels for m in scene.handle(channel).history())
    assert "**big**_name_" not in said and "\\*\\*big\\*\\*" in said, said[-300:]


async def test_the_checker_catches_an_answer_path_broken_on_purpose(
    simcord_env: Any, checker: Checker, monkeypatch: pytest.MonkeyPatch, seeds: TableSeeds
) -> None:
    """Make-it-fail: refusals are no longer answered (the one refusal path's reply dropped); the
    suite's checker must say so for the first refused command it sees."""
    scene = Scene(simcord_env, Moment("sushigo", "none"))
    dan = scene.members["dan"]

    async def dropped(interaction: Any, text: str) -> None:
        return None

    monkeypatch.setattr(errors, "reply_ephemeral", dropped)
    with pytest.raises(AssertionError, match="answered 0 times"):
        await checker.run(
            "dan runs /sushigo join with no table", dan.id, scene.channels,
            lambda: dan.slash(scene.channel, "sushigo join"),
        )  # fmt: skip
    monkeypatch.undo()
    slow_clocks(simcord_env, monkeypatch, seeds)
    checker.errors.records.clear()
