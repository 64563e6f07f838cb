"""Sushi Go!'s cards and how they score (GAMES.md, "Sushi Go!"): sets, nigiri on wasabi, maki, puddings."""

from __future__ import annotations

from collections import Counter

DECK: dict[str, int] = {
    "tempura": 14,
    "sashimi": 14,
    "dumpling": 14,
    "maki1": 6,
    "maki2": 12,
    "maki3": 8,
    "salmon": 10,
    "squid": 5,
    "egg": 5,
    "pudding": 10,
    "wasabi": 6,
    "chopsticks": 4,
}
CARDS: tuple[str, ...] = tuple(DECK)
"""Every card name, in the order menus and legal_actions list them."""

NIGIRI: dict[str, int] = {"egg": 1, "salmon": 2, "squid": 3}
MAKI_ROLLS: dict[str, int] = {"maki1": 1, "maki2": 2, "maki3": 3}
DUMPLING_POINTS: tuple[int, ...] = (0, 1, 3, 6, 10, 15)
MAKI_AWARDS: tuple[int, int] = (6, 3)
PUDDING_AWARD = 6
CATEGORIES: tuple[str, ...] = ("tempura", "sashimi", "dumpling", "nigiri", "maki")
"""Point categories of a round's breakdown; wasabi's tripling counts under nigiri."""


def is_card(value: object) -> bool:
    """A card's name, checked where a forged action may carry anything."""
    return isinstance(value, str) and value in DECK


def _check_cards(cards: list[str]) -> None:
    for card in cards:
        if card not in DECK:
            raise ValueError(f"unknown card {card!r}")


def maki_awards(rolls: list[int]) -> list[int]:
    """6 for most rolls, 3 for second; ties split rounded down; a tie for most gives no second."""
    awards = [0] * len(rolls)
    ranked = sorted({r for r in rolls if r > 0}, reverse=True)
    if not ranked:
        return awards
    first = [seat for seat, r in enumerate(rolls) if r == ranked[0]]
    for seat in first:
        awards[seat] = MAKI_AWARDS[0] // len(first)
    if len(first) == 1 and len(ranked) > 1:
        second = [seat for seat, r in enumerate(rolls) if r == ranked[1]]
        for seat in second:
            awards[seat] = MAKI_AWARDS[1] // len(second)
    return awards


def nigiri(tableau: list[str]) -> tuple[int, int]:
    """Nigiri points (each on the earliest unused wasabi played before it) and wasabi left unused."""
    points = 0
    unused_wasabi = 0
    for card in tableau:
        if card == "wasabi":
            unused_wasabi += 1
        elif card in NIGIRI and unused_wasabi:
            unused_wasabi -= 1
            points += 3 * NIGIRI[card]
        elif card in NIGIRI:
            points += NIGIRI[card]
    return points, unused_wasabi


def wasabi_slots(tableau: list[str]) -> list[str | None]:
    """Per wasabi in play order, the nigiri placed on it (each nigiri on the earliest free one) or None."""
    slots: list[str | None] = []
    for card in tableau:
        if card == "wasabi":
            slots.append(None)
        elif card in NIGIRI and None in slots:
            slots[slots.index(None)] = card
    return slots


def _set_points(tableau: list[str]) -> dict[str, int]:
    """Points of one tableau that do not depend on other players (everything but maki)."""
    count = Counter(tableau)
    return {
        "tempura": 5 * (count["tempura"] // 2),
        "sashimi": 10 * (count["sashimi"] // 3),
        "dumpling": DUMPLING_POINTS[min(count["dumpling"], len(DUMPLING_POINTS) - 1)],
        "nigiri": nigiri(tableau)[0],
    }


def _rolls(tableau: list[str]) -> int:
    return sum(MAKI_ROLLS.get(card, 0) for card in tableau)


def round_breakdown(tableaux: list[list[str]]) -> list[dict[str, int]]:
    """Per seat: points per category (CATEGORIES), "total", and "rolls" (maki rolls, not points)."""
    for tableau in tableaux:
        _check_cards(tableau)
    rolls = [_rolls(tableau) for tableau in tableaux]
    breakdown: list[dict[str, int]] = []
    for tableau, maki, roll_count in zip(tableaux, maki_awards(rolls), rolls, strict=True):
        points = {**_set_points(tableau), "maki": maki}
        breakdown.append({**points, "total": sum(points.values()), "rolls": roll_count})
    return breakdown


def score_round(tableaux: list[list[str]]) -> list[int]:
    """Round points per seat from the tableaux (cards in the order played)."""
    return [points["total"] for points in round_breakdown(tableaux)]


def score_puddings(puddings: list[int]) -> list[int]:
    """+6 to most puddings, -6 to fewest (not with 2 players); ties split rounded down; all equal: 0."""
    points = [0] * len(puddings)
    if len(set(puddings)) <= 1:
        return points
    most = [seat for seat, p in enumerate(puddings) if p == max(puddings)]
    for seat in most:
        points[seat] += PUDDING_AWARD // len(most)
    if len(puddings) > 2:
        fewest = [seat for seat, p in enumerate(puddings) if p == min(puddings)]
        for seat in fewest:
            points[seat] -= PUDDING_AWARD // len(fewest)
    return points


def worth(tableau: list[str], picks_left: int) -> float:
    """A rough value of a tableau mid-round: exact points plus hope for unfinished sets."""
    count = Counter(tableau)
    points = _set_points(tableau)
    value = float(sum(points.values()))
    if picks_left >= 1 and count["tempura"] % 2:
        value += 2.0
    if count["sashimi"] % 3 and picks_left >= 3 - count["sashimi"] % 3:
        value += 3.0 * (count["sashimi"] % 3)
    if picks_left >= 2 and nigiri(tableau)[1]:
        value += 2.5
    value += 0.9 * _rolls(tableau)
    value += 1.5 * count["pudding"]
    if picks_left >= 3:
        value += 1.5 * min(count["chopsticks"], 1)
    return value
