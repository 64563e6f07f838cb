"""Draw every game as players see it and print each board's height in pixels.

    .venv/bin/pip install "simcord[screenshot]" && apt-get install chromium   # once
    .venv/bin/python bench/look.py [--games sushigo,kaiten] [--languages en,fa] [--out look]

Plays each game on simcord with scripted players (`tests/e2e/look_games.py`), and writes PNGs of
the lobby, the first board, a mid-game board, a private hand or panel and the results, in each
language, at a desktop (1280 px wide) and a phone (390 px) size, drawn by simcord's Preview in
Debian's Chromium (`LOOK_CHROMIUM` names another). Then prints the heights: a public board should
fit one screen (at most 520 px on the desktop, 700 px on the phone).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    parser.add_argument("--languages", default="en,de,es,fa")
    parser.add_argument("--out", default=str(ROOT / "look"))
    args = parser.parse_args()
    out = Path(args.out).resolve()
    (out / "heights.json").unlink(missing_ok=True)
    env = {**os.environ, "LOOK_OUT": str(out), "LOOK_LANGUAGES": args.languages}
    if args.games:
        env["LOOK_GAMES"] = args.games
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/e2e/look_games.py"]
    run = subprocess.run(command, cwd=ROOT, env=env, check=False)
    heights = json.loads((out / "heights.json").read_text()) if (out / "heights.json").exists() else {}
    print(f"\n{'game':<12}{'language':<10}{'moment':<10}{'desktop':>9}{'phone':>7}")
    for game, languages in heights.items():
        for language, moments in languages.items():
            for moment, sizes in moments.items():
                desktop, phone = sizes.get("desktop", 0), sizes.get("phone", 0)
                print(f"{game:<12}{language:<10}{moment:<10}{desktop:>9}{phone:>7}")
    print(f"\npictures in {out}")
    return run.returncode


if __name__ == "__main__":
    raise SystemExit(main())
