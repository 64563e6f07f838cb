"""Every Kaiten Sushi board of whole games, as players see it: each edit of the public board drawn by
simcord's Preview in Chromium at a desktop and a phone size, and the tallest kept.

`tests/e2e/look_games.py` draws the moments a game stops at (the first board, one a few moves in); a
board's height changes with every step, so here whole games are played at a full table (four players,
32-character names, a Persian one in the Persian run), with the chopsticks challenge on (a missed grab
now and then: the dropped sushi and its soy), the wasabi picker opened, spent and closed, and every
other choice (the fetch, the plate cell, the ginger, the refill) made at random by the board's own
buttons (a sushi placed where it opens the most black/white edges more often than not, so that ginger
choices come up). After each click the board is drawn as it then stands (a layout drawn once is not
drawn again); a gateway listener notes every edit of the board message, so the run says how many edits
it saw and how many it did not draw (an edit replaced within one click, or one a busy machine kept the
Preview from drawing in time).

Not part of the suite: `bench/look.py` runs it. Heights go to `LOOK_OUT/heights.json` as the moment
`whole` (the tallest edit of the run, per language and screen), the tallest pictures to
`LOOK_OUT/kaiten/<lang>-whole-<screen>.png` and what each tallest board was (turn, step, its text) to
`LOOK_OUT/kaiten/whole.json`. `LOOK_LANGUAGES` narrows the run, `LOOK_WHOLE_GAMES` sets how many
games each language plays (default 1).
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from simcord.backend.errors import SetupError

from rules.kaiten.game import DEXTERITY_LEVELS
from tests.e2e.helpers import Table, buttons, payload, text_of
from tests.e2e.look_games import (
    LANGUAGE_IDS,
    OUT,
    SCREENS,
    debian_chromium,
    full_names,
    long_named_table,
)
from tests.e2e.test_languages import admin_sets_language
from tests.games import kit

__all__ = ["debian_chromium"]  # the Preview drives Debian's Chromium

GAME = "kaiten"
GAMES_PER_LANGUAGE = int(os.environ.get("LOOK_WHOLE_GAMES", "1"))
TALL = 4000  # the Preview's surface: the board at its full height
MISS = 0.15  # how often a grab presses a wrong button (a dropped sushi, a soy)
PICKER = 0.35  # how often a player who may spend a wasabi opens the picker
SPEND = 0.6  # and then spends it (else goes back)
EDGY = 0.6  # how often a sushi goes where it opens the most black/white edges (the ginger choice)

# simcord waits out a sleep shorter than its settle timeout as work still running: the chopsticks windows,
# made far longer (`slow_chopsticks`), stay open for the press, and a board drawn slowly on a busy machine
# still settles.
pytestmark = pytest.mark.simcord(settle_timeout=10)
SLOWER = 40  # the chopsticks windows, this many times longer: minutes, beyond any settle timeout


@pytest.fixture(autouse=True)
def slow_chopsticks(monkeypatch: pytest.MonkeyPatch) -> None:
    for module, name, value in kit(GAME).slowed(SLOWER):
        monkeypatch.setattr(module, name, value)


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", "cogs.games.kaiten.cog", "cogs.preferences.settings", "cogs.preferences.language")


def contrasts(view: Any, seat: int, word: str) -> int:
    """How many black/white edges a placement opens: the most are the likeliest ginger choice."""
    cell = json.loads(word.removeprefix("a:")).get("cell", -1)
    plate, rice = view["players"][seat]["plate"], (view["holding"] or ":")[0]
    row, column = divmod(cell, 3)
    around = [
        (row + dr) * 3 + column + dc
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if 0 <= row + dr < 3 and 0 <= column + dc < 3
    ]
    return sum(1 for other in around if plate[other] is not None and plate[other][0] != rice)


def _layout(value: Any) -> Any:
    """A message payload without what does not change its height (ids, urls, custom ids, stamps)."""
    if isinstance(value, dict):
        skip = {"id", "url", "proxy_url", "custom_id", "edited_timestamp", "timestamp", "media", "nonce"}
        return {key: _layout(item) for key, item in sorted(value.items()) if key not in skip}
    if isinstance(value, list):
        return [_layout(item) for item in value]
    return value


def signature(payload_: dict[str, Any]) -> str:
    return json.dumps(_layout({"content": payload_.get("content"), "components": payload_.get("components")}))


class Edits:
    """The board message's edits as the gateway publishes them (every MESSAGE_CREATE / _UPDATE)."""

    def __init__(self, env: Any) -> None:
        self.latest: dict[int, dict[str, Any]] = {}
        self.seen: dict[int, list[str]] = {}
        env.backend.subscribers.append(self.feed)

    def feed(self, event: str, data: Any) -> None:
        if event in ("MESSAGE_CREATE", "MESSAGE_UPDATE") and isinstance(data, dict) and "id" in data:
            message_id = int(data["id"])
            self.latest[message_id] = data
            self.seen.setdefault(message_id, []).append(signature(data))


class Tallest:
    """Draws boards at each screen size and keeps the tallest of each screen."""

    def __init__(self, table: Table, language: str) -> None:
        self.table, self.language = table, language
        self.open: Any = None
        self.context: Any = None
        self.best: dict[str, tuple[int, dict[str, Any]]] = {}
        self.drawn: set[str] = set()
        self.shots = 0

    async def preview(self) -> Any:
        """One Preview at a time (simcord allows no more), sized per capture."""
        if self.open is None:
            width, _ = SCREENS["desktop"]
            self.context = self.table.env.preview(
                self.table.channel,
                viewers=[self.table.host],
                layout="message",
                display="fixed",
                width=width,
                height=TALL,
            )
            self.open = await self.context.__aenter__()
        return self.open

    async def close(self) -> None:
        if self.open is not None:
            self.open = None
            await self.context.__aexit__(None, None, None)

    async def shoot(self, message: Any, layout: str, about: dict[str, Any]) -> None:
        """Draw `message` (its layout fingerprinted as `layout`) unless a board laid out alike was."""
        if layout in self.drawn:
            return
        self.drawn.add(layout)
        self.shots += 1
        for screen, (width, _) in SCREENS.items():
            try:
                report = await self.capture(message, width)
            except SetupError:  # the game's end moved the channel on (its thread closed): a fresh Preview
                await self.close()
                report = await self.capture(message, width)
            except TimeoutError:  # a busy machine: the bot's work did not settle for the Preview in time
                self.drawn.discard(layout)  # not drawn: counted among the edits not drawn
                return
            height = report.output_height
            if height > self.best.get(screen, (-1, {}))[0]:
                self.best[screen] = (height, {**about, "text": text_of(message)})
                path = OUT / GAME / f"{self.language}-whole-{screen}.png"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(report.png)

    async def capture(self, message: Any, width: int) -> Any:
        preview = await self.preview()
        await preview.show(message)
        return await preview.screenshot(
            None, viewer=self.table.host, mode="surface", allow_incomplete=True, viewport=(width, TALL)
        )


async def play_whole_game(
    table: Table, camera: Tallest, edits: Edits, rng: random.Random, counts: dict[str, int]
) -> None:
    """Play the table to its end by the board's buttons, drawing the board after every click; `counts`
    adds up the clicks, the board's edits and layouts, those not drawn, and the clicks a busy machine
    kept from settling in time (the game goes on: a chopsticks window then times out)."""
    names = list(table.players)
    clicks = 0

    async def click(member: Any, message: Any, item: Any) -> Any:
        nonlocal clicks
        clicks += 1
        try:
            return await member.click(message, custom_id=item.custom_id)
        except TimeoutError:
            counts["unsettled"] += 1
            await table.env.advance_time(DEXTERITY_LEVELS["relaxed"][1] * SLOWER * 2)  # any grab times out
            return None

    last = table.board.id
    boards = {last}  # every message that was the board (a finished game's board gives way to the results)
    first = last
    lobby = len(edits.seen.get(first, []))  # the lobby's edits, before the game: no board of the game

    async def draw() -> None:
        nonlocal last
        board = next((message for message in table.public_messages() if message.id == last), None)
        if board is None:  # the finished game's board gave way to the results
            return
        data = edits.latest.get(board.id)
        ctx = await table.live()
        view = ctx.public() if ctx is not None else None
        about = {
            "turn": view["turn_number"] if view else None,
            "step": view["phase"] if view else "over",
            "click": clicks,
        }
        await camera.shoot(board, signature(data) if data else f"first:{board.id}", about)

    await draw()
    for _ in range(int(os.environ.get("LOOK_MAX_CLICKS", "2000"))):
        ctx = await table.live()
        if ctx is None:
            break
        seat = min(ctx.game.to_move(ctx.state))
        member = table.member(names[seat])
        board = table.board
        offered = {payload(item): item for item in buttons(board) if not item.disabled}
        moves = [item for word, item in offered.items() if word.startswith(("a:", "u:f:"))]
        picker = [item for word, item in offered.items() if word.startswith("u:w:")]
        if picker:  # the wasabi picker is open: spend it, or go back
            back = offered.get("u:back")
            chosen = rng.choice(picker) if back is None or rng.random() < SPEND else back
        elif "u:wasabi" in offered and rng.random() < PICKER:
            chosen = offered["u:wasabi"]
        else:
            assert moves, f"no move on the board: {list(offered)}"
            chosen = rng.choice(moves)
            if ctx.public()["phase"] == "place" and rng.random() < EDGY:
                chosen = max(moves, key=lambda item: contrasts(ctx.public(), seat, payload(item)))
        result = await click(member, board, chosen)
        if os.environ.get("LOOK_VERBOSE"):
            print(f"{clicks} {payload(chosen)} drawn {camera.shots}", flush=True)
        challenge = getattr(result, "response", None)
        if result is not None and result.ephemeral and challenge is not None and buttons(challenge):
            row = buttons(challenge)  # the chopsticks row
            right = [b for b in row if b.label]
            wrong = [b for b in row if not b.label]
            await click(member, challenge, rng.choice(wrong) if wrong and rng.random() < MISS else right[0])
        if await table.live() is not None:
            last = table.board.id
            boards.add(last)
        await draw()  # the last edit too: the board of the finished game
    else:
        if "LOOK_MAX_CLICKS" not in os.environ:  # a short run for trying the script out stops early
            raise AssertionError("the game did not end")
    seen = [
        sig
        for message_id in boards
        for sig in edits.seen.get(message_id, [])[lobby if message_id == first else 0 :]
    ]
    counts["clicks"] += clicks
    counts["edits"] += len(seen)
    counts["layouts"] += len(set(seen))
    counts["undrawn"] += len(set(seen) - camera.drawn)


@pytest.mark.parametrize("language", LANGUAGE_IDS)
async def test_look_whole_games(simcord_env: Any, language: str) -> None:
    env = simcord_env
    rng = random.Random(f"kaiten-{language}")
    totals = {"games": 0, "clicks": 0, "edits": 0, "layouts": 0, "undrawn": 0, "unsettled": 0}
    best: dict[str, tuple[int, dict[str, Any]]] = {}
    for game in range(GAMES_PER_LANGUAGE):
        names = full_names(GAME, language)
        if game:  # another table in the same server: new members, new names' order
            names = names[game % len(names) :] + names[: game % len(names)]
            names = [(f"{user}{game}", shown, nick) for user, shown, nick in names]
        table = long_named_table(env, GAME, names)
        edits = Edits(env)
        await env.bot.tree.sync()
        await admin_sets_language(table, language)
        await table.open(dexterity="relaxed")  # the chopsticks challenge on: a miss is the player's choice
        await table.join(*list(table.players)[1:])
        await table.start()
        camera = Tallest(table, language)
        camera.best = best  # the tallest over every game of the language
        try:
            await play_whole_game(table, camera, edits, rng, totals)
            totals["games"] += 1
        finally:  # a game cut short still tells the heights it met
            await camera.close()
            save(language, best, totals)


def save(language: str, best: dict[str, tuple[int, dict[str, Any]]], totals: dict[str, int]) -> None:
    path = OUT / "heights.json"
    known = json.loads(path.read_text()) if path.exists() else {}
    known.setdefault(GAME, {}).setdefault(language, {})["whole"] = {
        screen: height for screen, (height, _) in best.items()
    }
    path.write_text(json.dumps(known, indent=1, ensure_ascii=False))
    notes_path = OUT / GAME / "whole.json"
    notes = json.loads(notes_path.read_text()) if notes_path.exists() else {}
    notes[language] = {"runs": totals, "tallest": {screen: about for screen, (_, about) in best.items()}}
    notes_path.write_text(json.dumps(notes, indent=1, ensure_ascii=False))
