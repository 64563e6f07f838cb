"""Rule-engine throughput: random legal play through every game, printed as actions per second.

.venv/bin/python bench/bench_engines.py [games per engine]
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import GAMES


def play(game_id: str, games: int) -> tuple[int, float, float]:
    """(actions, seconds in apply/legal_actions, seconds in dump+load) over `games` games."""
    game = GAMES[game_id]
    actions, playing, codec = 0, 0.0, 0.0
    for seed in range(games):
        chooser = random.Random(seed)
        state = game.new(game.max_players, seed)
        for _ in range(5_000):
            if game.is_over(state):
                break
            started = time.perf_counter()
            seat = chooser.choice(sorted(game.to_move(state)))
            legal = game.legal_actions(state, seat)
            action = game.default_action(state, seat) if chooser.random() < 0.5 else chooser.choice(legal)
            game.apply(state, seat, action)
            playing += time.perf_counter() - started
            started = time.perf_counter()
            state = game.load(json.loads(json.dumps(game.dump(state))))
            codec += time.perf_counter() - started
            actions += 1
    return actions, playing, codec


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"{'game':<12} {'actions':>8} {'actions/s':>10} {'µs/action':>10} {'µs dump+load':>13}")
    for game_id in sorted(GAMES):
        actions, playing, codec = play(game_id, games)
        print(
            f"{game_id:<12} {actions:>8} {actions / playing:>10.0f} {playing / actions * 1e6:>10.1f}"
            f" {codec / actions * 1e6:>13.1f}"
        )


if __name__ == "__main__":
    main()
