"""Rock the Bock in words, emoji and buttons: the board, the throw, the last move, the round
scores and how the final totals were counted.

The public board speaks to the table (it names the player to move) and stays within a dozen lines
at four players: one line per sheet, every round score shown as the rule makes it
("🐏 3 > 🐺 2 → 🐐 2 × +1 = **+2**"), the legend on the first board only. A throw with wolves
draws each possible victim's sheet as a section: the line with the button beside it that sends
them the wolves. A table that draws pictures (`ctx.pictures`) shows the sheets as one picture instead
of their lines (cogs/games/rockthebock/picture.py), on the board and on the results; its first board's
legend says what the picture's boxes are.

Everything here reads `game.view(...)` (through a `TableContext`) and the catalog; no rule is
decided here. Buttons and selects come from the cog's builders (`GameCog.action_button`, ...);
the cog (cogs/games/rockthebock/cog.py) maps clicks and slash commands to actions.
"""

from __future__ import annotations

import io
from typing import Any, TypeAlias

import discord

from cogs.games.rockthebock import picture
from cogs.kit.messages import Board
from cogs.kit.words.text import join_list, number, plural, signed
from cogs.tables.boards import medal
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog, ResultNotes
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
BOARD_PICTURE = "rockthebock.png"
RESULTS_PICTURE = "rockthebock-sheets.png"
"""The file names of the sheets' picture on the board and on the results."""


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
    """One colour of a throw with its count: "🐏 bock ×1", "🟦 blue goats ×2" (a word of its own per
    colour: Spanish and Persian put the colour after the goat, and Spanish makes it agree)."""
    return plural(f"rockthebock.face.{colour}", count, ctx.locale)


def seat_name(ctx: Context, seat: int, view: RockTheBockView) -> str:
    """A player with their goat colour: "🟥 alice"."""
    colour = view["sheets"][seat]["colour"]
    return ctx.t("rockthebock.sheet.name", square=SQUARES[colour], player=ctx.name(seat))


def throw_line(ctx: Context, view: RockTheBockView) -> str:
    """The standing throw on one line, grouped by colour, the colours nobody may choose marked (whose
    throw it is, the ▶️ on their sheet says)."""
    faces = []
    for item in view["throw"] or []:
        text = face(ctx, item["colour"], item["count"])
        if item["refusal"] == "unowned_colour":
            text = ctx.t("rockthebock.throw_unowned", face=text, colour=colour_name(ctx, item["colour"]))
        faces.append(text)
    return plural("rockthebock.throw", view["dice"], ctx.locale, faces=" · ".join(faces))


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
        text = ctx.t("rockthebock.last.own_goats", player=player, goats=counted(ctx, "goat", dice))
    else:
        text = ctx.t(
            "rockthebock.last.goats",
            player=player,
            goats=counted(ctx, "goat", dice),
            receiver=receiver,
            colour=f"{SQUARES[last['colour']]} {colour_name(ctx, last['colour'])}",
        )
    if last["lost"]:  # the cap is the reason: name it
        cap = view["caps"][last["sheet"]]
        noun = {"bocks": "bock", "wolves": "wolf", "goats": "goat"}[last["sheet"]]
        text += " " + plural("rockthebock.last.lost", last["lost"], ctx.locale, cap=counted(ctx, noun, cap))
    return f"{text} {plural('rockthebock.last.struck', dice, ctx.locale)}"


def full(ctx: Context, count: int, cap: int) -> str:
    """A mark count, flagged once its row holds all it can: "12 (full)"."""
    return ctx.t("rockthebock.full", count=count) if count >= cap else number(count, ctx.locale)


RELATIONS = {1: "more", -1: "fewer", 0: "equal"}
"""Bocks against wolves, as the sheet line shows it: a template each, so that a right-to-left line
mirrors its > and < with the sentence (a parameter would be isolated, and keep its left-to-right form)."""


def marks(ctx: Context, bocks: int, wolves: int, goats: int, score: int, caps: Caps) -> str:
    """A sheet's marks with the score they make and why: "🐏 3 > 🐺 2 → 🐐 2 × +1 = **+2**".

    GAMES.md: more bocks than wolves counts each goat +1, more wolves −1, equal 0; the relation
    and the factor shown are that rule read off the counts, the score is the engine's.
    """
    lead = (bocks > wolves) - (wolves > bocks)
    return ctx.t(
        f"rockthebock.marks.{RELATIONS[lead]}",
        bocks=full(ctx, bocks, caps["bocks"]),
        wolves=full(ctx, wolves, caps["wolves"]),
        goats=full(ctx, goats, caps["goats"]),
        factor=signed(lead, ctx.locale),
        score=signed(score, ctx.locale),
    )


def sheet_line(ctx: Context, view: RockTheBockView, sheet: SheetView) -> str:
    """One player's sheet on one line: marks and the round's score, dice left, earlier rounds."""
    seat = sheet["seat"]
    name = seat_name(ctx, seat, view)
    if view["turn"] == seat:
        name = ctx.t("rockthebock.sheet.turn", name=name)
    score = marks(ctx, sheet["bocks"], sheet["wolves"], sheet["goats"], sheet["round_score"], view["caps"])
    left = (
        ctx.t("rockthebock.sheet.out")
        if sheet["out"]
        else ctx.t("rockthebock.sheet.left", count=view["symbols"] - sheet["struck"])
    )
    line = ctx.t("rockthebock.sheet.line", name=name, marks=score, left=left)
    if sheet["round_scores"]:
        line += ctx.t("rockthebock.sheet.earlier", total=signed(sheet["total"], ctx.locale))
    return line


def board(cog: Cog, ctx: Context) -> Board:
    """The public board: the embed, then "Roll" or one button per thrown colour with its count; a
    throw with wolves offers one 🐺 button per possible victim, each sending them the wolves in one
    click (`wolf_buttons`)."""
    view = ctx.public()
    content, embed = board_embed(ctx)
    drawn = Board(content=content, embed=embed)
    if ctx.pictures:  # the sheets as a picture, in place of their lines
        embed.set_image(url=f"attachment://{BOARD_PICTURE}")
        drawn.files.append(sheets_picture(ctx, BOARD_PICTURE))
    seat = view["turn"]
    if view["over"] or seat is None:
        return drawn
    if view["throw"] is None:
        label = plural("rockthebock.button.roll", view["dice"], ctx.locale)
        drawn.items.append(cog.action_button(ctx, Roll(), label, emoji="🎲", row=0))
        return drawn
    for item in view["throw"]:
        if item["colour"] != WOLF:  # the wolves are the victims' own buttons, on the row under
            drawn.items.append(colour_button(cog, ctx, view, item))
    drawn.items += wolf_buttons(cog, ctx, view, wolf_victims(ctx, view))
    return drawn


def wolf_victims(ctx: Context, view: RockTheBockView) -> list[int]:
    """Everyone the thrown wolves may go to, while the game is live (a replay, or a table's last
    board, offers no moves)."""
    seat = view["turn"]
    thrown = any(item["colour"] == WOLF for item in view["throw"] or [])
    if ctx.replaying or view["over"] or seat is None or not thrown:
        return []
    return wolf_targets(ctx, seat)


def wolf_buttons(
    cog: Cog, ctx: Context, view: RockTheBockView, victims: list[int]
) -> list[discord.ui.Item[Any]]:
    """One button per possible victim, on a row of their own: 🐺 and the victim's square, as their
    sheet starts ("🐺 🟦"; each button its own). Not sections beside the sheets: a phone shows a
    section's button on a line of its own, and three of them would push the board past one screen."""
    buttons: list[discord.ui.Item[Any]] = []
    for target in victims:
        square = SQUARES[view["sheets"][target]["colour"]]
        label = ctx.t("rockthebock.button.wolves_to", target=square)
        style = discord.ButtonStyle.danger
        buttons.append(cog.action_button(ctx, Choose(WOLF, target), label, emoji="🐺", style=style, row=1))
    return buttons


def colour_button(cog: Cog, ctx: Context, view: RockTheBockView, item: ThrowItem) -> discord.ui.Item[Any]:
    """One thrown colour but grey, all on one row: the bocks, then the goats (disabled if nobody
    plays them)."""
    colour, count = item["colour"], item["count"]
    # A colour's button is its die's picture and count ("🐏 ×2", "🟥 ×3"): the throw's line above
    # words them, the sheet with the same square is the owner's, and five share a phone's two rows.
    label = ctx.t("rockthebock.button.count", count=count)
    if colour == BOCK:
        return cog.action_button(
            ctx, Choose(BOCK), label, emoji="🐏", style=discord.ButtonStyle.success, row=0
        )
    square = SQUARES[colour]
    if item["refusal"] is not None:
        name = colour_name(ctx, colour)
        label = ctx.t("rockthebock.button.unowned", Colour=name[:1].upper() + name[1:], count=count)
        return cog.action_button(ctx, Choose(colour), label, emoji=square, disabled=True, row=0)
    return cog.action_button(ctx, Choose(colour), label, emoji=square, row=0)


def wolf_picker(cog: Cog, ctx: Context, seat: int, targets: list[int]) -> Board:
    """The acting player's ephemeral select: who gets the wolves, with each victim's sheet. The
    answer to a board's "Wolves" button (`u:wolf`) of the boards drawn before the wolves went beside
    the sheets: such a board, posted before an update, keeps working."""
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
            round_score=signed(sheet["round_score"], ctx.locale),
        )
        choices.append((label, Choose(WOLF, target), info))
    select = cog.action_select(ctx, choices, placeholder=ctx.t("rockthebock.wolf.placeholder"), seat=seat)
    return Board(
        content=ctx.t("rockthebock.wolf.prompt", wolves=counted(ctx, "wolf", count)),
        items=[select],
    )


def board_embed(ctx: Context) -> tuple[str | None, discord.Embed]:
    """The content line (who is to act, with a mention; none in a replay) and the board's embed.

    One line per sheet, so four players fit in a dozen lines; the legend shows on the game's first
    board only (the rules, behind "How to play", carry it too).
    """
    view = ctx.public()
    seat = view["turn"]
    if view["over"] or seat is None:
        return (None if ctx.replaying else ctx.t("rockthebock.over")), final_embed(ctx, view)
    lines: list[str] = []
    if not view["last"] and view["round"] == 1 and view["phase"] == "roll":  # nobody has moved yet
        lines += legend(ctx, view)
    last = last_line(ctx, view)
    if last:
        lines.append(last)
    if view["phase"] == "choose":
        lines.append(throw_line(ctx, view))
    if not ctx.pictures:  # else the picture shows the sheets
        lines += [sheet_line(ctx, view, sheet) for sheet in view["sheets"]]
    embed = discord.Embed(
        title=ctx.t("rockthebock.title", round=view["round"], rounds=view["rounds"]),
        description="\n".join(lines) or None,
        colour=EMBED_COLOURS[view["sheets"][seat]["colour"]],
    )
    return turn_line(ctx, view, seat), embed


def legend(ctx: Context, view: RockTheBockView) -> list[str]:
    """What the sheets show and how they score, on the first board: the sheet lines' signs, or with
    pictures what the picture's boxes are (it has no column heads, to fit the board in one screen;
    its boxes show how much a row holds)."""
    if ctx.pictures:
        return [ctx.t("rockthebock.picture.legend"), ctx.t("rockthebock.round.rule")]
    return [ctx.t("rockthebock.legend", **{f"cap_{row}": cap for row, cap in view["caps"].items()})]


def turn_line(ctx: Context, view: RockTheBockView, seat: int) -> str | None:
    """Whose turn it is and what they are to do, naming them (the board speaks to the whole table).

    A replay shows no instruction: the ▶️ on the sheet says whose turn it was.
    """
    if ctx.replaying:
        return None
    player = ctx.mention(seat)
    if ctx.record.seats[seat].computer:
        return ctx.t("rockthebock.turn_computer", player=player)
    if view["phase"] == "roll":
        return plural("rockthebock.turn_roll", view["dice"], ctx.locale, player=player)
    return ctx.t("rockthebock.turn_choose", player=player)


def final_embed(ctx: Context, view: RockTheBockView) -> discord.Embed:
    """The finished game, best first: each last-round sheet and every round's score."""
    ranking = view["ranking"]
    assert ranking is not None, "the final sheets are only drawn once the game is over"
    lines = [ctx.t("rockthebock.final.lead")]
    shown = [] if ctx.pictures else sorted(range(ctx.players), key=lambda s: (ranking[s], s))
    for seat in shown:  # with pictures, the picture shows the sheets
        sheet = view["sheets"][seat]
        lines.append(
            ctx.t(
                "rockthebock.final.line",
                medal=medal(ranking[seat]),
                name=seat_name(ctx, seat, view),
                marks=marks(
                    ctx, sheet["bocks"], sheet["wolves"], sheet["goats"], sheet["round_score"], view["caps"]
                ),
                rounds=" · ".join(signed(score, ctx.locale) for score in sheet["round_scores"]),
                total=signed(sheet["total"], ctx.locale),
            )
        )
    return discord.Embed(
        title=ctx.t("rockthebock.title_over"), description="\n".join(lines), colour=discord.Colour.gold()
    )


def sheets_picture(ctx: Context, filename: str) -> discord.File:
    """Every sheet as a picture (cogs/games/rockthebock/picture.py): the board's while the game is on, the
    results' at the end. Drawn again only when a sheet or the turn changed, not at each throw."""
    names = [ctx.plain_name(seat) for seat in range(ctx.players)]  # drawn, not markdown: as stored
    drawn = picture.render_png(ctx.public(), names, ctx.locale)
    return discord.File(io.BytesIO(drawn), filename=filename)


def round_announcement(ctx: Context, events: list[Event]) -> list[str]:
    """The lines posted when a round is scored, each score with its reason, and who starts next.

    The last round is not announced: the results, the game's one closing message, explain it.
    """
    if any(event["type"] == "game_over" for event in events):
        return []
    view = ctx.public()
    lines: list[str] = []
    for event in events:
        if event["type"] == "round_scored":
            lines += [
                ctx.t("rockthebock.round.title", round=event["round"], rounds=view["rounds"]),
                ctx.t("rockthebock.round.rule"),
            ]
            counts = list(zip(event["bocks"], event["wolves"], event["goats"], strict=True))
            for seat, (bocks, wolves, goats) in enumerate(counts):
                lines.append(
                    ctx.t(
                        "rockthebock.round.line",
                        name=seat_name(ctx, seat, view),
                        marks=marks(ctx, bocks, wolves, goats, event["scores"][seat], view["caps"]),
                        total=signed(event["totals"][seat], ctx.locale),
                    )
                )
            caps = view["caps"]
            if any(b >= caps["bocks"] or w >= caps["wolves"] or g >= caps["goats"] for b, w, g in counts):
                lines.append(
                    ctx.t("rockthebock.round.full", **{f"cap_{row}": cap for row, cap in caps.items()})
                )
        elif event["type"] == "round_started":
            lines.append(
                ctx.t("rockthebock.round.next", round=event["round"], player=ctx.name(event["seat"]))
            )
    return lines


def result_notes(ctx: Context) -> ResultNotes:
    """Each total as the rulebook counts it: the sum of the three round scores, the last round (which
    no announcement told) with its reason.

    Equal totals share a rank (GAMES.md), so no tie-break ever decides one and none is named.
    """
    view = ctx.public()
    breakdown: dict[int, str] = {}
    for sheet in view["sheets"]:
        *earlier, final = sheet["round_scores"]
        parts = [
            ctx.t("rockthebock.results.round", round=number, score=signed(score, ctx.locale))
            for number, score in enumerate(earlier, 1)
        ]
        reason = marks(ctx, sheet["bocks"], sheet["wolves"], sheet["goats"], final, view["caps"])
        parts.append(ctx.t("rockthebock.results.last", round=len(earlier) + 1, marks=reason))
        breakdown[sheet["seat"]] = " · ".join(parts)
    return ResultNotes(breakdown=breakdown)
