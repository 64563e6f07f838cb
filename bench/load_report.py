"""What bench/load.py prints: each run's figures (ack latency percentiles, unanswered clicks, CPU per
click, the ratio to the no-op floor), merged over worker processes, and the knee of a series."""

from __future__ import annotations

import cProfile
import pstats
import statistics
from pathlib import Path
from typing import Any

ROOT = str(Path(__file__).resolve().parent.parent)
ORIGINS = (
    ("Sushi Bar", (f"{ROOT}/cogs/", f"{ROOT}/rules/", f"{ROOT}/storage/", f"{ROOT}/bot.py")),
    ("simcord", ("/simcord/",)),
    ("discord.py", ("/discord/",)),
    ("deepcopy", ("/copy.py",)),  # in this run only simcord deep-copies (every event and request)
    ("sqlite", ("/aiosqlite/", "sqlite3")),
    ("asyncpg", ("/asyncpg/",)),
)
LABEL_WIDTH = 10  # the bot column; widened for longer labels ("sushi bar pg×2")
PERIOD = 2.0  # seconds between two clicks of one table
LATE = 3.0  # Discord's window for answering an interaction
KNEE_P99 = 1.0  # seconds: past the knee once the Sushi Bar p99 reaches it (or a click goes unanswered)


def merge(raws: list[dict[str, Any]]) -> dict[str, Any]:
    """The workers' raw figures as one run's: every click's delay, the counts and CPU time summed."""
    return {
        "delays": [delay for raw in raws for delay in raw["delays"]],
        "skipped": sum(raw["skipped"] for raw in raws),
        "ephemeral": sum(raw["ephemeral"] for raw in raws),
        "cpu": sum(raw["cpu"] for raw in raws),
    }


def summarise(label: str, tables: int, raw: dict[str, Any]) -> dict[str, Any]:
    delays = sorted(raw["delays"])
    late = sum(1 for delay in delays if delay > LATE)
    answered = [delay for delay in delays if delay <= LATE] or [float("nan")]
    clicks = len(delays)
    cpu = raw["cpu"]
    return {
        "bot": label,
        "tables": tables,
        "clicks": clicks,
        "skipped": raw["skipped"],
        "p50_ms": round(statistics.median(answered) * 1e3, 2),
        "p99_ms": round(delays[min(len(delays) - 1, int(len(delays) * 0.99))] * 1e3, 2) if delays else None,
        "max_ms": round(delays[-1] * 1e3, 2) if delays else None,
        "unanswered": late,
        "ephemeral": raw["ephemeral"],
        "cpu_ms_per_click": round(cpu / clicks * 1e3, 2) if clicks else None,
        **({"cpu_split": raw["cpu_split"]} if "cpu_split" in raw else {}),
    }


def cpu_split(profiler: cProfile.Profile) -> dict[str, float]:
    """Share of the profiled CPU time (functions' own time) by origin; the rest is "other"
    (the standard library, asyncio's loop, json, ...)."""
    totals: dict[str, float] = {}
    for (filename, _, name), row in pstats.Stats(profiler).stats.items():  # type: ignore[attr-defined]
        where = f"{filename}:{name}"
        origin = next((label for label, marks in ORIGINS if any(mark in where for mark in marks)), "other")
        if name == "<method 'poll' of 'select.epoll' objects>":
            continue  # waiting, not working
        totals[origin] = totals.get(origin, 0.0) + row[2]
    whole = sum(totals.values()) or 1.0
    return {
        origin: round(spent / whole, 3) for origin, spent in sorted(totals.items(), key=lambda kv: -kv[1])
    }


def show(row: dict[str, Any]) -> None:
    print(
        f"{row['bot']:<{LABEL_WIDTH}} {row['tables']:>6} {row['clicks']:>7} {row['p50_ms']:>9.1f}"
        f" {row['p99_ms']:>9.1f} {row['max_ms']:>9.1f} {row['unanswered']:>10}"
        f" {row['cpu_ms_per_click']:>8.2f}",
        flush=True,
    )
    indent = " " * (LABEL_WIDTH + 1)
    if "cpu_split" in row:
        print(f"{indent}CPU by origin: " + ", ".join(f"{k} {v:.0%}" for k, v in row["cpu_split"].items()))
    if "server_cpu_ms_per_click" in row:
        print(f"{indent}PostgreSQL server CPU: {row['server_cpu_ms_per_click']:.2f} ms per click", flush=True)
    if "database" in row:
        found = row["database"]
        print(
            f"{indent}database: {found['tables']} tables in {found['channels']} channels of"
            f" {found['guilds']} guilds, {found['moves']} moves saved",
            flush=True,
        )


def knee_line(counts: list[int], passed: list[int], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The highest offered load every click of which was answered with the p99 under KNEE_P99."""
    if not passed:
        text = f"knee: below {counts[0] / PERIOD:g} clicks/s (already past it at {counts[0]} tables)"
        return {"text": text, "clicks_per_s": None, "tables": None}
    best = passed[-1]
    ours = next(
        row for row in rows if row.get("tables") == best and str(row.get("bot", "")).startswith("sushi")
    )
    held = (
        "every step held" if best == counts[-1] else f"past it at {counts[len(passed)] / PERIOD:g} clicks/s"
    )
    text = (
        f"knee: {best / PERIOD:g} clicks/s offered ({best} tables), p99 {ours['p99_ms']:.0f} ms, "
        f"none unanswered; {held} (knee = highest load with every click answered and p99 < {KNEE_P99:g} s)"
    )
    return {"text": text, "clicks_per_s": best / PERIOD, "tables": best}
