"""Every picture the bot draws: its size in pixels and bytes and how long one takes, in each language.

    .venv/bin/python bench/bench_pictures.py [renders]

Each game is played to its end by random legal moves at its largest table (seeded, so the figures
compare across runs); the board pictures are drawn from a position halfway through, the results
pictures from the end; /stats from five games' rating histories of 60 games each, /leaderboard from
ten players with twenty ratings each. Every picture function caches its PNG on what it draws, so each
render here gets names of its own (a cache miss: the cost of a picture that changed). It prints the
median and the slowest of the renders, in milliseconds, with long names in four scripts.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.games.kaiten.picture import picture_words
from cogs.games.kaiten.picture import render_png as kaiten_png
from cogs.games.rockthebock.picture import render_png as rockthebock_png
from cogs.games.sushigo.picture import final_png as sushigo_final_png
from cogs.games.sushigo.picture import play_png as sushigo_play_png
from cogs.games.sushizock.picture import render_png as sushizock_png
from cogs.stats.charts import GameLine, LeaderRow, RatingPoint, SeasonMark, leaderboard_png, stats_png
from rules.registry import GAMES

NAMES = [
    "Wolfgang Amadeus Pufferfish",
    "شهرزاد بانوی قصه‌گوی",
    "王小明王小明王小明",
    "Алёна Константиновна",
    "Zoë 🍣",
]
LANGUAGES = ("en", "de", "es", "fa")


def positions(game_id: str, seed: int = 7) -> tuple[Any, Any]:
    """The public view halfway through a random game at the game's largest table, and at its end."""
    game = GAMES[game_id]
    players = min(game.max_players, len(NAMES))
    state = game.new(players, seed, {})
    chooser = random.Random(seed)
    views = []
    while not game.is_over(state):
        seat = chooser.choice(sorted(game.to_move(state)))
        game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
        views.append(game.view(state, None))
    return views[len(views) // 2], views[-1]


def names(players: int, run: int) -> list[str]:
    return [f"{name} {run}" for name in NAMES[:players]]


def pictures() -> dict[str, Callable[[str, int], bytes]]:
    """Each picture by name: a function of the language and the run that draws it."""
    sushigo_mid, sushigo_end = positions("sushigo")
    zock_end = positions("sushizock")[1]
    bock_mid, bock_end = positions("rockthebock")
    kaiten_mid = positions("kaiten")[0]
    lines = [
        GameLine(
            title=title,
            points=tuple(
                RatingPoint(1_700_000_000 + day * 86_400, 2 + day * 0.4 + (day % 7) - 3) for day in range(60)
            ),
            games=60,
            wins=21,
        )
        for title in ("Sushizock im Gockelwok", "Sushi Go!", "Rock the Bock", "Sushi Dice", "Kaiten Sushi")
    ]
    seasons = [SeasonMark(2, 1_700_000_000 + 20 * 86_400), SeasonMark(3, 1_700_000_000 + 45 * 86_400)]

    def leaders(run: int) -> list[LeaderRow]:
        return [
            LeaderRow(
                position,
                f"{NAMES[position % 5]} {run}",
                30 - 2.5 * position,
                tuple(10 + (step * position) % 9 for step in range(20)),
                40 + position,
                20 - position,
            )
            for position in range(1, 11)
        ]

    return {
        "sushigo board": lambda lang, run: sushigo_play_png(
            sushigo_mid, names(len(sushigo_mid["scores"]), run), lang
        ),
        "sushigo scoring": lambda lang, run: sushigo_final_png(
            sushigo_end, names(len(sushigo_end["scores"]), run), lang
        ),
        "sushizock piles": lambda lang, run: sushizock_png(zock_end, names(5, run), lang),
        "rockthebock board": lambda lang, run: rockthebock_png(bock_mid, names(4, run), lang),
        "rockthebock sheets": lambda lang, run: rockthebock_png(bock_end, names(4, run), lang),
        "kaiten board": lambda lang, run: kaiten_png(kaiten_mid, names(4, run), picture_words(lang), lang),
        "stats": lambda lang, run: stats_png(f"{NAMES[0]} {run}", lines, seasons, lang),
        "leaderboard": lambda lang, run: leaderboard_png(f"Sushi Go! · Season {run}", leaders(run), lang),
    }


def size_of(png: bytes) -> tuple[int, int]:
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def main() -> None:
    renders = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    drawn = pictures()
    for draw in drawn.values():  # fonts and static layers load once per process
        draw("fa", -1)
    print(f"{'picture':<20}{'lang':<6}{'px':>10}{'bytes':>9}{'median ms':>11}{'max ms':>8}")
    for name, draw in drawn.items():
        for language in LANGUAGES:
            times, png = [], b""
            for run in range(renders):
                started = time.perf_counter()
                png = draw(language, run)
                times.append((time.perf_counter() - started) * 1000)
            width, height = size_of(png)
            print(
                f"{name:<20}{language:<6}{f'{width}×{height}':>10}{len(png):>9,}"
                f"{statistics.median(times):>11.1f}{max(times):>8.1f}"
            )


if __name__ == "__main__":
    main()
