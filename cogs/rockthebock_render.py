"""Rock the Bock in words and emoji: the board, the throw, the last move and the round scores.

Everything here reads `game.view(...)` (through a `TableContext`) and the catalog; no rule is
decided here. The cog (cogs/rockthebock.py) adds the buttons and commands.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.gamecog import TableContext
from cogs.i18n import plural, signed

BOCK = "white"
WOLF = "grey"
SQUARES = {"white": "⬜", "grey": "🐺", "red": "🟥", "blue": "🟦", "green": "🟩", "yellow": "🟨"}
EMBED_COLOURS = {
    "red": discord.Colour.red(),
    "blue": discord.Colour.blue(),
    "green": discord.Colour.green(),
    "yellow": discord.Colour.gold(),
}
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def counted(ctx: TableContext, noun: str, count: int) -> str:
    """A count with its noun, singular or plural: "1 die", "3 dice", "**2** wolves"."""
    return plural(f"rockthebock.count.{noun}", count, ctx.locale)


def colour_name(ctx: TableContext, colour: str) -> str:
    return ctx.t(f"rockthebock.colour.{colour}")


def face(ctx: TableContext, colour: str, count: int) -> str:
    """One colour of a throw with its count: "🐏 bocks ×3", "🟦 blue goats ×2"."""
    if colour in (BOCK, WOLF):
        return ctx.t(f"rockthebock.face.{colour}", count=count)
    return ctx.t(
        "rockthebock.face.goat", square=SQUARES[colour], colour=colour_name(ctx, colour), count=count
    )


def seat_name(ctx: TableContext, seat: int, view: dict[str, Any]) -> str:
    """A player with their goat colour: "🟥 alice"."""
    colour = view["sheets"][seat]["colour"]
    return ctx.t("rockthebock.sheet.name", square=SQUARES[colour], player=ctx.name(seat))


def throw_lines(ctx: TableContext, view: dict[str, Any]) -> list[str]:
    """The current throw, grouped by colour, with the colours nobody may choose marked."""
    lines = []
    for item in view["throw"] or []:
        text = face(ctx, item["colour"], item["count"])
        if item["refusal"] == "unowned_colour":
            text = ctx.t("rockthebock.throw_unowned", face=text, colour=colour_name(ctx, item["colour"]))
        lines.append(f"• {text}")
    return lines


def last_line(ctx: TableContext, view: dict[str, Any]) -> str | None:
    """The last thing that happened, in words (the current throw is shown on its own)."""
    last = view["last"]
    if not last or last["type"] == "rolled":
        return None
    if last["type"] == "throw_failed":
        thrown = ", ".join(face(ctx, colour, count) for colour, count in last["throw"].items())
        return ctx.t("rockthebock.last.throw_failed", player=seat_name(ctx, last["seat"], view), throw=thrown)
    if last["type"] == "round_scored":
        return ctx.t("rockthebock.last.round_scored", round=last["round"])
    if last["type"] != "marked":
        return None
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


def sheet_marks(ctx: TableContext, sheet: dict[str, Any], caps: dict[str, int]) -> str:
    return ctx.t(
        "rockthebock.sheet.marks",
        bocks=sheet["bocks"],
        wolves=sheet["wolves"],
        goats=sheet["goats"],
        cap_bocks=caps["bocks"],
        cap_wolves=caps["wolves"],
        cap_goats=caps["goats"],
    )


def round_scores(ctx: TableContext, sheet: dict[str, Any]) -> str:
    scores = " · ".join(f"R{number} {signed(score)}" for number, score in enumerate(sheet["round_scores"], 1))
    return ctx.t("rockthebock.sheet.rounds", scores=scores or "—")


def sheet_field(ctx: TableContext, view: dict[str, Any], sheet: dict[str, Any]) -> tuple[str, str]:
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


def board_embed(ctx: TableContext) -> tuple[str, discord.Embed]:
    """The content line (who is to act, with a mention) and the embed of the public board."""
    view = ctx.public()
    if view["over"]:
        return ctx.t("rockthebock.over"), final_embed(ctx, view)
    seat = view["turn"]
    player = ctx.mention(seat)
    parts: list[str] = []
    last = last_line(ctx, view)
    if last:
        parts.append(last)
    dice = counted(ctx, "die", view["dice"])
    if view["throw"] is None:
        content = ctx.t("rockthebock.turn_roll", player=player, dice=dice)
        parts.append(ctx.t("rockthebock.waiting_roll", player=seat_name(ctx, seat, view), dice=dice))
    else:
        content = ctx.t("rockthebock.turn_choose", player=player)
        parts.append(ctx.t("rockthebock.throw_title", player=seat_name(ctx, seat, view), dice=dice))
        parts.append("\n".join(throw_lines(ctx, view)))
    embed = discord.Embed(
        title=ctx.t("rockthebock.title", round=view["round"], rounds=view["rounds"]),
        description="\n\n".join(parts),
        colour=EMBED_COLOURS[view["sheets"][seat]["colour"]],
    )
    for sheet in view["sheets"]:
        name, value = sheet_field(ctx, view, sheet)
        embed.add_field(name=name, value=value, inline=False)
    return content, embed


def final_embed(ctx: TableContext, view: dict[str, Any]) -> discord.Embed:
    """The finished game: the last round's sheets and every round's score, best first."""
    ranking = view["ranking"]
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
        name = f"{MEDALS.get(ranking[seat], '▫️')} {seat_name(ctx, seat, view)}"
        value = "\n".join(
            [
                sheet_marks(ctx, sheet, view["caps"]),
                round_scores(ctx, sheet),
                ctx.t("rockthebock.sheet.final", total=signed(sheet["total"]), rank=ranking[seat]),
            ]
        )
        embed.add_field(name=name, value=value, inline=False)
    return embed


def round_announcement(ctx: TableContext, events: list[dict[str, Any]]) -> list[str]:
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
