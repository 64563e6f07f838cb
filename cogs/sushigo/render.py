"""Sushi Go! rendering: the public board, the private hand, the chopsticks steps, round reports and
how the final scores came about.

Everything here is drawn from `GAME.view(...)` (and the engine's own scoring function for the
running round); nothing decides a rule. The public board is built from `view(None)` only, so it
can never show a hand or a pick that has not been revealed.
"""

from __future__ import annotations

from collections import Counter
from typing import TypeAlias

import discord

from cogs.i18n import join_list, plural, signed
from cogs.tables.boards import medal
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog, ResultNotes
from cogs.tables.ui import Board
from rules.engine import Event
from rules.sushigo.game import SushiGoPrivateView, SushiGoView
from rules.sushigo.scoring import CARDS, CATEGORIES, MAKI_ROLLS, NIGIRI, round_breakdown
from rules.sushigo.state import Pick, SushiGoState

Context: TypeAlias = TableContext[SushiGoState, Pick, SushiGoView, SushiGoPrivateView]
"""A Sushi Go! table: `ctx.public()` is a SushiGoView, `ctx.private(seat)` a SushiGoPrivateView."""
Cog: TypeAlias = GameCog[SushiGoState, Pick, SushiGoView, SushiGoPrivateView]
"""The Sushi Go! cog, as its boards see it: its builders take Sushi Go! actions."""

EMOJI: dict[str, str] = {
    "tempura": "🍤",
    "sashimi": "🐟",
    "dumpling": "🥟",
    "maki1": "🍥",
    "maki2": "🍥",
    "maki3": "🍥",
    "salmon": "🍣",
    "squid": "🦑",
    "egg": "🥚",
    "pudding": "🍮",
    "wasabi": "🟢",
    "chopsticks": "🥢",
}
CATEGORY_EMOJI: dict[str, str] = {
    "tempura": "🍤",
    "sashimi": "🐟",
    "dumpling": "🥟",
    "nigiri": "🍣",
    "maki": "🍥",
}
COLOUR = discord.Colour.from_rgb(232, 93, 74)


def card_name(ctx: Context, card: str) -> str:
    return ctx.t(f"sushigo.card.{card}")


def card_label(ctx: Context, card: str) -> str:
    return f"{EMOJI.get(card, '🍱')} {card_name(ctx, card)}"


def hand_lines(ctx: Context, hand: list[str]) -> str:
    """A hand grouped and counted, in menu order."""
    count = Counter(hand)
    lines = [
        ctx.t("sushigo.group.count", card=card_label(ctx, card), count=count[card])
        for card in CARDS
        if count[card]
    ]
    return "\n".join(lines) or ctx.t("sushigo.group.empty")


def tableau_lines(ctx: Context, tableau: list[str], slots: list[str | None]) -> str:
    """Cards in front of a player, grouped: maki as rolls, nigiri on wasabi together, free wasabi apart."""
    count = Counter(tableau)
    on_wasabi = Counter(card for card in slots if card is not None)
    lines: list[str] = []
    maki_shown = False
    for card in CARDS:
        if not count[card]:
            continue
        if card in MAKI_ROLLS:
            if not maki_shown:
                rolls = sum(MAKI_ROLLS[name] * count[name] for name in MAKI_ROLLS)
                lines.append(
                    ctx.t("sushigo.group.maki", rolls=plural("sushigo.count.roll", rolls, ctx.locale))
                )
                maki_shown = True
        elif card in NIGIRI:
            plain = count[card] - on_wasabi[card]
            if on_wasabi[card]:
                lines.append(
                    ctx.t(
                        "sushigo.group.on_wasabi",
                        emoji=EMOJI[card],
                        card=card_name(ctx, card),
                        count=on_wasabi[card],
                    )
                )
            if plain:
                lines.append(ctx.t("sushigo.group.count", card=card_label(ctx, card), count=plain))
        elif card == "wasabi":
            free = slots.count(None)
            if free:
                lines.append(ctx.t("sushigo.group.free_wasabi", count=free))
        else:
            lines.append(ctx.t("sushigo.group.count", card=card_label(ctx, card), count=count[card]))
    return "\n".join(lines) or ctx.t("sushigo.group.empty")


def _cards(ctx: Context, cards: list[str]) -> str:
    return " + ".join(card_label(ctx, card) for card in cards)


# ---------------------------------------------------------------- the public board


def board(cog: Cog, ctx: Context) -> Board:
    view = ctx.public()
    if view["over"]:
        return _final_board(ctx, view)
    picked = view["picked"]
    waiting = [ctx.mention(seat) for seat in view["to_move"]]
    status = " · ".join(
        ctx.t("sushigo.board.picked" if picked[seat] else "sushigo.board.not_picked", name=ctx.name(seat))
        for seat in range(ctx.players)
    )
    embed = discord.Embed(
        title=ctx.t(
            "sushigo.board.title", round=view["round"], rounds=view["rounds"], turn=view["turn_number"]
        ),
        description=ctx.t("sushigo.board.playing")
        + "\n"
        + plural("sushigo.board.hand_size", view["hand_size"], ctx.locale)
        + "\n\n"
        + status,
        colour=COLOUR,
    )
    so_far = round_breakdown(view["tableaux"])
    for seat in range(ctx.players):
        value = plural("sushigo.board.round_so_far", so_far[seat]["total"], ctx.locale) + "\n"
        value += tableau_lines(ctx, view["tableaux"][seat], view["wasabi_slots"][seat])
        embed.add_field(
            name=ctx.t(
                "sushigo.board.player",
                name=ctx.name(seat),
                score=plural("results.points", view["scores"][seat], ctx.locale),
                puddings=view["puddings"][seat],
            ),
            value=value[:1024],
            inline=True,
        )
    _add_last(ctx, embed, view)
    if view["round_points"]:
        _add_scores(ctx, embed, view)
    deck = plural("sushigo.count.card", view["deck_size"], ctx.locale)
    embed.set_footer(text=ctx.t("sushigo.board.footer", deck=deck, discard=view["discard_size"]))
    content = (
        ctx.t("sushigo.board.waiting", players=join_list(waiting, ctx.locale, style="comma"))
        if waiting
        else None
    )
    return Board(content=content, embed=embed)


def _add_last(ctx: Context, embed: discord.Embed, view: SushiGoView) -> None:
    last = view["reveal"]
    if not last:
        return
    lines = []
    for seat, cards in enumerate(last["cards"]):
        picked = 2 if last["chopsticks"][seat] else 1  # anything beyond the pick is the hand's last card
        shown = _cards(ctx, cards[:picked])
        if last["chopsticks"][seat]:
            shown = ctx.t("sushigo.board.last_chopsticks", cards=shown)
        if cards[picked:]:
            shown = ctx.t("sushigo.board.last_card", cards=shown, last=_cards(ctx, cards[picked:]))
        lines.append(ctx.t("sushigo.board.last_line", name=ctx.name(seat), cards=shown))
    embed.add_field(
        name=ctx.t("sushigo.board.last", round=last["round"], turn=last["turn_number"]),
        value="\n".join(lines)[:1024],
        inline=False,
    )


def _add_scores(ctx: Context, embed: discord.Embed, view: SushiGoView) -> None:
    lines = []
    pudding_points = view["pudding_points"]
    for seat in range(ctx.players):
        rounds = [str(points[seat]["total"]) for points in view["round_points"]]
        if pudding_points is not None:
            rounds.append(ctx.t("sushigo.board.score_pudding", points=signed(pudding_points[seat])))
        lines.append(
            ctx.t(
                "sushigo.board.score_line",
                name=ctx.name(seat),
                rounds=" · ".join(rounds),
                total=view["scores"][seat],
            )
        )
    embed.add_field(name=ctx.t("sushigo.board.scores"), value="\n".join(lines)[:1024], inline=False)


def _final_board(ctx: Context, view: SushiGoView) -> Board:
    ranking = view["ranking"]
    pudding_points = view["pudding_points"]
    assert ranking is not None and pudding_points is not None  # both are set once the game is over
    order = sorted(range(ctx.players), key=lambda seat: (ranking[seat], seat))
    lines = [
        plural(
            "sushigo.board.rank_line",
            view["scores"][seat],
            ctx.locale,
            medal=medal(ranking[seat]),
            rank=ranking[seat],
            name=ctx.mention(seat),
            puddings=view["puddings"][seat],
        )
        for seat in order
    ]
    embed = discord.Embed(
        title=ctx.t("sushigo.board.title_over"), description="\n".join(lines), colour=discord.Colour.gold()
    )
    for seat in order:
        parts = [
            ctx.t("sushigo.board.final_round", round=index + 1, points=points[seat]["total"])
            for index, points in enumerate(view["round_points"])
        ]
        parts.append(ctx.t("sushigo.board.final_pudding", points=signed(pudding_points[seat])))
        embed.add_field(name=ctx.name(seat), value="\n".join(parts), inline=True)
    _add_last(ctx, embed, view)
    return Board(embed=embed)


# ---------------------------------------------------------------- round reports


def announce(ctx: Context, events: list[Event]) -> list[str]:
    view = ctx.public()
    lines: list[str] = []
    for event in events:
        if event["type"] == "round_scored":
            lines += _round_report(ctx, view, event["round"])
        elif event["type"] == "puddings_scored":
            parts = [
                ctx.t(
                    "sushigo.announce.pudding_part", name=ctx.name(seat), count=count, points=signed(points)
                )
                for seat, (count, points) in enumerate(zip(view["puddings"], event["points"], strict=True))
            ]
            lines.append(ctx.t("sushigo.announce.puddings", parts=" · ".join(parts)))
    return lines


def _round_report(ctx: Context, view: SushiGoView, round_number: int) -> list[str]:
    breakdown = view["round_points"][round_number - 1]
    lines = [ctx.t("sushigo.announce.round", round=round_number)]
    for seat, points in enumerate(breakdown):
        parts = [
            ctx.t(
                "sushigo.announce.part",
                emoji=CATEGORY_EMOJI[category],
                category=ctx.t(f"sushigo.cat.{category}"),
                points=points[category],
            )
            for category in CATEGORIES
            if points[category]
        ]
        lines.append(
            ctx.t(
                "sushigo.announce.player",
                name=ctx.name(seat),
                total=points["total"],
                parts=" · ".join(parts) or ctx.t("sushigo.announce.nothing"),
            )
        )
    maki = [
        ctx.t(
            "sushigo.announce.maki_part",
            name=ctx.name(seat),
            rolls=points["rolls"],
            points=signed(points["maki"]),
        )
        for seat, points in enumerate(breakdown)
    ]
    lines.append(ctx.t("sushigo.announce.maki", parts=" · ".join(maki)))
    totals = [
        sum(points[seat]["total"] for points in view["round_points"][:round_number])
        for seat in range(ctx.players)
    ]
    lines.append(
        ctx.t(
            "sushigo.announce.totals",
            parts=" · ".join(
                ctx.t("sushigo.announce.total_part", name=ctx.name(seat), score=score)
                for seat, score in enumerate(totals)
            ),
        )
    )
    return lines


# ---------------------------------------------------------------- how the results came about


def result_notes(ctx: Context) -> ResultNotes:
    """Each player's rounds and puddings, and the pudding tie-break where it split equal scores."""
    view = ctx.public()
    ranking, pudding_points = view["ranking"], view["pudding_points"]
    assert ranking is not None and pudding_points is not None, "only a finished game is explained"
    breakdown: dict[int, str] = {}
    for seat in range(ctx.players):
        parts = [
            ctx.t("sushigo.explain.round", round=index + 1, points=points[seat]["total"])
            for index, points in enumerate(view["round_points"])
        ]
        parts.append(
            ctx.t(
                "sushigo.explain.puddings",
                puddings=plural("sushigo.count.pudding", view["puddings"][seat], ctx.locale),
                points=signed(pudding_points[seat]),
            )
        )
        breakdown[seat] = " · ".join(parts)
    return ResultNotes(breakdown=breakdown, tie_break=_tie_break(ctx, view, ranking))


def _tie_break(ctx: Context, view: SushiGoView, ranking: list[int]) -> str | None:
    """Words for every equal score that puddings split into different ranks; None if none was."""
    scores = view["scores"]
    notes = []
    for score in sorted(set(scores), reverse=True):
        tied = sorted(
            (seat for seat in range(ctx.players) if scores[seat] == score), key=lambda s: (ranking[s], s)
        )
        if len({ranking[seat] for seat in tied}) < 2:  # alone, or still sharing a rank: nothing was decided
            continue
        parts = " · ".join(
            ctx.t("sushigo.explain.tie_part", name=ctx.name(seat), puddings=view["puddings"][seat])
            for seat in tied
        )
        notes.append(
            ctx.t(
                "sushigo.explain.tie_break", points=plural("results.points", score, ctx.locale), parts=parts
            )
        )
    if not notes:
        return None
    # The results board marks the first note ⚖️; any further one (a second tie) gets its own line and mark.
    return "\n".join([notes[0], *(ctx.t("results.tie_break", how=note) for note in notes[1:])])


# ---------------------------------------------------------------- the private hand


def _private_embed(ctx: Context, view: SushiGoPrivateView, seat: int, text: str | None) -> discord.Embed:
    description = hand_lines(ctx, view["hand"])
    if text:
        description = text + "\n\n" + description
    embed = discord.Embed(
        title=ctx.t(
            "sushigo.private.title", round=view["round"], rounds=view["rounds"], turn=view["turn_number"]
        ),
        description=description,
        colour=COLOUR,
    )
    if view["pick"]:
        cards = view["pick"]
        shown = (
            card_label(ctx, cards[0])
            if len(cards) == 1
            else ctx.t(
                "sushigo.private.pick_two", first=card_label(ctx, cards[0]), second=card_label(ctx, cards[1])
            )
        )
        embed.add_field(
            name=ctx.t("sushigo.private.your_pick"),
            value=shown + "\n" + ctx.t("sushigo.private.pick_hidden"),
            inline=False,
        )
    embed.add_field(
        name=ctx.t("sushigo.private.tableau"),
        value=tableau_lines(ctx, view["tableaux"][seat], view["wasabi_slots"][seat])[:1024],
        inline=False,
    )
    if ctx.players > 1:
        embed.set_footer(
            text=ctx.t(
                "sushigo.private.passing",
                next=ctx.record.seats[(seat + 1) % ctx.players].name,
                previous=ctx.record.seats[(seat - 1) % ctx.players].name,
            )
        )
    return embed


def private_board(cog: Cog, ctx: Context, seat: int) -> Board:
    view = ctx.private(seat)
    content = ctx.t("sushigo.private.where", channel=ctx.channel_id)
    if view["over"]:
        return Board(content=ctx.t("sushigo.private.over", channel=ctx.channel_id))
    picking = seat in view["to_move"]
    embed = _private_embed(ctx, view, seat, ctx.t("sushigo.private.choose") if picking else None)
    board = Board(content=content, embed=embed)
    if not picking:
        return board
    singles = [action for action in cog.game.legal_actions(ctx.live, seat) if action.second is None]
    board.items.append(
        cog.action_select(
            ctx,
            [(card_label(ctx, a.card), a, ctx.t(f"sushigo.hint.{a.card}")) for a in singles],
            placeholder=ctx.t("sushigo.private.placeholder"),
            row=0,
            seat=seat,
        )
    )
    if view["can_use_chopsticks"] and _pairs(cog, ctx, seat):
        board.items.append(
            cog.ui_button(
                ctx,
                "chop",
                ctx.t("sushigo.private.use_chopsticks"),
                emoji="🥢",
                style=discord.ButtonStyle.secondary,
                row=1,
                seat=seat,
            )
        )
    return board


def _pairs(cog: Cog, ctx: Context, seat: int) -> list[Pick]:
    return [action for action in cog.game.legal_actions(ctx.live, seat) if action.second is not None]


def chopsticks_first(cog: Cog, ctx: Context, seat: int) -> Board:
    """Chopsticks, step 1: the first card (a select of the cards that can start a pair)."""
    view = ctx.private(seat)
    firsts = list(dict.fromkeys(action.card for action in _pairs(cog, ctx, seat)))
    embed = _private_embed(ctx, view, seat, ctx.t("sushigo.private.chop_first"))
    items = [
        cog.ui_select(
            ctx,
            "first",
            [(card_label(ctx, card), card, ctx.t(f"sushigo.hint.{card}")) for card in firsts],
            placeholder=ctx.t("sushigo.private.chop_first_placeholder"),
            row=0,
            seat=seat,
        ),
        cog.ui_button(ctx, "back", ctx.t("sushigo.private.back"), row=1, seat=seat),
    ]
    return Board(content=ctx.t("sushigo.private.where", channel=ctx.channel_id), embed=embed, items=items)


def chopsticks_second(cog: Cog, ctx: Context, seat: int, first: str) -> Board:
    """Chopsticks, step 2: the second card; choosing it makes the two-card pick."""
    view = ctx.private(seat)
    pairs = [(action, action.second) for action in _pairs(cog, ctx, seat) if action.card == first]
    text = ctx.t("sushigo.private.chop_second", first=card_label(ctx, first))
    embed = _private_embed(ctx, view, seat, text)
    items = [
        cog.action_select(
            ctx,
            [(card_label(ctx, second), a, ctx.t(f"sushigo.hint.{second}")) for a, second in pairs if second],
            placeholder=ctx.t("sushigo.private.chop_second_placeholder"),
            row=0,
            seat=seat,
        ),
        cog.ui_button(ctx, "back", ctx.t("sushigo.private.back"), row=1, seat=seat),
    ]
    return Board(content=ctx.t("sushigo.private.where", channel=ctx.channel_id), embed=embed, items=items)
