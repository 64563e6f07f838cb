"""Sushi Go! end to end against simcord: hands by DM, "My hand", `/sushigo pick`, chopsticks."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cogs.games.sushigo.cog import SushiGoCog
from cogs.kit.words.bidi import plain
from rules.sushigo.game import GAME, SushiGoPrivateView, SushiGoView
from rules.sushigo.state import Pick
from tests.e2e.helpers import Table, action_value, body_lines, buttons, heading_of, selects, text_of

SEED = 7
pytestmark = pytest.mark.seed(SEED)  # every new game's seed
NAMES = ["alice", "bob", "carol"]
PICK_WAIT = SushiGoCog.pick_gather  # how long the board waits for the next pick
PRIVATE_WORDS = ("Your hand", "Your pick", "Keep a card", "In front of you")
SECOND_PERSON = re.compile(r"\b(you|your)\b", re.IGNORECASE)


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", "cogs.games.sushigo.cog", "cogs.stats.leaderboard")


# ---------------------------------------------------------------- helpers


def hand_of(ctx: Any, seat: int) -> list[str]:
    mine: SushiGoPrivateView = ctx.private(seat)
    return mine["hand"]


async def choose_in_dm(table: Table, name: str, values: list[str], dm: Any) -> Any:
    """`Table.choose` for a DM: pick `values` in the message's only select, as the user (not the member)."""
    found = selects(dm)
    assert len(found) == 1, [select.custom_id for select in found]
    return await table.players[name].user.select(dm, values, custom_id=found[0].custom_id)


def tableaux(table: Table) -> list[str]:
    """The board's line per player, without its ✅/⏳ mark and name (mentioned while the player still
    picks): score, puddings and the cards in front."""
    lines = body_lines(table.board)
    marked = [line for line in lines if line[:1] in ("✅", "⏳") and line[1:].lstrip().startswith("**")]
    return [line.split(" · ", 1)[1] for line in marked]


def described(message: Any) -> str:
    """What a card says under its heading (its content and what an embed's description said)."""
    return "\n".join(body_lines(message))


def assert_board_is_short(message: Any) -> None:
    """At most 12 lines (the row of buttons counted) and 900 characters, speaking to the table."""
    shown = text_of(message)
    assert len(shown.splitlines()) <= 12 and len(shown) <= 900, shown
    assert not SECOND_PERSON.search(shown), shown


def assert_channel_private_free(table: Table) -> None:
    text = table.public_text()
    for words in PRIVATE_WORDS:
        assert words not in text, f"{words!r} leaked into the channel"


def single(ctx: Any, seat: int) -> Pick:
    """The computer player's taste, one card only."""
    return Pick(GAME.default_action(ctx.state, seat).card)


class Play:
    """alice and bob by DM, carol (DMs closed) by "My hand"; one slash pick, one chopsticks turn."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.panel: Any = None
        self.slash_done = False
        self.chopsticks_done = False

    async def dm_pick(self, name: str, action: Pick) -> None:
        dm = self.table.dm(name)
        assert dm is not None and "Your hand" in heading_of(dm)
        result = await choose_in_dm(self.table, name, [action_value(GAME.id, action)], dm)
        assert result.acknowledged and not result.ephemeral

    async def chopsticks_pick(self, name: str, action: Pick) -> None:
        # a "My hand" panel opened beside the DM, left as it is while the DM makes the pick
        panel = await self.table.click(name, "My hand")
        assert panel.ephemeral and "Use chopsticks (take two)" in [
            item.label for item in buttons(panel.response)
        ]
        user = self.table.players[name].user
        await user.click(self.table.dm(name), label="Use chopsticks (take two)")
        dm = self.table.dm(name)
        assert dm is not None and "Chopsticks" in described(dm)
        await choose_in_dm(self.table, name, [action.card], dm)
        dm = self.table.dm(name)
        assert dm is not None and "now choose the second" in described(dm)
        await choose_in_dm(self.table, name, [action_value(GAME.id, action)], dm)
        self.chopsticks_done = True
        # the same turn, so the panel is not outdated: the cog's own step refuses it, in the game's words
        stale = await self.table.click(name, "Use chopsticks (take two)", panel.response)
        assert stale.ephemeral and "already picked this turn" in text_of(stale.response)

    async def slash_pick(self, name: str, action: Pick) -> None:
        member = self.table.players[name]
        typed = action.card[:2]
        choices = await member.autocomplete(self.table.channel, "sushigo pick", "card", typed)
        assert choices and all(typed in choice["value"] for choice in choices)
        assert action.card in [choice["value"] for choice in choices]
        result = await self.table.slash(name, "pick", card=action.card)
        assert result.ephemeral and "secret pick" in text_of(result.response)
        self.slash_done = True

    async def panel_pick(self, name: str, action: Pick) -> None:
        if self.panel is None:
            self.panel = await self.table.click(name, "My hand")
            assert self.panel.ephemeral
        message = self.panel.response
        assert "Your hand" in heading_of(message)
        result = await self.table.choose(name, [action_value(GAME.id, action)], message)
        assert result.acknowledged

    async def pick(self, seat: int) -> Pick:
        ctx = await self.table.live()
        assert ctx is not None
        name = NAMES[seat]
        if name == "alice" and not self.chopsticks_done:
            pairs = [a for a in GAME.legal_actions(ctx.state, seat) if a.second is not None]
            if pairs:
                await self.chopsticks_pick(name, pairs[0])
                return pairs[0]
            if "chopsticks" in hand_of(ctx, seat):
                action = Pick("chopsticks")
                await self.dm_pick(name, action)
                return action
        action = single(ctx, seat)
        if name == "carol":
            await self.panel_pick(name, action)
        elif name == "bob" and not self.slash_done:
            await self.slash_pick(name, action)
        else:
            await self.dm_pick(name, action)
        return action

    async def turn(self) -> bool:
        if await self.table.live() is None:  # the finished table is no longer open
            return False
        view: SushiGoView = await self.table.view()
        movers = list(view["to_move"])
        before = tableaux(self.table)
        assert len(before) == len(NAMES)
        for index, seat in enumerate(movers):
            await self.pick(seat)
            assert_channel_private_free(self.table)
            if index < len(movers) - 1:
                # A pick that reveals nothing shows on the board once its wait is over (or with the
                # next pick), and only as "picked": every tableau on the board is exactly as before.
                await self.table.env.advance_time(PICK_WAIT)
                assert tableaux(self.table) == before
                assert f"✅ **{NAMES[seat]}**" in described(self.table.board)
                assert_board_is_short(self.table.board)
        return True


# ---------------------------------------------------------------- the whole game


async def test_three_players_play_to_the_end(simcord_env):
    table = Table(simcord_env, "sushigo", NAMES, closed_dms=("carol",))
    await table.seat_everyone()
    board = table.board
    assert "round 1/3 · turn 1" in heading_of(board)
    # how to play, once: true for carol too, whose DMs are closed
    assert "(by DM, or **My hand** below)" in described(board)
    waiting = [line for line in body_lines(board) if line.startswith("⏳")]
    assert len(waiting) == 3 and all("<@" in line for line in waiting)  # who still picks, mentioned
    assert_board_is_short(board)
    for name in ("alice", "bob"):
        dm = table.dm(name)
        assert dm is not None and "Your hand" in heading_of(dm) and selects(dm)
    assert not table.players["carol"].user.dm_channel.history()  # DMs closed: nothing delivered
    assert_channel_private_free(table)

    play = Play(table)
    turns = 0
    while await play.turn():
        turns += 1
        assert turns < 40
        if await table.live() is not None:  # the first board's instructions are not repeated
            assert "**My hand**" not in described(table.board)
    assert play.slash_done and play.chopsticks_done

    # every turn edited the same DM instead of sending a new one
    assert len(table.players["alice"].user.dm_channel.history()) == 1
    assert len(table.players["bob"].user.dm_channel.history()) == 1

    texts = [text_of(message) for message in table.public_messages()]
    for round_number in (1, 2, 3):
        report = next(text for text in texts if f"**Round {round_number} scored**" in text)
        assert "🍥 Maki rolls:" in report
        # totals before the puddings would be wrong by them: the last round's are the results'
        assert ("Totals:" in report) == (round_number < 3)
    assert not any("Puddings" in text for text in texts)  # counted once, in the results

    final = table.public_messages()
    results = next(m for m in final if "final result" in heading_of(m))
    ranked = described(results)
    assert "🥇" in ranked
    # every player's score, counted as the rulebook does: three rounds, then puddings
    explained = [line for line in ranked.splitlines() if line.startswith("╰ ")]
    assert len(explained) == len(NAMES)
    assert all("Round 1:" in line and "Round 3:" in line and "🍮" in line for line in explained)
    view: SushiGoView = await table.view()
    scores = view["scores"]
    assert len(set(scores)) == len(scores) and "⚖️" not in ranked  # no tie here, so no tie-break
    # each pudding score says why: bob has the most (+6), alice and carol share the fewest (−6 split)
    assert sorted(view["puddings"]) == [2, 2, 4]
    assert sum("🍮 4 puddings (the most): **+6**" in line for line in explained) == 1
    assert sum("🍮 2 puddings (the fewest, shared by 2): **−3**" in line for line in explained) == 2
    # a total shown anywhere is the final one, puddings counted
    for message in final:
        if "final scores" in heading_of(message):
            assert all(f"**{score}** points" in text_of(message) for score in scores)
    assert_channel_private_free(table)

    ranking = await table.member("alice").slash(table.channel, "leaderboard")
    for member in table.players.values():
        assert str(member.id) in described(ranking.response)


# ---------------------------------------------------------------- focused checks


async def test_hand_command_and_refusals(simcord_env):
    table = Table(simcord_env, "sushigo", NAMES)
    await table.seat_everyone()
    hand = await table.slash("bob", "hand")
    assert hand.ephemeral and "Your hand" in heading_of(hand.response)
    stranger = await table.slash("dave", "hand")
    assert stranger.ephemeral and "not seated" in text_of(stranger.response)

    ctx = await table.live()
    assert ctx is not None
    missing = next(
        card for card in ("tempura", "sashimi", "dumpling", "egg", "squid") if card not in hand_of(ctx, 0)
    )
    refused = await table.slash("alice", "pick", card=missing)
    assert refused.ephemeral and "Your hand holds no" in text_of(refused.response)
    unknown = await table.slash("alice", "pick", card="pizza")
    assert "not a Sushi Go! card" in text_of(unknown.response)
    card = hand_of(ctx, 0)[0]
    two = await table.slash("alice", "pick", card=card, second=card)
    assert "chopsticks" in text_of(two.response)

    ok = await table.slash("alice", "pick", card=card)
    assert ok.ephemeral
    again = await table.slash("alice", "pick", card=hand_of(ctx, 0)[-1])
    assert "already picked" in text_of(again.response)
    assert "Your pick" in text_of(table.dm("alice"))
    assert await table.players["alice"].autocomplete(table.channel, "sushigo pick", "card", "") == []
    assert_channel_private_free(table)


async def test_time_out_picks_in_secret(simcord_env):
    table = Table(simcord_env, "sushigo", NAMES)
    await table.seat_everyone()
    ctx = await table.live()
    assert ctx is not None
    await Play(table).dm_pick("alice", single(ctx, 0))
    await simcord_env.advance_time(301)
    notices = [text_of(m) for m in table.public_messages() if "took too long" in text_of(m)]
    assert notices and all("made a secret pick" in notice for notice in notices)
    assert "turn 2" in heading_of(table.board)
    assert "✨ revealed in round 1, turn 1" in plain(text_of(table.board))
    assert all(" · ✨ " in line for line in tableaux(table))  # each player's revealed card, on their line
    assert_board_is_short(table.board)


async def test_a_hand_sent_before_a_restart_still_picks(simcord_env, bot_factory):
    table = Table(simcord_env, "sushigo", NAMES)
    await table.seat_everyone()
    await simcord_env.restart_bot(bot_factory())
    await simcord_env.bot.tree.sync()
    ctx = await table.live()
    assert ctx is not None
    play = Play(table)
    await play.dm_pick("bob", single(ctx, 1))
    await simcord_env.advance_time(PICK_WAIT)
    assert "✅ **bob**" in described(table.board)
    assert "Your pick" in text_of(table.dm("bob"))
