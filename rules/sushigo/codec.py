"""Sushi Go!'s own dump and load of its state, by hand for the hottest path (every click): the
compiled codec's output byte for byte, sharing what the engine never changes in place."""

from __future__ import annotations

from rules.engine import JSON, Rng
from rules.sushigo.state import PAIR, SINGLE, Pick, Reveal, SushiGoState

STATE_VERSION = 1
_new = object.__new__  # an instance without __init__: the loader sets its __dict__ whole


def dump_state(state: SushiGoState) -> JSON:
    """The compiled encoder's dump, written out by hand to share what is never changed in place: it
    runs on every click. Key order and shapes are the compiled codec's, byte for byte
    (tests/rules/test_codec.py).

    The finished rounds' breakdowns (round_points' inner lists) and the latest Reveal's lists are
    history: the engine appends a new round or replaces `last` whole, never edits them (as the
    computer's rollouts already rely on), so the dump and the state share them instead of copying
    ~30 small lists and dicts per click. Everything apply mutates is copied."""
    last = state.last
    return {
        "v": STATE_VERSION,
        "players": state.players,
        "rng": state.rng.state,
        "options": dict(state.options),
        "round": state.round,
        "turn": state.turn,
        "deck": list(state.deck),
        "hands": list(map(list, state.hands)),
        "picks": [
            None if pick is None else {"card": pick.card, "second": pick.second} for pick in state.picks
        ],
        "tableaux": list(map(list, state.tableaux)),
        "puddings": list(state.puddings),
        "discard": list(state.discard),
        "scores": list(state.scores),
        "round_points": list(state.round_points),
        "pudding_points": list(state.pudding_points),
        "last": None
        if last is None
        else {
            "round": last.round,
            "turn": last.turn,
            "cards": last.cards,
            "chopsticks": last.chopsticks,
        },
        "over": state.over,
    }


PICKS: dict[tuple[str, str | None], Pick] = {
    **{(card, None): pick for card, pick in SINGLE.items()},
    **PAIR,
}
"""Every possible pick by its stored fields: the loader hands out these shared ones."""


def load_pick(data: JSON) -> Pick:
    """A pick PICKS lacks (a card not in the deck: kept as stored, as the compiled decoder does)."""
    return Pick(data["card"], data["second"])


def load_state(data: JSON) -> SushiGoState | None:
    """The compiled decoder by hand, sharing with `data` only the history `dump_state` shares; None
    (left to the compiled decoder, which fills in defaults) when a field is missing, as in a state
    stored before it existed."""
    try:
        last = data["last"]
        if last is not None:
            reveal = _new(Reveal)
            reveal.__dict__ = {
                "round": last["round"],
                "turn": last["turn"],
                "cards": last["cards"],
                "chopsticks": last["chopsticks"],
            }
            last = reveal
        state = _new(SushiGoState)
        state.__dict__ = {  # what the dataclass's __init__ would store, without its call
            "players": data["players"],
            "rng": Rng(int(data["rng"])),
            "options": dict(data["options"]),
            "round": data["round"],
            "turn": data["turn"],
            "deck": list(data["deck"]),
            "hands": list(map(list, data["hands"])),
            "picks": [
                None if pick is None else PICKS.get((pick["card"], pick["second"])) or load_pick(pick)
                for pick in data["picks"]
            ],
            "tableaux": list(map(list, data["tableaux"])),
            "puddings": list(data["puddings"]),
            "discard": list(data["discard"]),
            "scores": list(data["scores"]),
            "round_points": list(data["round_points"]),
            "pudding_points": list(data["pudding_points"]),
            "last": last,
            "over": data["over"],
        }
        return state
    except KeyError:
        return None
