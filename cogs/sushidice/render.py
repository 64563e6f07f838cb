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

from cogs.i18n import join_list, number, plural
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog, ResultNotes
from cogs.tables.ui import Board
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


def plate_lines(ctx: Context, face_up: list[str], complete: list[int] | None = None) -> list[str]:
    return [
        ctx.t(
            "sushidice.plate.line_complete" if slot in (complete or ()) else "sushidice.plate.line",
            n=slot + 1,
            picture=plate_picture(ctx, plate),
            name=plate_name(ctx, plate),
        )
        for slot, plate in enumerate(face_up)
    ]


def plates_line(ctx: Context, view: SushiDiceView) -> str:
    """The face-up plates on one line, pictured, and how many are left face down."""
    plates = " · ".join(
        ctx.t("sushidice.plate.item", n=slot + 1, picture=plate_picture(ctx, plate))
        for slot, plate in enumerate(view["face_up"])
    )
    return ctx.t("sushidice.board.plates", plates=plates, pile=view["pile"])


def set_name(ctx: Context, colour: str) -> str:
    return ctx.t(f"sushidice.set.{colour}")


def duelist_of(view: SushiDiceView, seat: int) -> DuelistView | None:
    return next((duelist for duelist in view["duelists"] if duelist["seat"] == seat), None)


def dice_text(ctx: Context, duelist: DuelistView) -> str:
    """A duelist's six dice as a panel shows them: thrown and set aside, counted, plus what stands out."""
    faces = duelist["faces"]
    if all(face is None for face in faces):
        return ctx.t("sushidice.board.unthrown")
    aside = [face for face, kept in zip(faces, duelist["set_aside"], strict=True) if kept]
    loose = [face for face, kept in zip(faces, duelist["set_aside"], strict=True) if not kept]
    lines = []
    if loose:
        lines.append(
            ctx.t("sushidice.board.thrown", count=len(loose), faces=" ".join(emoji(face) for face in loose))
        )
    if aside:
        lines.append(
            ctx.t(
                "sushidice.board.set_aside", count=len(aside), faces=" ".join(emoji(face) for face in aside)
            )
        )
    lines.extend(_marks(ctx, duelist))
    return "\n".join(lines)


def _marks(ctx: Context, duelist: DuelistView) -> list[str]:
    """What stands out about a duelist's dice: a yuck to call, a plate to ring for."""
    marks: list[str] = []
    if duelist["yuck"]:
        marks.append(ctx.t("sushidice.board.yuck"))
    complete = duelist["complete"]
    if len(complete) == 1:
        marks.append(ctx.t("sushidice.board.can_ring", n=complete[0] + 1))
    elif complete:  # "plates 1 and 3", with the language's own conjunction
        plates = join_list((number(slot + 1, ctx.locale) for slot in complete), ctx.locale)
        marks.append(ctx.t("sushidice.board.can_ring_plates", plates=plates))
    return marks


def duelist_line(ctx: Context, duelist: DuelistView) -> str:
    """One duelist on the public board, on one line: set and name, thrown dice, 📌 the ones set aside."""
    faces = duelist["faces"]
    if all(face is None for face in faces):
        dice = ctx.t("sushidice.board.unthrown")
    else:
        kept = duelist["set_aside"]
        loose = " ".join(emoji(face) for face, aside in zip(faces, kept, strict=True) if not aside)
        aside = " ".join(emoji(face) for face, aside in zip(faces, kept, strict=True) if aside)
        if aside:
            key = "sushidice.board.dice_kept" if loose else "sushidice.board.dice_all_kept"
            dice = ctx.t(key, thrown=loose, kept=aside)
        else:
            dice = loose
    marks = _marks(ctx, duelist)
    return ctx.t(
        "sushidice.board.duelist_marked" if marks else "sushidice.board.duelist_line",
        set=SET_MARKS[duelist["set"]],
        player=ctx.name(duelist["seat"]),
        dice=dice,
        marks=" · ".join(marks),
    )


def standings(ctx: Context, view: SushiDiceView) -> str:
    """Everyone's plates on one line, and the count that wins."""
    standing = " · ".join(
        ctx.t("sushidice.board.standing", player=ctx.name(seat), count=len(plates))
        for seat, plates in enumerate(view["plates"])
    )
    return plural("sushidice.board.standings", view["target"], ctx.locale, standing=standing)


def ended_line(ctx: Context, view: SushiDiceView) -> str | None:
    """How the duel before this one ended (a plate taken, a Chop!), while the next one is on."""
    ended = view["ended"]
    if ended is None:
        return None
    if ended["type"] == "rang":
        return ctx.t(
            "sushidice.board.ended_rang",
            player=ctx.name(ended["seat"]),
            plate=plate_name(ctx, ended["name"]),
            count=ended["plates"],
            target=view["target"],
        )
    return ctx.t("sushidice.board.ended_chop", player=ctx.name(ended["seat"]))


def describe_last(ctx: Context, view: SushiDiceView) -> str | None:
    """The board's "last thing that happened" line: the latest action's headline event."""
    return describe_event(ctx, view["last"][0]) if view["last"] else None


def describe_event(ctx: Context, event: Event) -> str | None:
    """One event in words, None for the events the board does not describe."""
    kind = event["type"]
    player = ctx.name(event["seat"]) if "seat" in event else ""
    if kind == "challenged":
        return ctx.t("sushidice.last.challenged", player=player, opponent=ctx.name(event["opponent"]))
    if kind == "rolled":
        if event.get("forced"):
            return None
        return plural("sushidice.last.rolled", len(event["dice"]), ctx.locale, player=player)
    if kind == "set_aside":
        return ctx.t("sushidice.last.set_aside", player=player, n=event["die"] + 1)
    if kind == "brought_back":
        return ctx.t("sushidice.last.brought_back", player=player, n=event["die"] + 1)
    if kind == "yuck":
        return ctx.t("sushidice.last.yuck", player=player, target=ctx.name(event["target"]))
    if kind == "chop":
        return ctx.t("sushidice.last.chop", player=player, partner=ctx.name(event["partner"]))
    if kind == "rang":
        return ctx.t(
            "sushidice.last.rang", player=player, plate=plate_name(ctx, event["name"]), count=event["plates"]
        )
    return None


# ---------------------------------------------------------------- the public board


def board(cog: Cog, ctx: Context) -> Board:
    """The public board: names, never "you" (it speaks to the table); a dozen lines at six players.

    The hint to the controls shows during the first duel only, never in a replay; the rules are
    behind the table's "How to play".
    """
    view = ctx.public()
    if view["over"]:
        return _over_board(ctx, view)
    live = not ctx.replaying
    items: list[discord.ui.Item[Any]] = []
    embed = discord.Embed(colour=discord.Colour.orange())
    if view["phase"] == "challenge":
        host = view["host"]
        embed.title = ctx.t("sushidice.title.challenge")
        content = ctx.t("sushidice.content.challenge", host=ctx.mention(host)) if live else None
        embed.description = "\n".join(
            [ctx.t("sushidice.board.challenge", host=ctx.name(host)), plates_line(ctx, view)]
        )
        items = [
            cog.action_button(ctx, Challenge(seat), ctx.name(seat)[:80], emoji="⚔️", row=0)
            for seat in range(ctx.players)
            if seat != host
        ]
        return Board(content=content, embed=embed, items=items)
    red, blue = view["duelists"]
    embed.title = ctx.t("sushidice.title.duel", duel=view["duel"])
    content = (
        ctx.t("sushidice.content.duel", red=ctx.mention(red["seat"]), blue=ctx.mention(blue["seat"]))
        if live
        else None
    )
    lines = [ended_line(ctx, view), plates_line(ctx, view), duelist_line(ctx, red), duelist_line(ctx, blue)]
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
    return Board(content=content, embed=embed, items=items)


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
    (None: unknown, so the opponent shows nothing and Yuck! stays off)."""
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
        title=ctx.t(
            "sushidice.panel.title",
            set=set_name(ctx, mine["set"]),
            duel=view["duel"],
            opponent=ctx.name(other["seat"]),
        ),
        colour=SET_COLOURS[mine["set"]],
    )
    ended = ended_line(ctx, view)
    lines = [ended, ""] if ended and all(face is None for face in mine["faces"]) else []
    lines += [ctx.t("sushidice.panel.plates"), *plate_lines(ctx, view["face_up"], mine["complete"])]
    last = view["last"][0] if view["last"] else None
    if last and last["type"] == "yuck" and last["target"] == seat:
        lines += ["", ctx.t("sushidice.panel.yucked", player=ctx.name(last["seat"]))]
    lines += ["", ctx.t("sushidice.panel.hint")]
    embed.description = "\n".join(lines)
    embed.add_field(name=ctx.t("sushidice.panel.mine"), value=dice_text(ctx, mine), inline=True)
    seen = shown_duelist(shown, view, other["seat"])
    embed.add_field(
        name=ctx.t("sushidice.panel.opponent", opponent=ctx.name(other["seat"])),
        value=dice_text(ctx, seen) if seen is not None else ctx.t("sushidice.panel.opponent_nothing"),
        inline=True,
    )
    board = None if shown is None or seen is None else shown["stamp"]
    return Board(embed=embed, items=_panel_items(cog, ctx, seat, view, mine, seen, board))


def shown_duelist(shown: SushiDiceView | None, view: SushiDiceView, seat: int) -> DuelistView | None:
    """A duelist as the board last showed them, if the board already shows the current duel."""
    if shown is None or shown["duel"] != view["duel"] or shown["phase"] != "duel":
        return None
    return duelist_of(shown, seat)


def _panel_items(
    cog: Cog,
    ctx: Context,
    seat: int,
    view: SushiDiceView,
    mine: DuelistView,
    seen: DuelistView | None,
    board: int | None,
) -> list[discord.ui.Item[Any]]:
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
    if mine["complete"]:
        for slot in mine["complete"]:
            name = plate_name(ctx, view["face_up"][slot])
            items.append(
                cog.action_button(
                    ctx,
                    Ring(slot),
                    ctx.t("sushidice.panel.ring_plate", plate=name, n=slot + 1),  # two combo plates differ
                    emoji="🔔",
                    style=discord.ButtonStyle.success,
                    row=3,
                    seat=seat,
                )
            )
    else:
        items.append(
            cog.ui_button(
                ctx, "ring", ctx.t("sushidice.panel.ring"), emoji="🔔", disabled=True, row=3, seat=seat
            )
        )
    return items
