"""Sushi Go! end to end against simcord: hands by DM, "My hand", `/sushigo pick`, chopsticks."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from rules.sushigo import GAME, Pick
from tests.e2e.helpers import Table

SEED = 7
NAMES = ["alice", "bob", "carol"]
PRIVATE_WORDS = ("Your hand", "Your pick", "Keep a card", "In front of you")


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.table", "cogs.sushigo", "cogs.leaderboard")


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("secrets.randbits", lambda bits: SEED)  # the seed of every new game


# ---------------------------------------------------------------- helpers


async def live(env: Any, table: Table) -> Any:
    """The table as the bot holds it (only to decide what to play; assertions read Discord)."""
    ctx = await env.bot.get_cog("Tables").context(table.channel.id)
    assert ctx is not None
    return ctx


def selects(message: Any) -> list[dict[str, Any]]:
    rows = message.components
    found = []
    for row in rows:
        children = row["components"] if isinstance(row, dict) else [c.to_dict() for c in row.children]
        found += [child for child in children if child["type"] == discord.ComponentType.select.value]
    return found


def value_of(action: Pick) -> str:
    return json.dumps(GAME.encode_action(action), separators=(",", ":"))


def shown(message: Any) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts.append(str(embed.to_dict()))
    return "\n".join(parts)


def tableau_fields(table: Table) -> list[tuple[str, str]]:
    embed = table.board.embeds[0]
    return [(field.name, field.value) for field in embed.fields]


def assert_channel_private_free(table: Table) -> None:
    text = table.public_text()
    for words in PRIVATE_WORDS:
        assert words not in text, f"{words!r} leaked into the channel"


def single(ctx: Any, seat: int) -> Pick:
    """The computer player's taste, one card only."""
    return Pick(GAME.default_action(ctx.state, seat).card)


class Play:
    """alice and bob by DM, carol (DMs closed) by "My hand"; one slash pick, one chopsticks turn."""

    def __init__(self, env: Any, table: Table) -> None:
        self.env = env
        self.table = table
        self.panel: Any = None
        self.slash_done = False
        self.chopsticks_done = False

    def user(self, name: str) -> Any:
        return self.table.players[name].user

    async def dm_pick(self, name: str, action: Pick) -> None:
        dm = self.table.dm(name)
        assert dm is not None and "Your hand" in dm.embeds[0].title
        menu = selects(dm)[0]
        result = await self.user(name).select(dm, [value_of(action)], custom_id=menu["custom_id"])
        assert result.acknowledged and not result.ephemeral

    async def chopsticks_pick(self, name: str, action: Pick) -> None:
        user = self.user(name)
        await user.click(self.table.dm(name), label="Use chopsticks (take two)")
        dm = self.table.dm(name)
        assert "Chopsticks" in dm.embeds[0].description
        first = selects(dm)[0]
        await user.select(dm, [action.card], custom_id=first["custom_id"])
        dm = self.table.dm(name)
        assert "now choose the second" in dm.embeds[0].description
        second = selects(dm)[0]
        await user.select(dm, [value_of(action)], custom_id=second["custom_id"])
        self.chopsticks_done = True

    async def slash_pick(self, name: str, action: Pick) -> None:
        member = self.table.players[name]
        typed = action.card[:2]
        choices = await member.autocomplete(self.table.channel, "sushigo pick", "card", typed)
        assert choices and all(typed in choice["value"] for choice in choices)
        assert action.card in [choice["value"] for choice in choices]
        result = await self.table.slash(name, "pick", card=action.card)
        assert result.ephemeral and "secret pick" in result.response.content
        self.slash_done = True

    async def panel_pick(self, name: str, action: Pick) -> None:
        if self.panel is None:
            self.panel = await self.table.click(name, "My hand")
            assert self.panel.ephemeral
        message = self.panel.response
        assert "Your hand" in message.embeds[0].title
        menu = selects(message)[0]
        result = await self.table.players[name].select(
            message, [value_of(action)], custom_id=menu["custom_id"]
        )
        assert result.acknowledged

    async def pick(self, seat: int) -> Pick:
        ctx = await live(self.env, self.table)
        name = NAMES[seat]
        mine = ctx.private(seat)
        if name == "alice" and not self.chopsticks_done:
            pairs = [a for a in GAME.legal_actions(ctx.state, seat) if a.second is not None]
            if pairs:
                await self.chopsticks_pick(name, pairs[0])
                return pairs[0]
            if "chopsticks" in mine["hand"]:
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
        ctx = await self.env.bot.get_cog("Tables").context(self.table.channel.id)
        if ctx is None:  # the finished table is no longer open
            return False
        view = ctx.public()
        movers = list(view["to_move"])
        before = tableau_fields(self.table)
        for index, seat in enumerate(movers):
            await self.pick(seat)
            assert_channel_private_free(self.table)
            if index < len(movers) - 1:
                # a pick shows only as "picked": every tableau on the board is exactly as before
                assert tableau_fields(self.table) == before
                assert f"✅ {NAMES[seat]}" in self.table.board.embeds[0].description
        return True


# ---------------------------------------------------------------- the whole game


async def test_three_players_play_to_the_end(simcord_env):
    table = Table(simcord_env, "sushigo", NAMES, closed_dms=("carol",))
    await table.seat_everyone()
    board = table.board
    assert "round 1/3 · turn 1" in board.embeds[0].title
    assert "Still to pick" in board.content and "<@" in board.content
    for name in ("alice", "bob"):
        dm = table.dm(name)
        assert "Your hand" in dm.embeds[0].title and selects(dm)
    assert not table.players["carol"].user.dm_channel.history()  # DMs closed: nothing delivered
    assert_channel_private_free(table)

    play = Play(simcord_env, table)
    turns = 0
    while await play.turn():
        turns += 1
        assert turns < 40
    assert play.slash_done and play.chopsticks_done

    # every turn edited the same DM instead of sending a new one
    assert len(table.players["alice"].user.dm_channel.history()) == 1
    assert len(table.players["bob"].user.dm_channel.history()) == 1

    texts = [message.content or "" for message in table.public_messages()]
    for round_number in (1, 2, 3):
        report = next(text for text in texts if f"**Round {round_number} scored**" in text)
        assert "🍥 Maki rolls:" in report and "Totals:" in report
    assert any("🍮 **Puddings**" in text for text in texts)

    final = table.public_messages()
    results = next(m for m in final if m.embeds and "final result" in (m.embeds[0].title or ""))
    assert "🥇" in results.embeds[0].description
    game_board = next(m for m in final if m.embeds and "final scores" in (m.embeds[0].title or ""))
    assert "Puddings:" in str(game_board.embeds[0].to_dict())
    assert_channel_private_free(table)

    ranking = await table.member("alice").slash(table.channel, "leaderboard")
    for member in table.players.values():
        assert str(member.id) in ranking.response.embeds[0].description


# ---------------------------------------------------------------- focused checks


async def test_hand_command_and_refusals(simcord_env):
    table = Table(simcord_env, "sushigo", NAMES)
    await table.seat_everyone()
    hand = await table.slash("bob", "hand")
    assert hand.ephemeral and "Your hand" in hand.response.embeds[0].title
    stranger = await table.slash("dave", "hand")
    assert stranger.ephemeral and "not seated" in stranger.response.content

    ctx = await live(simcord_env, table)
    missing = next(
        card
        for card in ("tempura", "sashimi", "dumpling", "egg", "squid")
        if card not in ctx.private(0)["hand"]
    )
    refused = await table.slash("alice", "pick", card=missing)
    assert refused.ephemeral and "doesn't hold enough" in refused.response.content
    unknown = await table.slash("alice", "pick", card="pizza")
    assert "not a Sushi Go! card" in unknown.response.content
    card = ctx.private(0)["hand"][0]
    two = await table.slash("alice", "pick", card=card, second=card)
    assert "chopsticks" in two.response.content

    ok = await table.slash("alice", "pick", card=card)
    assert ok.ephemeral
    again = await table.slash("alice", "pick", card=ctx.private(0)["hand"][-1])
    assert "already picked" in again.response.content
    assert "Your pick" in str(table.dm("alice").embeds[0].to_dict())
    assert await table.players["alice"].autocomplete(table.channel, "sushigo pick", "card", "") == []
    assert_channel_private_free(table)


async def test_time_out_picks_in_secret(simcord_env):
    table = Table(simcord_env, "sushigo", NAMES)
    await table.seat_everyone()
    ctx = await live(simcord_env, table)
    await Play(simcord_env, table).dm_pick("alice", single(ctx, 0))
    await simcord_env.advance_time(301)
    notices = [m.content for m in table.public_messages() if "took too long" in (m.content or "")]
    assert notices and all("made a secret pick" in notice for notice in notices)
    assert "turn 2" in table.board.embeds[0].title
    assert "Revealed — round 1, turn 1" in str(table.board.embeds[0].to_dict())


async def test_a_hand_sent_before_a_restart_still_picks(simcord_env, bot_factory):
    table = Table(simcord_env, "sushigo", NAMES)
    await table.seat_everyone()
    await simcord_env.restart_bot(bot_factory())
    await simcord_env.bot.tree.sync()
    ctx = await live(simcord_env, table)
    play = Play(simcord_env, table)
    await play.dm_pick("bob", single(ctx, 1))
    assert "✅ bob" in table.board.embeds[0].description
    assert "Your pick" in str(table.dm("bob").embeds[0].to_dict())
