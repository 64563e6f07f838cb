"""Sushi Go! rendering: the public board, the private hand, the chopsticks steps, round reports and
how the final scores came about.

Everything here is drawn from `GAME.view(...)` (and the engine's own scoring function for the
running round); nothing decides a rule. The public board is built from `view(None)` only, so it
can never show a hand or a pick that has not been revealed. A table that chose pictures
(`ctx.pictures`) gets its tableaux and its final scores drawn (picture.py), and in words only the rest.
"""

from __future__ import annotations

import io
from collections import Counter
from typing import TypeAlias

import discord

from cogs.games.sushigo import picture
from cogs.kit.messages import Board
from cogs.kit.words import bidi
from cogs.kit.words.text import join_list, number, plural, signed
from cogs.tables.boards import medal
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog, ResultNotes
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
BOARD_PICTURE = "sushigo.png"
SCORES_PICTURE = "sushigo-scores.png"


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


# ---------------------------------------------------------------- the public board


def card_mark(ctx: Context, card: str) -> str:
    """A card as the public board writes it: its emoji, a maki with its rolls ("🍥3")."""
    if card in MAKI_ROLLS:
        return EMOJI[card] + number(MAKI_ROLLS[card], ctx.locale)
    return EMOJI.get(card, "🍱")


def tableau_marks(ctx: Context, tableau: list[str], slots: list[str | None]) -> str:
    """One line of emoji for the cards in front of a player, a group per kind: a nigiri on wasabi
    as 🟢🦑, a free wasabi alone, maki as their rolls."""
    count = Counter(tableau)
    on_wasabi = Counter(card for card in slots if card is not None)
    rolls = sum(MAKI_ROLLS[name] * count[name] for name in MAKI_ROLLS)
    groups: list[str] = []
    for card in CARDS:
        if card in MAKI_ROLLS:
            if rolls and card == next(iter(MAKI_ROLLS)):  # all maki as one group, in menu order
                groups.append(plural("sushigo.board.rolls", rolls, ctx.locale))
        elif card in NIGIRI:
            groups += ["🟢" + EMOJI[card]] * on_wasabi[card]
            groups.append(EMOJI[card] * (count[card] - on_wasabi[card]))
        elif card == "wasabi":
            groups.append(EMOJI[card] * slots.count(None))
        else:
            groups.append(EMOJI[card] * count[card])
    return " · ".join(group for group in groups if group) or ctx.t("sushigo.group.empty")


def board(cog: Cog, ctx: Context) -> Board:
    """The table's board: a line per player and the last reveal, short enough for five players.
    How to play is said once, on the game's first board (and always in the rules)."""
    view = ctx.public()
    if view["over"]:
        return _final_board(ctx, view)
    lines: list[str] = []
    if view["round"] == 1 and view["turn_number"] == 1 and not ctx.replaying:
        lines.append(ctx.t("sushigo.board.playing"))
    if ctx.pictures:
        return _picture_board(ctx, view, lines)
    so_far = round_breakdown(view["tableaux"])
    live = not ctx.replaying  # a replay shows the table only, mentioning nobody
    revealed = _revealed(ctx, view)
    for seat in range(ctx.players):
        tableau = view["tableaux"][seat]
        cards = tableau_marks(ctx, tableau, view["wasabi_slots"][seat])
        if revealed:  # what the latest reveal showed of this player, on their own line
            cards = ctx.t("sushigo.board.with_revealed", cards=cards, revealed=revealed[seat])
        lines.append(
            plural(
                "sushigo.board.player_round" if tableau else "sushigo.board.player",
                view["scores"][seat],
                ctx.locale,
                mark="✅" if view["picked"][seat] else "⏳",
                # Who still picks is mentioned on the live board (their own name lights up), once.
                name=ctx.mention(seat) if live and seat in view["to_move"] else ctx.name(seat),
                round=signed(so_far[seat]["total"], ctx.locale),
                puddings=view["puddings"][seat],
                cards=cards,
            )
        )
    last = view["reveal"]
    if last:
        lines.append(ctx.t("sushigo.board.last", round=last["round"], turn=last["turn_number"]))
    return Board(embed=_playing_embed(ctx, view, lines))


def _playing_embed(ctx: Context, view: SushiGoView, lines: list[str]) -> discord.Embed:
    embed = discord.Embed(
        title=ctx.t(
            "sushigo.board.title", round=view["round"], rounds=view["rounds"], turn=view["turn_number"]
        ),
        description="\n".join(lines)[:4096],
        colour=COLOUR,
    )
    embed.set_footer(
        text=plural(
            "sushigo.board.footer",
            view["hand_size"],
            ctx.locale,
            deck=view["deck_size"],
            discard=view["discard_size"],
        )
    )
    return embed


def _picture_board(ctx: Context, view: SushiGoView, lines: list[str]) -> Board:
    """The board with its picture (`picture.play_png`: each player's cards, puddings and score, who
    still picks, and the cards just revealed, framed): in words only the turn and who still picks
    (mentioned on the live board), so that a full table's board fits one screen."""
    waiting = [ctx.name(seat) if ctx.replaying else ctx.mention(seat) for seat in view["to_move"]]
    if waiting:
        lines.append(ctx.t("sushigo.picture.waiting", players=join_list(waiting, ctx.locale)))
    embed = _playing_embed(ctx, view, lines)
    png = picture.play_png(view, _picture_names(ctx), ctx.locale)
    return Board(embed=embed, files=[_attach(embed, png, BOARD_PICTURE)])


def _picture_names(ctx: Context) -> list[str]:
    return [ctx.plain_name(seat) for seat in range(ctx.players)]  # drawn, not markdown: as stored


def _attach(embed: discord.Embed, png: bytes, filename: str) -> discord.File:
    """The picture as the embed's image (the card's gallery), and the file that carries it."""
    embed.set_image(url=f"attachment://{filename}")
    return discord.File(io.BytesIO(png), filename=filename)


def results_picture(ctx: Context) -> discord.File:
    """The final scoring as a picture, for the results card."""
    return discord.File(
        io.BytesIO(picture.final_png(ctx.public(), _picture_names(ctx), ctx.locale)), filename=SCORES_PICTURE
    )


def _revealed(ctx: Context, view: SushiGoView) -> list[str]:
    """What the latest reveal showed of each seat (none before the first): 🥢 before a pair taken with
    chopsticks, + before a hand's last card."""
    last = view["reveal"]
    if not last:
        return []
    shown_by_seat: list[str] = []
    for seat, cards in enumerate(last["cards"]):
        picked = 2 if last["chopsticks"][seat] else 1  # anything beyond the pick is the hand's last card
        shown = "".join(card_mark(ctx, card) for card in cards[:picked])
        if last["chopsticks"][seat]:
            shown = ctx.t("sushigo.board.last_chopsticks", cards=shown)
        if cards[picked:]:
            rest = "".join(card_mark(ctx, card) for card in cards[picked:])
            shown = ctx.t("sushigo.board.last_card", cards=shown, last=rest)
        shown_by_seat.append(shown)
    return shown_by_seat


def _last_line(ctx: Context, view: SushiGoView) -> str | None:
    """The latest reveal on one line, each player named (the final board, where no line per player
    shows it)."""
    last = view["reveal"]
    if not last:
        return None
    parts = [
        ctx.t("sushigo.board.last_part", name=ctx.name(seat), cards=shown)
        for seat, shown in enumerate(_revealed(ctx, view))
    ]
    return ctx.t(
        "sushigo.board.last_all", round=last["round"], turn=last["turn_number"], parts=" · ".join(parts)
    )


def _final_board(ctx: Context, view: SushiGoView) -> Board:
    """The finished game (a replay's last step): each player's total, its rounds and puddings."""
    ranking = view["ranking"]
    pudding_points = view["pudding_points"]
    assert ranking is not None and pudding_points is not None  # both are set once the game is over
    if ctx.pictures:  # the scoring as a picture (`picture.final_png`), the last reveal in words
        embed = discord.Embed(
            title=ctx.t("sushigo.board.title_over"),
            description=_last_line(ctx, view),
            colour=discord.Colour.gold(),
        )
        png = picture.final_png(view, _picture_names(ctx), ctx.locale)
        return Board(embed=embed, files=[_attach(embed, png, SCORES_PICTURE)])
    order = sorted(range(ctx.players), key=lambda seat: (ranking[seat], seat))
    lines = [
        plural(
            "sushigo.board.rank_line",
            view["scores"][seat],
            ctx.locale,
            medal=medal(ranking[seat]),
            rank=ranking[seat],
            name=ctx.name(seat),
            rounds=" + ".join(number(points[seat]["total"], ctx.locale) for points in view["round_points"]),
            puddings=view["puddings"][seat],
            pudding=signed(pudding_points[seat], ctx.locale),
        )
        for seat in order
    ]
    last = _last_line(ctx, view)
    if last:
        lines.append(last)
    embed = discord.Embed(
        title=ctx.t("sushigo.board.title_over"),
        description="\n".join(lines)[:4096],
        colour=discord.Colour.gold(),
    )
    return Board(embed=embed)


# ---------------------------------------------------------------- round reports


def announce(ctx: Context, events: list[Event]) -> list[str]:
    """A round's points, category by category. The puddings and the final totals are the results'
    (`result_notes`): a total shown before the puddings are counted would be wrong by them."""
    view = ctx.public()
    lines: list[str] = []
    for event in events:
        if event["type"] == "round_scored":
            lines += _round_report(ctx, view, event["round"])
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
        if not parts:
            lines.append(ctx.t("sushigo.announce.player_nothing", name=ctx.name(seat)))
            continue
        lines.append(
            ctx.t(
                "sushigo.announce.player",
                name=ctx.name(seat),
                total=signed(points["total"], ctx.locale),
                parts=" · ".join(parts),
            )
        )
    maki = [
        ctx.t(
            "sushigo.announce.maki_part",
            name=ctx.name(seat),
            rolls=plural("sushigo.count.roll", points["rolls"], ctx.locale),
            points=signed(points["maki"], ctx.locale),
        )
        for seat, points in enumerate(breakdown)
    ]
    lines.append(ctx.t("sushigo.announce.maki", parts=" · ".join(maki)))
    if round_number == view["rounds"]:
        return lines  # the last round's totals come with the puddings, in the results
    totals = [
        sum(points[seat]["total"] for points in view["round_points"][:round_number])
        for seat in range(ctx.players)
    ]
    parts = (
        ctx.t("sushigo.announce.total_part", name=ctx.name(seat), score=score)
        for seat, score in enumerate(totals)
    )
    lines.append(ctx.t("sushigo.announce.totals", parts=" · ".join(parts)))
    return lines


# ---------------------------------------------------------------- how the results came about


def result_notes(ctx: Context) -> ResultNotes:
    """Each player's rounds and puddings (with why: the most, the fewest), and the pudding tie-break
    where it split equal scores: every number of the results, as the final totals are shown only there."""
    view = ctx.public()
    ranking, pudding_points = view["ranking"], view["pudding_points"]
    assert ranking is not None and pudding_points is not None, "only a finished game is explained"
    breakdown: dict[int, str] = {}
    for seat in range(ctx.players):
        parts = [
            ctx.t("sushigo.explain.round", round=index + 1, points=points[seat]["total"])
            for index, points in enumerate(view["round_points"])
        ]
        parts.append(_puddings(ctx, view["puddings"], seat, pudding_points[seat]))
        breakdown[seat] = " · ".join(parts)
    return ResultNotes(breakdown=breakdown, tie_break=_tie_break(ctx, view, ranking))


def _puddings(ctx: Context, puddings: list[int], seat: int, points: int) -> str:
    """A seat's pudding points with their reason: the most or the fewest (no loss at two players), shared."""
    mine = puddings[seat]
    if len(set(puddings)) == 1:
        why, sharing = "equal", 1
    elif mine == max(puddings):
        why, sharing = "most", puddings.count(mine)
    elif mine == min(puddings):
        why, sharing = ("fewest", puddings.count(mine)) if len(puddings) > 2 else ("fewest_two", 1)
    else:
        why, sharing = "between", 1
    key = f"sushigo.explain.puddings_{why}" + ("_shared" if sharing > 1 else "")
    return ctx.t(
        key,
        puddings=plural("sushigo.count.pudding", mine, ctx.locale),
        points=signed(points, ctx.locale),
        count=sharing,
    )


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
        notes.append(plural("sushigo.explain.tie_break", score, ctx.locale, parts=parts))
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
    # A footer shows no markdown: the names as stored, isolated (escaped ones would show backslashes).
    after, before = (bidi.name(ctx.plain_name(other % ctx.players)) for other in (seat + 1, seat - 1))
    if ctx.players == 2:
        embed.set_footer(text=ctx.t("sushigo.private.passing_two", other=after))
    elif ctx.players > 2:
        embed.set_footer(text=ctx.t("sushigo.private.passing", next=after, previous=before))
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
