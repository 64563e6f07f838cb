"""The arena: seeded games between seat types, rotating seats; win shares, score gaps, decision times.

    .venv/bin/python bench/arena.py --game sushigo --players 2 --seats hard,normal --games 200 [--jobs 2]

Seat types: easy, normal, hard (rules.computer), random (a uniformly random legal move), standin (the
engine's own computer_action / default_action, the stand-in before issue 15), and for Sushi Go! pv (the
present-value player of bench/heuristic_sushigo.py). --seats lists one type per seat (a shorter list is
repeated); game g seats type i at seat (i + g) mod players, so every type plays every seat equally.

Per seat type it prints the win share (a win shared by k seats counts 1/k) per seat of that type with a
95% confidence interval (normal approximation over games), the fair share 1/players, the mean score
difference to the other seats' mean, and the decision time p50/p99 of its moves: wall time, and the
process's CPU time (the same on an idle machine; on a shared one only the CPU time is the thinking's).
The last line is one JSON object with those figures.

Sushi Dice is real time, so its games run on a simulated clock: each seat clicks every PACE[level].click
seconds (random seats and stand-ins at normal's pace), with ±20% jitter; the public board is published
every BOARD_INTERVAL seconds, and a computer calls Yuck!/Chop! on the latest board published at least
its PACE[level].reaction ago. Decision time is the computing time of one click.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rules.computer.brain import LEVELS, PACE
from rules.computer.play import choose
from rules.engine import Game
from rules.kaiten.state import Fetch
from rules.registry import GAMES
from rules.sushidice.game import Chop, Yuck

SEAT_TYPES = (*LEVELS, "random", "standin", "pv")
BOARD_INTERVAL = 1.0  # cogs/games/sushidice/cog.py PUBLIC_BOARD_INTERVAL
MAX_ACTIONS = 20_000
MAX_SECONDS = 3_600.0  # a Sushi Dice game's simulated clock


def random_move(
    game: Game[Any, Any], state: Any, seat: int, rng: random.Random, published: int | None
) -> Any:
    legal = game.legal_actions(state, seat)
    if game.id == "kaiten":
        # The random player chooses where to reach; its chopsticks hold as often as a computer's.
        fetches = sorted({action.cell for action in legal if isinstance(action, Fetch)})
        others = [action for action in legal if not isinstance(action, Fetch)]
        choice = rng.randrange(len(fetches) + len(others))
        if choice < len(fetches):
            from rules.kaiten.computer import success

            return Fetch(fetches[choice], success(state, rng))
        return others[choice - len(fetches)]
    if game.id == "sushidice":
        legal = [a for a in legal if not isinstance(a, Yuck | Chop) or a.seen == published]
        return rng.choice(legal) if legal else None
    return rng.choice(legal)


def standin_move(game: Game[Any, Any], state: Any, seat: int) -> Any:
    play = getattr(game, "computer_action", None)
    return play(state, seat) if play is not None else game.default_action(state, seat)


ROLLOUTS: int | None = None
"""--rollouts: hard's budget instead of its own (experiments)."""


def move(kind: str, game: Game[Any, Any], state: Any, seat: int, seed: int, published: int | None) -> Any:
    if kind in LEVELS:
        return choose(game, state, seat, kind, seed, published=published, rollouts=ROLLOUTS)  # type: ignore[arg-type]
    if kind == "random":
        return random_move(game, state, seat, random.Random(seed), published)
    if kind == "standin":
        if game.id == "sushidice" and state.phase == "duel" and game.dice_of(state, seat) is None:  # type: ignore[attr-defined]
            return None  # the stand-in never calls Chop! unprompted
        return standin_move(game, state, seat)
    if kind == "pv":
        from heuristic_sushigo import pv_pick

        return pv_pick(state, seat)
    raise ValueError(kind)


def record(times: dict[str, list[float]], kind: str, started: float, used: float) -> None:
    """A decision's wall time under `kind`, and its CPU time under `kind` + CPU: on a machine shared with
    other work the wall time counts the waits for a core, the CPU time only the thinking."""
    times.setdefault(kind, []).append(time.perf_counter() - started)
    times.setdefault(kind + CPU, []).append(time.process_time() - used)


CPU = " cpu"


def play_turns(
    game: Game[Any, Any], state: Any, kinds: list[str], seed: int, times: dict[str, list[float]]
) -> None:
    steps = 0
    while not game.is_over(state):
        for seat in sorted(game.to_move(state)):
            if seat not in game.to_move(state):
                continue
            started, used = time.perf_counter(), time.process_time()
            action = move(kinds[seat], game, state, seat, seed * 1_000_003 + steps, None)
            record(times, kinds[seat], started, used)
            game.apply(state, seat, action)
            steps += 1
        if steps > MAX_ACTIONS:
            raise RuntimeError(f"{game.id}: no end after {steps} actions (seed {seed})")


def play_realtime(
    game: Game[Any, Any], state: Any, kinds: list[str], seed: int, times: dict[str, list[float]]
) -> None:
    """Sushi Dice on a simulated clock (see the module doc)."""
    rng = random.Random(seed)
    pace = [PACE[kind if kind in LEVELS else "normal"] for kind in kinds]  # type: ignore[index]
    due = [rng.uniform(0, p.click) for p in pace]
    boards: list[tuple[float, int]] = [(0.0, 0)]
    next_board = BOARD_INTERVAL
    steps = 0
    while not game.is_over(state):
        seat = min(range(len(kinds)), key=lambda s: (due[s], s))
        now = due[seat]
        while next_board <= now:
            boards.append((next_board, state.throws))
            next_board += BOARD_INTERVAL
        if now > MAX_SECONDS or steps > MAX_ACTIONS:
            raise RuntimeError(f"sushidice: no end by {now:.0f} s, {steps} actions (seed {seed})")
        due[seat] = now + pace[seat].click * rng.uniform(0.8, 1.2)
        if seat not in game.to_move(state):
            continue
        seen = max((stamp for at, stamp in boards if at <= now - pace[seat].reaction), default=None)
        started, used = time.perf_counter(), time.process_time()
        action = move(kinds[seat], game, state, seat, seed * 1_000_003 + steps, seen)
        record(times, kinds[seat], started, used)
        if action is not None:
            game.apply(state, seat, action)
            steps += 1


def one_game(
    args: tuple[str, int, list[str], int, int | None],
) -> tuple[list[str], list[float], list[int], dict[str, list[float]]]:
    global ROLLOUTS
    game_id, players, kinds, seed, ROLLOUTS = args
    game = GAMES[game_id]
    state = game.new(players, seed)
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    if game_id == "sushidice":
        play_realtime(game, state, kinds, seed, times)
    else:
        play_turns(game, state, kinds, seed, times)
    ranking = game.ranking(state)
    winners = [seat for seat in range(players) if ranking[seat] == 1]
    credit = [1 / len(winners) if seat in winners else 0.0 for seat in range(players)]
    return kinds, credit, game.scores(state), times


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def interval(values: list[float], seats: int) -> tuple[float, float]:
    """95% confidence interval of a mean win share per seat (normal approximation over the games);
    when every game gave the same value, Wilson's interval on how often the type won a game."""
    share = statistics.fmean(values)
    spread = statistics.pstdev(values) if len(values) > 1 else 0.0
    if spread > 0:
        half = 1.96 * spread / math.sqrt(len(values))
        return max(0.0, share - half), min(1.0, share + half)
    games, won = len(values), share * seats
    z = 1.96
    centre = (won + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(won * (1 - won) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half) / seats, min(1.0, centre + half) / seats


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", required=True, choices=sorted(GAMES))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seats", required=True, help="comma-separated seat types, one per seat")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--rollouts", type=int, default=None, help="hard's budget instead of its own")
    options = parser.parse_args(argv)
    game = GAMES[options.game]
    if not game.min_players <= options.players <= game.max_players:
        parser.error(f"{game.title} takes {game.min_players} to {game.max_players} players")
    listed = [kind.strip() for kind in options.seats.split(",") if kind.strip()]
    for kind in listed:
        if kind not in SEAT_TYPES or (kind == "pv" and options.game != "sushigo"):
            parser.error(f"unknown seat type {kind!r} for {options.game}")
    seats = [listed[i % len(listed)] for i in range(options.players)]
    jobs = [
        (
            options.game,
            options.players,
            [seats[(i - g) % options.players] for i in range(options.players)],
            options.seed * 100_000 + g,
            options.rollouts,
        )
        for g in range(options.games)
    ]
    started = time.perf_counter()
    if options.jobs > 1:
        with ProcessPoolExecutor(options.jobs) as pool:
            results = list(pool.map(one_game, jobs, chunksize=1))
    else:
        results = [one_game(job) for job in jobs]
    elapsed = time.perf_counter() - started

    types = sorted(set(seats), key=seats.index)
    per_game: dict[str, list[float]] = {kind: [] for kind in types}
    gaps: dict[str, list[float]] = {kind: [] for kind in types}
    times: dict[str, list[float]] = {kind + part: [] for kind in types for part in ("", CPU)}
    for kinds, credit, scores, game_times in results:
        for kind in types:
            mine = [seat for seat in range(options.players) if kinds[seat] == kind]
            per_game[kind].append(sum(credit[seat] for seat in mine) / len(mine))
            for seat in mine:
                others = [scores[o] for o in range(options.players) if o != seat]
                gaps[kind].append(scores[seat] - sum(others) / len(others))
            for part in ("", CPU):
                times[kind + part].extend(game_times.get(kind + part, []))
    fair = 1 / options.players
    figures: dict[str, Any] = {
        "game": options.game,
        "players": options.players,
        "seats": seats,
        "games": options.games,
        "fair_share": round(fair, 4),
        "seconds": round(elapsed, 1),
        "types": {},
    }
    print(
        f"{game.title}, {options.players} players, {options.games} games, seats {','.join(seats)}"
        f" ({elapsed:.0f} s)"
    )
    print(
        f"{'seat type':<9} {'win share':>9} {'95% CI':>15} {'fair':>5} {'score diff':>10}"
        f" {'p50 ms':>8} {'p99 ms':>8} {'cpu p50':>8} {'cpu p99':>8} {'moves':>7}"
    )
    for kind in types:
        values = per_game[kind]
        share = statistics.fmean(values)
        low, high = interval(values, seats.count(kind))
        gap = statistics.fmean(gaps[kind])
        p50, p99 = percentile(times[kind], 0.5) * 1e3, percentile(times[kind], 0.99) * 1e3
        cpu50, cpu99 = (percentile(times[kind + CPU], share) * 1e3 for share in (0.5, 0.99))
        figures["types"][kind] = {
            "seats": seats.count(kind),
            "win_share": round(share, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "score_diff": round(gap, 2),
            "decision_ms": {"p50": round(p50, 2), "p99": round(p99, 2)},
            "decision_cpu_ms": {"p50": round(cpu50, 2), "p99": round(cpu99, 2)},
            "decisions": len(times[kind]),
        }
        print(
            f"{kind:<9} {share:>9.3f} {f'[{low:.3f}, {high:.3f}]':>15} {fair:>5.2f} {gap:>+10.2f}"
            f" {p50:>8.2f} {p99:>8.2f} {cpu50:>8.2f} {cpu99:>8.2f} {len(times[kind]):>7}"
        )
    print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
