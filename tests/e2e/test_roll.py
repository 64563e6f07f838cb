"""/roll, /r and /rolls end to end: the real bot against simcord, with the dice fixed where a test
needs to know them (the cog's `draw`, `secrets.randbelow` in production)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot import EXTENSIONS
from cogs.kit import limits
from cogs.kit.words.bidi import plain
from cogs.kit.words.catalogs import has
from rules.dice_notation import ERROR_CODES, MAX_DICE, MAX_DICE_PER_TERM, MAX_THROWS
from storage.rolls import SAVED_LIMIT
from tests.e2e.helpers import body_lines, buttons, labels, text_of

ROLL = ("cogs.roll.cog",)


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
    """The words of a bot's answer: a roll's card (its text, "Roll again" under it), or a plain reply."""
    assert result.response is not None, result
    return text_of(result.response)


def description(message: Any) -> str:
    """The text of a card under its heading (what an embed's description said)."""
    return "\n".join(body_lines(message))


def within_limits(message: Any) -> bool:
    """Whether Discord accepts the message as shown (a card's parts, its components and text in all)."""
    return limits.problems({"components": message.components, "flags": message.flags.value}) == []


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
    ("10-d4", (3,), ["`7`"]),
    ("7/2*2", (), ["`7`"]),  # exact, rounded once at the end
    ("-7/2", (), ["`-3`"]),
    ("7//2*2+7%2", (), ["`7`"]),
    ("4d6k3", (1, 3, 5, 6), ["~~**1**~~", "`14`"]),
    ("4d6kl1", (1, 3, 5, 6), ["(**1**, ~~3~~, ~~5~~, ~~**6**~~)", "`1`"]),
    ("4d6dh1", (1, 3, 5, 6), ["~~**6**~~", "`9`"]),
    ("4d6dl1", (1, 3, 5, 6), ["`14`"]),
    ("d6!", (6, 6, 2), ["d6! (**6**!, **6**!, 2)", "`14`"]),
    ("d10!>8", (9, 3), ["(9!, 3)", "`12`"]),
    ("d10!>=8", (8, 1), ["(8!, **1**)", "`9`"]),
    ("d6ro1", (1, 4), ["(~~1~~→4)", "`4`"]),
    ("d6r1", (1, 1), ["(~~1~~→**1**)", "`1`"]),  # once, as every bot reads `r1`
    ("4d6d1", (1, 3, 5, 6), ["(~~**1**~~, 3, 5, **6**)", "`14`"]),
    ("d6!!", (6, 6, 2), ["d6!! (**6**+**6**+2)", "`14`"]),
    ("2d6e6", (6, 6, 3), ["2d6e6 (**6**!, **6**, 3)", "`15`"]),  # once: the new 6 does not explode
    ("d6ie", (6, 6, 3), ["(**6**!, **6**!, 3)", "`15`"]),
    ("d8ir2", (1, 2, 5), ["(~~1~~→~~2~~→5)", "`5`"]),
    ("(1d20+5, 1d20+5)kh1", (4, 15), ["(~~1d20 (4)+5~~, 1d20 (15)+5)kh1", "`20`"]),
    ("d6rr<3", (1, 2, 5), ["(~~1~~→~~2~~→5)", "`5`"]),
    ("4d6mi3", (1, 2, 3, 6), ["(3, 3, 3, **6**)", "`15`"]),
    ("4d6ma4", (1, 2, 5, 6), ["(**1**, 2, 4, 4)", "`11`"]),
    ("5d10>=8", (8, 9, 10, 1, 7), ["**Successes:** `3`"]),
    ("5d10t8f1", (8, 9, 10, 1, 7), ["**Successes:** `2`"]),
    ("3#4d6kh3", (1, 2, 3, 4, 6, 6, 6, 6, 1, 1, 1, 1), ["`1.` 4d6kh3", "→ `9`", "`3.`", "sum `30`"]),
    ("2 d20", (7, 12), ["`1.` d20 (7) → `7`", "`2.` d20 (12) → `12`"]),  # Dice Maiden's two sets
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
    ("4d6!!!", "only once", 5),
    ("3d6 adv", "single d20", 4),
    ("1/(d2-d2)", "Division by zero", 1),
    ("sushidice 2", "thrown whole", 10),
    ("bock 101", "1 to 100 dice", 5),
    ("fireball", "can't read", 0),
    # other bots' spellings that would read as something else here: ours, suggested
    ("3d6+5 e6", "Did you mean `3d6e6+5`?", 6),
    ("4d6 km1", "can't read", 4),
    ("1d20 ! Attack", "Did you mean `1d20 Attack`?", 5),
    ("+d20", "Did you mean `d20 adv`?", 0),
    ("-d20+2", "Did you mean `d20+2 dis`?", 0),
    ("4d6pl1", "Did you mean `4d6dl1`?", 3),
    ("4d6r<3", "Did you mean `4d6rr<3`?", 3),
    ("d6e>4", "Did you mean `d6!>4`?", 2),
    ("{1d20, 1d20}kh1", "Did you mean `(1d20, 1d20)kh1`?", 0),
    ("2d6x2", "Did you mean `2d6*2`?", 3),
    ("4d6k>3", "kept by rank", 3),
    # the throw budget, and `;`
    (
        "20#50d1000rr<1000",
        f"about 1,000,000 dice, explosions and rerolls included: one roll throws at most {MAX_THROWS:,}",
        3,
    ),
    ("20#50d1000rr<1000!", "never stop", 17),  # the issue's `20#50d1000rr<1000!>=2` likewise
    ("d6; d6; d6; d6; d6", "At most 4 rolls", 14),
    ("d6;;d6", "nothing to roll", 3),
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
    assert "cogs.roll.cog" in EXTENSIONS


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
    assert "⬜ 🐺 🟥 ⬜" in bock and "🐏 bocks ×2 · 🐺 wolf ×1 · 🟥 red goat ×1" in bock
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
    assert listed.ephemeral and "`fireball` — `10d6`" in description(listed.response)
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
    assert "This server's\n`init` — `d20+2`" in description(listed.response)


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
    assert "Nobody has rolled dice here yet" in content(empty)
    room.fix(1, 6, 2, 5)
    await room.roll("alice", "2d6")
    await room.roll("bob", "2d6", private=True)
    room.fix(1, 1, 1, 1, 1)
    await room.roll("alice", "sushizock")  # six-faced dice: d6 to the roll log
    room.fix(20)
    await room.roll("alice", "d20")
    stats = await room.member("alice").slash(room.channel, "rolls stats")
    assert not stats.ephemeral
    lines = body_lines(stats.response)
    assert lines[0].startswith("✅ **d6** — 9 dice in 3 rolls: average **2.11** (a fair die: 3.50 ± ")
    assert lines[1].startswith("✅ **d20** — 1 die in 1 roll: average **20.00** (a fair die: 10.50 ± ")


async def test_help_names_the_notation_and_the_operating_systems_randomness(simcord_env):
    room = Room(simcord_env)
    shown = await room.member("alice").slash(room.channel, "rolls help")
    assert shown.ephemeral
    assert within_limits(shown.response)
    text = content(shown)
    assert "operating system" in text and "`secrets`" in text
    for notation in ("4d6kh3", "d6!", "rr<3", "mi2", "10d10t8", "6#4d6kh3", "dF", "adv", "sushizock", "bock"):
        assert notation in text, notation
    # what comes from other bots: read as they read it, or answered with ours
    for notation in ("6 4d6", "4d6d1", "r1", "d6!!", "e6", "ie6", "(1d20+5, 1d20+5)kh1", "//", "%", ";"):
        assert notation in text, notation
    assert "`3d6+5 e6`: `3d6e6+5`" in text and "`+d20` / `-d20` (`d20 adv` / `d20 dis`)" in text
    assert "rounded once, at the end, toward zero" in text


async def test_every_roll_error_has_words(simcord_env):
    assert [code for code in ERROR_CODES if not has(f"roll.error.{code}")] == []
    assert re.search(r"\bsecrets\b", simcord_env.bot.get_cog("Roll").draw.__module__ or "")


# ---------------------------------------------------------------- several rolls, the throw budget


async def test_several_rolls_in_one_command_and_again(simcord_env):
    room = Room(simcord_env)
    alice = room.member("alice")
    room.fix(12, 3, 4)
    result = await room.roll("alice", "1d20+5 to hit; 2d6+3 fire")
    lines = content(result).splitlines()
    assert lines == [
        f"🎲 {alice.mention} rolls `1d20+5 to hit; 2d6+3 fire`",
        "**1.** `1d20+5` — *to hit*",
        "1d20 (12)+5",
        "**Total:** `17`",
        "**2.** `2d6+3` — *fire*",
        "2d6 (3, 4)+3",
        "**Total:** `10`",
    ]
    room.fix(20, 6, 6)
    again = await room.member("bob").click(room.public()[-1], label="Roll again")
    assert "**Total:** `25`" in content(again) and "**Total:** `15`" in content(again)


async def test_the_throw_budget_refuses_before_throwing_and_stops_an_unlucky_roll_at_once(simcord_env):
    room = Room(simcord_env)
    thrown: list[int] = []

    def ones(size: int) -> int:
        thrown.append(size)
        return 0

    room.env.bot.get_cog("Roll").draw = ones
    refused = await room.roll("alice", "20#50d1000rr<1000!")  # settles on 1000, explodes forever
    assert refused.ephemeral and "never stop" in content(refused) and thrown == []
    refused = await room.roll("alice", "20#50d1000rr<1000")
    assert refused.ephemeral and "about 1,000,000 dice" in content(refused) and thrown == []
    # expected to fit (5,000 throws on average), but every die keeps coming up 1
    unlucky = await room.roll("alice", "50d100rr<100")
    assert unlucky.ephemeral and f"past {MAX_THROWS:,} throws" in content(unlucky)
    assert len(thrown) == MAX_THROWS  # stopped at once: the throw past the budget is never made
    assert room.public() == []
    room.fix(*[2] * 60)
    fine = await room.roll("alice", "3#20d6!")
    assert not fine.ephemeral and "sum `120`" in content(fine)


# ---------------------------------------------------------------- /rolls list in pages


def _long(index: int) -> str:
    """A saved roll as long as an expression may be: 200 characters."""
    expression = f"{index % 9 + 1}d6+" + "1d4+" * 48 + "1d8"
    return expression + " " + "x" * (200 - len(expression) - 1)


async def test_rolls_list_pages_through_25_long_saved_rolls_each_within_discords_limits(
    simcord_env, bot_factory
):
    room = Room(simcord_env)
    admins = room.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    alice = room.member("alice", admins)
    for index in range(SAVED_LIMIT):
        mine = await alice.slash(
            room.channel, "rolls save", name=f"attack{index:02}", expression=_long(index)
        )
        assert mine.ephemeral and "Saved" in content(mine)
        ours = await alice.slash(
            room.channel, "rolls save", name=f"party{index:02}", expression=_long(index), server=True
        )
        assert "Saved" in content(ours)
    listed = await alice.slash(room.channel, "rolls list")
    assert listed.ephemeral
    shown = listed.response
    seen: list[str] = []
    pages_seen = 0
    while True:
        assert within_limits(shown), len(text_of(shown))
        page_lines = body_lines(shown)
        assert page_lines[0] in ("Yours", "This server's")  # every page says whose rolls it lists
        seen += [line.split("`")[1] for line in page_lines if line.startswith("`")]
        pages_seen += 1
        turn = buttons(shown)
        assert plain(turn[1].label or "").startswith(f"{pages_seen} / ")
        following = next(button for button in turn if button.custom_id and button.custom_id.endswith(":next"))
        if following.disabled:
            break
        if pages_seen == 2:  # the buttons outlive a restart
            await simcord_env.restart_bot(bot_factory())
        await alice.click(shown, custom_id=following.custom_id)
    expected = [f"attack{index:02}" for index in range(SAVED_LIMIT)] + [
        f"party{index:02}" for index in range(SAVED_LIMIT)
    ]
    assert seen == expected and pages_seen > 2
    where = [plain(button.label or "") for button in buttons(shown)]
    assert where[1] == f"{pages_seen} / {pages_seen}"
    previous = next(button for button in buttons(shown) if (button.custom_id or "").endswith(":prev"))
    await alice.click(shown, custom_id=previous.custom_id)
    assert [plain(button.label or "") for button in buttons(shown)][1] == f"{pages_seen - 1} / {pages_seen}"
    # bob has none of his own, but the server's are his to roll too
    bob = await room.member("bob").slash(room.channel, "rolls list")
    assert description(bob.response).startswith("Yours\nNothing saved yet.\nThis server's\n`party00`")
    # on another server, a short list is one page with no buttons
    elsewhere = simcord_env.create_guild("Elsewhere")
    carol = elsewhere.add_member(simcord_env.create_user("carol"))
    other = elsewhere.create_text_channel("dice")
    await carol.slash(other, "rolls save", name="init", expression="d20+2")
    alone = await carol.slash(other, "rolls list")
    assert description(alone.response) == "Yours\n`init` — `d20+2`\nThis server's\nNothing saved yet."
    assert buttons(alone.response) == []
