"""Rock the Bock end to end: the real bot against simcord, played by buttons, selects and `/bock`."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from rules.rockthebock import GAME, WOLF, Choose, Roll
from tests.e2e.helpers import Table

SEED = 20240611


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.table", "cogs.rockthebock", "cogs.leaderboard")


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("secrets.randbits", lambda bits: SEED)  # the module cogs.table draws seeds from


# ---------------------------------------------------------------- helpers


async def live(env: Any, table: Table) -> Any:
    """The table as the bot holds it (only to decide what to press; assertions read Discord)."""
    return await env.bot.get_cog("Tables").context(table.channel.id)


def buttons(message: discord.Message) -> list[discord.Button]:
    return [
        child for row in message.components for child in row.children if isinstance(child, discord.Button)
    ]


def button_for(message: discord.Message, action: Any) -> discord.Button:
    """The board's button carrying exactly this action."""
    payload = "a:" + json.dumps(GAME.encode_action(action), separators=(",", ":"))
    found = [button for button in buttons(message) if (button.custom_id or "").endswith(payload)]
    assert len(found) == 1, f"no single button for {action}: {[b.label for b in buttons(message)]}"
    return found[0]


def public_messages(table: Table) -> list[discord.Message]:
    """What a bystander sees in the channel (nobody's ephemeral replies)."""
    return list(table.channel.history(viewer=table.member("onlooker")))


def public_text(table: Table) -> str:
    parts = []
    for message in public_messages(table):
        parts.append(message.content or "")
        for embed in message.embeds:
            parts.append(f"{embed.title}\n{embed.description}")
            parts.extend(f"{field.name}\n{field.value}" for field in embed.fields)
    return "\n".join(parts)


class Play:
    """Plays a whole game, alternating buttons and slash commands, checking what players see."""

    def __init__(self, env: Any, table: Table, names: list[str]) -> None:
        self.env = env
        self.table = table
        self.names = names
        self.moves = 0
        self.seen: set[str] = set()

    async def turn(self) -> bool:
        ctx = await live(self.env, self.table)
        if ctx is None:  # the table is closed: the game is over
            return False
        view = ctx.public()
        seat = view["turn"]
        name = self.names[seat]
        player = self.table.member(name)
        board = self.table.board
        assert f"<@{player.id}>" in board.content and "Roll" in board.content
        use_slash = self.moves % 3 == 2
        self.moves += 1
        if use_slash:
            result = await self.table.slash(name, "roll")
            assert result.ephemeral and "threw the dice" in result.response.content
        else:
            roll = button_for(board, Roll())
            dice = view["dice"]
            assert roll.label == ("Roll 1 die" if dice == 1 else f"Roll {dice} dice")
            if dice == 1:
                self.seen.add("one_die")
            result = await player.click(board, custom_id=roll.custom_id)
            assert not result.ephemeral
        ctx = await live(self.env, self.table)
        assert ctx is not None
        view = ctx.public()
        if view["throw"] is None:  # only colours nobody plays: the throw failed
            assert "the throw fails" in self.table.board.embeds[0].description
            self.seen.add("throw_failed")
            return True
        await self.check_throw(view)
        action = GAME.default_action(ctx.state, seat)
        await self.choose(name, action, view, slash=use_slash)
        return True

    async def check_throw(self, view: dict[str, Any]) -> None:
        """The throw is on the board grouped by colour, one button per colour with its count."""
        board = self.table.board
        assert "choose one colour" in board.content
        description = board.embeds[0].description
        dice = view["dice"]
        assert ("(1 die)" if dice == 1 else f"({dice} dice)") in description
        labels = {button.label: button for button in buttons(board)}
        for item in view["throw"]:
            count = item["count"]
            if item["colour"] == "white":
                assert f"bocks ×{count}" in description
                assert not labels[f"Bocks ×{count}"].disabled
            elif item["colour"] == WOLF:
                assert f"wolves ×{count}" in description
                assert any(label.startswith(f"Wolves ×{count}") for label in labels)
            else:
                assert f"{item['colour']} goats ×{count}" in description
                if item["refusal"] == "unowned_colour":
                    assert f"nobody plays {item['colour']}" in description
                    assert labels[f"{item['colour'].capitalize()} ×{count} — nobody's"].disabled
                    self.seen.add("unowned")

    async def choose(self, name: str, action: Choose, view: dict[str, Any], *, slash: bool) -> None:
        player = self.table.member(name)
        if slash:
            options: dict[str, Any] = {"colour": action.colour}
            if action.colour == WOLF and len(view["sheets"]) > 2:
                options["target"] = self.table.member(self.names[action.target])
            result = await self.table.slash(name, "choose", **options)
            assert result.ephemeral and "✅ You" in result.response.content, result.response.content
            self.seen.add(f"slash_{action.colour == WOLF}")
            return
        board = self.table.board
        if action.colour == WOLF and len(view["sheets"]) > 2:
            wolf = next(b for b in buttons(board) if (b.label or "").startswith("Wolves ×"))
            picker = await player.click(board, custom_id=wolf.custom_id)
            assert picker.ephemeral and "to whom?" in picker.response.content
            count = next(item["count"] for item in view["throw"] if item["colour"] == WOLF)
            assert (
                f"Send **{count}** {'wolf' if count == 1 else 'wolves'} to whom?" in picker.response.content
            )
            value = json.dumps(GAME.encode_action(action), separators=(",", ":"))
            done = await player.select(picker.response, [value])
            assert done.response.ephemeral and "Your move is in" in done.response.content
            self.seen.add("wolf_picker")
            return
        result = await player.click(board, custom_id=button_for(board, action).custom_id)
        assert not result.ephemeral
        self.seen.add(f"button_{action.colour}")

    async def to_the_end(self) -> None:
        for _ in range(1000):
            if not await self.turn():
                return
        raise AssertionError("the game did not end")


async def check_end(table: Table, names: list[str]) -> None:
    """Final board, round announcements, results message and the leaderboard."""
    text = public_text(table)
    for number in (1, 2, 3):
        assert f"Round {number} of 3 is over!" in text
    assert "?" not in text  # every sheet of a computer-played round is reported in full
    assert "Round 2 begins" in text and "Round 3 begins" in text
    board = public_messages(table)
    results = [m for m in board if m.embeds and "final result" in (m.embeds[0].title or "")]
    assert len(results) == 1
    lines = results[0].embeds[0].description
    for name in names:
        assert f"<@{table.member(name).id}>" in lines
    finished = [m for m in board if m.embeds and (m.embeds[0].title or "").endswith("final sheets")]
    assert finished and "game is over" in finished[-1].content
    assert all(not buttons(message) for message in finished)
    leaderboard = await table.member(names[0]).slash(table.channel, "leaderboard", game="rockthebock")
    shown = leaderboard.response.embeds[0].description
    for name in names:
        assert f"<@{table.member(name).id}>" in shown


# ---------------------------------------------------------------- tests


async def test_two_players_play_to_the_end(simcord_env):
    await simcord_env.bot.tree.sync()
    names = ["alice", "bob"]
    table = Table(simcord_env, "bock", names)
    await table.seat_everyone()
    board = table.board
    assert board.embeds[0].title == "🐐 Rock the Bock — round 1/3"
    assert f"<@{table.member('alice').id}>" in board.content
    fields = board.embeds[0].fields
    assert [field.name for field in fields] == ["▶️ 🟥 alice", "🟦 bob"]
    assert "Bocks **0**/10" in fields[0].value and "0/10 struck" in fields[0].value

    stranger = await table.click("carol", "Roll 10 dice")
    assert stranger.ephemeral and "not seated" in stranger.response.content
    wrong = await table.click("bob", "Roll 10 dice")
    assert wrong.ephemeral and "isn't your turn" in wrong.response.content
    slash_wrong = await table.slash("bob", "roll")
    assert slash_wrong.ephemeral and "isn't your turn" in slash_wrong.response.content

    play = Play(simcord_env, table, names)
    await play.to_the_end()
    # Bocks and wolves by button and by command, a disabled colour nobody plays, a failed throw.
    assert {
        "button_white",
        "button_grey",
        "slash_False",
        "slash_True",
        "unowned",
        "throw_failed",
    } <= play.seen
    await check_end(table, names)
    late = await table.slash("alice", "roll")
    assert late.ephemeral


async def test_four_players_with_the_wolf_picker(simcord_env):
    await simcord_env.bot.tree.sync()
    names = ["alice", "bob", "carol", "dave"]
    table = Table(simcord_env, "bock", names)
    await table.seat_everyone()
    assert [field.name for field in table.board.embeds[0].fields] == [
        "▶️ 🟥 alice",
        "🟦 bob",
        "🟩 carol",
        "🟨 dave",
    ]
    play = Play(simcord_env, table, names)
    await play.to_the_end()
    assert "wolf_picker" in play.seen and "slash_True" in play.seen
    assert "unowned" not in play.seen  # with four players every colour is somebody's
    await check_end(table, names)


async def test_wolf_picker_and_choose_refusals(simcord_env):
    await simcord_env.bot.tree.sync()
    names = ["alice", "bob", "carol"]
    table = Table(simcord_env, "bock", names)
    await table.seat_everyone()
    rules = await table.slash("carol", "rules")
    assert rules.ephemeral and rules.response.embeds[0].title == "🐐 Rock the Bock — how to play"
    await table.click("alice", "Roll 10 dice")
    ctx = await live(simcord_env, table)
    view = ctx.public()
    thrown = {item["colour"]: item for item in view["throw"]}
    # Bob may not use Alice's throw, by button or by command.
    first = buttons(table.board)[0]
    wrong = await table.member("bob").click(table.board, custom_id=first.custom_id)
    assert wrong.ephemeral and "isn't your turn" in wrong.response.content
    refused = await table.slash("bob", "choose", colour="white")
    assert refused.ephemeral and "isn't your turn" in refused.response.content
    # Alice names a colour that is not in the throw, or a stranger as the wolves' victim.
    missing = next(colour for colour in ("white", "grey", "red", "blue", "green") if colour not in thrown)
    refused = await table.slash("alice", "choose", colour=missing)
    assert refused.ephemeral and "No die shows" in refused.response.content
    stranger = table.member("erin")
    refused = await table.slash("alice", "choose", colour="grey", target=stranger)
    assert refused.ephemeral and "erin isn't playing" in refused.response.content
    if "grey" in thrown:
        refused = await table.slash("alice", "choose", colour="grey")
        assert refused.ephemeral and "Wolves need a victim" in refused.response.content
        refused = await table.slash("alice", "choose", colour="grey", target=table.member("alice"))
        assert refused.ephemeral and "to yourself" in refused.response.content
        wolf = next(b for b in buttons(table.board) if (b.label or "").startswith("Wolves ×"))
        not_yours = await table.member("bob").click(table.board, custom_id=wolf.custom_id)
        assert not_yours.ephemeral and "isn't your turn" in not_yours.response.content
        picker = await table.member("alice").click(table.board, custom_id=wolf.custom_id)
        assert picker.ephemeral
        options = picker.response.components[0]["components"][0]["options"]
        assert [option["label"] for option in options] == ["🟦 bob", "🟩 carol"]
        value = json.dumps(GAME.encode_action(Choose(WOLF, 2)), separators=(",", ":"))
        await table.member("alice").select(picker.response, [value])
        count = thrown["grey"]["count"]
        wolves = "wolf" if count == 1 else "wolves"
        assert f"sent **{count}** {wolves} to 🟩 carol" in table.board.embeds[0].description
        carol = table.board.embeds[0].fields[2].value
        assert f"Wolves **{thrown['grey']['count']}**/12" in carol
    else:
        pytest.fail("the seed should give Alice a wolf on her first throw")


async def test_absent_players_are_played_for_and_rounds_still_announced(simcord_env):
    await simcord_env.bot.tree.sync()
    names = ["alice", "bob"]
    table = Table(simcord_env, "bock", names)
    await table.seat_everyone()
    await simcord_env.advance_time(301)
    text = public_text(table)
    assert f"<@{table.member('alice').id}> took too long — the table threw the dice for them" in text
    for _ in range(200):
        if await live(simcord_env, table) is None:
            break
        await simcord_env.advance_time(301)
    else:
        pytest.fail("the absent players' game did not end")
    text = public_text(table)
    assert "a computer player takes over" in text
    for number in (1, 2, 3):
        assert f"Round {number} of 3 is over!" in text
    assert "?" not in text  # every sheet of a computer-played round is reported in full
    assert any(m.embeds and "final result" in (m.embeds[0].title or "") for m in public_messages(table))
