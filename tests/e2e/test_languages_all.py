"""A whole game of each of the five games through the bot in German, Spanish and Persian: no
English line reaches those players — not on the boards, and not in their DMs, panels and
ephemeral answers either, which speak each player's own language.

The server's language comes from `/settings language`, one player also chooses it with
`/language` (simcord's interactions always say `en-US`, so any answer that followed the
interaction's locale would show up here as English). The games are played by their own
components only — buttons, menus, DMs and panels, found by the action they carry — with the
table's own choice of move; Kaiten Sushi without the dexterity challenge, Sushi Dice with rigged
dice (`tests/e2e/test_sushidice.py`), so every game is short.
"""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from cogs.i18n import catalog
from cogs.sushizock_render import NO_AIM
from rules.kaiten import Fetch
from rules.sushidice import Ring, Roll
from rules.sushizock import Roll as SushizockRoll
from tests.e2e.helpers import Table, action_value, buttons, payload, selects
from tests.e2e.test_languages import admin_sets_language, english_read, seat_everyone
from tests.e2e.test_sushidice import STEP, DiceScript, _scripted_throws, dice, plate_faces, slow_clocks

__all__ = ["_scripted_throws", "dice"]  # fixtures of the Sushi Dice tests: its rigged dice

SEED = 20240611
NAMES = ["alice", "bob"]
LANGUAGES = ("de", "es", "fa")
GROUPS = {"sushizock": "sushizock", "sushigo": "sushigo", "rockthebock": "bock", "sushidice": "sushidice"}
GROUPS["kaiten"] = "kaiten"
OPTIONS: dict[str, dict[str, str]] = {"kaiten": {"dexterity": "off"}}
# An engine identifier shown as a word ("sushi_roll", "wasabi_or_fetch") would be a code, not text.
CODE = re.compile(r"(?<![\w:<@#/`.-])[a-z]+(?:_[a-z]+)+(?![\w:>`(])")


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", *(f"cogs.{game}" for game in GROUPS), "cogs.settings", "cogs.language")


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("secrets.randbits", lambda bits: SEED)


# ---------------------------------------------------------------- acting by components


class Player:
    """Where one player finds their controls: the board, their DM, their panel (once opened)."""

    def __init__(self, table: Table, name: str) -> None:
        self.table, self.name = table, name
        self.opened: Any = None  # the "My hand" / "Open my dice" click, whose reply is the live panel

    def places(self) -> list[tuple[discord.Message, Any]]:
        """Messages with this player's controls, each with who clicks it (member, or user in a DM)."""
        member = self.table.member(self.name)
        found: list[tuple[discord.Message, Any]] = [(self.table.board, member)]
        dm = self.table.dm(self.name)
        if dm is not None:
            found.append((dm, member.user))
        if self.opened is not None:
            found.append((self.opened.response.message, member))
        return found

    async def open_panel(self) -> None:
        """The board's "My hand" / "Open my dice" button, whatever its label says in this language."""
        hand = next(item for item in buttons(self.table.board) if payload(item) == "t:hand")
        self.table.did(self.name, f"clicks “{hand.label}”")
        opened = await self.table.member(self.name).click(self.table.board, custom_id=hand.custom_id)
        assert opened.ephemeral
        self.opened = opened

    async def play(self, game_id: str, action: Any) -> bool:
        """Play `action` by the button or menu option that carries it; False when none is shown."""
        value = action_value(game_id, action)
        for step in interface_steps(game_id, action):
            await self._click(step)
        wanted = {f"a:{value}"}
        if isinstance(action, Fetch) and action.success:  # Kaiten: a click on the sushi fetches it
            wanted.add(f"u:f:{action.cell}")
        for message, who in self.places():
            for item in buttons(message):
                if payload(item) in wanted and not item.disabled:
                    self.table.did(self.name, f"clicks “{item.label}”")
                    result = await who.click(message, custom_id=item.custom_id)
                    _no_refusal(result)
                    return True
            for menu in selects(message):
                chosen = [option for option in menu.options if option.value == value]
                if payload(menu) == "a" and chosen:
                    self.table.did(self.name, f"chooses “{chosen[0].label}”")
                    result = await who.select(message, [value], custom_id=menu.custom_id)
                    _no_refusal(result)
                    return True
        return False

    async def _click(self, wanted: str) -> None:
        """A step of the game's own interface on the board (marking a die to set aside)."""
        board = self.table.board
        item = next(item for item in buttons(board) if payload(item) == wanted)
        self.table.did(self.name, f"clicks “{item.label}”")
        _no_refusal(await self.table.member(self.name).click(board, custom_id=item.custom_id))


def interface_steps(game_id: str, action: Any) -> list[str]:
    """The interface clicks an action needs first: Sushizock's dice to set aside are marked one by one."""
    if game_id != "sushizock" or not isinstance(action, SushizockRoll) or not action.keep:
        return []
    masks = [sum(1 << die for die in action.keep[: count + 1]) for count in range(len(action.keep))]
    return [f"u:keep.{mask}.{NO_AIM}" for mask in masks]


def _no_refusal(result: Any) -> None:
    response = getattr(result, "response", None)
    text = getattr(response, "content", None) or ""
    assert not (result.ephemeral and text and not getattr(response, "components", None)), text


async def play_a_move(players: dict[int, Player], ctx: Any) -> None:
    """Each seat owing a move plays the table's own choice for it, else any move its controls offer."""
    game = ctx.game
    for seat in sorted(game.to_move(ctx.state)):
        player = players[seat]
        choices = [game.default_action(ctx.state, seat), *game.legal_actions(ctx.state, seat)]
        if game.id == "sushizock":  # a take ends the turn: fewer throws, a shorter game
            choices.sort(key=lambda action: isinstance(action, SushizockRoll))
        for action in choices:
            if await player.play(game.id, action):
                break
        else:
            raise AssertionError(f"no control for any move of seat {seat}: {choices[:5]}")
        ctx = await player.table.live()
        if ctx is None:
            return


async def play_to_the_end(table: Table, players: dict[int, Player]) -> None:
    for _ in range(400):
        ctx = await table.live()
        if ctx is None:
            return
        await play_a_move(players, ctx)
    raise AssertionError("the game did not end")


async def duel_to_the_end(table: Table, players: dict[int, Player], script: DiceScript) -> None:
    """Sushi Dice: the host challenges, then in each duel one duelist throws the dice of a face-up
    plate (rigged) on their panel and rings the bell for it, until someone owns enough plates."""
    for _ in range(40):
        ctx = await table.live()
        if ctx is None:
            return
        view = ctx.public()
        if view["phase"] == "challenge":
            await play_a_move(players, ctx)
            continue
        ringer = view["duelists"][0]["seat"]
        colour = view["duelists"][0]["set"]
        player = players[ringer]
        if player.opened is None:
            await player.open_panel()
        script.then(colour, plate_faces(view["face_up"][0]))
        assert await player.play(ctx.game.id, Roll())
        ctx = await table.live()
        assert ctx is not None
        ring = next(a for a in ctx.game.legal_actions(ctx.state, ringer) if isinstance(a, Ring))
        assert await player.play(ctx.game.id, ring)
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------- the games


def _game_params() -> list[Any]:
    params = []
    for game in GROUPS:
        for language in LANGUAGES:
            # Sushi Dice runs in real time: its clocks are slowed as in its own tests.
            marks = [pytest.mark.simcord(settle_timeout=STEP * 0.8)] if game == "sushidice" else []
            params.append(pytest.param(game, language, id=f"{game}-{language}", marks=marks))
    return params


@pytest.mark.parametrize(("game", "language"), _game_params())
async def test_a_whole_game_reads_in_the_players_language(
    simcord_env: Any, dice: DiceScript, game: str, language: str
) -> None:
    env = simcord_env
    if game == "sushidice":
        slow_clocks(env)
    table = Table(env, GROUPS[game], NAMES)
    await env.bot.tree.sync()
    await admin_sets_language(table, language)
    table.did("alice", f"runs /language choose:{language}")
    chosen = await table.member("alice").slash(table.channel, "language", choose=language)
    assert chosen.ephemeral and chosen.response.content.startswith("🌐")
    await seat_everyone(table, language, **OPTIONS.get(game, {}))
    players = {seat: Player(table, name) for seat, name in enumerate(NAMES)}
    if game == "sushidice":
        await duel_to_the_end(table, players, dice)
        await env.advance_time(STEP * 20)  # the board's last refresh
    else:
        await play_to_the_end(table, players)
    record = await table.tables.store.last_table(table.channel.id)
    assert record is not None and record.status == "finished"
    results = catalog(language)["results.title"].split("{")[0].strip()
    assert results and results in table.public_text()
    assert english_read(env, language) == []
    assert codes_read(env) == []


def codes_read(env: Any) -> list[str]:
    """Engine identifiers ("wasabi_or_fetch") anywhere a player reads."""
    from tests.e2e import transcript

    names = {user_id: user.name for user_id, user in env.backend.users.items()}
    dm_channels = {
        channel: f"DM @{names.get(user, user)}" for user, channel in env.backend.dm_channels.items()
    }
    said = "\n".join(line.raw for line in transcript.lines(env, names, dm_channels))
    return sorted(set(CODE.findall(said)))


def _title_words(language: str, key: str) -> str:
    """A template's words before its first placeholder: what every message it makes begins with."""
    return catalog(language)[key].split("{")[0]


async def test_a_hand_by_dm_speaks_its_players_language_and_follows_a_change(simcord_env: Any) -> None:
    env = simcord_env
    table = Table(env, "sushigo", NAMES)
    await env.bot.tree.sync()
    await admin_sets_language(table, "de")
    table.did("bob", "runs /language choose:es")
    await table.member("bob").slash(table.channel, "language", choose="es")
    await seat_everyone(table, "de")

    def hand_title(name: str) -> str:
        dm = table.dm(name)
        assert dm is not None
        return dm.embeds[0].title or ""

    key = "sushigo.private.title"
    assert hand_title("alice").startswith(_title_words("de", key))  # the table's language
    assert hand_title("bob").startswith(_title_words("es", key))  # his own
    table.did("bob", "runs /language choose:fa")
    await table.member("bob").slash(table.channel, "language", choose="fa")
    players = {seat: Player(table, name) for seat, name in enumerate(NAMES)}
    ctx = await table.live()
    await play_a_move(players, ctx)
    assert hand_title("bob").startswith(_title_words("fa", key))  # his new choice, at the next turn
    assert hand_title("alice").startswith(_title_words("de", key))
    assert english_read(env, "de") == []
