"""Kaiten Sushi board picture: how long one PNG of a full four-player table takes (target: under 100 ms),
with ASCII names, then with names in four scripts (the first of those loads the CJK font).

    .venv/bin/python bench/bench_kaiten_render.py [renders]

The position: a full 6x6 board (36 sushi), the reserve untouched, and every plate well filled by
computer play elsewhere (a fetch placed on a plate is put back on the board, so the board stays full).
It prints the PNG encoding's share apart: the bot draws the picture off the event loop, after the click
is acknowledged, but its CPU counts all the same.
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.games.kaiten.picture import WORD_KEYS, render_png
from cogs.kit.drawing import png as png_bytes
from rules.kaiten.game import GAME
from rules.kaiten.state import Fetch, Place
from rules.kaiten.view import KaitenView

WORDS = {key: key.removeprefix("side.") for key in WORD_KEYS} | {
    "points": "{score} pts",
    "seat": "Player {seat}",
}
NAMES = ["alice", "bob", "carol", "dave"]
WORLD = ["Zoë 🍣", "Алёна", "مریم", "王小明"]
"""Names in four scripts: the second font (CJK), Persian shaping, an emoji left out."""


def full_table() -> KaitenView:
    """Four players, 7 sushi on every plate, and still 36 sushi on the board."""
    state = GAME.new(4, 2024)
    while any(sum(s is not None for s in plate) < 7 for plate in state.plates):
        seat = state.current
        action = GAME.computer_action(state, seat)
        if isinstance(action, Fetch) and action.success:
            sushi = state.board[action.cell]
            GAME.apply(state, seat, action)
            state.board[action.cell] = sushi  # keep the board full for the picture
            action = GAME.default_action(state, seat)
            assert isinstance(action, Place)
        GAME.apply(state, seat, action)
    view = GAME.view(state, None)
    assert sum(cell is not None for cell in view["board"]) == 36
    return view


def measure(view: KaitenView, names: list[str], renders: int, title: str) -> None:
    started = time.perf_counter()
    first = render_png(view, names, WORDS)
    cold = time.perf_counter() - started
    times = []
    png = first
    for _ in range(renders):
        started = time.perf_counter()
        png = render_png(view, names, WORDS)
        times.append(time.perf_counter() - started)
    assert png == first
    from PIL import Image

    picture = Image.open(io.BytesIO(png))
    picture.load()
    encodings = []
    rgb = picture.convert("RGB")
    pillow = []
    for _ in range(renders):  # the PNG encoding alone: the bot's own writer, and Pillow's (used before)
        started = time.perf_counter()
        png_bytes(rgb)
        encodings.append(time.perf_counter() - started)
        started = time.perf_counter()
        rgb.save(io.BytesIO(), format="PNG", compress_level=1)
        pillow.append(time.perf_counter() - started)
    size = picture.size
    ms = [t * 1000 for t in times]
    kib = len(png) / 1024
    encode = statistics.median(encodings) * 1000
    print(f"Kaiten Sushi board, 4 players, full board, {title}: {size[0]}x{size[1]} px, {kib:.0f} KiB PNG")
    print(f"  first render (fonts, static layer): {cold * 1000:6.1f} ms")
    print(
        f"  {renders} renders: median {statistics.median(ms):5.1f} ms, "
        f"mean {statistics.fmean(ms):5.1f} ms, max {max(ms):5.1f} ms (target < 100 ms)"
    )
    drawing = statistics.median(ms) - encode
    print(f"  of which PNG encoding: median {encode:5.1f} ms; drawing: {drawing:5.1f} ms")
    pillow_ms = statistics.median(pillow) * 1000
    print(f"  (Pillow's PNG encoder, compress_level=1, on the same picture: {pillow_ms:5.1f} ms)")


def main() -> None:
    renders = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    view = full_table()
    measure(view, NAMES, renders, "ASCII names")
    measure(view, WORLD, renders, "names in four scripts")


if __name__ == "__main__":
    main()
