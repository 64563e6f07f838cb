"""Games of computers, played a number of moves in: the positions the computer tests (and their
subprocesses) start from."""

from __future__ import annotations

from typing import Any

from rules.computer.play import choose
from rules.registry import GAMES
from tests.games import kit


def play(game_id: str, players: int, seed: int, moves: int, level: str = "normal") -> Any:
    """A state `moves` actions into a game of computers."""
    game = GAMES[game_id]
    state = game.new(players, seed)
    for step in range(moves):
        if game.is_over(state):
            break
        seat = min(game.to_move(state))
        action = choose(game, state, seat, level, seed + step, published=board(game_id, state))  # type: ignore[arg-type]
        game.apply(state, seat, action if action is not None else game.legal_actions(state, seat)[0])
    return state


def board(game_id: str, state: Any) -> int | None:
    """The stamp of the public board a computer has seen (`published=`): a real-time game's is up to date."""
    return kit(game_id).published(state)
