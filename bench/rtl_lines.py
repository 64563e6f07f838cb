"""How the bot's Persian lines read when a client lays them out, counted over whole games.

    .venv/bin/python bench/rtl_lines.py

Plays every game in Persian through the bot on simcord (`tests/e2e/test_languages_all.py -k fa`, and
the feature answers of `tests/e2e/test_bidi.py`), collects every right-to-left line players read, and
lays each out with the Unicode bidi algorithm (python-bidi) as `tests/e2e/bidi_check.py` does:
in a left-to-right paragraph, in one that follows the first strong letter, and in a left-to-right
paragraph after a client dropped the isolates (keeping the marks). The test run judges each line
and writes the verdicts (SUSHIBAR_RTL_LINES, tests/e2e/conftest.py); this script only counts them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        found = Path(folder) / "lines.jsonl"
        env = {**os.environ, "SUSHIBAR_RTL_LINES": str(found)}
        tests = ["tests/e2e/test_languages_all.py", "-k", "fa", "tests/e2e/test_bidi.py"]
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
            cwd=ROOT,
            env=env,
            check=False,
        )
        lines = (
            [json.loads(line) for line in found.read_text(encoding="utf-8").splitlines()]
            if found.exists()
            else []
        )
    judged = {entry["line"]: entry for entry in lines}
    unique = sorted(judged)
    right = [line for line in unique if not judged[line]["problems"]]
    fallback = [line for line in unique if judged[line]["fallback"]]
    print(f"\nright-to-left lines read by players: {len(lines)} ({len(unique)} different)")
    print(f"read right to left in both paragraph directions: {len(right)} of {len(unique)}")
    dropped = "still read right in a left-to-right paragraph once the isolates are dropped"
    print(f"{dropped}: {len(fallback)} of {len(unique)}")
    for line in unique:
        if line not in right:
            print("  wrong:", judged[line]["problems"][0])
    return run.returncode


if __name__ == "__main__":
    raise SystemExit(main())
