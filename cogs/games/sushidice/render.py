"""Sushi Dice in words and emoji: the public duel message, a duelist's private panel, events.

Everything here reads `game.view(...)` (through a `TableContext`) and the catalog; no rule is
decided here. What a duelist's panel shows of the OPPONENT comes from the view the public board
last published (`shown`), never from the live state: a panel must not reveal a throw before the
board does, or its holder would call a Yuck! the table refuses as "not shown yet".
"""

from __future__ import annotations

from collections import Counter
from typing import Any, TypeAlias

import discord

from cogs.kit import limits
from cogs.kit.cards import Section
from cogs.kit.messages import Board
from cogs.kit.words import bidi
from cogs.kit.words.text import is_rtl, join_list, number, plural
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog, ResultNotes
from rules.engine import Action, Event
from rules.sushidice.game import (
    BringBack,
    Challenge,
    DuelistView,
    Ring,
    Roll,
    SetAside,
    SushiDiceState,
    SushiDiceView,
)

Context: TypeAlias = TableContext[SushiDiceState, Action, SushiDiceView]
"""A Sushi Dice table: `ctx.public()` is a SushiDiceView."""
Cog: TypeAlias = GameCog[SushiDiceState, Action, SushiDiceView]
"""The Sushi Dice cog, as its boards see it: its builders take Sushi Dice actions."""

FACE_EMOJI = {
    "maguro": "🐟",
    "sake": "🍣",
    "ebi": "🍤",
    "tamago": "🥚",
    "kappa": "🥒",
    "star": "⭐",
    "yuck": "🤢",
}
UNTHROWN = "🎲"
COMBO_EMOJI = "🍱"
COMBO_PICTURE = (
    COMBO_EMOJI
    + " "
    + "".join(FACE_EMOJI[face] for face in ("maguro", "sake", "ebi", "tamago", "kappa", "star"))
)
SET_COLOURS = {"red": discord.Colour.red(), "blue": discord.Colour.blue()}
SET_MARKS = {"red": "🔴", "blue": "🔵"}
DICE_PER_ROW = 3
SCORE_UNIT = "sushidice.results.plates"
"""The plural catalog key a Sushi Dice score is counted in (the cog's `score_unit`)."""


# ---------------------------------------------------------------- small pieces


def emoji(face: str | None) -> str:
    return UNTHROWN if face is None else FACE_EMOJI[face]


def plate_name(ctx: Context, plate: str) -> str:
    return ctx.t(f"sushidice.plate.{plate}")


def plate_picture(ctx: Context, plate: str) -> str:
    """A plate in emoji: the combo's six faces, or one sushi ×6 (the count in the language's digits)."""
    if plate == "combo":
        return COMBO_PICTURE
    return ctx.t("sushidice.plate.six", emoji=FACE_EMOJI[plate], count=6)


def plates_line(ctx: Context, view: SushiDiceView) -> str:
    """The face-up plates on one line, pictured, and how many are left face down."""
    return ctx.t("sushidice.board.plates", plates=plates_shown(ctx, view), pile=view["pile"])


def plates_shown(ctx: Context, view: SushiDiceView, besides: list[int] | None = None) -> str:
    """The face-up plates, numbered and pictured, alike ones pictured once ("`1` `3` 🍤 ×6"), but those
    `besides` (a panel's plates to ring, each on a line of its own)."""
    slots: dict[str, list[int]] = {}
    for slot, plate in enumerate(view["face_up"]):
        if slot not in (besides or ()):
            slots.setdefault(plate, []).append(slot)
    return " · ".join(
        ctx.t(
            "sushidice.plate.item",
            n=" ".join(ctx.t("sushidice.plate.number", n=slot + 1) for slot in alike),
            picture=plate_picture(ctx, plate),
        )
        for plate, alike in slots.items()
    )


def label_name(ctx: Context, seat: int) -> str:
    """A player's name on a button or a menu option: as stored (a label shows no markdown, so nothing
    is escaped: "Maxi_99", not "Maxi\\_99"), within a label's length, isolated (in a right-to-left
    language a Latin one too: "Dr. Wolfgang" stays one piece, in its order)."""
    name = bidi.name(limits.clip(bidi.plain(ctx.plain_name(seat)).strip(), limits.BUTTON_LABEL))
    return bidi.isolate(name) if is_rtl(ctx.locale) else name


def set_name(ctx: Context, colour: str) -> str:
    return ctx.t(f"sushidice.set.{colour}")


def duelist_of(view: SushiDiceView, seat: int) -> DuelistView | None:
    return next((duelist for duelist in view["duelists"] if duelist["seat"] == seat), None)


def _marks(ctx: Context, duelist: DuelistView) -> list[str]:
    """What stands out about a duelist's dice: a plate to ring for (a yuck shows as its 🤢, and by the
    calls it opens: Yuck! on the opponent's panel, Chop! on the board when both show one)."""
    marks: list[str] = []
    complete = duelist["complete"]
    if len(complete) == 1:
        marks.append(ctx.t("sushidice.board.can_ring", n=complete[0] + 1))
    elif complete:  # "plates 1 and 3", with the language's own conjunction
        plates = join_list((number(slot + 1, ctx.locale) for slot in complete), ctx.locale)
        marks.append(ctx.t("sushidice.board.can_ring_plates", plates=plates))
    return marks


def dice_shown(ctx: Context, duelist: DuelistView) -> str:
    """A duelist's dice in a few emoji: the thrown ones, then 📌 those set aside."""
    faces = duelist["faces"]
    if all(face is None for face in faces):
        return ctx.t("sushidice.board.unthrown")
    kept = duelist["set_aside"]
    loose = " ".join(emoji(face) for face, aside in zip(faces, kept, strict=True) if not aside)
    aside = " ".join(emoji(face) for face, aside in zip(faces, kept, strict=True) if aside)
    if aside:
        key = "sushidice.board.dice_kept" if loose else "sushidice.board.dice_all_kept"
        return ctx.t(key, thrown=loose, kept=aside)
    return loose


def duelist_line(
    ctx: Context, duelist: DuelistView, player: str | None = None, kind: str = "sushidice.board.duelist"
) -> str:
    """One duelist on one line: set and name (`player`: as given, a mention on a live board), thrown
    dice, 📌 the ones set aside, and what stands out; `kind` names the line's wording (the board's, or
    a panel's line of the opponent as the board shows them)."""
    marks = _marks(ctx, duelist)
    return ctx.t(
        f"{kind}_marked" if marks else f"{kind}_line",
        set=SET_MARKS[duelist["set"]],
        player=ctx.name(duelist["seat"]) if player is None else player,
        dice=dice_shown(ctx, duelist),
        marks=" · ".join(marks),
    )


def standings(ctx: Context, view: SushiDiceView) -> str:
    """Everyone's plates on one line, each player with their own count (a count shared by several is
    still said for each: a number after a list reads as the last one's only), the most first and
    the fewest last (who gets the blue set after a Chop!), and the count that wins."""
    # In a right-to-left line each name is an isolate of its own: Latin names side by side would
    # otherwise run together left to right, their order turned around.
    named = (lambda seat: bidi.isolate(ctx.name(seat))) if is_rtl(ctx.locale) else ctx.name
    seats = sorted(range(len(view["plates"])), key=lambda seat: (-len(view["plates"][seat]), seat))
    standing = " · ".join(
        ctx.t("sushidice.board.standing", player=named(seat), count=len(view["plates"][seat]))
        for seat in seats
    )
    return plural("sushidice.board.standings", view["target"], ctx.locale, standing=standing)


def ended_line(ctx: Context, view: SushiDiceView) -> str | None:
    """How the duel before this one ended (a plate taken, a Chop!), while the next one is on."""
    ended = view["ended"]
    if ended is None:
        return None
    if ended["type"] == "rang":  # how many plates that makes: the standings say
        return ctx.t(
            "sushidice.board.ended_rang", player=ctx.name(ended["seat"]), plate=plate_name(ctx, ended["name"])
        )
    return ctx.t("sushidice.board.ended_chop", player=ctx.name(ended["seat"]))


def describe_last(ctx: Context, view: SushiDiceView) -> str | None:
    """The board's "last thing that happened" line: the latest action's headline event."""
    return describe_event(ctx, view["last"][0], view) if view["last"] else None


def describe_event(ctx: Context, event: Event, view: SushiDiceView) -> str | None:
    """One event in words, None for the events the board does not describe: a challenge (the duelists'
    lines say who duels), a throw, a die set aside or brought back (their dice show it)."""
    kind = event["type"]
    if kind == "yuck":
        # The caller is the other duelist; the target, by the set whose line is just above.
        target = duelist_of(view, event["target"])
        named = ctx.name(event["target"]) if target is None else set_name(ctx, target["set"])
        return ctx.t("sushidice.last.yuck", target=named)
    if kind == "rang":
        return ctx.t(
            "sushidice.last.rang",
            player=ctx.name(event["seat"]),
            plate=plate_name(ctx, event["name"]),
            count=event["plates"],
        )
    return None


# ---------------------------------------------------------------- the public board


def board(cog: Cog, ctx: Context) -> Board:
    """The public board: names, never "you" (it speaks to the table); a dozen lines at six players,
    one screen on a phone with six long names. The players to act are mentioned where the board names
    them (a live board: a replay names them), each said once.

    The hint to the controls shows during the first duel only, never in a replay; the rules are
    behind the table's "How to play".
    """
    view = ctx.public()
    if view["over"]:
        return _over_board(ctx, view)
    live = not ctx.replaying
    named = ctx.mention if live else ctx.name
    items: list[discord.ui.Item[Any]] = []
    embed = discord.Embed(colour=discord.Colour.orange())
    if view["phase"] == "challenge":
        host = view["host"]
        embed.title = ctx.t("sushidice.title.challenge")
        embed.description = "\n".join(
            [ctx.t("sushidice.board.challenge", host=named(host)), plates_line(ctx, view)]
        )
        items = [
            cog.action_button(ctx, Challenge(seat), label_name(ctx, seat), emoji="⚔️", row=0)
            for seat in range(ctx.players)
            if seat != host
        ]
        return Board(embed=embed, items=items)
    red, blue = view["duelists"]
    embed.title = ctx.t("sushidice.title.duel", duel=view["duel"])
    lines = [
        ended_line(ctx, view),
        plates_line(ctx, view),
        duelist_line(ctx, red, named(red["seat"])),
        duelist_line(ctx, blue, named(blue["seat"])),
    ]
    opened = view["last"] and view["last"][0]["type"] in ("rang", "chop")  # said by the ended line
    lines += [None if opened else describe_last(ctx, view), standings(ctx, view)]
    embed.description = "\n".join(line for line in lines if line)
    if live and view["duel"] == 1:
        hint = "sushidice.board.footer_chop" if ctx.players > 2 else "sushidice.board.footer_duel"
        embed.set_footer(text=ctx.t(hint))
    if ctx.players > 2:
        items.append(
            cog.ui_button(
                ctx,
                f"chop.{view['stamp']}",  # a Chop! names the board it was pressed on
                ctx.t("sushidice.board.chop_button"),
                emoji="🔪",
                style=discord.ButtonStyle.danger,
                disabled=not view["chop_possible"],
                row=0,
            )
        )
    return Board(embed=embed, items=items)


def _over_board(ctx: Context, view: SushiDiceView) -> Board:
    """The board at the end: the winning plate; the standings are the results message's."""
    embed = discord.Embed(title=ctx.t("sushidice.title.over"), colour=discord.Colour.gold())
    last = describe_last(ctx, view)
    if last:
        embed.description = last
    content = ctx.t("sushidice.content.over") if not ctx.replaying else None
    return Board(content=content, embed=embed)


# ---------------------------------------------------------------- the results


def plates_count(ctx: Context, count: int) -> str:
    """How Sushi Dice counts a score: "1 plate", "5 plates"."""
    return plural(SCORE_UNIT, count, ctx.locale)


def result_notes(ctx: Context) -> ResultNotes:
    """Each player's score as the rulebook counts it: the plates they won, kind by kind.

    Ranks follow plates and equal counts share a rank (GAMES.md): no tie-break ever decides one,
    so none is named.
    """
    view = ctx.public()
    return ResultNotes(
        breakdown={seat: plates_taken(ctx, plates) for seat, plates in enumerate(view["plates"])}
    )


def plates_taken(ctx: Context, plates: list[str]) -> str:
    """The plates a seat won, by kind, in the order first taken: "🐟 maguro ×2 · 🍱 combo"."""
    if not plates:
        return ctx.t("sushidice.explain.none")
    return " · ".join(
        ctx.t(
            "sushidice.explain.plate_many" if count > 1 else "sushidice.explain.plate",
            emoji=FACE_EMOJI.get(plate, COMBO_EMOJI),
            name=ctx.t(f"sushidice.explain.{plate}"),
            count=count,
        )
        for plate, count in Counter(plates).items()
    )


# ---------------------------------------------------------------- a duelist's panel


def private_board(cog: Cog, ctx: Context, seat: int, *, shown: SushiDiceView | None = None) -> Board:
    """The private controls of a seat; `shown` is the public view the board last published
    (None: unknown, so the opponent shows nothing and Yuck! stays off).

    A duelist's panel, one screen on a phone: the news (the duel before, a Yuck! on them), the plates
    still to throw for, the opponent as the board shows them, then each plate they may ring beside its
    bell, and their six dice as buttons (each showing its face: 📌 set aside), Roll and Yuck!.
    """
    view = ctx.private(seat)
    if view["over"]:
        return Board(content=ctx.t("sushidice.panel.over"))
    if view["phase"] == "challenge":
        key = "sushidice.panel.challenge_host" if seat == view["host"] else "sushidice.panel.challenge_wait"
        return Board(content=ctx.t(key))
    red, blue = view["duelists"]
    mine = duelist_of(view, seat)
    if mine is None:
        return Board(
            content=ctx.t(
                "sushidice.panel.watching",
                duel=view["duel"],
                red=ctx.name(red["seat"]),
                blue=ctx.name(blue["seat"]),
            )
        )
    other = blue if mine is red else red
    embed = discord.Embed(
        title=ctx.t("sushidice.panel.title", set=set_name(ctx, mine["set"]), duel=view["duel"]),
        colour=SET_COLOURS[mine["set"]],
    )
    ended = ended_line(ctx, view)
    lines = [ended] if ended and all(face is None for face in mine["faces"]) else []
    last = view["last"][0] if view["last"] else None
    if last and last["type"] == "yuck" and last["target"] == seat:
        lines.append(ctx.t("sushidice.panel.yucked"))
    plates = plates_shown(ctx, view, besides=mine["complete"])  # those to ring: beside their bell
    if plates:  # how many lie face down is the board's
        lines.append(ctx.t("sushidice.panel.plates", plates=plates))
    seen = shown_duelist(shown, view, other["seat"])
    if seen is None:
        lines.append(
            ctx.t(
                "sushidice.panel.opponent_line",
                set=SET_MARKS[other["set"]],
                player=ctx.name(other["seat"]),
                dice=ctx.t("sushidice.panel.opponent_nothing"),
            )
        )
    else:
        lines.append(duelist_line(ctx, seen, kind="sushidice.panel.opponent"))
    if mine["yuck"]:
        lines.append(ctx.t("sushidice.panel.my_yuck"))
    embed.description = "\n".join(lines)
    embed.set_footer(text=ctx.t("sushidice.panel.hint"))
    board = None if shown is None or seen is None else shown["stamp"]
    return Board(
        embed=embed,
        items=_panel_items(cog, ctx, seat, mine, seen, board),
        sections=_ring_sections(cog, ctx, seat, view, mine),
    )


def shown_duelist(shown: SushiDiceView | None, view: SushiDiceView, seat: int) -> DuelistView | None:
    """A duelist as the board last showed them, if the board already shows the current duel."""
    if shown is None or shown["duel"] != view["duel"] or shown["phase"] != "duel":
        return None
    return duelist_of(shown, seat)


def _ring_sections(
    cog: Cog, ctx: Context, seat: int, view: SushiDiceView, mine: DuelistView
) -> list[Section]:
    """Each plate the dice show, as a line (its number and picture, and the plates it brings the seat
    to) with its bell beside it; the bell's label keeps the number (two combos look alike)."""
    count, target = len(view["plates"][seat]) + 1, view["target"]
    sections: list[Section] = []
    for slot in mine["complete"]:
        plate = view["face_up"][slot]
        line = ctx.t(
            "sushidice.panel.ringable_win" if count >= target else "sushidice.panel.ringable",
            n=slot + 1,
            picture=plate_picture(ctx, plate),
            count=count,
            target=target,
        )
        bell = cog.action_button(
            ctx,
            Ring(slot),
            ctx.t("sushidice.panel.ring_plate", n=slot + 1),
            emoji="🔔",
            style=discord.ButtonStyle.success,
            seat=seat,
        )
        sections.append((line, bell))
    return sections


def _panel_items(
    cog: Cog,
    ctx: Context,
    seat: int,
    mine: DuelistView,
    seen: DuelistView | None,
    board: int | None,
) -> list[discord.ui.Item[Any]]:
    """The six dice (each its face and number, 📌 when set aside: a click sets it aside or brings it
    back), then Roll and Yuck!, and a greyed bell while no plate is there to ring (the plates to ring
    are sections, each beside its own bell)."""
    items: list[discord.ui.Item[Any]] = []
    for die, (face, kept) in enumerate(zip(mine["faces"], mine["set_aside"], strict=True)):
        row = die // DICE_PER_ROW
        if face is None:
            items.append(
                cog.ui_button(
                    ctx,
                    f"die.{die}",
                    ctx.t("sushidice.panel.unthrown", n=die + 1),
                    emoji=UNTHROWN,
                    disabled=True,
                    row=row,
                    seat=seat,
                )
            )
        else:
            # A set-aside die offers to come back; a thrown one to be set aside.
            action, word, style = (
                (BringBack(die), "bring_back", discord.ButtonStyle.success)
                if kept
                else (SetAside(die), "set_aside", discord.ButtonStyle.secondary)
            )
            items.append(
                cog.action_button(
                    ctx,
                    action,
                    ctx.t(f"sushidice.panel.{word}", n=die + 1),
                    emoji=emoji(face),
                    style=style,
                    row=row,
                    seat=seat,
                )
            )
    items.append(
        cog.action_button(
            ctx,
            Roll(),
            ctx.t("sushidice.panel.roll"),
            emoji="🎲",
            disabled=Roll() not in cog.game.legal_actions(ctx.live, seat),
            row=2,
            seat=seat,
        )
    )
    items.append(
        cog.ui_button(
            ctx,
            "yuck" if board is None else f"yuck.{board}",  # a Yuck! names the board its panel shows
            ctx.t("sushidice.panel.yuck"),
            emoji="🤢",
            style=discord.ButtonStyle.danger,
            disabled=not (seen is not None and seen["yuck"]),
            row=2,
            seat=seat,
        )
    )
    if not mine["complete"]:
        items.append(
            cog.ui_button(
                ctx, "ring", ctx.t("sushidice.panel.ring"), emoji="🔔", disabled=True, row=2, seat=seat
            )
        )
    return items
