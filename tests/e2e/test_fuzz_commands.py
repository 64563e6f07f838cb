"""Fuzz: every slash command and its autocomplete, with any option values Discord may deliver, from
seated players, strangers and admins, at any moment of any game. Each interaction is answered once,
first, within Discord's limits, and changes at most one move (the checks: `tests/e2e/fuzz.py`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.e2e.chaos import Command, catalog, error_records
from tests.e2e.fuzz import (
    GENERATED,
    MEMBERS,
    SETTLE,
    Checker,
    Moment,
    Scene,
    fuzz,
    moments,
    pick,
    slow_clocks,
    typed,
    unbounded_options,
)
from tests.seeds import TableSeeds

pytestmark = pytest.mark.simcord(settle_timeout=SETTLE)

INTEGER_LIMIT = 2**53 - 1
SPARED = {("notify", "how"): "off", ("settings pings", "on"): False}
"""Values never sent: every e2e test checks that a human who came to owe a move was pinged."""


@pytest.fixture
async def checker(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch, seeds: TableSeeds
) -> AsyncIterator[Checker]:
    env = simcord_env
    await env.bot.tree.sync()
    unbounded_options(env)
    slow_clocks(env, monkeypatch, seeds)
    with error_records() as errors:
        counted = GENERATED[0]
        yield Checker(env, errors)
        print(f"\n{GENERATED[0] - counted} generated interactions")


def shown(options: dict[str, Any]) -> str:
    def one(value: Any) -> str:
        if isinstance(value, str):
            return repr(value if len(value) <= 40 else f"{value[:30]}… ({len(value)} characters)")
        return str(getattr(value, "name", value))

    return " ".join(f"{key}:{one(value)}" for key, value in options.items())


async def option_value(
    data: st.DataObject,
    checker: Checker,
    scene: Scene,
    member: Any,
    command: Command,
    option: dict[str, Any],
    filled: dict[str, Any],
    in_dm: bool,
    channel: Any,
) -> Any:
    kind = option["type"]
    spared = SPARED.get((command.name, option["name"]), ...)
    if option.get("choices"):
        return data.draw(st.sampled_from([c["value"] for c in option["choices"] if c["value"] != spared]))
    if kind == 5:
        return data.draw(st.booleans()) if spared is ... else not spared
    if kind == 6:
        chosen = scene.members[data.draw(st.sampled_from(MEMBERS))]
        return chosen.user if in_dm else chosen
    if kind == 3:
        if option.get("autocomplete") and not in_dm and data.draw(st.booleans()):
            typed_text = data.draw(typed(0, 100))
            result = await checker.run(
                f"{member.name} types {typed_text!r} into /{command.name} {option['name']}",
                member.id,
                scene.channels,
                lambda: (
                    member._autocomplete_result(channel, command.name, option["name"], typed_text, filled)
                    if hasattr(member, "_autocomplete_result")
                    else _complete(member, channel, command.name, option["name"], typed_text, filled)
                ),
            )
            offered = pick(data, [choice["value"] for choice in result.autocomplete_choices or []], "offered")
            if offered is not None:
                return offered
        return data.draw(typed(max(1, option.get("min_length", 1)), 6000))
    if kind == 4:
        low, high = option.get("min_value", -INTEGER_LIMIT), option.get("max_value", INTEGER_LIMIT)
        near = [value for value in (low, high, 0, 1, 2, 3, 5, 12, 301, 86400) if low <= value <= high]
        return data.draw(st.one_of(st.sampled_from(near), st.integers(low, high)))
    if kind == 10:
        low, high = option.get("min_value", -(2.0**53)), option.get("max_value", 2.0**53)
        return data.draw(st.floats(low, high, allow_nan=False, allow_infinity=False))
    raise AssertionError(f"/{command.name} has an option of type {kind} the fuzz cannot fill")


async def _complete(
    member: Any, channel: Any, name: str, option: str, value: str, filled: dict[str, Any]
) -> Any:
    """An autocomplete as simcord dispatches it, with its interaction record (its choices answered)."""
    from simcord.actors import _autocomplete_result

    return await _autocomplete_result(member, channel, name, option, value, filled)


async def run_command(data: st.DataObject, checker: Checker, scene: Scene) -> None:
    name = data.draw(st.sampled_from(MEMBERS), label="member")
    member = scene.members[name]
    in_dm = data.draw(st.sampled_from([False] * 9 + [True]), label="in a DM")
    channel = scene.handle(pick(data, scene.channels, "channel"))  # the channel, or the table's thread
    visible = set(member.user.available_commands() if in_dm else member.available_commands(channel))
    every = [command for command in catalog(checker.env.bot) if command.name in visible]
    own = [command for command in every if command.group == scene.group]
    command = pick(data, own if own and data.draw(st.booleans(), label="own game") else every, "command")
    options: dict[str, Any] = {}
    for option in command.options:
        if option.get("required") or data.draw(st.booleans()):
            options[option["name"]] = await option_value(
                data, checker, scene, member, command, option, options, in_dm, channel
            )
    where = " in a DM" if in_dm else ""
    await checker.run(
        f"{name} runs /{command.name} {shown(options)}{where}",
        member.id,
        scene.channels,
        lambda: (
            member.user.slash(command.name, **options)
            if in_dm
            else member.slash(channel, command.name, **options)
        ),
    )


@fuzz(examples=60)
@given(moment=moments, data=st.data())
async def test_any_command_at_any_moment_is_answered(
    simcord_env: Any, checker: Checker, moment: Moment, data: st.DataObject
) -> None:
    scene = Scene(simcord_env, moment)
    await scene.build()
    try:
        for _ in range(data.draw(st.integers(1, 3), label="commands")):
            await run_command(data, checker, scene)
    finally:
        await scene.close()
