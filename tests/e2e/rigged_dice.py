"""Sushi Dice with rigged dice and slowed clocks, for every end-to-end module that plays it.

The `dice` fixture wraps the engine's one throwing function (`SushiDiceGame._throw`) so that a test
can say what a set's NEXT throw shows (`dice.then("blue", "ebi ebi ebi yuck ebi ebi")`). The engine
still draws from its RNG as usual (the game stays reproducible), and the scripted faces then replace
the dice that were thrown; a set with nothing queued throws at random. A scripted throw is
remembered by its serial, so a replay of the game from its log (the transcript check after each
test) throws the same dice again.

A module plays with them by importing both fixtures (`scripted_throws`, `dice`) and naming them in
its `__all__`; its seeds it fixes itself (`pytest.mark.seed`, tests/seeds.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

from cogs.games.sushidice.cog import COMPUTER_DELAY, PUBLIC_BOARD_INTERVAL
from rules.sushidice.game import DICE, Ring, Roll, SushiDiceGame
from tests.e2e.helpers import Player, Table, play_a_move

SEED = 7
"""The seed the Sushi Dice modules deal every game from."""

# simcord lets a bot timer fire once its virtual time has come OR that much real time has passed,
# and waits (in real time) for timers due within its settle time-out. So the table's real-time
# clocks run SCALE times slower here: no real second can reach a board refresh or a computer's
# move, every virtual step is longer than the settle time-out, and the bot still has real time
# to spare for each click on a busy machine.
SCALE = 30
INTERVAL = PUBLIC_BOARD_INTERVAL * SCALE
COMPUTER = COMPUTER_DELAY * SCALE
STEP = 0.1 * SCALE  # a moment of play between clicks
PUBLISHED = INTERVAL + STEP  # long enough for the public board to show the latest state


def slow_clocks(env: Any) -> None:
    """The Sushi Dice cog's real-time clocks `SCALE` times slower."""
    cog = env.bot.get_cog("SushiDiceCog")
    cog.board_refresh_interval = INTERVAL
    cog.computer_delay = COMPUTER


class DiceScript:
    """What the next throws of each set show: a queue of six faces per colour."""

    def __init__(self) -> None:
        self.queued: dict[str, list[list[str]]] = {"red": [], "blue": []}
        self.thrown: dict[tuple[str, int], list[str]] = {}
        """(colour, throw serial) -> the faces scripted for that throw."""

    def then(self, colour: str, faces: str) -> None:
        shown = faces.split()
        assert len(shown) == 6 and all(face in DICE[die] for die, face in enumerate(shown)), faces
        self.queued[colour].append(shown)

    def throw(self, state: Any, dice_set: Any, thrown: list[int], event: Any) -> Any:
        """Show the faces scripted for this throw, if any, on the dice just thrown."""
        key = (dice_set.colour, state.throws)
        if key not in self.thrown and self.queued[dice_set.colour]:
            self.thrown[key] = self.queued[dice_set.colour].pop(0)
        faces = self.thrown.get(key)
        if faces is not None:
            for die in thrown:
                dice_set.faces[die] = faces[die]
            dice_set.dated(state.throws)  # a yuck scripted in, or out, is dated by this throw
            event["faces"] = list(dice_set.faces)
        return event


_script = [DiceScript()]  # the current test's script; it outlives the test for the transcript check


@pytest.fixture(scope="module", autouse=True)
def scripted_throws() -> Iterator[None]:
    """The engine throws through the current script for the whole module, so that the transcript
    check after each test, which replays the game from its log, throws the same dice again."""
    throw = SushiDiceGame._throw

    def scripted(game: SushiDiceGame, state: Any, dice_set: Any, thrown: list[int]) -> Any:
        return _script[0].throw(state, dice_set, thrown, throw(game, state, dice_set, thrown))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SushiDiceGame, "_throw", scripted)
        yield


@pytest.fixture(autouse=True)
def dice() -> DiceScript:
    """A new script for each test."""
    _script[0] = DiceScript()
    return _script[0]


def plate_faces(plate: str) -> str:
    return "star maguro sake ebi tamago kappa" if plate == "combo" else " ".join([plate] * 6)


async def duel_to_the_end(
    table: Table,
    players: dict[int, Player],
    script: DiceScript,
    first_duel: Callable[[Player], Awaitable[None]] | None = None,
) -> None:
    """Sushi Dice: the host challenges, then in each duel one duelist throws the dice of a face-up
    plate (rigged) on their panel and rings the bell for it, until someone owns enough plates;
    `first_duel` is shown the first duel's ringer, their panel open, before they throw."""
    for _ in range(40):
        ctx = await table.live()
        if ctx is None:
            return
        view = ctx.public()
        if view["phase"] == "challenge":
            await play_a_move(players, ctx)
            continue
        ringer = view["duelists"][0]["seat"]
        colour = view["duelists"][0]["set"]
        player = players[ringer]
        if player.opened is None:
            await player.open_panel()
        if first_duel is not None:
            await first_duel(player)
            first_duel = None
        script.then(colour, plate_faces(view["face_up"][0]))
        assert await player.play(ctx.game.id, Roll())
        ctx = await table.live()
        assert ctx is not None
        ring = next(a for a in ctx.game.legal_actions(ctx.state, ringer) if isinstance(a, Ring))
        assert await player.play(ctx.game.id, ring)
    raise AssertionError("the game did not end")
