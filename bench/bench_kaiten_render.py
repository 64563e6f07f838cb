"""Kaiten Sushi board picture: how long one PNG of a full four-player table takes (target: under 100 ms).

    .venv/bin/python bench/bench_kaiten_render.py [renders]

The position: a full 6x6 board (36 sushi), the reserve untouched, and every plate well filled by
computer play elsewhere (a fetch placed on a plate is put back on the board, so the board stays full).
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.kaiten_render import WORD_KEYS, render_png
from rules.kaiten import GAME, Fetch, KaitenView, Place

WORDS = {key: key.removeprefix("side.") for key in WORD_KEYS} | {"points": "{score} pts"}
NAMES = ["alice", "bob", "carol", "dave"]


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


def main() -> None:
    renders = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    view = full_table()
    started = time.perf_counter()
    first = render_png(view, NAMES, WORDS)
    cold = time.perf_counter() - started
    times = []
    png = first
    for _ in range(renders):
        started = time.perf_counter()
        png = render_png(view, NAMES, WORDS)
        times.append(time.perf_counter() - started)
    assert png == first
    from PIL import Image

    size = Image.open(io.BytesIO(png)).size
    ms = [t * 1000 for t in times]
    print(f"Kaiten Sushi board, 4 players, full board: {size[0]}x{size[1]} px, {len(png) / 1024:.0f} KiB PNG")
    print(f"  first render (fonts, static layer): {cold * 1000:6.1f} ms")
    print(
        f"  {renders} renders: median {statistics.median(ms):5.1f} ms, "
        f"mean {statistics.fmean(ms):5.1f} ms, max {max(ms):5.1f} ms (target < 100 ms)"
    )


if __name__ == "__main__":
    main()
