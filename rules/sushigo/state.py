"""Sushi Go!'s action and state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from rules.engine import Action, Rng
from rules.sushigo.scoring import CARDS


@dataclass(frozen=True)
class Pick(Action):
    """Take `card` from the hand; `second` too when using chopsticks from the tableau."""

    kind: ClassVar[str] = "pick"
    card: str
    second: str | None = None

    @property
    def cards(self) -> tuple[str, ...]:
        return (self.card,) if self.second is None else (self.card, self.second)


# Picks are immutable values: legal_actions hands out these shared ones instead of building new ones.
SINGLE: dict[str, Pick] = {card: Pick(card) for card in CARDS}
PAIR: dict[tuple[str, str], Pick] = {
    (first, second): Pick(first, second) for first in CARDS for second in CARDS
}


@dataclass
class Reveal:
    """What the latest reveal placed: per seat the cards in order (auto-placed last card included)."""

    round: int
    turn: int
    cards: list[list[str]]
    chopsticks: list[bool]


@dataclass
class SushiGoState:
    players: int
    rng: Rng
    options: dict[str, str] = field(default_factory=dict[str, str])
    round: int = 1
    turn: int = 1
    deck: list[str] = field(default_factory=list[str])
    hands: list[list[str]] = field(default_factory=list[list[str]])
    picks: list[Pick | None] = field(default_factory=list[Pick | None])
    tableaux: list[list[str]] = field(default_factory=list[list[str]])
    puddings: list[int] = field(default_factory=list[int])
    """Puddings kept from finished rounds (the current round's are still in the tableau)."""
    discard: list[str] = field(default_factory=list[str])
    scores: list[int] = field(default_factory=list[int])
    round_points: list[list[dict[str, int]]] = field(default_factory=list[list[dict[str, int]]])
    """Per finished round, per seat: round_breakdown() of that round."""
    pudding_points: list[int] = field(default_factory=list[int])
    last: Reveal | None = None
    over: bool = False
