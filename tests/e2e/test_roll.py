"""/roll, /r and /rolls end to end: the real bot against simcord, with the dice fixed where a test
needs to know them (the cog's `draw`, `secrets.randbelow` in production)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot import EXTENSIONS
from cogs.i18n import has
from rules.dice_notation import ERROR_CODES, MAX_DICE, MAX_DICE_PER_TERM
from tests.e2e.helpers import labels

ROLL = ("cogs.roll",)


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ROLL


class Room:
    """A server channel with members who roll."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.guild = env.create_guild("Dice night")
        self.channel = self.guild.create_text_channel("dice")
        self.members: dict[str, Any] = {}
        self.spectator = self.member("spectator")

    def member(self, name: str, *roles: Any) -> Any:
        if name not in self.members:
            self.members[name] = self.guild.add_member(self.env.create_user(name), roles=list(roles))
        return self.members[name]

    def fix(self, *faces: int) -> None:
        """The next dice show `faces` (1-based; Fate dice −1, 0, 1 as given), in order."""
        queue: Iterator[int] = iter(faces)

        def draw(size: int) -> int:
            face = next(queue)
            return face + 1 if size == 3 and face <= 1 else face - 1

        self.env.bot.get_cog("Roll").draw = draw

    async def roll(self, name: str, expression: str, command: str = "roll", **options: Any) -> Any:
        return await self.member(name).slash(self.channel, command, expression=expression, **options)

    def public(self) -> list[discord.Message]:
        return list(self.channel.history(viewer=self.spectator))


def content(result: Any) -> str:
    assert result.response is not None, result
    return result.response.content


# ---------------------------------------------------------------- rolling


async def test_a_roll_echoes_the_request_shows_every_die_and_the_total(simcord_env):
    room = Room(simcord_env)
    alice = room.member("alice")
    room.fix(1, 3, 5, 6)
    result = await room.roll("alice", "4d6kh3+2", label="Strength")
    assert not result.ephemeral
    lines = content(result).splitlines()
    assert lines[0] == f"🎲 {alice.mention} rolls `4d6kh3+2` — *Strength*"
    assert lines[1] == "4d6kh3 (~~**1**~~, 3, 5, **6**)+2"  # dropped struck, min and max bold
    assert lines[2] == "**Total:** `16`"
    assert labels(room.public()[-1]) == ["Roll again"]
    room.fix(4)
    short = await room.roll("alice", "d20", command="r")
    assert not short.ephemeral and content(short).endswith("**Total:** `4`")


NOTATION = [
    # (expression, dice, what the answer shows)
    ("3d6", (2, 3, 4), ["3d6 (2, 3, 4)", "**Total:** `9`"]),
    ("d%", (42,), ["d% (42)", "`42`"]),
    ("(1d6+2)*3/2", (5,), ["(1d6 (5)+2)\\*3/2", "`10`"]),
    ("-d4+10", (3,), ["`7`"]),
    ("4d6k3", (1, 3, 5, 6), ["~~**1**~~", "`14`"]),
    ("4d6kl1", (1, 3, 5, 6), ["(**1**, ~~3~~, ~~5~~, ~~**6**~~)", "`1`"]),
    ("4d6dh1", (1, 3, 5, 6), ["~~**6**~~", "`9`"]),
    ("4d6dl1", (1, 3, 5, 6), ["`14`"]),
    ("d6!", (6, 6, 2), ["d6! (**6**!, **6**!, 2)", "`14`"]),
    ("d10!>8", (9, 3), ["(9!, 3)", "`12`"]),
    ("d10!>=8", (8, 1), ["(8!, **1**)", "`9`"]),
    ("d6ro1", (1, 4), ["(~~1~~→4)", "`4`"]),
    ("d6rr<3", (1, 2, 5), ["(~~1~~→~~2~~→5)", "`5`"]),
    ("4d6mi3", (1, 2, 3, 6), ["(3, 3, 3, **6**)", "`15`"]),
    ("4d6ma4", (1, 2, 5, 6), ["(**1**, 2, 4, 4)", "`11`"]),
    ("5d10>=8", (8, 9, 10, 1, 7), ["**Successes:** `3`"]),
    ("5d10t8f1", (8, 9, 10, 1, 7), ["**Successes:** `2`"]),
    ("3#4d6kh3", (1, 2, 3, 4, 6, 6, 6, 6, 1, 1, 1, 1), ["`1.` 4d6kh3", "→ `9`", "`3.`", "sum `30`"]),
    ("4dF", (-1, 0, 1, 1), ["4dF (−, 0, +, +)", "`1`"]),
    ("adv", (3, 17), ["adv (~~3~~, 17)", "`17`"]),
    ("dis", (3, 17), ["dis (3, ~~17~~)", "`3`"]),
    ("d20+5 adv", (3, 17), ["d20 (~~3~~, 17)+5 adv", "`22`"]),
    ("d20+5 to hit", (10,), ["rolls `d20+5` — *to hit*", "`15`"]),
    ("2d6 # fire", (1, 1), ["— *fire*", "`2`"]),
]


async def test_every_notation_feature(simcord_env):
    room = Room(simcord_env)
    for expression, dice, expected in NOTATION:
        room.fix(*dice)
        result = await room.roll("alice", expression)
        assert not result.ephemeral, expression
        for part in expected:
            assert part in content(result), (expression, part, content(result))


ERRORS = [
    # (expression, words of the reason, where the caret stands)
    ("2d6 + x", "can't read", 6),
    ("2d6+", "stops too early", 4),
    (f"{MAX_DICE_PER_TERM + 1}d6", f"At most {MAX_DICE_PER_TERM} dice in one term", 0),
    ("11#100d6", f"At most {MAX_DICE:,} dice in one roll", 3),
    ("d1", "2 to 1,000 sides", 1),
    ("3d1001", "2 to 1,000 sides", 2),
    ("21#d6", "1 to 20 times", 0),
    ("d6!>0", "never stop", 2),
    ("d6rr<7", "never stop", 2),
    ("dF!", "Fate dice don't explode", 2),
    ("4d6mi5ma2", "minimum", 6),
    ("4d6f1", "target", 3),
    ("4d6!!", "only once", 4),
    ("3d6 adv", "single d20", 4),
    ("1/(d2-d2)", "Division by zero", 1),
    ("sushidice 2", "thrown whole", 10),
    ("bock 101", "1 to 100 dice", 5),
    ("fireball", "can't read", 0),
]


async def test_limits_and_errors_answer_privately_with_a_caret(simcord_env):
    room = Room(simcord_env)
    for expression, words, column in ERRORS:
        room.fix(1, 1, 1, 1)
        result = await room.roll("alice", expression)
        assert result.ephemeral, expression
        text = content(result)
        reason, block = text.split("\n", 1)
        assert reason.startswith("❌") and words in reason, (expression, reason)
        assert block == f"```\n{expression}\n{' ' * column}^\n```", (expression, block)
    assert room.public() == []  # nothing was posted in the channel


async def test_string_options_have_a_maximum_length(simcord_env):
    """What Discord is told: it refuses longer text before the bot sees it."""
    tree = simcord_env.bot.tree
    synced = {command.name: command.to_dict(tree) for command in tree.get_commands()}
    saving = next(sub for sub in synced["rolls"]["options"] if sub["name"] == "save")
    lengths = {
        f"{name} {option['name']}": option.get("max_length")
        for name, command in (("roll", synced["roll"]), ("r", synced["r"]), ("rolls save", saving))
        for option in command["options"]
        if option["type"] == discord.AppCommandOptionType.string.value
    }
    assert lengths == {
        "roll expression": 200,
        "roll label": 100,
        "r expression": 200,
        "r label": 100,
        "rolls save name": 32,
        "rolls save expression": 200,
    }
    assert "cogs.roll" in EXTENSIONS


async def test_a_long_roll_is_shortened_to_fit_one_message(simcord_env):
    room = Room(simcord_env)
    room.fix(*[1000] * 1000)
    result = await room.roll("alice", "10#100d1000")
    text = content(result)
    assert len(text) <= 2000
    assert "`1.` 100d1000 (100 dice) → `100000`" in text
    assert "**Totals:** " + ", ".join(["`100000`"] * 10) in text
    assert "2,000 characters" in text


async def test_the_games_dice_with_the_tables_emoji(simcord_env):
    room = Room(simcord_env)
    room.fix(1, 2, 3, 4, 5)  # sushi, sushi, bone, bone, blue
    sushizock = content(await room.roll("alice", "sushizock"))
    assert "throws 5 Sushizock dice" in sushizock
    assert "🍣 🍣 🦴 🦴 🔵" in sushizock and "2 🍣 · 2 🦴 · 1 🔵" in sushizock
    room.fix(1, 2, 3, 1)  # white, grey, red, white
    bock = content(await room.roll("alice", "bock 4"))
    assert "throws 4 Rock the Bock dice" in bock
    assert "⬜ 🐺 🟥 ⬜" in bock and "🐏 bocks ×2 · 🐺 wolves ×1 · 🟥 red goats ×1" in bock
    room.fix(6, 1, 2, 6, 3, 4)
    sushidice = content(await room.roll("alice", "sushidice"))
    assert "throws a Sushi Dice set" in sushidice and "⭐ 🐟 🍣 🤢 🍤 🥚" in sushidice
    room.fix(*[1] * 10)
    default = content(await room.roll("alice", "bock"))
    assert "throws 10 Rock the Bock dice" in default and "🐏 bocks ×10" in default


# ---------------------------------------------------------------- private rolls and Roll again


async def test_a_private_roll_and_its_roll_again_stay_private(simcord_env):
    room = Room(simcord_env)
    room.fix(5, 6)
    result = await room.roll("alice", "2d6", private=True)
    assert result.ephemeral and "`11`" in content(result)
    assert room.public() == []
    room.fix(1, 2)
    again = await room.member("alice").click(result.response, label="Roll again")
    assert again.ephemeral and "`3`" in content(again)
    assert room.public() == []


async def test_roll_again_after_a_restart_by_anyone(simcord_env, bot_factory):
    room = Room(simcord_env)
    room.fix(2, 2)
    await room.roll("alice", "2d6+1 to hit")
    first = room.public()[-1]
    await simcord_env.restart_bot(bot_factory())
    room.fix(6, 6)
    bob = room.member("bob")
    again = await bob.click(first, label="Roll again")
    assert not again.ephemeral
    text = content(again)
    assert text.startswith(f"🎲 {bob.mention} rolls `2d6+1` — *to hit*") and "`13`" in text
    assert len(room.public()) == 2


# ---------------------------------------------------------------- saved rolls and autocomplete


async def test_saved_rolls_by_name_with_autocomplete(simcord_env):
    room = Room(simcord_env)
    alice = room.member("alice")
    saved = await alice.slash(room.channel, "rolls save", name="Fireball", expression="8d6 fire")
    assert saved.ephemeral and "Saved **fireball** = `8d6 fire` (yours)" in content(saved)
    room.fix(*[3] * 8)
    result = await room.roll("alice", "fireball")
    assert content(result).startswith(f"🎲 {alice.mention} rolls **fireball** `8d6` — *fire*")
    assert "`24`" in content(result)
    choices = await alice.autocomplete(room.channel, "roll", "expression", "fire")
    assert {"name": "fireball — 8d6 fire", "value": "fireball"} in choices
    assert choices[0] == {"name": "fire", "value": "fire"}  # what was typed stays first
    games = await alice.autocomplete(room.channel, "r", "expression", "bo")
    assert [choice["value"] for choice in games] == ["bo", "bock"]
    exact = await alice.autocomplete(room.channel, "roll", "expression", "fireball")
    assert exact == [{"name": "fireball — 8d6 fire", "value": "fireball"}]
    # Saved rolls are a player's own: bob has none.
    bob_choices = await room.member("bob").autocomplete(room.channel, "roll", "expression", "fire")
    assert [choice["value"] for choice in bob_choices] == ["fire"]
    updated = await alice.slash(room.channel, "rolls save", name="fireball", expression="10d6")
    assert "Updated **fireball**" in content(updated)
    listed = await alice.slash(room.channel, "rolls list")
    assert listed.ephemeral and "`fireball` — `10d6`" in listed.response.embeds[0].fields[0].value
    names = await alice.autocomplete(room.channel, "rolls delete", "name", "")
    assert [choice["value"] for choice in names] == ["fireball"]
    deleted = await alice.slash(room.channel, "rolls delete", name="fireball")
    assert deleted.ephemeral and "Deleted **fireball**" in content(deleted)
    missing = await alice.slash(room.channel, "rolls delete", name="fireball")
    assert missing.ephemeral and "no saved roll called `fireball`" in content(missing)


async def test_server_rolls_are_saved_by_manage_server(simcord_env):
    room = Room(simcord_env)
    admins = room.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = room.member("admin", admins)
    refused = await room.member("bob").slash(
        room.channel, "rolls save", name="init", expression="d20+2", server=True
    )
    assert refused.ephemeral and "Manage Server" in content(refused)
    saved = await admin.slash(room.channel, "rolls save", name="init", expression="d20+2", server=True)
    assert not saved.ephemeral and "for everyone on this server" in content(saved)
    room.fix(10)
    result = await room.roll("bob", "init")
    assert "rolls **init** `d20+2`" in content(result) and "`12`" in content(result)
    choices = await room.member("bob").autocomplete(room.channel, "roll", "expression", "in")
    assert {"name": "init — d20+2 (this server's)", "value": "init"} in choices
    not_deleted = await room.member("bob").slash(room.channel, "rolls delete", name="init", server=True)
    assert not_deleted.ephemeral and "Manage Server" in content(not_deleted)
    listed = await room.member("bob").slash(room.channel, "rolls list")
    assert "`init` — `d20+2`" in listed.response.embeds[0].fields[1].value


async def test_bad_names_and_expressions_are_refused_when_saving(simcord_env):
    room = Room(simcord_env)
    alice = room.member("alice")
    for name, words in (
        ("d20", "already means something"),
        ("adv", "already means"),
        ("2x", "starts with a letter"),
    ):
        refused = await alice.slash(room.channel, "rolls save", name=name, expression="d6")
        assert refused.ephemeral and words in content(refused), name
    broken = await alice.slash(room.channel, "rolls save", name="oops", expression="2d6+")
    assert broken.ephemeral and content(broken).endswith("```\n2d6+\n    ^\n```")


# ---------------------------------------------------------------- stats and help


async def test_stats_compare_each_die_size_with_a_fair_die(simcord_env):
    room = Room(simcord_env)
    empty = await room.member("alice").slash(room.channel, "rolls stats")
    assert "Nobody has rolled dice here yet" in empty.response.embeds[0].description
    room.fix(1, 6, 2, 5)
    await room.roll("alice", "2d6")
    await room.roll("bob", "2d6", private=True)
    room.fix(1, 1, 1, 1, 1)
    await room.roll("alice", "sushizock")  # six-faced dice: d6 to the roll log
    room.fix(20)
    await room.roll("alice", "d20")
    stats = await room.member("alice").slash(room.channel, "rolls stats")
    assert not stats.ephemeral
    lines = stats.response.embeds[0].description.splitlines()
    assert lines[0].startswith("✅ **d6** — 9 dice in 3 rolls: average **2.11** (a fair die: 3.50 ± ")
    assert lines[1].startswith("✅ **d20** — 1 die in 1 roll: average **20.00** (a fair die: 10.50 ± ")


async def test_help_names_the_notation_and_the_operating_systems_randomness(simcord_env):
    room = Room(simcord_env)
    shown = await room.member("alice").slash(room.channel, "rolls help")
    assert shown.ephemeral
    text = shown.response.embeds[0].description
    assert "operating system" in text and "`secrets`" in text
    for notation in ("4d6kh3", "d6!", "rr<3", "mi2", "10d10t8", "6#4d6kh3", "dF", "adv", "sushizock", "bock"):
        assert notation in text, notation


async def test_every_roll_error_has_words(simcord_env):
    assert [code for code in ERROR_CODES if not has(f"roll.error.{code}")] == []
    assert re.search(r"\bsecrets\b", simcord_env.bot.get_cog("Roll").draw.__module__ or "")
