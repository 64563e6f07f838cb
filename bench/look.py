"""Draw every game as players see it and print each board's height in pixels.

    .venv/bin/pip install "simcord[screenshot]" && apt-get install chromium   # once
    .venv/bin/python bench/look.py [--games sushigo,kaiten] [--languages en,fa] [--out look] [--pictures]
        [--whole N]

Plays each game on simcord with scripted players (`tests/e2e/look_games.py`), and writes PNGs of
the lobby, the first board, a mid-game board, a private hand or panel and the results, in each
language, at a desktop (1280 px wide) and a phone (390 px) size, drawn by simcord's Preview in
Debian's Chromium (`LOOK_CHROMIUM` names another); then again at a full table (the game's most
players, with long names): its lobby, first board and one a few moves in (`full-lobby`,
`full-first`, `full-mid`). The feature answers (/roll, /games, /rules, /leaderboard, /stats,
/history, /replay, /settings show; `tests/e2e/look_features.py`) are drawn too, as "features" (with
`--games`, name `features` to include them). `--pictures`: the server chose pictures (/settings
pictures), each game drawn as `<game>+pictures`. Kaiten Sushi is also played through whole games at a
full table (`tests/e2e/look_kaiten.py`: four long names, the chopsticks challenge on, every step and the
wasabi picker), its board drawn after every edit, the tallest kept as the moment `whole`
(`<lang>-whole-<screen>.png`); `--whole N` plays N such games per language (0: none). Then prints the
heights: a public board should fit one screen (at most 520 px on the desktop, 700 px on the phone); one
taller is marked `!`, and the last lines name Kaiten's tallest board over whole games per screen and
language, and each game's tallest public board. A game that fails still shows the heights it got, and
the others play on; the exit code is pytest's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LIMITS = {"desktop": 520, "phone": 700}  # one screen of a public board, in pixels
# The public boards (not the hand nor the results); `full-wolves`: Rock the Bock's throw with wolves.
# `whole`: the tallest of every board edit over whole games (Kaiten Sushi).
PUBLIC = ("lobby", "first", "mid", "full-lobby", "full-first", "full-mid", "full-wolves", "whole")


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


def whole(heights: dict[str, dict[str, dict[str, dict[str, int]]]], notes: dict[str, Any]) -> str:
    """Kaiten's tallest board over whole games, per screen and language, and how many edits were drawn."""
    lines = []
    for language, note in notes.items():
        sizes = heights.get("kaiten", {}).get(language, {}).get("whole", {})
        found = ", ".join(f"{screen} {cell('whole', screen, sizes.get(screen))}" for screen in LIMITS)
        steps = ", ".join(
            f"{screen} at {about['step']} (turn {about['turn']})" for screen, about in note["tallest"].items()
        )
        runs = note["runs"]
        lines.append(
            f"  {language}: {found} — {steps}; {runs['games']} game(s), {runs['clicks']} clicks, "
            f"{runs['edits']} board edits in {runs['layouts']} layouts, {runs['undrawn']} not drawn"
            + (f", {runs['unsettled']} clicks unsettled (a busy machine)" if runs.get("unsettled") else "")
        )
    return "Kaiten's tallest board over whole games (the board drawn after every click):\n" + "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "look").splitlines()[0])
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    parser.add_argument("--languages", default="en,de,es,fa")
    parser.add_argument("--out", default=str(ROOT / "look"))
    parser.add_argument("--pictures", action="store_true", help="the server chose pictures: <game>+pictures")
    parser.add_argument("--whole", type=int, default=1, help="whole Kaiten games per language (0: none)")
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
    if args.whole > 0 and not args.pictures and (not args.games or "kaiten" in args.games.split(",")):
        files.append("tests/e2e/look_kaiten.py")  # every board edit of whole Kaiten games
        env["LOOK_WHOLE_GAMES"] = str(args.whole)
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
    if (out / "kaiten" / "whole.json").exists():
        print(whole(heights, json.loads((out / "kaiten" / "whole.json").read_text())))
    print(tallest(heights))
    return run.returncode


if __name__ == "__main__":
    raise SystemExit(main())
