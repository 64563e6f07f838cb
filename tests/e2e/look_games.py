"""The games as players see them: each game played on simcord by scripted players, its messages drawn
by simcord's Preview in Chromium and written as PNGs, with each board's height in pixels.

Each game is played twice in each language: by two or three players (`test_look`: the lobby, the
first board, a mid-game board, a private hand or panel, the results), and at a full table, as many
players as the game takes, with long names, a Persian one in the Persian run (`test_look_full`: the
lobby once all have joined, the first board and one a few moves in, as `full-lobby`, `full-first`,
`full-mid`).

Not part of the suite (the file name does not start with `test_`): `bench/look.py` runs it, and the
README's development section says how. Pictures go to `LOOK_OUT` (default `look/`), heights to
`LOOK_OUT/heights.json`, written after each picture, so a game that fails keeps the heights it got.
`LOOK_GAMES` and `LOOK_LANGUAGES` (comma-separated) narrow the run.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

import discord
import pytest
from simcord.preview._capture import ManagedCapture

from rules.registry import GAMES
from tests.e2e.helpers import Player, Table, play_a_move
from tests.e2e.languages import admin_sets_language
from tests.e2e.rigged_dice import SEED, STEP, DiceScript, dice, duel_to_the_end, scripted_throws, slow_clocks
from tests.games import extensions as game_extensions
from tests.games import group, kit

__all__ = ["dice", "scripted_throws"]  # the Sushi Dice fixtures: its rigged dice
pytestmark = pytest.mark.seed(SEED)  # and its fixed seeds

OUT = Path(os.environ.get("LOOK_OUT", "look"))
CHROMIUM = os.environ.get("LOOK_CHROMIUM", "/usr/bin/chromium")
SCREENS = {"desktop": (1280, 900), "phone": (390, 844)}
NAMES = ["alice", "bob", "carol"]
# The full table's players: a username (how this file calls them), a display name and, for one, a
# server nickname, which the bot then shows (a member's `display_name`: nickname, else display
# name). Long, distinct, at most 32 characters as Discord allows; one without spaces, which no line
# can break, and one carrying markdown's underscores.
LONG_NAMES: list[tuple[str, str, str | None]] = [
    ("bartholomew", "Bartholomew Montgomery-Whitfield", None),
    ("maxi", "Maxi K.", "Maximiliana_Konstantinopoulou_99"),
    ("guinevere", "Guinevere of the Sleepy Lagoon", None),
    ("wolfgang", "Dr. Wolfgang Amadeus Pufferfish", None),
    ("wilhelmina", "Wilhelmina W. Wavewright-Wexley", None),
    ("xiomara", "Xiomara Kilpatrick-Oyelaran", None),
]
# The Persian run's host: a right-to-left name of 32 characters (its zero-width non-joiners count).
PERSIAN_NAME = ("shahrzad", "شهرزاد بانوی قصه‌گوی کوچه‌باغ‌ها", None)
MID_MOVES = 6  # the mid-game boards: after this many moves (each seat owing one plays it)
GAME_IDS = [game for game in os.environ.get("LOOK_GAMES", ",".join(GAMES)).split(",") if game in GAMES]
LANGUAGE_IDS = [lang for lang in os.environ.get("LOOK_LANGUAGES", "en,de,es,fa").split(",") if lang]
PICTURES = bool(os.environ.get("LOOK_PICTURES"))
"""The server chose pictures (/settings pictures on): each game is drawn as `<game>+pictures`."""
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", *game_extensions(), "cogs.preferences.settings", "cogs.preferences.language")


@pytest.fixture(autouse=True)
def debian_chromium(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playwright cannot download its own browser here: the Preview drives Debian's."""

    async def ensure_browser(self: ManagedCapture) -> Any:
        if self._browser is None:
            from playwright.async_api import async_playwright

            self._playwright = await async_playwright().start()
            self._browser = await self._playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_FLAGS
            )
        return self._browser

    monkeypatch.setattr(ManagedCapture, "_ensure_browser", ensure_browser)


class Camera:
    """Draws one message as a viewer sees it, at each screen size, and notes its height."""

    def __init__(self, table: Table, game: str, language: str) -> None:
        self.table, self.game, self.language = table, game, language
        self.heights: dict[str, dict[str, int]] = {}

    async def shoot(
        self, moment: str, message: Any, viewer: str | None = None, dm: bool = False, channel: Any = None
    ) -> None:
        """Draw `message` as `viewer` (the host unless named) sees it, in the table's channel unless
        another is named, and save the heights so far."""
        if message is None:
            return
        member = self.table.member(viewer or self.table.host_name)
        channel = member.user.dm_channel if dm else channel or self.table.channel
        who = member.user if dm else member
        for screen, (width, height) in SCREENS.items():
            path = OUT / self.game / f"{self.language}-{moment}-{screen}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            tall = 4000  # the message at its full height: what it costs a player's screen
            async with self.table.env.preview(
                channel, viewers=[who], layout="message", display="fixed", width=width, height=tall
            ) as preview:
                await preview.show(message)
                report = await preview.screenshot(path, viewer=who, mode="surface", allow_incomplete=True)
            self.heights.setdefault(moment, {})[screen] = report.output_height
            del height
        self.save()

    def save(self) -> None:
        """Add this game's heights to those of the run (each game, each language, each moment)."""
        path = OUT / "heights.json"
        known = json.loads(path.read_text()) if path.exists() else {}
        known.setdefault(self.game, {}).setdefault(self.language, {}).update(self.heights)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(known, indent=1, ensure_ascii=False))


async def opened(table: Table, game: str, language: str) -> Camera:
    """The table's lobby opened in `language` (a real-time game's clocks slowed), and its camera."""
    if kit(game).real_time:
        slow_clocks(table.env)
    await table.env.bot.tree.sync()
    await admin_sets_language(table, language)
    if PICTURES:
        await pictures_on(table)
    await table.open(**kit(game).options)
    return Camera(table, f"{game}+pictures" if PICTURES else game, language)


async def pictures_on(table: Table) -> None:
    """The server chooses pictures, as its admin does (a member with Manage Server)."""
    admins = table.guild.create_role("Picture admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("pictures"), roles=[admins])
    await admin.slash(table.channel, "settings pictures", on=True)


@pytest.mark.parametrize("language", LANGUAGE_IDS)
@pytest.mark.parametrize("game", GAME_IDS)
async def test_look(simcord_env: Any, dice: DiceScript, game: str, language: str) -> None:
    env = simcord_env
    testkit = kit(game)
    most = min(GAMES[game].max_players, len(NAMES), 3)  # three players; the full table has the most
    table = Table(env, group(game), NAMES[:most])
    camera = await opened(table, game, language)
    await camera.shoot("lobby", table.board)
    await table.join(*list(table.players)[1:])
    await table.start()
    await camera.shoot("first", table.board)
    players = {seat: Player(table, name) for seat, name in enumerate(table.players)}
    if testkit.real_time:

        async def first_duel(player: Player) -> None:
            await camera.shoot("mid", table.board)
            await camera.shoot("private", player.opened.response.message, viewer=player.name)

        await duel_to_the_end(table, players, dice, first_duel)
        await env.advance_time(STEP * 20)
    else:
        moves = 0
        while (ctx := await table.live()) is not None and moves < 400:
            await play_a_move(players, ctx)
            moves += 1
            if moves == MID_MOVES:
                await camera.shoot("mid", table.board)
                dm = table.dm("alice")
                if dm is not None:
                    await camera.shoot("private", dm, dm=True)
    await camera.shoot("results", table.public_messages()[-1])
    camera.save()


def full_names(game: str, language: str) -> list[tuple[str, str, str | None]]:
    """The full table's players for `game`: as many as it takes, the Persian name hosting in Persian."""
    names = [PERSIAN_NAME, *LONG_NAMES] if language == "fa" else LONG_NAMES
    return names[: GAMES[game].max_players]


def long_named_table(env: Any, game: str, names: list[tuple[str, str, str | None]]) -> Table:
    """A table whose members carry display names and nicknames of their own (the shared `Table`
    names a member by its username only)."""
    table = Table(env, group(game), [])
    table.players = {
        username: table.guild.add_member(env.create_user(username, global_name=shown), nick=nick)
        for username, shown, nick in names
    }
    return table


class _FirstDuelSeen(Exception):
    """Sushi Dice's full table stops once its first duel is drawn."""


@pytest.mark.parametrize("language", LANGUAGE_IDS)
@pytest.mark.parametrize("game", GAME_IDS)
async def test_look_full(simcord_env: Any, dice: DiceScript, game: str, language: str) -> None:
    env = simcord_env
    testkit = kit(game)
    names = full_names(game, language)
    table = long_named_table(env, game, names)
    camera = await opened(table, game, language)
    await table.join(*list(table.players)[1:])
    await camera.shoot("full-lobby", table.board)
    await table.start()
    await camera.shoot("full-first", table.board)
    players = {seat: Player(table, name) for seat, name in enumerate(table.players)}
    if testkit.real_time:

        async def first_duel(player: Player) -> None:
            await camera.shoot("full-mid", table.board)
            raise _FirstDuelSeen

        with contextlib.suppress(_FirstDuelSeen):
            await duel_to_the_end(table, players, dice, first_duel)
    else:
        moves = 0
        while moves < MID_MOVES and (ctx := await table.live()) is not None:
            try:
                await play_a_move(players, ctx)
            except AssertionError as stuck:  # a move the shared players cannot make by the controls
                if not str(stuck).startswith("no control for any move"):
                    raise
                print(f"{game} {language}: the scripted players stop after {moves} moves: {stuck}")
                break
            moves += 1
        if moves and await table.live() is not None:
            await camera.shoot("full-mid", table.board)
        if game == "rockthebock":  # its tallest board: a throw with wolves, a button per victim
            for _ in range(60):
                ctx = await table.live()
                if ctx is None:
                    break
                if any(item["colour"] == "grey" for item in ctx.public()["throw"] or []):
                    await camera.shoot("full-wolves", table.board)
                    break
                await play_a_move(players, ctx)
    # The names drawn are those the bot took: each member's nickname, else their display name.
    record = await table.tables.store.last_table(table.channel.id)
    assert record is not None
    assert [seat.name for seat in record.seats] == [nick or shown for _, shown, nick in names]
