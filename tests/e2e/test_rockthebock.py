"""Rock the Bock end to end: the real bot against simcord, played by buttons, selects and `/bock`."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from cogs.games.rockthebock.render import SQUARES
from cogs.kit.words.bidi import plain
from rules.rockthebock.game import GAME, WOLF, Choose, RockTheBockView, Roll, score_round
from tests.e2e.helpers import (
    Table,
    action_rows,
    action_value,
    body_lines,
    buttons,
    heading_of,
    labels,
    payload,
    selects,
    text_of,
    text_without_small_print,
)

SEED = 20240611
pytestmark = pytest.mark.seed(SEED)  # every new game's seed
MAX_LINES, MAX_CHARS = 12, 900  # issue 24: a public board at most this long, its rows of buttons counted
SECOND_PERSON = re.compile(r"\byou(r|rs|rself)?\b", re.IGNORECASE)
EXPLAINED = re.compile(
    r"🐏 (\d+)(?: \(full\))? ([<>=]) 🐺 (\d+)(?: \(full\))? → 🐐 (\d+)(?: \(full\))? × (\S+) = \*\*(\S+)\*\*"
)


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", "cogs.games.rockthebock.cog", "cogs.stats.leaderboard")


# ---------------------------------------------------------------- helpers


def button_for(message: discord.Message, action: Any) -> discord.Button:
    """The board's button carrying exactly this action."""
    wanted = "a:" + action_value(GAME.id, action)
    found = [item for item in buttons(message) if payload(item) == wanted]
    assert len(found) == 1, f"no single button for {action}: {labels(message)}"
    return found[0]


def wolves(count: int) -> str:
    """The start of the wolves button's label: "Wolf ×1", "Wolves ×3"."""
    return "Wolf ×1" if count == 1 else f"Wolves ×{count}"


def description(message: discord.Message) -> str:
    """The text of a card under its heading, as a reader sees it (no bidi controls)."""
    return "\n".join(body_lines(message))


def text_without_footers(table: Table) -> str:
    """The channel's public words without the cards' small print (the results ask "Same seats again?")."""
    return "\n".join(text_without_small_print(message) for message in table.public_messages())


def score_of(text: str) -> int:
    """A score as shown ("+4", "−3", "0")."""
    return int(text.replace("−", "-"))


def explained(text: str) -> int:
    """A round score shown with its reason ("🐏 3 > 🐺 2 → 🐐 2 × +1 = **+2**"): the reason checked
    against the rule (GAMES.md: each goat +1 under a bock lead, −1 under a wolf lead, else 0)."""
    found = EXPLAINED.search(text)
    assert found, text
    bocks, relation, wolves, goats, factor, score = found.groups()
    lead = (int(bocks) > int(wolves)) - (int(wolves) > int(bocks))
    assert relation == {1: ">", -1: "<", 0: "="}[lead] and score_of(factor) == lead, text
    assert score_of(score) == score_round(int(bocks), int(wolves), int(goats)), text
    return score_of(score)


def round_scores_announced(text: str) -> dict[str, list[int]]:
    """Each player's round scores, from the "Round N of 3 is over!" announcements (each explained)."""
    scores: dict[str, list[int]] = {}
    for player, line in re.findall(r"^\S+ (?:🤖 )?(\w+): (🐏 .*\(total \S+\))$", text, re.M):
        scores.setdefault(player, []).append(explained(line))
    return scores


def board_size(message: discord.Message) -> tuple[int, int]:
    """A board's lines as a reader scrolls past them (its words, then each row of buttons) and characters."""
    text = text_of(message)
    return len(text.splitlines()) + len(action_rows(message)), len(text)


def check_board(message: discord.Message, players: int) -> None:
    """Short, speaking to the table, one line per sheet, each round score with its reason."""
    lines, characters = board_size(message)
    assert lines <= MAX_LINES and characters <= MAX_CHARS, text_of(message)
    assert not SECOND_PERSON.search(text_of(message)), text_of(message)
    sheets = sheet_lines(message)
    assert len(sheets) == players
    for line in sheets:
        explained(line)


class Play:
    """Plays a whole game, alternating buttons and slash commands, checking what players see."""

    def __init__(self, env: Any, table: Table, names: list[str]) -> None:
        self.env = env
        self.table = table
        self.names = names
        self.moves = 0
        self.seen: set[str] = set()
        self.largest = (0, 0)  # the longest board seen: lines, characters

    async def turn(self) -> bool:
        ctx = await self.table.live()
        if ctx is None:  # the table is closed: the game is over
            return False
        view: RockTheBockView = ctx.public()
        seat = view["turn"]
        assert seat is not None
        name = self.names[seat]
        player = self.table.member(name)
        board = self.table.board
        assert f"<@{player.id}>'s turn: **Roll**" in description(board)
        self.check(board)
        use_slash = self.moves % 3 == 2
        self.moves += 1
        if use_slash:
            result = await self.table.slash(name, "roll")
            assert result.ephemeral and "threw the dice" in text_of(result.response)
        else:
            roll = button_for(board, Roll())
            dice = view["dice"]
            assert roll.label == ("Roll 1 die" if dice == 1 else f"Roll {dice} dice")
            if dice == 1:
                self.seen.add("one_die")
            self.table.did(name, f"clicks “{roll.label}”")
            result = await player.click(board, custom_id=roll.custom_id)
            assert not result.ephemeral
        ctx = await self.table.live()
        assert ctx is not None
        view = ctx.public()
        if view["throw"] is None:  # only colours nobody plays: the throw failed
            assert "the throw fails" in description(self.table.board)
            self.seen.add("throw_failed")
            return True
        await self.check_throw(view)
        action = GAME.default_action(ctx.state, seat)
        assert isinstance(action, Choose)
        await self.choose(name, action, view, slash=use_slash)
        return True

    def check(self, board: discord.Message) -> None:
        check_board(board, len(self.names))
        self.largest = max(self.largest, board_size(board))

    async def check_throw(self, view: RockTheBockView) -> None:
        """The throw is on the board grouped by colour, one button per colour with its count."""
        board = self.table.board
        self.check(board)
        assert "'s turn: choose one colour of the throw" in description(board)
        shown = description(board)
        dice = view["dice"]
        assert ("Throw of 1 die:" if dice == 1 else f"Throw of {dice} dice:") in shown
        by_emoji = {b.emoji.name if b.emoji else "": b for b in buttons(board)}  # "🐏 ×2", "🟥 ×3"
        assert view["throw"] is not None
        for item in view["throw"]:
            count = item["count"]
            one = count == 1
            if one:
                self.seen.add(f"one_{item['colour']}")
            if item["colour"] == "white":
                assert ("bock ×1" if one else f"bocks ×{count}") in shown
                assert not by_emoji["🐏"].disabled and plain(by_emoji["🐏"].label or "") == f"×{count}"
            elif item["colour"] == WOLF:
                assert ("wolf ×1" if one else f"wolves ×{count}") in shown
                self.check_wolves(board, view)
            else:
                assert f"{item['colour']} {'goat' if one else 'goats'} ×{count}" in shown
                if item["refusal"] == "unowned_colour":
                    assert f"nobody plays {item['colour']}" in shown
                    unowned = by_emoji[SQUARES[item["colour"]]]
                    assert unowned.disabled and plain(unowned.label or "").endswith(f"×{count} — nobody's")
                    self.seen.add("unowned")

    def check_wolves(self, board: discord.Message, view: RockTheBockView) -> None:
        """Thrown wolves: one button per other player (🐺 and their name) sends them the wolves in one
        click; every sheet stays a line of the board, and no button opens a picker."""
        seat = view["turn"]
        victims = [other for other in range(len(self.names)) if other != seat]
        wolves = wolf_buttons(board)
        for wolf, victim in zip(wolves, victims, strict=True):
            assert payload(wolf) == "a:" + action_value(GAME.id, Choose(WOLF, victim))
            square = SQUARES[view["sheets"][victim]["colour"]]
            assert (wolf.emoji and wolf.emoji.name, plain(wolf.label or "")) == ("🐺", square)
        assert len(sheet_lines(board)) == len(self.names)
        assert not [item for item in buttons(board) if payload(item) == "u:wolf"]
        self.seen.add(f"wolf_buttons_{len(self.names)}")

    async def choose(self, name: str, action: Choose, view: RockTheBockView, *, slash: bool) -> None:
        player = self.table.member(name)
        if slash:
            options: dict[str, Any] = {"colour": action.colour}
            if action.colour == WOLF and len(view["sheets"]) > 2:
                assert action.target is not None
                options["target"] = self.table.member(self.names[action.target])
            result = await self.table.slash(name, "choose", **options)
            assert result.ephemeral and "✅ You" in text_of(result.response), text_of(result.response)
            self.seen.add(f"slash_{action.colour == WOLF}")
            return
        board = self.table.board
        chosen = button_for(board, action)  # the wolves: the button beside the victim's sheet
        self.table.did(name, f"clicks “{chosen.label}”")
        result = await player.click(board, custom_id=chosen.custom_id)
        assert not result.ephemeral
        self.seen.add(f"button_{action.colour}")

    async def to_the_end(self) -> None:
        for _ in range(1000):
            if not await self.turn():
                return
        raise AssertionError("the game did not end")


async def check_end(table: Table, names: list[str]) -> None:
    """Round announcements, the one results message and the leaderboard.

    Rounds 1 and 2 are announced, each score with its reason; the last round is not (the results,
    the game's closing message, explain it), so nothing tells the end twice.
    """
    text = table.public_text()
    for number in (1, 2):
        assert f"Round {number} of 3 is over!" in text
    assert "Round 3 of 3 is over!" not in text
    assert "Each 🐐 counts +1 with more 🐏 than 🐺, −1 with more 🐺 than 🐏, else 0." in text
    assert "?" not in text_without_footers(
        table
    )  # every sheet of a computer-played round is reported in full
    assert "Round 2 begins" in text and "Round 3 begins" in text
    board = table.public_messages()
    results = [m for m in board if "final result" in heading_of(m)]
    assert len(results) == 1
    lines = description(results[0]).splitlines()
    announced = round_scores_announced(text)
    for name in names:
        # The player's result, then how it was counted: rounds 1 and 2 as announced, round 3 explained.
        at = next(i for i, line in enumerate(lines) if f"<@{table.member(name).id}>" in line)
        total = re.search(r"— ([−\d]+) points?$", lines[at])
        breakdown = re.fullmatch(
            r"╰ Round 1: \*\*(\S+)\*\* · Round 2: \*\*(\S+)\*\* · Round 3: (🐏 .*)", lines[at + 1]
        )
        assert total and breakdown, lines
        rounds = [score_of(breakdown[1]), score_of(breakdown[2]), explained(breakdown[3])]
        assert rounds[:2] == announced[name] and sum(rounds) == score_of(total[1])
    assert not any(line.startswith("⚖️") for line in lines)  # equal totals share a rank: no tie-break
    finished = [m for m in board if heading_of(m).endswith("final sheets")]
    assert all(not buttons(message) for message in finished)
    leaderboard = await table.member(names[0]).slash(table.channel, "leaderboard", game="rockthebock")
    shown = text_of(leaderboard.response)
    for name in names:
        assert f"<@{table.member(name).id}>" in shown


def sheet_lines(message: discord.Message) -> list[str]:
    """The board's sheets, one line each: "▶️ 🟥 alice: 🐏 0 = 🐺 0 → 🐐 0 × 0 = **0** · 🎲 10 left" """
    return [line for line in text_of(message).splitlines() if "→ 🐐" in line]


def wolf_buttons(message: discord.Message) -> list[discord.Button]:
    """The board's 🐺 buttons, one per possible victim, in seat order."""
    return [item for item in buttons(message) if item.emoji is not None and item.emoji.name == "🐺"]


# ---------------------------------------------------------------- tests


async def test_two_players_play_to_the_end(simcord_env):
    await simcord_env.bot.tree.sync()
    names = ["alice", "bob"]
    table = Table(simcord_env, "bock", names)
    await table.seat_everyone()
    board = table.board
    assert heading_of(board) == "🐐 Rock the Bock — round 1/3"
    assert description(board).splitlines()[0] == f"🎲 <@{table.member('alice').id}>'s turn: **Roll** 10 dice."
    assert sheet_lines(board) == [
        "▶️ 🟥 alice: 🐏 0 = 🐺 0 → 🐐 0 × 0 = **0** · 🎲 10 left",
        "🟦 bob: 🐏 0 = 🐺 0 → 🐐 0 × 0 = **0** · 🎲 10 left",
    ]
    # The first board says once what the signs mean and how a round scores; later boards do not.
    legend = "🐏 bocks · 🐺 wolves · 🐐 goats · 🎲 dice left"
    assert legend in description(board) and "a sheet holds at most 10 🐏, 12 🐺 and 12 🐐" in description(
        board
    )

    stranger = await table.click("carol", "Roll 10 dice")
    assert stranger.ephemeral and "not seated" in text_of(stranger.response)
    wrong = await table.click("bob", "Roll 10 dice")
    assert wrong.ephemeral and "isn't your turn" in text_of(wrong.response)
    slash_wrong = await table.slash("bob", "roll")
    assert slash_wrong.ephemeral and "isn't your turn" in text_of(slash_wrong.response)

    play = Play(simcord_env, table, names)
    await play.to_the_end()
    assert not any(legend in text_of(m) for m in table.public_messages() if m.id != board.id)
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


async def test_four_players_send_the_wolves_from_beside_the_sheets(simcord_env):
    await simcord_env.bot.tree.sync()
    names = ["alice", "bob", "carol", "dave"]
    table = Table(simcord_env, "bock", names)
    await table.seat_everyone()
    assert [line.split(":")[0] for line in sheet_lines(table.board)] == [
        "▶️ 🟥 alice",
        "🟦 bob",
        "🟩 carol",
        "🟨 dave",
    ]
    play = Play(simcord_env, table, names)
    await play.to_the_end()
    lines, characters = play.largest
    assert lines <= MAX_LINES and characters <= MAX_CHARS  # before issue 24: 27 lines
    assert {"wolf_buttons_4", "button_grey", "slash_True"} <= play.seen
    assert "unowned" not in play.seen  # with four players every colour is somebody's
    await check_end(table, names)


async def test_wolves_and_choose_refusals(simcord_env):
    await simcord_env.bot.tree.sync()
    names = ["alice", "bob", "carol"]
    table = Table(simcord_env, "bock", names)
    await table.seat_everyone()
    rules = await table.slash("carol", "rules")
    assert rules.ephemeral and heading_of(rules.response) == "🐐 Rock the Bock — how to play"
    await table.click("alice", "Roll 10 dice")
    view: RockTheBockView = await table.view()
    assert view["throw"] is not None
    thrown = {item["colour"]: item for item in view["throw"]}
    # Bob may not use Alice's throw, by button or by command.
    first = buttons(table.board)[0]
    wrong = await table.member("bob").click(table.board, custom_id=first.custom_id)
    assert wrong.ephemeral and "isn't your turn" in text_of(wrong.response)
    refused = await table.slash("bob", "choose", colour="white")
    assert refused.ephemeral and "isn't your turn" in text_of(refused.response)
    # Alice names a colour that is not in the throw, or a stranger as the wolves' victim.
    missing = next(colour for colour in ("white", "grey", "red", "blue", "green") if colour not in thrown)
    refused = await table.slash("alice", "choose", colour=missing)
    assert refused.ephemeral and "No die shows" in text_of(refused.response)
    stranger = table.member("erin")
    refused = await table.slash("alice", "choose", colour="grey", target=stranger)
    assert refused.ephemeral and "erin isn't playing" in text_of(refused.response)
    if "grey" in thrown:
        refused = await table.slash("alice", "choose", colour="grey")
        assert refused.ephemeral and "Wolves need a victim" in text_of(refused.response)
        refused = await table.slash("alice", "choose", colour="grey", target=table.member("alice"))
        assert refused.ephemeral and "to yourself" in text_of(refused.response)
        view = await table.view()
        squares = {SQUARES[view["sheets"][seat]["colour"]]: name for seat, name in ((1, "bob"), (2, "carol"))}
        victims = {squares[plain(wolf.label or "")]: wolf for wolf in wolf_buttons(table.board)}
        assert list(victims) == ["bob", "carol"]
        not_yours = await table.member("bob").click(table.board, custom_id=victims["carol"].custom_id)
        assert not_yours.ephemeral and "isn't your turn" in text_of(not_yours.response)
        # A board drawn before the wolves went beside the sheets had a "Wolves" button (`u:wolf`): it
        # still opens the picker, a restart-safe custom_id like every other.
        legacy = (victims["carol"].custom_id or "").split(":a:", 1)[0] + ":u:wolf"
        old = discord.ui.View(timeout=None)
        old.add_item(discord.ui.Button(label=wolves(thrown["grey"]["count"]), custom_id=legacy))
        posted = await simcord_env.bot.get_partial_messageable(table.channel.id).send(view=old)
        before = next(message for message in table.public_messages() if message.id == posted.id)
        picker = await table.member("alice").click(before, custom_id=legacy)
        assert picker.ephemeral and "to whom?" in text_of(picker.response)
        options = selects(picker.response)[0].options
        assert [plain(option.label) for option in options] == ["🟦 bob", "🟩 carol"]
        await posted.delete()  # the live board is the newest again
        table.did("alice", "clicks “🐺 carol”")
        await table.member("alice").click(table.board, custom_id=victims["carol"].custom_id)
        count = thrown["grey"]["count"]
        sent = "wolf" if count == 1 else "wolves"
        assert f"sent **{count}** {sent} to 🟩 carol" in description(table.board)
        carol = sheet_lines(table.board)[2]
        assert carol.startswith(f"🟩 carol: 🐏 0 < 🐺 {count} → 🐐 0 × −1 = **0**"), carol
    else:
        pytest.fail("the seed should give Alice a wolf on her first throw")


async def test_absent_players_are_played_for_and_rounds_still_announced(simcord_env):
    await simcord_env.bot.tree.sync()
    names = ["alice", "bob"]
    table = Table(simcord_env, "bock", names)
    await table.seat_everyone()
    await simcord_env.advance_time(301)
    text = table.public_text()
    assert f"<@{table.member('alice').id}> took too long — the table threw the dice for them" in text
    for _ in range(200):
        if await table.live() is None:
            break
        await simcord_env.advance_time(301)
    else:
        pytest.fail("the absent players' game did not end")
    text = table.public_text()
    assert "a computer player takes over" in text
    for number in (1, 2):
        assert f"Round {number} of 3 is over!" in text
    assert "Round 3 of 3 is over!" not in text  # the results close the game
    assert "?" not in text_without_footers(
        table
    )  # every sheet of a computer-played round is reported in full
    assert any("final result" in heading_of(m) for m in table.public_messages())
