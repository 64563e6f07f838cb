"""What the shared test suites need of a game, given by the game itself (`rules/<game>/testkit.py`,
`TESTKIT`; read through `rules.registry.Registered.testkit()`), so that no test lists games by hand.

Pure like the rest of `rules/`: data and small functions on the game's own state and actions. Values
here are the suites' seeds and step counts: changing one changes what the suites play (and the
transcripts they write).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, TypeVar

S = TypeVar("S")
A = TypeVar("A")

Patch = tuple[object, str, object]
"""(module, attribute, value): a module-level constant a test replaces for a while."""


def _nothing(state: Any, rng: random.Random) -> None:
    return None


def _never(state: Any) -> int | None:
    return None


def _itself(action: Any) -> Any:
    return action


def _no_steps(action: Any) -> tuple[str, ...]:
    return ()


def _in_order(action: Any) -> bool:
    return False


def _no_clocks(scale: float) -> list[Patch]:
    return []


def _no_options() -> Mapping[str, str]:
    return MappingProxyType({})


@dataclass(frozen=True)
class Testkit(Generic[S, A]):
    """One game's answers to the shared suites' questions."""

    # ---- hidden information (tests/rules/test_computer.py)
    hidden: tuple[tuple[int, int], ...]
    """Positions with something hidden, as (players, actions played from seed 7 by normal computers)."""
    twin: Callable[[S, int, random.Random], S]
    """The same game for `seat`: a copy with what that seat cannot know redrawn (and another Rng)."""

    # ---- chaos (tests/e2e/test_chaos.py, tests/e2e/chaos.py)
    chaos_seed: int
    chaos_steps: int
    """Steps of the game's chaos run (each costs CPU: a game drawn as a picture gets fewer)."""

    # ---- what a click costs (tests/e2e/test_rest_calls.py): every game says, a new one too
    calls_per_click: float | None
    """What a typical click of a whole 2-player game costs in requests to Discord, at most (its answer
    counted); None for a real-time game, whose clicks race its clocks (its own bench measures them)."""
    scramble: Callable[[S, random.Random], None] = _nothing
    """Redraws, in a copy of a state, every secret of a seat or of nobody (the copy's Rng is redrawn
    by the suite): the table's view must not change."""
    slowed: Callable[[float], list[Patch]] = _no_clocks
    """The game's real-time constants `scale` times slower, so that no window closes in real time."""

    # ---- computers
    published: Callable[[S], int | None] = _never
    """A real-time game: the stamp of a public board that is up to date (what a computer has seen)."""
    as_listed: Callable[[A], A] = _itself
    """A computer's action as `legal_actions` lists it (Kaiten: a fetch it may fumble is listed as one
    that succeeds)."""
    real_time: bool = False
    """Played in real time: a computer may have nothing to do, the bot's clocks run slowed in end to
    end tests and duels are played there by the game's own end-to-end player."""

    # ---- end to end (tests/e2e/)
    options: Mapping[str, str] = field(default_factory=_no_options)
    """The game's quickest table (`/<group> new` options) for whole games played through the bot."""
    interface_steps: Callable[[A], tuple[str, ...]] = _no_steps
    """The interface clicks (`u:` payloads, without the prefix) a player makes before an action's own
    button (Sushizock: the dice to set aside, toggled one by one; "Steal" before its private choice)."""
    shortcuts: Callable[[A], tuple[str, ...]] = _no_steps
    """Interface clicks (`u:` payloads, without the prefix) that make the action by themselves."""
    later: Callable[[A], bool] = _in_order
    """Moves an end-to-end player tries after the others, for a shorter game."""
    lobby_computers: int = 0
    """Computers seated at once by `/<group> new computers:` in the computers suite (the rest come by
    the lobby's button)."""
    lobby_level: str | None = None
    """The level the computers suite asks for (None: the table's default, normal)."""
    typed: tuple[str, str | None, bool] | None = None
    """A command of the game's own the first player may type as the game starts, typed in the channel
    where the table's thread opened (tests/e2e/test_channel_commands.py): (its name, an option filled
    from its autocomplete there, whether it makes a move); None: the game has none."""

    # ---- replays (tests/rules/test_replay.py, tests/e2e/test_history.py)
    steered: float = 0.0
    """How often random play takes the engine's own `computer_action` instead, so that games end
    about as soon as real ones do."""
