"""/roll on the worst inputs: how much CPU a request costs before it is answered, and how long the
event loop waits while the cog rolls it (issue 27: `20#50d1000rr<1000!>=2` once took 2.2 s on it).

.venv/bin/python bench/bench_roll.py [repeats]

(a) CPU per request, parse + throw + the answer's words, with `secrets.randbelow` (refusals are
    answered as the cog answers them, caret and suggestion included).
(b) The longest the event loop waits while ten of the costliest rolls go through the cog's path
    (`asyncio.to_thread`): a ticker records the gaps between its 1 ms sleeps.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.roll import render as roll_render
from rules.dice_notation import RollError, evaluate, parse

WORST = [
    "20#50d1000rr<1000!>=2",  # the issue's: explodes forever once rerolled
    "20#50d1000rr<1000",  # a million throws expected
    "20#50d1000!>=2",
    "100d1000rr<1000; 100d6",
    "50d100rr<100",  # 5,000 expected: rolled, often stopped at the budget
    "d20rr<20; d20rr<20; d20rr<20; d20rr<20",
    "4#20d6!; 4#20d6!; 2#20d6!; 2#20d6!",  # many dice shown, each explosion too
    "10#100d6",  # the most dice without explosions: 1,000
    "10#100d2!",  # about 2,000 throws
    "20#50d4!",  # about 1,333 throws, in sets
    "d6+" * 66 + "d6",  # the longest expression: 200 characters, 67 terms
    "4d6 kh3 " + "x" * 190,  # a spaced modifier read onto its die, then a long label
]


def once(text: str) -> tuple[str, str]:
    """Parse, roll and word one request as the cog does; what it answered."""
    try:
        result = evaluate(parse(text), secrets.randbelow)
    except RollError as error:
        roll_render.error_parts(error, "en")
        return "refused", error.code
    roll_render.message(result, user="@alice", name=None, label=None, locale="en")
    return "rolled", f"{len(result.totals)} total(s)"


def cpu(repeats: int) -> None:
    once("d6")  # the grammar's parser is built once per process, before the first roll
    print(f"(a) CPU per request, mean and worst of {repeats}")
    print(f"    {'expression':44} {'answer':28} {'mean ms':>8} {'worst ms':>9}")
    for text in WORST:
        answers: set[tuple[str, str]] = set()
        spent: list[float] = []
        for _ in range(repeats):
            start = time.process_time()
            answers.add(once(text))
            spent.append((time.process_time() - start) * 1000)
        shown = text if len(text) <= 44 else text[:41] + "..."
        answer = " / ".join(sorted(f"{kind} {what}" for kind, what in answers))[:28]
        print(f"    {shown:44} {answer:28} {sum(spent) / len(spent):8.2f} {max(spent):9.2f}")


async def loop_wait() -> None:
    gaps: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    for _ in range(10):
        for text in ("50d100rr<100", "4#20d6!; 4#20d6!; 2#20d6!; 2#20d6!", "10#100d2!"):
            await asyncio.to_thread(once, text)
    done.set()
    await ticking
    print("(b) the event loop while the costliest rolls go through asyncio.to_thread (1 ms ticks)")
    print(f"    longest wait {max(gaps) * 1000:.1f} ms, {len(gaps)} ticks")


if __name__ == "__main__":
    cpu(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
    asyncio.run(loop_wait())
