"""Rule engines: random-play games/s, pure and with the bot's per-click dump+load, and µs per call.

    .venv/bin/python bench/engines.py [seconds per figure, default 1.0] [game ...]

Per game and seat count (the smallest, 4 where allowed, the largest):
- games/s: uniform random play (every seat that may act picks uniformly among its legal actions)
  as a pure engine, and again with `load(dump(state))` after every action — what the bot does per
  click (pipeline: load the stored state, apply, dump it for storage);
- µs per call of legal_actions, apply, view (a random seat's, or the table's), dump and load, timed
  one call at a time along random games, and dump+load ÷ apply (the issue's target: ≤ 2).
Each figure is the best of 5 rounds, games/s counted in the process's CPU time (a shared machine
disturbs some rounds; the best is the engine's own speed); pass more seconds for steadier figures.
A game that has not ended after 3,000 actions is cut off and counts as played (Sushi Dice rarely
ends under random play); the number of cut-off games is shown. The last line is JSON for tools.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.registry import GAMES

MAX_ACTIONS = 3_000
ROUNDS = 5


def seat_counts(game: Any) -> list[int]:
    return sorted({game.min_players, min(max(4, game.min_players), game.max_players), game.max_players})


def random_game(game: Any, players: int, seed: int, after: Callable[[Any], Any] | None) -> tuple[int, bool]:
    """Play one uniform random game; (actions, cut off). `after(state)` -> the state to go on with."""
    chooser = random.Random(seed)
    state = game.new(players, seed)
    for count in range(MAX_ACTIONS):
        if game.is_over(state):
            return count, False
        seat = chooser.choice(sorted(game.to_move(state)))
        game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
        if after is not None:
            state = after(state)
    return MAX_ACTIONS, True


def games_per_second(game: Any, players: int, budget: float, codec: bool) -> tuple[float, float, int]:
    """(games/s, actions/s, games cut off): the best of ROUNDS rounds of random play, budget/ROUNDS
    seconds each (the best round is the one least disturbed by other work on the machine)."""
    after = (lambda state: game.load(game.dump(state))) if codec else None
    best_games = best_actions = 0.0
    cut = seed = 0
    for _ in range(ROUNDS):
        games = actions = 0
        started = time.process_time()
        while True:
            played, cut_off = random_game(game, players, 1_000 + seed, after)
            seed, games, actions, cut = seed + 1, games + 1, actions + played, cut + cut_off
            elapsed = time.process_time() - started
            if elapsed >= budget / ROUNDS and games >= 2:
                break
        best_games, best_actions = max(best_games, games / elapsed), max(best_actions, actions / elapsed)
    return best_games, best_actions, cut


def per_call(game: Any, players: int, budget: float) -> dict[str, float]:
    """µs per call of each protocol function, each call timed on its own along random games; per
    function the best of ROUNDS rounds' means."""
    best: dict[str, float] = {}
    clock = time.perf_counter
    seed = 5_000
    for _ in range(ROUNDS):
        spent = dict.fromkeys(("legal_actions", "apply", "view", "dump", "load"), 0.0)
        calls = 0
        started = clock()
        while clock() - started < budget / ROUNDS or calls < 50:
            chooser = random.Random(seed)
            state = game.new(players, seed)
            seed += 1
            for _ in range(MAX_ACTIONS):
                if game.is_over(state) or clock() - started > budget:
                    break
                seat = chooser.choice(sorted(game.to_move(state)))
                t0 = clock()
                legal = game.legal_actions(state, seat)
                t1 = clock()
                game.apply(state, seat, chooser.choice(legal))
                t2 = clock()
                game.view(state, chooser.choice([None, *range(players)]))
                t3 = clock()
                data = game.dump(state)
                t4 = clock()
                state = game.load(data)
                t5 = clock()
                spent["legal_actions"] += t1 - t0
                spent["apply"] += t2 - t1
                spent["view"] += t3 - t2
                spent["dump"] += t4 - t3
                spent["load"] += t5 - t4
                calls += 1
        for name, seconds in spent.items():
            best[name] = min(best.get(name, float("inf")), seconds / calls * 1e6)
    return best


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    chosen = sys.argv[2:] or sorted(GAMES)
    rows = []
    print(
        f"{'game':<12}{'seats':>5} {'games/s':>9} {'+dump/load':>10} {'cut':>4} │ µs per call: "
        f"{'legal':>6} {'apply':>6} {'view':>6} {'dump':>6} {'load':>6} │ {'(d+l)/apply':>11}"
    )
    for game_id in chosen:
        game = GAMES[game_id]
        for players in seat_counts(game):
            pure, pure_actions, cut = games_per_second(game, players, budget, codec=False)
            stored, stored_actions, _ = games_per_second(game, players, budget, codec=True)
            micro = per_call(game, players, budget)
            ratio = (micro["dump"] + micro["load"]) / micro["apply"]
            rows.append(
                {
                    "game": game_id,
                    "players": players,
                    "games_per_s": round(pure, 1),
                    "games_per_s_dump_load": round(stored, 1),
                    "actions_per_s": round(pure_actions),
                    "actions_per_s_dump_load": round(stored_actions),
                    "us": {name: round(value, 2) for name, value in micro.items()},
                    "dump_load_over_apply": round(ratio, 2),
                }
            )
            print(
                f"{game_id:<12}{players:>5} {pure:>9.1f} {stored:>10.1f} {cut:>4} │ {'':13}"
                f"{micro['legal_actions']:>6.1f} {micro['apply']:>6.1f} {micro['view']:>6.1f}"
                f" {micro['dump']:>6.1f} {micro['load']:>6.1f} │ {ratio:>11.2f}",
                flush=True,
            )
    print(json.dumps({"bench": "engines", "seconds_per_figure": budget, "rows": rows}))


if __name__ == "__main__":
    main()
