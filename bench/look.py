"""Draw every game as players see it and print each board's height in pixels.

    .venv/bin/pip install "simcord[screenshot]" && apt-get install chromium   # once
    .venv/bin/python bench/look.py [--games sushigo,kaiten] [--languages en,fa] [--out look] [--pictures]

Plays each game on simcord with scripted players (`tests/e2e/look_games.py`), and writes PNGs of
the lobby, the first board, a mid-game board, a private hand or panel and the results, in each
language, at a desktop (1280 px wide) and a phone (390 px) size, drawn by simcord's Preview in
Debian's Chromium (`LOOK_CHROMIUM` names another); then again at a full table (the game's most
players, with long names): its lobby, first board and one a few moves in (`full-lobby`,
`full-first`, `full-mid`). The feature answers (/roll, /games, /rules, /leaderboard, /stats,
/history, /replay, /settings show; `tests/e2e/look_features.py`) are drawn too, as "features" (with
`--games`, name `features` to include them). `--pictures`: the server chose pictures (/settings
pictures), each game drawn as `<game>+pictures`. Then prints the heights: a public board should fit one
screen (at most 520 px on the desktop, 700 px on the phone); one taller is marked `!`, and the last
line names each game's tallest public board. A game that fails still shows the heights it got, and
the others play on; the exit code is pytest's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMITS = {"desktop": 520, "phone": 700}  # one screen of a public board, in pixels
# The public boards (not the hand nor the results); `full-wolves`: Rock the Bock's throw with wolves.
PUBLIC = ("lobby", "first", "mid", "full-lobby", "full-first", "full-mid", "full-wolves")


def cell(moment: str, screen: str, height: int | None) -> str:
    """A height as the table prints it: `!` after a public board taller than one screen."""
    if height is None:
        return "-"
    return f"{height}!" if moment in PUBLIC and height > LIMITS[screen] else str(height)


def tallest(heights: dict[str, dict[str, dict[str, dict[str, int]]]]) -> str:
    """Each game's tallest public board on each screen, with its language and moment."""
    parts = []
    for game, languages in heights.items():
        found = []
        for screen in LIMITS:
            drawn = [
                (sizes[screen], language, moment)
                for language, moments in languages.items()
                for moment, sizes in moments.items()
                if moment in PUBLIC and screen in sizes
            ]
            if drawn:
                height, language, moment = max(drawn)
                found.append(f"{screen} {cell(moment, screen, height)} ({language} {moment})")
        parts.append(f"{game} " + ", ".join(found or ["no public board"]))
    return "tallest public board: " + ("; ".join(parts) or "none drawn")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    parser.add_argument("--languages", default="en,de,es,fa")
    parser.add_argument("--out", default=str(ROOT / "look"))
    parser.add_argument("--pictures", action="store_true", help="the server chose pictures: <game>+pictures")
    args = parser.parse_args()
    out = Path(args.out).resolve()
    (out / "heights.json").unlink(missing_ok=True)
    env = {**os.environ, "LOOK_OUT": str(out), "LOOK_LANGUAGES": args.languages}
    if args.games:
        env["LOOK_GAMES"] = args.games
    if args.pictures:
        env["LOOK_PICTURES"] = "1"
    files = ["tests/e2e/look_games.py"]
    if not args.games or "features" in args.games.split(","):
        files.append("tests/e2e/look_features.py")  # the feature answers: /roll, /leaderboard, ...
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files]
    run = subprocess.run(command, cwd=ROOT, env=env, check=False)
    heights = json.loads((out / "heights.json").read_text()) if (out / "heights.json").exists() else {}
    print(f"\n{'game':<12}{'language':<10}{'moment':<12}{'desktop':>9}{'phone':>8}")
    for game, languages in heights.items():
        for language, moments in languages.items():
            for moment, sizes in moments.items():
                desktop = cell(moment, "desktop", sizes.get("desktop"))
                phone = cell(moment, "phone", sizes.get("phone"))
                print(f"{game:<12}{language:<10}{moment:<12}{desktop:>9}{phone:>8}")
    limits = ", ".join(f"{screen} {limit} px" for screen, limit in LIMITS.items())
    print(f"\n! a public board taller than one screen ({limits}); pictures in {out}")
    print(tallest(heights))
    return run.returncode


if __name__ == "__main__":
    raise SystemExit(main())
