"""Sushi Go! — pick a card, pass the hand, score sets over three rounds (GAMES.md, "Sushi Go!").

Every turn is simultaneous: each seat secretly picks one card (two with chopsticks) from its
hand; a pick is final once made. When the last seat has picked, all picks are revealed and
placed in the owners' tableaux, and each hand passes left (seat i -> i+1). When the hands
hold one card each, those cards are placed automatically as part of the same reveal, the
round is scored and everything but puddings is discarded. Puddings score after round 3.

A pick leaves the hand at once and waits in `picks` until the reveal, so the hand shown to a
player is always the hand they will pass on.

Refusal codes:
- game_over: the game has ended.
- already_picked: this seat has already picked this turn; a pick cannot be changed.
- not_your_turn (seat): the seat is not at the table (also from default_action for a seat that may not act).
- unknown_card (card): the name is not a Sushi Go! card.
- card_not_in_hand (card, held): the hand holds fewer of that card than the pick needs.
- no_chopsticks: a second card needs chopsticks already in the player's tableau.
- unknown_action (kind): not a Pick (also raised by decode_action for an unknown "type").
- malformed_action (kind): decode_action got fields that do not make a Pick.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, TypedDict, overload

from rules.codec import ActionCodec, Codecs, StateCodec
from rules.engine import Action, Event, IllegalAction, Rng, ViewHeader, shared_ranks, table_options
from rules.sushigo.codec import STATE_VERSION, dump_state, load_state
from rules.sushigo.scoring import CARDS, DECK, is_card, round_breakdown, score_puddings, wasabi_slots, worth
from rules.sushigo.state import PAIR, SINGLE, Pick, Reveal, SushiGoState

HAND_SIZE: dict[int, int] = {2: 10, 3: 9, 4: 8, 5: 7}
ROUNDS = 3


# ---------------------------------------------------------------- what players see


SushiGoPhase = Literal["picking", "over"]
"""Every turn is one simultaneous "picking" phase; "over" once the third round and the puddings are scored."""


class SushiGoReveal(TypedDict):
    """The latest reveal: per seat the cards placed in order (the auto-placed last card included)."""

    round: int
    turn_number: int
    """The turn of the round that was revealed, from 1."""
    cards: list[list[str]]
    chopsticks: list[bool]
    """Per seat: took two cards with chopsticks (the first two of `cards`)."""


class SushiGoView(ViewHeader):
    """`view(state, None)`: what the whole table sees.

    Header: `turn` is always None (picks are simultaneous); `round` is the round, from 1 (still 3
    once over); `phase` is always a `SushiGoPhase`. `last` holds the events of the
    latest reveal, as `apply` reported them (the secret "picked" events left out).
    """

    phase: SushiGoPhase

    rounds: int
    turn_number: int
    """The turn within the round, from 1: reveals so far this round + 1 (a counter, not a seat)."""
    hand_size: int
    """Cards every hand held at the start of this turn."""
    picked: list[bool]
    """Per seat: has picked this turn (what was picked stays secret until the reveal)."""
    tableaux: list[list[str]]
    wasabi_slots: list[list[str | None]]
    puddings: list[int]
    """Per seat: puddings kept so far, this round's included."""
    round_points: list[list[dict[str, int]]]
    """Per finished round, per seat: round_breakdown() (CATEGORIES, "total", "rolls")."""
    pudding_points: list[int] | None
    """Per seat, once the game is over."""
    deck_size: int
    discard_size: int
    reveal: SushiGoReveal | None


class SushiGoPrivateView(SushiGoView):
    """`view(state, seat)`: the table's view plus that seat's own hand and pending pick."""

    hand: list[str]
    pick: list[str] | None
    can_use_chopsticks: bool


# ---------------------------------------------------------------- the game


class SushiGoGame(Codecs[SushiGoState, Pick]):
    id = "sushigo"
    title = "Sushi Go!"
    min_players = 2
    max_players = 5
    options: ClassVar[dict[str, tuple[str, ...]]] = {}

    _codec = StateCodec(SushiGoState, STATE_VERSION, dump=dump_state, load=load_state)
    _actions = ActionCodec(Pick)

    # -------------------------------------------------------- setup

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> SushiGoState:
        options = table_options(self, players, options)
        state = SushiGoState(players=players, rng=Rng(seed), options=options)
        state.deck = [card for card, copies in DECK.items() for _ in range(copies)]
        state.rng.shuffle(state.deck)
        state.tableaux = [[] for _ in range(players)]
        state.puddings = [0] * players
        state.scores = [0] * players
        state.pudding_points = [0] * players
        self._deal(state)
        return state

    def _deal(self, state: SushiGoState) -> None:
        size = HAND_SIZE[state.players]
        state.hands = [state.deck[seat * size : (seat + 1) * size] for seat in range(state.players)]
        del state.deck[: size * state.players]
        state.picks = [None] * state.players
        state.turn = 1

    # -------------------------------------------------------- whose move

    def to_move(self, state: SushiGoState) -> frozenset[int]:
        if state.over:
            return frozenset()
        return frozenset([seat for seat, pick in enumerate(state.picks) if pick is None])

    def legal_actions(self, state: SushiGoState, seat: int) -> list[Pick]:
        if state.over or seat not in range(state.players) or state.picks[seat] is not None:
            return []  # not among to_move
        hand = state.hands[seat]
        kinds = [card for card in CARDS if card in hand]
        actions = [SINGLE[card] for card in kinds]
        if "chopsticks" in state.tableaux[seat]:
            actions += [
                PAIR[first, second]
                for first in kinds
                for second in kinds
                if first != second or hand.count(first) >= 2
            ]
        return actions

    def default_action(self, state: SushiGoState, seat: int) -> Pick:
        """Greedy: the pick that most raises the seat's estimated tableau value."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("not_your_turn", seat=seat)
        tableau = state.tableaux[seat]
        hand_size = len(state.hands[seat])

        def gain(pick: Pick) -> float:
            after = [*tableau, *pick.cards]
            if pick.second is not None:
                after.remove("chopsticks")
            return worth(after, hand_size - 1) - worth(tableau, hand_size - 1)

        return max(legal, key=gain)  # max keeps the first of equals: deterministic

    # -------------------------------------------------------- playing

    def apply(self, state: SushiGoState, seat: int, action: Action) -> list[Event]:
        """Any action may arrive (a caller past decode_action): all but a well-formed Pick is refused."""
        # The checks of `require` written out: apply runs on every click and in every search.
        if state.over:
            raise IllegalAction("game_over")
        picks = state.picks
        if 0 <= seat < state.players and picks[seat] is not None:
            raise IllegalAction("already_picked")
        if not 0 <= seat < state.players:  # not among to_move (whose picks are all None here)
            raise IllegalAction("not_your_turn", seat=seat)
        if not isinstance(action, Pick):
            raise IllegalAction("unknown_action", kind=getattr(action, "kind", None))
        card, second = action.card, action.second
        cards = (card,) if second is None else (card, second)
        for each in cards:
            if not is_card(each):
                raise IllegalAction("unknown_card", card=each)
        hand = state.hands[seat]
        held = hand.count(card)
        if held < (2 if second == card else 1):
            raise IllegalAction("card_not_in_hand", card=card, held=held)
        if second is not None and second != card and second not in hand:
            raise IllegalAction("card_not_in_hand", card=second, held=0)
        if second is not None and "chopsticks" not in state.tableaux[seat]:
            raise IllegalAction("no_chopsticks")

        for each in cards:
            hand.remove(each)
        picks[seat] = action
        events: list[Event] = [{"type": "picked", "seat": seat}]
        for pick in picks:  # not `None in picks`: that calls Pick.__eq__ on every pick
            if pick is None:
                return events
        events += self._reveal(state)
        return events

    def _reveal(self, state: SushiGoState) -> list[Event]:
        events: list[Event] = []
        placed: list[list[str]] = []
        chopsticks: list[bool] = []
        for seat, pick in enumerate(state.picks):
            assert pick is not None
            tableau = state.tableaux[seat]
            card, second = pick.card, pick.second
            tableau.append(card)
            used = second is not None
            if second is not None:  # the chopsticks leave the tableau and travel on with the hand
                tableau.append(second)
                tableau.remove("chopsticks")
                state.hands[seat].append("chopsticks")
            placed.append([card] if second is None else [card, second])
            chopsticks.append(used)
            events.append(
                {
                    "type": "revealed",
                    "seat": seat,
                    "cards": [card] if second is None else [card, second],
                    "chopsticks": used,
                }
            )
        state.hands = state.hands[-1:] + state.hands[:-1]  # each hand passes left: seat i -> i + 1
        state.picks = [None] * state.players
        state.last = Reveal(round=state.round, turn=state.turn, cards=placed, chopsticks=chopsticks)
        state.turn += 1
        if all(len(hand) == 1 for hand in state.hands):  # the last card is placed without a choice
            for seat, hand in enumerate(state.hands):
                card = hand.pop()
                state.tableaux[seat].append(card)
                placed[seat].append(card)
                events.append({"type": "placed_last", "seat": seat, "card": card})
        if not any(state.hands):
            events += self._end_round(state)
        return events

    def _end_round(self, state: SushiGoState) -> list[Event]:
        breakdown = round_breakdown(state.tableaux)
        state.round_points.append(breakdown)
        for seat, tableau in enumerate(state.tableaux):
            state.scores[seat] += breakdown[seat]["total"]
            kept = tableau.count("pudding")
            state.puddings[seat] += kept
            state.discard.extend(card for card in tableau if card != "pudding")
        state.tableaux = [[] for _ in range(state.players)]
        events: list[Event] = [
            {"type": "round_scored", "round": state.round, "points": [p["total"] for p in breakdown]}
        ]
        if state.round < ROUNDS:
            state.round += 1
            self._deal(state)
            events.append({"type": "round_started", "round": state.round, "hand_size": len(state.hands[0])})
            return events
        state.pudding_points = score_puddings(state.puddings)
        for seat, points in enumerate(state.pudding_points):
            state.scores[seat] += points
        state.hands = [[] for _ in range(state.players)]
        state.over = True
        events.append({"type": "puddings_scored", "points": list(state.pudding_points)})
        events.append({"type": "game_over", "scores": list(state.scores), "ranking": self.ranking(state)})
        return events

    # -------------------------------------------------------- results

    def is_over(self, state: SushiGoState) -> bool:
        return state.over

    def scores(self, state: SushiGoState) -> list[int]:
        return list(state.scores)

    def _pudding_counts(self, state: SushiGoState) -> list[int]:
        return [
            kept + tableau.count("pudding")
            for kept, tableau in zip(state.puddings, state.tableaux, strict=True)
        ]

    def ranking(self, state: SushiGoState) -> list[int]:
        puddings = self._pudding_counts(state)
        return shared_ranks([(state.scores[seat], puddings[seat]) for seat in range(state.players)])

    # -------------------------------------------------------- what players see

    @overload
    def view(self, state: SushiGoState, seat: int) -> SushiGoPrivateView: ...
    @overload
    def view(self, state: SushiGoState, seat: None) -> SushiGoView: ...
    @overload
    def view(self, state: SushiGoState, seat: int | None) -> SushiGoView: ...

    def view(self, state: SushiGoState, seat: int | None) -> SushiGoView:
        # A pick has already left its hand, so count it back: every hand held this many at the turn's start.
        pick0 = state.picks[0]
        hand_size = len(state.hands[0]) + (len(pick0.cards) if pick0 is not None else 0)
        reveal = state.last
        phase: SushiGoPhase = "over" if state.over else "picking"
        public: SushiGoView = {
            "seat": None,
            "to_move": sorted(self.to_move(state)),
            "turn": None,  # picks are simultaneous
            "round": state.round,
            "phase": phase,
            "over": state.over,
            "scores": list(state.scores),
            "ranking": self.ranking(state) if state.over else None,
            "last": self._last_events(state),
            "rounds": ROUNDS,
            "turn_number": state.turn,
            "hand_size": hand_size,
            "picked": [pick is not None for pick in state.picks],
            "tableaux": [list(tableau) for tableau in state.tableaux],
            "wasabi_slots": [wasabi_slots(tableau) for tableau in state.tableaux],
            "puddings": self._pudding_counts(state),
            "round_points": [[dict(points) for points in seats] for seats in state.round_points],
            "pudding_points": list(state.pudding_points) if state.over else None,
            "deck_size": len(state.deck),
            "discard_size": len(state.discard),
            "reveal": None
            if reveal is None
            else {
                "round": reveal.round,
                "turn_number": reveal.turn,
                "cards": [list(cards) for cards in reveal.cards],
                "chopsticks": list(reveal.chopsticks),
            },
        }
        if seat is None:
            return public
        pick = state.picks[seat]
        mine: SushiGoPrivateView = {
            **public,
            "seat": seat,
            "hand": list(state.hands[seat]),
            "pick": list(pick.cards) if pick is not None else None,
            "can_use_chopsticks": seat in self.to_move(state) and "chopsticks" in state.tableaux[seat],
        }
        return mine

    def _last_events(self, state: SushiGoState) -> list[Event]:
        """The latest reveal as the events `apply` reported for it (the secret "picked" ones left out).

        Which seat picked last is not kept; a pick shows in `picked` until the reveal.
        """
        reveal = state.last
        if reveal is None:
            return []
        events: list[Event] = []
        placed: list[Event] = []
        for seat, (cards, used) in enumerate(zip(reveal.cards, reveal.chopsticks, strict=True)):
            picked = 2 if used else 1  # anything beyond the pick is the hand's last card
            events.append({"type": "revealed", "seat": seat, "cards": cards[:picked], "chopsticks": used})
            placed += [{"type": "placed_last", "seat": seat, "card": card} for card in cards[picked:]]
        events += placed
        if not placed or not state.round_points:  # the round goes on
            return events
        events.append(
            {
                "type": "round_scored",
                "round": reveal.round,
                "points": [p["total"] for p in state.round_points[-1]],
            }
        )
        if not state.over:
            events.append(
                {"type": "round_started", "round": state.round, "hand_size": HAND_SIZE[state.players]}
            )
            return events
        events.append({"type": "puddings_scored", "points": list(state.pudding_points)})
        events.append({"type": "game_over", "scores": list(state.scores), "ranking": self.ranking(state)})
        return events


GAME = SushiGoGame()
