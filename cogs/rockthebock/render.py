"""Rock the Bock in words, emoji and buttons: the board, the throw, the last move, the round
scores, the wolf picker and how the final totals were counted.

Everything here reads `game.view(...)` (through a `TableContext`) and the catalog; no rule is
decided here. Buttons and selects come from the cog's builders (`GameCog.action_button`, ...);
the cog (cogs/rockthebock/cog.py) maps clicks and slash commands to actions.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import discord

from cogs.i18n import join_list, plural, signed
from cogs.tables.boards import medal
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog, ResultNotes
from cogs.tables.ui import Board
from rules.engine import Action, Event
from rules.rockthebock.game import Caps, Choose, RockTheBockState, RockTheBockView, Roll, SheetView, ThrowItem

Context: TypeAlias = TableContext[RockTheBockState, Action, RockTheBockView]
"""A Rock the Bock table: `ctx.public()` is a RockTheBockView."""
Cog: TypeAlias = GameCog[RockTheBockState, Action, RockTheBockView]
"""The Rock the Bock cog, as its boards see it: its builders take Rock the Bock actions."""

BOCK = "white"
WOLF = "grey"
SQUARES = {"white": "⬜", "grey": "🐺", "red": "🟥", "blue": "🟦", "green": "🟩", "yellow": "🟨"}
EMBED_COLOURS = {
    "red": discord.Colour.red(),
    "blue": discord.Colour.blue(),
    "green": discord.Colour.green(),
    "yellow": discord.Colour.gold(),
}


def wolf_targets(ctx: Context, seat: int) -> list[int]:
    """The seats the acting player may send wolves to right now (from legal_actions)."""
    return [
        action.target
        for action in ctx.game.legal_actions(ctx.live, seat)
        if isinstance(action, Choose) and action.colour == WOLF and action.target is not None
    ]


def counted(ctx: Context, noun: str, count: int) -> str:
    """A count with its noun, singular or plural: "1 die", "3 dice", "**2** wolves"."""
    return plural(f"rockthebock.count.{noun}", count, ctx.locale)


def colour_name(ctx: Context, colour: str) -> str:
    return ctx.t(f"rockthebock.colour.{colour}")


def face(ctx: Context, colour: str, count: int) -> str:
    """One colour of a throw with its count: "🐏 bock ×1", "🟦 blue goats ×2"."""
    if colour in (BOCK, WOLF):
        return plural(f"rockthebock.face.{colour}", count, ctx.locale)
    return plural(
        "rockthebock.face.goat", count, ctx.locale, square=SQUARES[colour], colour=colour_name(ctx, colour)
    )


def seat_name(ctx: Context, seat: int, view: RockTheBockView) -> str:
    """A player with their goat colour: "🟥 alice"."""
    colour = view["sheets"][seat]["colour"]
    return ctx.t("rockthebock.sheet.name", square=SQUARES[colour], player=ctx.name(seat))


def throw_lines(ctx: Context, view: RockTheBockView) -> list[str]:
    """The current throw, grouped by colour, with the colours nobody may choose marked."""
    lines = []
    for item in view["throw"] or []:
        text = face(ctx, item["colour"], item["count"])
        if item["refusal"] == "unowned_colour":
            text = ctx.t("rockthebock.throw_unowned", face=text, colour=colour_name(ctx, item["colour"]))
        lines.append(f"• {text}")
    return lines


DESCRIBED = ("throw_failed", "round_scored", "marked")
"""The events of `last` told in words; a plain throw is shown on its own, the rest follows from the board."""


def last_line(ctx: Context, view: RockTheBockView) -> str | None:
    """The last thing that happened, in words (the current throw is shown on its own)."""
    last = next((event for event in view["last"] if event["type"] in DESCRIBED), None)
    if last is None:
        return None
    if last["type"] == "throw_failed":
        thrown = join_list(
            (face(ctx, colour, count) for colour, count in last["throw"].items()), ctx.locale, style="comma"
        )
        return ctx.t("rockthebock.last.throw_failed", player=seat_name(ctx, last["seat"], view), throw=thrown)
    if last["type"] == "round_scored":
        return ctx.t("rockthebock.last.round_scored", round=last["round"])
    player = seat_name(ctx, last["seat"], view)
    receiver = seat_name(ctx, last["receiver"], view)
    dice = last["dice"]
    if last["sheet"] == "bocks":
        text = ctx.t("rockthebock.last.bocks", player=player, bocks=counted(ctx, "bock", dice))
    elif last["sheet"] == "wolves":
        text = ctx.t(
            "rockthebock.last.wolves", player=player, wolves=counted(ctx, "wolf", dice), receiver=receiver
        )
    elif last["receiver"] == last["seat"]:
        text = ctx.t(
            "rockthebock.last.own_goats",
            player=player,
            goats=counted(ctx, "goat", dice),
            colour=colour_name(ctx, last["colour"]),
        )
    else:
        text = ctx.t(
            "rockthebock.last.goats",
            player=player,
            goats=counted(ctx, "goat", dice),
            receiver=receiver,
            colour=f"{SQUARES[last['colour']]} {colour_name(ctx, last['colour'])}",
        )
    if last["lost"]:
        text += " " + ctx.t("rockthebock.last.lost", lost=last["lost"])
    struck = ctx.t(
        "rockthebock.last.struck", player=ctx.name(last["seat"]), symbols=counted(ctx, "symbol", dice)
    )
    return f"{text} {struck}"


def sheet_marks(ctx: Context, sheet: SheetView, caps: Caps) -> str:
    return ctx.t(
        "rockthebock.sheet.marks",
        bocks=sheet["bocks"],
        wolves=sheet["wolves"],
        goats=sheet["goats"],
        cap_bocks=caps["bocks"],
        cap_wolves=caps["wolves"],
        cap_goats=caps["goats"],
    )


def round_scores(ctx: Context, sheet: SheetView) -> str:
    scores = " · ".join(f"R{number} {signed(score)}" for number, score in enumerate(sheet["round_scores"], 1))
    return ctx.t("rockthebock.sheet.rounds", scores=scores or "—")


def sheet_field(ctx: Context, view: RockTheBockView, sheet: SheetView) -> tuple[str, str]:
    """One player's sheet for the running round: marks, struck symbols, scores."""
    seat = sheet["seat"]
    name = seat_name(ctx, seat, view)
    if view["turn"] == seat:
        name = ctx.t("rockthebock.sheet.turn", name=name)
    symbols = view["symbols"]
    lines = [sheet_marks(ctx, sheet, view["caps"])]
    if sheet["out"]:
        lines.append(ctx.t("rockthebock.sheet.out"))
    else:
        bar = "✖️" * sheet["struck"] + "🎲" * (symbols - sheet["struck"])
        lines.append(ctx.t("rockthebock.sheet.symbols", bar=bar, struck=sheet["struck"], symbols=symbols))
    lines.append(
        ctx.t(
            "rockthebock.sheet.score", round_score=signed(sheet["round_score"]), total=signed(sheet["total"])
        )
    )
    if sheet["round_scores"]:
        lines.append(round_scores(ctx, sheet))
    return name, "\n".join(lines)


def board(cog: Cog, ctx: Context) -> Board:
    """The public board: the embed, then "Roll" or one button per thrown colour with its count."""
    content, embed = board_embed(ctx)
    drawn = Board(content=content, embed=embed)
    view = ctx.public()
    seat = view["turn"]
    if view["over"] or seat is None:
        return drawn
    if view["throw"] is None:
        label = ctx.t("rockthebock.button.roll", dice=counted(ctx, "die", view["dice"]))
        drawn.items.append(cog.action_button(ctx, Roll(), label, emoji="🎲", row=0))
        return drawn
    for item in view["throw"]:
        drawn.items.append(colour_button(cog, ctx, view, seat, item))
    return drawn


def colour_button(
    cog: Cog, ctx: Context, view: RockTheBockView, seat: int, item: ThrowItem
) -> discord.ui.Item[Any]:
    """One thrown colour: bocks and wolves on row 0, goats on row 1 (disabled if nobody plays them).

    Wolves open the picker (`u:wolf`) unless the victim is obvious (two players).
    """
    colour, count = item["colour"], item["count"]
    if colour == BOCK:
        label = plural("rockthebock.button.white", count, ctx.locale)
        return cog.action_button(
            ctx, Choose(BOCK), label, emoji="🐏", style=discord.ButtonStyle.success, row=0
        )
    if colour == WOLF:
        targets = wolf_targets(ctx, seat)
        if len(targets) == 1:  # two players: the victim is obvious
            label = plural("rockthebock.button.grey_to", count, ctx.locale, target=ctx.name(targets[0]))
            return cog.action_button(
                ctx, Choose(WOLF, targets[0]), label, emoji="🐺", style=discord.ButtonStyle.danger, row=0
            )
        label = plural("rockthebock.button.grey", count, ctx.locale)
        return cog.ui_button(ctx, "wolf", label, emoji="🐺", style=discord.ButtonStyle.danger, row=0)
    name = colour_name(ctx, colour)
    square = SQUARES[colour]
    if item["refusal"] is not None:
        label = ctx.t("rockthebock.button.unowned", Colour=name.capitalize(), count=count)
        return cog.action_button(ctx, Choose(colour), label, emoji=square, disabled=True, row=1)
    owner = view["colours"].index(colour)
    label = plural(
        "rockthebock.button.goat", count, ctx.locale, Colour=name.capitalize(), owner=ctx.name(owner)
    )
    return cog.action_button(ctx, Choose(colour), label, emoji=square, row=1)


def wolf_picker(cog: Cog, ctx: Context, seat: int, targets: list[int]) -> Board:
    """The acting player's ephemeral select: who gets the wolves, with each victim's sheet."""
    view = ctx.public()
    count = next(item["count"] for item in view["throw"] or [] if item["colour"] == WOLF)
    choices: list[tuple[str, Action, str | None]] = []
    for target in targets:
        sheet = view["sheets"][target]
        label = ctx.t("rockthebock.wolf.option", square=SQUARES[sheet["colour"]], player=ctx.name(target))
        info = ctx.t(
            "rockthebock.wolf.option_info",
            bocks=sheet["bocks"],
            wolves=sheet["wolves"],
            goats=sheet["goats"],
            round_score=signed(sheet["round_score"]),
        )
        choices.append((label, Choose(WOLF, target), info))
    select = cog.action_select(ctx, choices, placeholder=ctx.t("rockthebock.wolf.placeholder"), seat=seat)
    return Board(
        content=ctx.t("rockthebock.wolf.prompt", wolves=counted(ctx, "wolf", count)),
        items=[select],
    )


def board_embed(ctx: Context) -> tuple[str, discord.Embed]:
    """The content line (who is to act, with a mention) and the embed of the public board."""
    view = ctx.public()
    seat = view["turn"]
    if view["over"] or seat is None:
        return ctx.t("rockthebock.over"), final_embed(ctx, view)
    player = ctx.mention(seat)
    parts: list[str] = []
    last = last_line(ctx, view)
    if last:
        parts.append(last)
    dice = counted(ctx, "die", view["dice"])
    if view["phase"] == "roll":
        content = ctx.t("rockthebock.turn_roll", player=player, dice=dice)
        parts.append(ctx.t("rockthebock.waiting_roll", player=seat_name(ctx, seat, view), dice=dice))
    else:
        content = ctx.t("rockthebock.turn_choose", player=player)
        title = ctx.t("rockthebock.throw_title", player=seat_name(ctx, seat, view), dice=dice)
        parts.append("\n".join([title, *throw_lines(ctx, view)]))
    if ctx.record.seats[seat].computer:  # "your turn" would address nobody
        content = ctx.t("rockthebock.turn_computer", player=player)
    embed = discord.Embed(
        title=ctx.t("rockthebock.title", round=view["round"], rounds=view["rounds"]),
        description="\n\n".join(parts),
        colour=EMBED_COLOURS[view["sheets"][seat]["colour"]],
    )
    for sheet in view["sheets"]:
        name, value = sheet_field(ctx, view, sheet)
        embed.add_field(name=name, value=value, inline=False)
    return content, embed


def final_embed(ctx: Context, view: RockTheBockView) -> discord.Embed:
    """The finished game: the last round's sheets and every round's score, best first."""
    ranking = view["ranking"]
    assert ranking is not None, "the final sheets are only drawn once the game is over"
    description = [ctx.t("rockthebock.final.lead")]
    last = last_line(ctx, view)
    if last:
        description.insert(0, last)
    embed = discord.Embed(
        title=ctx.t("rockthebock.title_over"),
        description="\n\n".join(description),
        colour=discord.Colour.gold(),
    )
    for seat in sorted(range(ctx.players), key=lambda s: (ranking[s], s)):
        sheet = view["sheets"][seat]
        name = f"{medal(ranking[seat])} {seat_name(ctx, seat, view)}"
        value = "\n".join(
            [
                sheet_marks(ctx, sheet, view["caps"]),
                round_scores(ctx, sheet),
                ctx.t("rockthebock.sheet.final", total=signed(sheet["total"]), rank=ranking[seat]),
            ]
        )
        embed.add_field(name=name, value=value, inline=False)
    return embed


def round_announcement(ctx: Context, events: list[Event]) -> list[str]:
    """The lines posted when a round is scored (and who starts the next one)."""
    view = ctx.public()
    lines: list[str] = []
    for event in events:
        if event["type"] == "round_scored":
            lines.append(ctx.t("rockthebock.round.title", round=event["round"], rounds=view["rounds"]))
            for seat, score in enumerate(event["scores"]):
                lines.append(
                    ctx.t(
                        "rockthebock.round.line",
                        square=SQUARES[view["sheets"][seat]["colour"]],
                        player=ctx.name(seat),
                        bocks=event["bocks"][seat],
                        wolves=event["wolves"][seat],
                        goats=event["goats"][seat],
                        score=signed(score),
                        total=signed(event["totals"][seat]),
                    )
                )
        elif event["type"] == "round_started":
            lines.append(
                ctx.t("rockthebock.round.next", round=event["round"], player=ctx.name(event["seat"]))
            )
    return lines


def result_notes(ctx: Context) -> ResultNotes:
    """Each total as the rulebook counts it: the sum of the three round scores.

    Equal totals share a rank (GAMES.md), so no tie-break ever decides one and none is named.
    """
    view = ctx.public()
    return ResultNotes(
        breakdown={
            sheet["seat"]: " · ".join(
                ctx.t("rockthebock.results.round", round=number, score=signed(score))
                for number, score in enumerate(sheet["round_scores"], 1)
            )
            for sheet in view["sheets"]
        }
    )
