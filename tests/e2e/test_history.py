"""/history and /replay through the bot: finished games listed and paged, a game played again
move by move from its action log, by round and by move, privately unless posted, its controls
working after a restart and after its interaction expired, and pruning by retention."""

from __future__ import annotations

import random
import re
from typing import Any

import discord
import pytest

from bot import GAME_EXTENSIONS
from rules.registry import GAMES
from storage.leaderboard import SeatResult
from storage.tables import Seat, TableRecord, TableStore
from tests.e2e.helpers import Table, card_texts, heading_of, labels, selects, text_of
from tests.e2e.tinygame import play_tiny
from tests.games import kit

EXTENSIONS = (
    "cogs.tables",
    "tests.e2e.tinygame",
    *GAME_EXTENSIONS,
    "cogs.preferences.settings",
    "cogs.preferences.notify",
    "cogs.history.cog",
    "cogs.history.replay",
)


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return EXTENSIONS


def latest(table: Table) -> discord.Message:
    """The channel's newest message (a replay or a list after a click has edited it)."""
    message = table.channel.last_message
    assert message is not None
    return message


LIVE_WORDS = ("still to pick", "your turn", "in your dm")
"""What a live board tells the players to do: a replay, shown long after, never says it."""


def assert_no_live_words(message: Any) -> None:
    said = text_of(message).casefold()
    assert [words for words in LIVE_WORDS if words in said] == [], text_of(message)


def jump_menu(message: Any) -> str:
    """The custom_id of a replay's jump menu (`sbr:j:<game>`)."""
    (menu,) = selects(message)
    assert menu.custom_id is not None and len(menu.custom_id) <= 100
    return menu.custom_id


def jump_options(message: Any) -> list[discord.SelectOption]:
    (menu,) = selects(message)
    return list(menu.options)


def jump_values(message: Any) -> list[str]:
    return [option.value for option in jump_options(message)]


def game_number(message: Any) -> int:
    """The number /history gives the newest game on the list (`**#12** · …`)."""
    text = text_of(message)
    return int(text.split("**#", 1)[1].split("**", 1)[0])


async def test_history_lists_a_finished_game_and_replay_steps_through_it(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    alice = table.member("alice")

    listed = await alice.slash(table.channel, "history")
    assert not listed.ephemeral
    text = text_of(listed.response)
    assert "Tiny Race" in text and "alice **6**" in text and "bob **2**" in text
    assert text.index("alice") < text.index("bob")  # by rank: the winner first
    assert "🥇" in text and "⏱️" in text

    shown = await alice.slash(table.channel, "replay", game=game_number(listed.response), post=True)
    assert not shown.ephemeral  # posted on request: the channel watches together
    replay = shown.response
    assert latest(table).id == replay.id and "Only you see" not in text_of(replay)
    assert "the deal" in text_of(replay)
    assert "alice: 0" in text_of(replay) and "bob: 0" in text_of(replay)
    assert labels(replay) == ["First", "Previous", "Next", "Last"]  # the game's +1 / +2 are gone
    assert "The result shows at the last move" in text_of(replay)

    await alice.click(replay, label="Next")
    replay = latest(table)
    assert "move 1 of 5" in text_of(replay) and "alice: 2" in text_of(replay)
    assert "Move 1 of 5:" in text_of(replay) and "alice" in text_of(replay)

    await table.member("bob").click(replay, label="Last")  # anyone on the server may step
    replay = latest(table)
    assert "move 5 of 5" in text_of(replay) and "alice: 6" in text_of(replay) and "bob: 2" in text_of(replay)
    assert "🥇 **1.** alice — 6" in text_of(replay)
    assert labels(replay, enabled_only=True) == ["First", "Previous"]

    await alice.click(replay, label="Previous")
    assert "move 4 of 5" in text_of(latest(table))
    assert "alice: 4" in text_of(latest(table))
    await alice.click(latest(table), label="First")
    assert "the deal" in text_of(latest(table))

    started_late = await alice.slash(table.channel, "replay", game=game_number(listed.response), move=3)
    assert started_late.ephemeral and "move 3 of 5" in text_of(started_late.response)


async def test_a_replay_button_works_after_a_restart(simcord_env, bot_factory):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    alice = table.member("alice")
    listed = await alice.slash(table.channel, "history")
    shown = await alice.slash(table.channel, "replay", game=game_number(listed.response), move=2, post=True)
    posted = shown.response
    await simcord_env.restart_bot(bot_factory())
    await alice.click(posted, label="Next")
    assert "move 3 of 5" in text_of(latest(table))
    await table.member("bob").select(latest(table), ["1"], custom_id=jump_menu(latest(table)))
    assert "move 1 of 5" in text_of(latest(table)) and latest(table).id == posted.id


async def test_a_replay_is_private_by_default_and_pages_long_after_it_opened(simcord_env, bot_factory):
    """Watching alone does not fill the channel; each click answers itself by editing the ephemeral,
    so paging works after the opening interaction's 15 minutes and after a restart."""
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    alice = table.member("alice")
    number = game_number((await alice.slash(table.channel, "history")).response)
    before = len(table.public_messages())

    shown = await alice.slash(table.channel, "replay", game=number)
    assert shown.ephemeral and "the deal" in text_of(shown.response)
    assert "🔒 Only you see this replay" in text_of(shown.response) and "post:" in text_of(shown.response)
    assert len(table.public_messages()) == before  # nothing was posted

    await alice.click(shown.response, label="Next")
    assert shown.response.ephemeral and "move 1 of 5" in text_of(shown.response)
    assert "Only you see this replay" in text_of(shown.response)  # an edit stays private, and says so

    await simcord_env.advance_time(16 * 60)  # the opening interaction's token has expired
    late = await alice.click(shown.response, label="Next")
    assert late.acknowledged and "move 2 of 5" in text_of(shown.response)

    await simcord_env.restart_bot(bot_factory())
    await alice.select(shown.response, ["5"], custom_id=jump_menu(shown.response))
    assert "move 5 of 5" in text_of(shown.response) and "🥇 **1.** alice — 6" in text_of(shown.response)
    await alice.click(shown.response, label="First")
    assert "the deal" in text_of(shown.response)
    assert len(table.public_messages()) == before


async def test_a_sushi_go_replay_jumps_to_a_round_and_to_a_move(simcord_env):
    """54 moves in three rounds: one choice in the menu reaches a round's start or a move, where
    before it took up to 54 clicks of Next."""
    table = Table(simcord_env, "sushigo", ["alice", "bob"])
    number, moves = await store_computer_game(table, "sushigo", seed=4)
    assert moves > 25
    alice = table.member("alice")
    shown = await alice.slash(table.channel, "replay", game=number)
    options = jump_options(shown.response)
    assert len(options) <= 25 and len({option.value for option in options}) == len(options)
    assert selects(shown.response)[0].placeholder == "Jump to a round or a move…"
    rounds = {option.label: int(option.value) for option in options if option.label.startswith("Round ")}
    assert list(rounds) == ["Round 1 begins", "Round 2 begins", "Round 3 begins"]
    assert rounds["Round 1 begins"] == 0 and 0 < rounds["Round 2 begins"] < rounds["Round 3 begins"] < moves
    shown_now = [option for option in options if "shown now" in (option.description or "")]
    assert [option.value for option in shown_now] == ["0"]

    third = rounds["Round 3 begins"]
    await alice.select(shown.response, [str(third)], custom_id=jump_menu(shown.response))
    assert f"move {third} of {moves}" in text_of(shown.response) and "round 3/3" in text_of(shown.response)
    assert_no_live_words(shown.response)
    around = jump_values(shown.response)
    assert {str(step) for step in range(third - 5, third + 6)} <= set(around)  # the moves near it
    assert "Round 2 begins" in [option.label for option in jump_options(shown.response)]  # and back

    later = next(int(value) for value in around if int(value) > third + 5)  # a milestone further on
    await alice.select(shown.response, [str(later)], custom_id=jump_menu(shown.response))
    assert f"move {later} of {moves}" in text_of(shown.response)
    picked = next(option for option in jump_options(shown.response) if option.value == str(later))
    assert picked.label.startswith(f"Move {later} · ") and picked.description == "Round 3 · shown now"

    started = await alice.slash(table.channel, "replay", game=number, move=moves + 10)  # past the end
    assert f"move {moves} of {moves}" in text_of(started.response)


async def test_a_long_game_without_rounds_jumps_by_milestones(simcord_env):
    table = Table(simcord_env, "sushidice", ["alice", "bob"])
    number, moves = await store_computer_game(table, "sushidice", seed=4)
    assert moves > 100
    alice = table.member("alice")
    shown = await alice.slash(table.channel, "replay", game=number, move=moves // 2)
    assert selects(shown.response)[0].placeholder == "Jump to a move…"
    values = [int(value) for value in jump_values(shown.response)]
    assert len(values) <= 25 and values == sorted(values) and values[-1] <= moves
    assert values[0] == 0 and moves // 2 in values
    far = [value for value in values if abs(value - moves // 2) > 10]
    assert len(far) >= 5 and len({value % 10 for value in far}) == 1  # round numbers, across the game
    await alice.select(shown.response, [str(far[-1])], custom_id=jump_menu(shown.response))
    assert f"move {far[-1]} of {moves}" in text_of(shown.response)


async def test_history_pages_filters_and_the_watch_menu(simcord_env, bot_factory):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    for _ in range(5):
        await play_tiny(table)
    other = table.beside(table.group, ["carol", "dave"], channel=table.guild.create_text_channel("next-door"))
    await other.seat_everyone()
    for name, label in [("carol", "+2"), ("dave", "+2"), ("carol", "+2"), ("dave", "+2"), ("carol", "+2")]:
        await other.click(name, label)

    alice = table.member("alice")
    first = (await alice.slash(table.channel, "history")).response
    newest = game_number(first)
    assert "Page 1 of 2 · 7 games" in text_of(first)
    assert "carol" in text_of(first)  # the newest game first
    assert text_of(first).count("**#") == 5
    assert labels(first, enabled_only=True) == ["Older"]

    await simcord_env.restart_bot(bot_factory())  # paging is restart-safe too
    await alice.click(first, label="Older")
    second = latest(table)
    assert second.id == first.id and "Page 2 of 2" in text_of(second)
    assert text_of(second).count("**#") == 2 and "carol" not in text_of(second)
    assert labels(second, enabled_only=True) == ["Newer"]

    bobs = (await alice.slash(table.channel, "history", member=table.member("bob"))).response
    assert "of bob" in text_of(bobs) and "6 games" in text_of(bobs) and "carol" not in text_of(bobs)
    dave = (await alice.slash(table.channel, "history", member=other.players["dave"], game="tiny")).response
    assert "1 game ·" in text_of(dave)
    none = (await alice.slash(table.channel, "history", game="sushizock")).response
    assert "No finished games" in text_of(none) and labels(none) == []
    unknown = await alice.slash(table.channel, "history", game="chess")
    assert unknown.ephemeral and "no game called chess" in unknown.response.content

    oldest = game_number(first)  # the list shows its second page by now
    posted = len(table.public_messages())
    watching = await alice.select(first, [str(oldest)], custom_id="sbh:watch")
    assert watching.ephemeral and len(table.public_messages()) == posted  # watched privately
    watched = watching.response
    assert f"game #{oldest}" in text_of(watched) and "the deal" in text_of(watched)
    assert "Only you see this replay" in text_of(watched)

    choices = await alice.autocomplete(table.channel, "replay", "game", "")
    assert len(choices) == 7 and str(newest) in choices[0]["name"] and "carol" in choices[0]["name"]


async def test_replay_refuses_what_it_cannot_show(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    alice = table.member("alice")
    number = game_number((await alice.slash(table.channel, "history")).response)

    missing = await alice.slash(table.channel, "replay", game=number + 100)
    assert missing.ephemeral and f"no finished game #{number + 100}" in missing.response.content

    elsewhere = Table(simcord_env, "tiny", ["erin"])
    stranger = await elsewhere.member("erin").slash(elsewhere.channel, "replay", game=number)
    assert stranger.ephemeral and "no finished game" in stranger.response.content  # another server's game

    database = simcord_env.bot.database
    async with database.transaction() as connection:  # as games started before seeds were logged
        await connection.execute(
            "UPDATE actions SET action = json_remove(action, '$.seed') WHERE table_id = ?", (number,)
        )
    old = await alice.slash(table.channel, "replay", game=number)
    assert old.ephemeral and "played before the bot kept what replays need" in old.response.content


async def test_a_real_game_replays_as_the_channel_showed_it(simcord_env):
    """Sushizock played to its end by time-outs and computer players: the replay's first move shows
    the board the channel showed then (nothing it did not show), and its last move the result the
    channel announced."""
    table = Table(simcord_env, "sushizock", ["alice", "bob"])
    await table.seat_everyone()
    await simcord_env.advance_time(301)  # alice's first throw, played by the table
    after_first = table.board
    for _ in range(12):
        if results_of(table) is not None:
            break
        await simcord_env.advance_time(301)  # three time-outs each make computer players, who finish
    results = results_of(table)
    assert results is not None

    alice = table.member("alice")
    number = game_number((await alice.slash(table.channel, "history")).response)
    shown = await alice.slash(table.channel, "replay", game=number, move=1)
    replayed = shown.response
    assert heading_of(replayed) == heading_of(after_first)
    seen = {member.id: name for name, member in table.players.items()}
    shown_lines, board_lines = lines_of(replayed, seen), lines_of(after_first, seen)
    assert set(shown_lines) <= set(board_lines), "a replay shows only what the table showed"
    names = [line for line in board_lines if "alice" in line or "bob" in line]
    assert names and set(names) <= set(shown_lines)  # the players' rows as they were
    assert "(the table, on a time-out)" in text_of(shown.response)
    await alice.click(shown.response, label="Last")
    end = shown.response
    assert "🤖 (the computer player)" in text_of(end)
    assert ranked(text_of(end)) == ranked(text_of(results)) != []


def lines_of(message: Any, names: dict[int, str]) -> list[str]:
    """A card's lines as a reader sees them (a mention as the name it shows), heading and part names
    included; of a replay, the board's only: not its header (`⏪ …`) nor its own parts under the
    board (from `**⏪ Replay …**` on, in the card's parts)."""
    lines = []
    for text in card_texts(message):
        for line in text.split("\n"):
            if line.startswith("**⏪"):
                break  # the replay's own parts, to the end of the card's parts
            if line.strip() and not line.startswith("⏪"):
                lines.append(
                    re.sub(r"<@!?(\d+)>", lambda mention: names.get(int(mention[1]), mention[0]), line)
                )
    return lines


def results_of(table: Table) -> discord.Message | None:
    """The game's results message: the one offering a Rematch."""
    found = [message for message in table.public_messages() if "Rematch" in labels(message)]
    return found[-1] if found else None


def ranked(text: str) -> list[tuple[int, str, int]]:
    """(rank, name, score) of each ranked line: "🥇 **1.** 🤖 alice — 9 points" -> (1, "alice", 9)."""
    return [
        (int(rank), name, int(score.replace("−", "-")))
        for rank, name, score in re.findall(r"\*\*(\d+)\.\*\* (?:🤖 )?(\S+) — ([-−]?\d+)", text)
    ]


async def test_retention_prunes_old_games_now_and_daily(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(simcord_env.create_user("admin"), roles=[admins])
    shown = await admin.slash(table.channel, "settings show")
    assert "kept forever" in text_of(shown.response)

    set_now = await admin.slash(table.channel, "settings retention", days=2)
    assert set_now.ephemeral and "0 were deleted just now" in text_of(set_now.response)
    assert "for **2** days" in text_of((await admin.slash(table.channel, "settings show")).response)
    listed = await admin.slash(table.channel, "history")
    assert "Tiny Race" in text_of(listed.response)

    await simcord_env.advance_time(3 * 24 * 60 * 60)  # the daily pruning runs meanwhile
    gone = await admin.slash(table.channel, "history")
    assert "No finished games" in text_of(gone.response)
    refused = await admin.slash(table.channel, "settings retention", days=5000)
    assert refused.ephemeral and "between 1 and 3650" in text_of(refused.response)
    forever = await admin.slash(table.channel, "settings retention", days=0)
    assert "kept forever again" in text_of(forever.response)


async def store_computer_game(table: Table, game_id: str, seed: int) -> tuple[int, int]:
    """A whole game of computer players, stored as the table stores one (seeded start, every move
    logged, the results with the final move): (its number, how many moves)."""
    game = GAMES[game_id]
    chooser = random.Random(seed)
    members = list(table.players.values())[: game.min_players]
    store = TableStore(table.env.bot.database)  # type: ignore[attr-defined]
    record = await store.create(
        TableRecord(
            guild_id=table.guild.id,
            channel_id=table.channel.id,
            game_id=game_id,
            host_id=members[0].id,
            seats=[Seat(member.id, member.user.name, computer=True) for member in members],
        ),
        now=1000.0,
    )
    state = game.new(len(members), seed, record.options)
    record.state, record.status = game.dump(state), "playing"
    await store.save(
        record,
        expected_version=0,
        action={"type": "start", "user": members[0].id, "seed": seed},
        seat=None,
        now=1000.0,
    )
    moves = 0
    while not game.is_over(state):
        seat = chooser.choice(sorted(game.to_move(state)))
        steer = getattr(game, "computer_action", None)
        action = (
            steer(state, seat)
            if steer and kit(game_id).steered
            else chooser.choice(game.legal_actions(state, seat))
        )
        game.apply(state, seat, action)
        moves += 1
        record.state = game.dump(state)
        results = None
        if game.is_over(state):
            record.status = "finished"
            scores, ranks = game.scores(state), game.ranking(state)
            results = [SeatResult(s, m.id, scores[s], ranks[s]) for s, m in enumerate(members)]
        await store.save(
            record,
            expected_version=record.version,
            action={**game.encode_action(action), "by": "computer"},
            seat=seat,
            now=1000.0 + 20 * moves,
            results=results,
        )
    assert record.id is not None
    return record.id, moves


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_every_game_replays_through_its_own_renderer_without_its_buttons(simcord_env, game_id: str):
    table = Table(simcord_env, game_id, ["alice", "bob"])
    number, moves = await store_computer_game(table, game_id, seed=4)
    alice = table.member("alice")
    deal = await alice.slash(table.channel, "replay", game=number, post=True)
    assert not deal.ephemeral and "the deal" in text_of(deal.response)
    assert labels(deal.response) == ["First", "Previous", "Next", "Last"]
    assert [menu.custom_id for menu in selects(deal.response)] == [f"sbr:j:{number}"]  # the jump menu only
    shown = [deal.response]
    await alice.click(deal.response, label="Next")
    assert f"move 1 of {moves}" in text_of(latest(table))
    assert "🤖 (the computer player)" in text_of(latest(table))
    shown.append(latest(table))
    middle = jump_values(latest(table))[len(jump_values(latest(table))) // 2]
    await alice.select(latest(table), [middle], custom_id=f"sbr:j:{number}")
    assert f"move {middle} of {moves}" in text_of(latest(table))
    shown.append(latest(table))
    await alice.click(latest(table), label="Last")
    end = latest(table)
    assert f"move {moves} of {moves}" in text_of(end) and "🥇" in text_of(end)
    assert labels(end) == ["First", "Previous", "Next", "Last"]  # still no game buttons at the end
    shown.append(end)
    for message in shown:  # only what the table showed: nothing tells a watcher to move
        assert_no_live_words(message)
