"""The games as players see them: each game played on simcord by scripted players, its messages drawn
by simcord's Preview in Chromium and written as PNGs, with each board's height in pixels.

Not part of the suite (the file name does not start with `test_`): `bench/look.py` runs it, and the
README's development section says how. Pictures go to `LOOK_OUT` (default `look/`), heights to
`LOOK_OUT/heights.json`. `LOOK_GAMES` and `LOOK_LANGUAGES` (comma-separated) narrow the run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from simcord.preview._capture import ManagedCapture

from rules.registry import GAMES
from tests.e2e.helpers import Player, Table, play_a_move
from tests.e2e.test_languages import admin_sets_language
from tests.e2e.test_languages_all import duel_to_the_end
from tests.e2e.test_sushidice import STEP, DiceScript, _scripted_throws, dice, slow_clocks
from tests.games import extensions as game_extensions
from tests.games import group, kit

__all__ = ["_scripted_throws", "dice"]  # the Sushi Dice fixtures: its rigged dice

OUT = Path(os.environ.get("LOOK_OUT", "look"))
CHROMIUM = os.environ.get("LOOK_CHROMIUM", "/usr/bin/chromium")
SCREENS = {"desktop": (1280, 900), "phone": (390, 844)}
NAMES = ["alice", "bob", "carol"]
GAME_IDS = [game for game in os.environ.get("LOOK_GAMES", ",".join(GAMES)).split(",") if game]
LANGUAGE_IDS = [lang for lang in os.environ.get("LOOK_LANGUAGES", "en,de,es,fa").split(",") if lang]
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
    return ("cogs.tables", *game_extensions(), "cogs.settings", "cogs.language")


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

    async def shoot(self, moment: str, message: Any, viewer: str = "alice", dm: bool = False) -> None:
        if message is None:
            return
        member = self.table.member(viewer)
        channel = member.user.dm_channel if dm else self.table.channel
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

    def save(self) -> None:
        path = OUT / "heights.json"
        known = json.loads(path.read_text()) if path.exists() else {}
        known.setdefault(self.game, {})[self.language] = self.heights
        path.write_text(json.dumps(known, indent=1, ensure_ascii=False))


@pytest.mark.parametrize("language", LANGUAGE_IDS)
@pytest.mark.parametrize("game", GAME_IDS)
async def test_look(simcord_env: Any, dice: DiceScript, game: str, language: str) -> None:
    env = simcord_env
    testkit = kit(game)
    if testkit.real_time:
        slow_clocks(env)
    # Three players where the scripted players can play every move by the controls (Rock the Bock's
    # wolves on a third player need its target menu, which the shared players do not drive).
    most = min(GAMES[game].max_players, len(NAMES), 2 if game == "rockthebock" else 3)
    table = Table(env, group(game), NAMES[:most])
    camera = Camera(table, game, language)
    await env.bot.tree.sync()
    await admin_sets_language(table, language)
    await table.open(**testkit.options)
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
            if moves == 6:
                await camera.shoot("mid", table.board)
                dm = table.dm("alice")
                if dm is not None:
                    await camera.shoot("private", dm, dm=True)
    await camera.shoot("results", table.public_messages()[-1])
    camera.save()
