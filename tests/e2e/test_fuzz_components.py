"""Fuzz: components as a client may send them — the current board, an outdated one, another table's,
a finished game's, custom_ids and select values the bot no longer makes or never made, presses that
crossed the bot's own edits and time-outs — by seated players, strangers and admins, at any moment of
any game. Each press is answered once, first, within Discord's limits, and changes at most one move
(the checks: `tests/e2e/fuzz.py`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from simcord.components import walk_components

from rules.registry import GAMES
from tests.e2e.chaos import error_records
from tests.e2e.fuzz import (
    GENERATED,
    MEMBERS,
    SETTLE,
    Checker,
    Moment,
    Scene,
    crafted,
    crossed,
    fuzz,
    moments,
    pick,
    slow_clocks,
    snapshot,
)
from tests.e2e.fuzz import wait as wait_for
from tests.seeds import TableSeeds

pytestmark = pytest.mark.simcord(settle_timeout=SETTLE)

WAITS = (0.5, 0.5, 3.0, 3.0, 61.0, 301.0)
JUNK_VALUES = (
    "{}",
    "[",
    '{"type":"pick","card":"x"}',
    "0",
    "x",
)  # the clock between a client's last look and its press


@pytest.fixture
async def checker(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch, seeds: TableSeeds
) -> AsyncIterator[Checker]:
    env = simcord_env
    await env.bot.tree.sync()
    slow_clocks(env, monkeypatch, seeds)
    with error_records() as errors:
        counted = GENERATED[0]
        yield Checker(env, errors)
        print(f"\n{GENERATED[0] - counted} generated interactions")


@st.composite
def custom_ids(draw: st.DrawFn, channels: list[int]) -> str:
    """custom_ids a client may send: the bot's own formats with any part wrong, and junk (≤ 100)."""
    game = draw(st.sampled_from([*sorted(GAMES), "nogame", "SushiGo", ""]))
    channel = draw(st.sampled_from([*channels, 0, 1, 2**63 - 1]))
    stamp = draw(st.sampled_from([0, 1, 7, 10**12]))
    payload = draw(
        st.sampled_from(
            ["a:", "a:{}", 'a:{"type":"pick"}', "a:[1]", "a:null", "a:{", "u:", "u:f:99", "u:c:0:9"]
        )
        | st.sampled_from(["t:join", "t:hand", "t:rules", "t:rematch", "t:start", "t:nope", "x:y", ""])
        | st.text(st.characters(codec="utf-8"), max_size=30)
    )
    prefix = draw(st.sampled_from(["sb", "sbs", "sbh", "pg", "pg-at", "rr", "rp", "zz"]))
    made = f"{prefix}:{game}:{channel}:{stamp}:{payload}"
    return draw(st.sampled_from([made, made[:100], payload or "x", f"{prefix}:"]))[:100] or "x"


async def press(data: st.DataObject, checker: Checker, scene: Scene, other: Scene) -> None:
    """One press of something the member can see, or of a message made for the press. Every draw is
    made whatever the scene holds, so that an example replays with the same draws."""
    env = checker.env
    name = data.draw(st.sampled_from(MEMBERS), label="member")
    member = scene.members[name]
    channels = [*scene.channels, *other.channels]
    kind = data.draw(st.sampled_from(["shown", "shown", "shown", "crossed", "crafted"]), label="kind")
    ids = data.draw(st.lists(custom_ids(channels), min_size=1, max_size=3, unique=True), label="custom_ids")
    junk = st.sampled_from(JUNK_VALUES)
    values = data.draw(st.none() | st.lists(junk, min_size=1, max_size=3, unique=True), label="values")
    count = data.draw(st.integers(1, 25), label="how many options")
    start = data.draw(st.integers(0, 2**16), label="which options")
    seconds = data.draw(st.sampled_from(WAITS), label="wait")
    found = pick(data, scene.clickables(name, channels), "component")
    if kind == "crafted":
        message = await crafted(env, scene.where, ids, values)
        item = next(c for row in message.components for c in row.get("components", []))
        handle = _handle(env, message)
        if item["type"] == 3:
            chosen = [item["options"][0]["value"]]
            what = f"{name} chooses {chosen} in a menu {item['custom_id']!r}"
            act = lambda: member.select(handle, chosen, custom_id=item["custom_id"])  # noqa: E731
        else:
            what = f"{name} clicks a button {item['custom_id']!r}"
            act = lambda: member.click(handle, custom_id=item["custom_id"])  # noqa: E731
        await checker.run(what, member.id, channels, act)
        return
    if found is None:
        return
    message, item, in_dm = found
    who = member.user if in_dm else member
    chosen: list[str] = []
    if item["type"] == 3:
        options = [option["value"] for option in item["options"]]
        low, high = max(1, item.get("min_values", 1)), min(len(options), item.get("max_values", 1))
        chosen = [options[(start + n) % len(options)] for n in range(max(low, min(count, high)))]
    label = item.get("label") or (item.get("emoji") or {}).get("name") or item["custom_id"]
    what = f"{name} {'chooses ' + str(chosen) if chosen else 'clicks ' + repr(label)}"
    if kind == "crossed":
        # The client shows the message as it was; meanwhile the clock moves and the bot edits it.
        old = snapshot(env, _handle(env, message))
        await wait_for(env, seconds)
        payload: dict[str, Any] = {"custom_id": item["custom_id"], "component_type": item["type"]}
        if chosen:
            payload["values"] = chosen
        what += f" on the message as it was {seconds:g} s ago"
        await checker.run(what, member.id, channels, lambda: crossed(who, old, payload))
        return
    handle = _handle(env, message)
    seen = snapshot(env, handle)
    payload = {"custom_id": item["custom_id"], "component_type": item["type"]}
    if chosen:
        payload["values"] = chosen

    async def act() -> Any:
        # A real-time board (Kaiten's belt) may be edited between the look and the press: the client
        # then sends the press of the message as it showed it, as a crossed press does.
        if not _shows(env, message, item["custom_id"]):
            return await crossed(who, seen, payload)
        if chosen:
            return await who.select(handle, chosen, custom_id=item["custom_id"])
        return await who.click(handle, custom_id=item["custom_id"])

    await checker.run(what + (" in a DM" if in_dm else ""), member.id, channels, act)


def _shows(env: Any, message: Any, custom_id: str) -> bool:
    """Whether the stored message still shows an enabled component with this custom_id."""
    now = env.backend.messages.get(message.channel_id, {}).get(message.id)
    return now is not None and any(
        item.get("custom_id") == custom_id and not item.get("disabled")
        for item in walk_components(now.components or [])
    )


def _handle(env: Any, message: Any) -> Any:
    from simcord.results import ResponseMessage

    return ResponseMessage(env, message)


@fuzz(examples=60)
@given(moment=moments, elsewhere=moments, data=st.data())
async def test_any_press_at_any_moment_is_answered(
    simcord_env: Any, checker: Checker, moment: Moment, elsewhere: Moment, data: st.DataObject
) -> None:
    scene = Scene(simcord_env, moment)
    other = Scene(simcord_env, elsewhere, beside=scene)  # another table of the same server
    await scene.build()
    await other.build()
    try:
        for _ in range(data.draw(st.integers(1, 4), label="presses")):
            await press(data, checker, scene, other)
    finally:
        await scene.close()
        await other.close()
