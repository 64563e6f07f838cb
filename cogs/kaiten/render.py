"""Kaiten Sushi's board: the embed in words, its buttons, and the picture (PNG) of the whole table.

Everything is drawn from `GAME.view(state, None)` and nothing else. Cells are named as on the picture:
columns A-F from the left, rows 1-6 from the top ("C4"). The picture uses simple shapes and the fonts
shipped in cogs/fonts/ (any player's name: Latin, Cyrillic, Persian, CJK; what no font has, such as most
emoji, is left out rather than drawn as a box); the parts that never change (background, coordinates,
the 24 pines, empty plate slots) are drawn once and copied. A full four-player board renders in a few
milliseconds plus the PNG encoding (bench/bench_kaiten_render.py).
"""

from __future__ import annotations

import io
import struct
import unicodedata
import zlib
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, cast

import discord
from arabic_reshaper import ArabicReshaper
from bidi import get_display
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

from cogs.i18n import number, plural, signed, t
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog, ResultNotes
from cogs.tables.ui import Board
from rules.engine import Event
from rules.kaiten.game import (
    Challenge,
    Ginger,
    GingerChoiceView,
    KaitenPlayerView,
    KaitenView,
    PineView,
    Place,
    PlateLineView,
    Refill,
)

SIZE = 6
PLATE = 3
COLUMNS = "ABCDEF"
LABEL_LIMIT = 80
"""Discord's longest button label."""

CELL = 56
LABEL = 20
PINE_BAND = 28
BOARD_X = BOARD_Y = LABEL + PINE_BAND
BOARD_PX = SIZE * CELL
RESERVE_Y = BOARD_Y + BOARD_PX + PINE_BAND + 10
LEFT_WIDTH = BOARD_X + BOARD_PX + PINE_BAND + 14

PLATE_CELL = 42
PLATE_BOX_W = 214
PLATE_BOX_H = 236
PANEL_X = LEFT_WIDTH + 6
WIDTH = PANEL_X + 2 * PLATE_BOX_W + 14
HEIGHT = RESERVE_Y + 56

BACKGROUND = (43, 45, 49)
MAT = (92, 70, 54)
SLOT = (110, 86, 68)
TILE = (205, 186, 150)
LINE_SLOT = (168, 132, 70)
FETCHABLE = (255, 214, 92)
PINE = (150, 130, 110)
TEXT = (236, 236, 236)
DIM = (160, 160, 168)
RICE = {"B": (34, 34, 36), "W": (246, 242, 232)}
RICE_EDGE = {"B": (90, 90, 96), "W": (196, 188, 170)}
INGREDIENT = {
    "black": (12, 12, 12),
    "red": (222, 58, 52),
    "brown": (139, 86, 40),
    "green": (67, 160, 71),
    "yellow": (250, 210, 50),
    "beige": (232, 210, 166),
}
INGREDIENT_EDGE = {"black": (120, 120, 120), "beige": (170, 140, 96)}
GINGER = (247, 160, 181)
WASABI = (124, 179, 66)
SOY = (96, 56, 32)
MISSING = (255, 72, 72)
DUE = (255, 176, 32)
CURRENT = (255, 214, 92)

Words = dict[str, str]
WORD_KEYS: tuple[str, ...] = (
    "reserve",
    "empty",
    "holding",
    "point",
    "points",
    "ginger",
    "wasabi",
    "soy",
    "no_ginger",
    "ginger_due",
    "seat",
    "side.top",
    "side.right",
    "side.bottom",
    "side.left",
)
"""The words the picture needs; "point" (a score of ±1) and "points" hold a `{score}` placeholder, "seat"
(what stands for a name of which no letter can be drawn) a `{seat}` one."""


def picture_words(locale: str | None) -> Words:
    """The words of WORD_KEYS in the language of `locale`, for `render_png`."""
    return {
        key: t(f"kaiten.{key}" if key.startswith("side.") else f"kaiten.picture.{key}", locale)
        for key in WORD_KEYS
    }


def public(ctx: TableContext) -> KaitenView:
    """The table's view, typed (every seat sees the same in Kaiten Sushi)."""
    return cast(KaitenView, ctx.public())


def acting(view: KaitenView) -> int:
    """The seat whose turn it is; only asked while the game is running."""
    seat = view["turn"]
    assert seat is not None, "the game is over"
    return seat


def sushi_at(view: KaitenView, cell: int) -> str:
    """The sushi on a board cell known to hold one (a fetchable cell)."""
    sushi = view["board"][cell]
    assert sushi is not None, f"no sushi on {cell_name(cell)}"
    return sushi


def cell_name(cell: int) -> str:
    """Board cell 0..35 as on the picture: column letter A-F, row number 1-6 ("C4")."""
    row, column = divmod(cell, SIZE)
    return f"{COLUMNS[column]}{row + 1}"


# ---------------------------------------------------------------- words


def sushi_words(ctx: TableContext, sushi: str) -> str:
    rice, _, ingredient = sushi.partition(":")
    return ctx.t(
        "kaiten.sushi",
        rice=ctx.t(f"kaiten.emoji.{rice}"),
        topping=ctx.t(f"kaiten.emoji.{ingredient}"),
        ingredient=ctx.t(f"kaiten.ingredient.{ingredient}"),
        colour=ctx.t(f"kaiten.rice.{rice}"),
    )


def pines(ctx: TableContext, steps: int) -> str:
    """How far a wasabi moves the sake: "1 pine", "2 pines"."""
    return plural("kaiten.count.pine", abs(steps), ctx.locale)


def direction_words(ctx: TableContext, steps: int) -> str:
    """Which way the sake moves: clockwise for positive steps, back otherwise."""
    return ctx.t(f"kaiten.event.direction.{'forward' if steps > 0 else 'back'}")


def line_words(ctx: TableContext, pine: PineView) -> str:
    index = pine["index"]
    name = COLUMNS[index] if pine["line"] == "column" else str(index + 1)
    return ctx.t(f"kaiten.line.{pine['line']}", name=name)


def plate_lines(ctx: TableContext, edges: list[list[int]]) -> str:
    """The plate rows/columns that bare black/white edges spoil, in words."""
    lines: list[int] = []
    for i, j in edges:
        low, high = min(i, j), max(i, j)
        line = low // PLATE if high == low + 1 else PLATE + low % PLATE
        if line not in lines:
            lines.append(line)
    return line_names(ctx, lines)


def line_names(ctx: TableContext, lines: list[int]) -> str:
    """Plate lines by index (rows 0-2, then columns 0-2, as `rules.kaiten.game.PLATE_LINES`), in words."""
    return ", ".join(
        ctx.t(f"kaiten.plate_line.{'row' if line < PLATE else 'column'}.{line % PLATE}") for line in lines
    )


def edge_words(ctx: TableContext, edges: list[list[int]], separator: str = " + ") -> str:
    """Plate edges by the two cells they separate: "top middle | centre + centre | bottom middle"."""
    return separator.join(
        ctx.t("kaiten.edge", a=ctx.t(f"kaiten.plate.{i}"), b=ctx.t(f"kaiten.plate.{j}")) for i, j in edges
    )


def ginger_choice_words(ctx: TableContext, choice: GingerChoiceView) -> tuple[str, str]:
    """A ginger choice as (where the ginger goes, what it costs)."""
    return edge_words(ctx, choice["edges"]), line_names(ctx, choice["spoils"])


def event_line(ctx: TableContext, event: Event, view: KaitenView) -> str | None:
    kind = event["type"]
    player = ctx.name(event["seat"]) if "seat" in event else ""
    if kind == "wasabi_used":
        steps = event["steps"]
        line = line_words(ctx, view["pines"][event["to"]])
        return ctx.t(
            "kaiten.event.wasabi_used",
            player=player,
            pines=pines(ctx, steps),
            direction=direction_words(ctx, steps),
            line=line,
        )
    if kind == "fetched":
        words = {
            "player": player,
            "sushi": sushi_words(ctx, event["sushi"]),
            "cell": cell_name(event["cell"]),
        }
        if event["condiment"] is None:
            return ctx.t("kaiten.event.fetched_refilled", **words)
        return ctx.t(
            "kaiten.event.fetched", condiment=ctx.t(f"kaiten.condiment.{event['condiment']}"), **words
        )
    if kind == "dropped":
        sushi = sushi_words(ctx, event["sushi"])
        return ctx.t(
            "kaiten.event.dropped",
            player=player,
            sushi=sushi,
            cell=cell_name(event["cell"]),
            soy=event["soy"],
        )
    if kind == "placed":
        sushi = sushi_words(ctx, event["sushi"])
        return ctx.t(
            "kaiten.event.placed", player=player, sushi=sushi, cell=ctx.t(f"kaiten.plate.{event['cell']}")
        )
    if kind == "ginger":
        lines = []
        if event["laid"]:
            lines.append(ctx.t("kaiten.event.ginger_laid", player=player, count=len(event["laid"])))
        if event["missing"]:
            spoiled = plate_lines(ctx, event["missing"])
            lines.append(ctx.t("kaiten.event.ginger_missing", player=player, lines=spoiled))
        return "\n".join(lines) or None
    if kind == "sake_moved":
        pine = view["pines"][event["to"]]
        if event["reason"] == "no_reserve":
            return ctx.t("kaiten.event.sake_no_reserve", line=line_words(ctx, pine))
        return ctx.t(
            "kaiten.event.sake_moved",
            side=ctx.t(f"kaiten.side.{pine['side']}"),
            line=line_words(ctx, pine),
        )
    if kind == "refilled":
        return ctx.t(
            "kaiten.event.refilled",
            player=player,
            near_sushi=sushi_words(ctx, event["near_sushi"]),
            far_sushi=sushi_words(ctx, event["far_sushi"]),
            near=cell_name(event["near"]),
            far=cell_name(event["far"]),
            pairs=plural("kaiten.count.pair", event["reserve_left"], ctx.locale),
        )
    if kind == "game_over":
        return ctx.t("kaiten.event.game_over")
    return None  # "turn": the content line names the next player


def board(cog: GameCog, ctx: TableContext, *, wasabi_picker: bool = False) -> Board:
    """The public board: embed, picture, and the buttons of the player to move (or the wasabi picker)."""
    view = public(ctx)
    over = view["over"]
    embed = discord.Embed(
        title=ctx.t("kaiten.board.title_over")
        if over
        else ctx.t("kaiten.board.title", turn=view["turn_number"]),
        description="\n".join(situation(ctx, view, wasabi_picker)),
        colour=discord.Colour.gold() if over else discord.Colour.red(),
    )
    if view["fetchable"] and not wasabi_picker:
        entries = [
            ctx.t(
                "kaiten.board.line_entry",
                cell=cell_name(cell),
                sushi=sushi_words(ctx, sushi_at(view, cell)),
            )
            for cell in view["fetchable"]
        ]
        line = line_words(ctx, view["sake"])
        embed.add_field(
            name=ctx.t("kaiten.board.line_field", line=line), value="\n".join(entries), inline=False
        )
    for player in view["players"]:
        player_field(ctx, embed, view, player)
    options = view["options"]
    embed.set_footer(
        text=ctx.t(
            "kaiten.board.footer",
            dexterity=ctx.t(f"kaiten.dexterity.{options['dexterity']}"),
            arrangement=ctx.t(f"kaiten.arrangement.{options['arrangement']}"),
            pairs=plural("kaiten.count.pair", view["reserve_left"], ctx.locale),
        )
    )
    names = [ctx.name(seat) for seat in range(ctx.players)]
    words = picture_words(ctx.locale)
    picture = discord.File(io.BytesIO(render_png(view, names, words, ctx.locale)), filename="board.png")
    embed.set_image(url="attachment://board.png")
    if over:
        content = ctx.t("kaiten.content.over")
        items: list[discord.ui.Item[Any]] = []
    else:
        content = ctx.t(f"kaiten.content.turn.{view['phase']}", player=ctx.mention(acting(view)))
        items = controls(cog, ctx, view, wasabi_picker)
    return Board(content=content, embed=embed, items=items, files=[picture])


def situation(ctx: TableContext, view: KaitenView, wasabi_picker: bool) -> list[str]:
    lines: list[str] = []
    if view["over"]:
        lines.append(ctx.t("kaiten.board.over"))
    else:
        sake = view["sake"]
        side, line = ctx.t(f"kaiten.side.{sake['side']}"), line_words(ctx, sake)
        lines.append(ctx.t("kaiten.board.sake", side=side, line=line))
        player = ctx.name(acting(view))
        step = view["phase"]
        if step == "place":
            holding = view["holding"]
            assert holding is not None, "the place step holds a sushi"
            lines.append(ctx.t("kaiten.board.step.place", player=player, sushi=sushi_words(ctx, holding)))
        elif step == "ginger":
            due = view["ginger_due"]
            ginger = view["players"][acting(view)]["ginger"]
            lines.append(
                ctx.t(
                    "kaiten.board.step.ginger",
                    player=player,
                    ginger=plural("kaiten.count.ginger", ginger, ctx.locale),
                    edges=plural("kaiten.count.edge", len(due), ctx.locale),
                    due=edge_words(ctx, due, ", "),
                )
            )
            for choice in view["ginger_choices"]:
                edges, spoils = ginger_choice_words(ctx, choice)
                lines.append(ctx.t("kaiten.board.ginger_choice", edges=edges, lines=spoils))
        elif step == "refill":
            near, far = view["refill_cells"]
            pair = " + ".join(sushi_words(ctx, sushi) for sushi in view["reserve"][0])
            lines.append(
                ctx.t(
                    "kaiten.board.step.refill",
                    player=player,
                    line=line,
                    pair=pair,
                    near=cell_name(near),
                    far=cell_name(far),
                )
            )
        else:
            lines.append(ctx.t(f"kaiten.board.step.{step}", player=player, line=line))
        if wasabi_picker:
            lines.append(ctx.t("kaiten.board.wasabi_picker"))
    last = [text for event in view["last"] if (text := event_line(ctx, event, view))]
    if last:
        lines += ["", ctx.t("kaiten.board.last"), *last]
    return lines


def player_field(ctx: TableContext, embed: discord.Embed, view: KaitenView, player: KaitenPlayerView) -> None:
    seat = player["seat"]
    rows = []
    for row in range(PLATE):
        cells = player["plate"][row * PLATE : (row + 1) * PLATE]
        rows.append(" ".join(emoji(ctx, sushi) for sushi in cells))
    rows.append(
        ctx.t("kaiten.board.counters", ginger=player["ginger"], wasabi=player["wasabi"], soy=player["soy"])
    )
    if player["missing_ginger"]:
        rows.append(ctx.t("kaiten.board.missing", lines=plate_lines(ctx, player["missing_ginger"])))
    if view["over"]:
        rows.append(
            ctx.t(
                "kaiten.board.final",
                points=plural("results.points", player["score"], ctx.locale),
                soy=player["soy"],
                ginger=player["ginger_placed"],
            )
        )
    marker = "▶️ " if view["turn"] == seat else ""
    name = ctx.t(
        "kaiten.board.player",
        marker=marker,
        name=ctx.name(seat),
        side=ctx.t(f"kaiten.side.{player['side']}"),
        points=plural("kaiten.count.point", player["score"], ctx.locale),
    )
    embed.add_field(name=name, value="\n".join(rows), inline=True)


def emoji(ctx: TableContext, sushi: str | None) -> str:
    if sushi is None:
        return ctx.t("kaiten.emoji.empty")
    rice, _, ingredient = sushi.partition(":")
    return ctx.t(f"kaiten.emoji.{rice}") + ctx.t(f"kaiten.emoji.{ingredient}")


def controls(
    cog: GameCog, ctx: TableContext, view: KaitenView, wasabi_picker: bool
) -> list[discord.ui.Item[Any]]:
    """Buttons for what the player to move may do now (rows 0-3)."""
    step = view["phase"]
    items: list[discord.ui.Item[Any]] = []
    if step in ("wasabi_or_fetch", "fetch") and wasabi_picker:
        for steps in view["wasabi_moves"]:
            target = view["pines"][(view["sake"]["pine"] + steps) % len(view["pines"])]
            label = ctx.t(
                "kaiten.button.move",
                pines=pines(ctx, steps),
                direction=direction_words(ctx, steps),
                line=line_words(ctx, target),
            )
            items.append(
                cog.ui_button(
                    ctx,
                    f"w:{steps}",
                    label,
                    emoji=ctx.t("kaiten.emoji.wasabi"),
                    style=discord.ButtonStyle.success,
                    row=0,
                )
            )
        items.append(cog.ui_button(ctx, "back", ctx.t("kaiten.button.back"), row=1))
    elif step in ("wasabi_or_fetch", "fetch"):
        for index, cell in enumerate(view["fetchable"]):
            rice, _, ingredient = sushi_at(view, cell).partition(":")
            label = ctx.t(
                "kaiten.button.fetch",
                cell=cell_name(cell),
                ingredient=ctx.t(f"kaiten.ingredient.{ingredient}"),
                colour=ctx.t(f"kaiten.rice.{rice}"),
            )
            items.append(
                cog.ui_button(
                    ctx,
                    f"f:{cell}",
                    label,
                    emoji=ctx.t(f"kaiten.emoji.{ingredient}"),
                    style=discord.ButtonStyle.primary,
                    row=index // 3,
                )
            )
        if view["wasabi_moves"]:
            items.append(
                cog.ui_button(
                    ctx, "wasabi", ctx.t("kaiten.button.wasabi"), emoji=ctx.t("kaiten.emoji.wasabi"), row=2
                )
            )
    elif step == "place":
        plate = view["players"][acting(view)]["plate"]
        legal = set(view["plate_cells"])
        for cell in range(PLATE * PLATE):
            sushi = plate[cell]
            items.append(
                cog.action_button(
                    ctx,
                    Place(cell),
                    ctx.t(f"kaiten.plate.{cell}"),
                    style=discord.ButtonStyle.success if cell in legal else discord.ButtonStyle.secondary,
                    emoji=ctx.t(f"kaiten.emoji.{sushi.partition(':')[2]}") if sushi else None,
                    disabled=cell not in legal,
                    row=cell // PLATE,
                )
            )
    elif step == "ginger":
        for index, choice in enumerate(view["ginger_choices"]):
            edges, spoils = ginger_choice_words(ctx, choice)
            label = ctx.t("kaiten.button.ginger", edges=edges, lines=spoils)
            if len(label) > LABEL_LIMIT:  # three edges around the centre: the board text tells the cost
                label = edges if len(edges) <= LABEL_LIMIT else edges[: LABEL_LIMIT - 1] + "…"
            action = Ginger(tuple((i, j) for i, j in choice["edges"]))
            items.append(
                cog.action_button(
                    ctx,
                    action,
                    label,
                    emoji=ctx.t("kaiten.emoji.ginger"),
                    style=discord.ButtonStyle.success,
                    row=index,
                )
            )
    elif step == "refill":
        near, far = (cell_name(cell) for cell in view["refill_cells"])
        black, white = view["reserve"][0]
        for black_nearer in (True, False):
            nearer, farther = (black, white) if black_nearer else (white, black)
            label = ctx.t(
                "kaiten.button.refill",
                near_sushi=sushi_words(ctx, nearer),
                near=near,
                far_sushi=sushi_words(ctx, farther),
                far=far,
            )
            items.append(cog.action_button(ctx, Refill(black_nearer), label, row=0 if black_nearer else 1))
    return items


def chopsticks(cog: GameCog, ctx: TableContext, seat: int, cell: int, found: Challenge) -> Board:
    """The dexterity challenge, shown to the acting player only: a row of buttons, the 🥢 on one."""
    buttons: list[discord.ui.Item[Any]] = [
        cog.ui_button(
            ctx,
            f"c:{cell}:{index}",
            ctx.t("kaiten.button.chopsticks") if index == found.target else None,
            emoji=ctx.t("kaiten.emoji.chopsticks" if index == found.target else "kaiten.emoji.no_chopsticks"),
            style=discord.ButtonStyle.secondary,
            row=0,
        )
        for index in range(found.buttons)
    ]
    prompt = ctx.t(
        "kaiten.challenge.prompt",
        player=ctx.name(seat),
        sushi=sushi_words(ctx, sushi_at(public(ctx), cell)),
        cell=cell_name(cell),
        seconds=f"{found.window_seconds:g}",
    )
    return Board(content=prompt, items=buttons)


# ---------------------------------------------------------------- how the results came about


def result_notes(ctx: TableContext) -> ResultNotes:
    """Each plate as the rulebook counts it (rows, columns, wasabi, soy, rice), and the tie-break
    (fewer soy, then more ginger placed) where it split equal scores."""
    view = public(ctx)
    ranking = view["ranking"]
    assert ranking is not None, "only a finished game is explained"
    breakdown = {player["seat"]: plate_breakdown(ctx, player) for player in view["players"]}
    return ResultNotes(breakdown=breakdown, tie_break=tie_break(ctx, view, ranking))


def plate_breakdown(ctx: TableContext, player: KaitenPlayerView) -> str:
    """ "Rows ⚫🔴🟤 **5** · … / Columns … / 🌿 … · 🫗 … · 🍚 …": every part of the score, in bold."""
    parts = player["score_parts"]
    lines = {
        kind: " · ".join(_line_part(ctx, player, line) for line in parts["lines"] if line["line"] == kind)
        for kind in ("row", "column")
    }
    wasabi, soy = player["wasabi"], player["soy"]
    extras = [
        ctx.t(
            "kaiten.explain.wasabi",
            wasabi=plural("kaiten.count.wasabi", wasabi, ctx.locale),
            points=signed(parts["wasabi"]),
        )
        if wasabi
        else ctx.t("kaiten.explain.no_wasabi"),
        ctx.t(
            "kaiten.explain.soy", soy=plural("kaiten.count.soy", soy, ctx.locale), points=signed(parts["soy"])
        )
        if soy
        else ctx.t("kaiten.explain.no_soy"),
    ]
    fewer = parts["fewer_rice"]
    if fewer is None:  # only before the end: a full plate has an odd number of sushi
        extras.append(ctx.t("kaiten.explain.rice_even", points=signed(parts["rice"])))
    else:
        extras.append(
            ctx.t(
                "kaiten.explain.rice",
                count=parts["rice"],
                rice=ctx.t(f"kaiten.emoji.{fewer}"),
                colour=ctx.t(f"kaiten.rice.{fewer}"),
                points=signed(parts["rice"]),
            )
        )
    return ctx.t(
        "kaiten.explain.plate", rows=lines["row"], columns=lines["column"], extras=" · ".join(extras)
    )


def _line_part(ctx: TableContext, player: KaitenPlayerView, line: PlateLineView) -> str:
    """One row or column: its three toppings and its points, struck through when a ginger is missing."""
    toppings = "".join(emoji_topping(ctx, player["plate"][cell]) for cell in line["cells"])
    if line["spoiled"]:
        if line["card"] is None:
            return ctx.t("kaiten.explain.line_spoiled_open", toppings=toppings)
        return ctx.t("kaiten.explain.line_spoiled", toppings=toppings, card=line["card"])
    if line["points"] is None:
        return ctx.t("kaiten.explain.line_open", toppings=toppings)
    return ctx.t("kaiten.explain.line", toppings=toppings, points=line["points"])


def emoji_topping(ctx: TableContext, sushi: str | None) -> str:
    """A sushi's topping as its emoji (the line scores by toppings alone), an empty cell as ▫️."""
    if sushi is None:
        return ctx.t("kaiten.emoji.empty_cell")
    return ctx.t(f"kaiten.emoji.{sushi.partition(':')[2]}")


def tie_break(ctx: TableContext, view: KaitenView, ranking: list[int]) -> str | None:
    """Words for each equal score that fewer soy, then more ginger placed, split into different ranks;
    None when every tie stands (or there is none). Only a criterion that split a rank is named."""
    scores, players = view["scores"], view["players"]
    notes: list[str] = []

    def decided(seats: list[int]) -> bool:
        return len({ranking[seat] for seat in seats}) > 1

    for score in sorted(set(scores), reverse=True):
        tied = sorted((s for s in range(ctx.players) if scores[s] == score), key=lambda s: (ranking[s], s))
        if not decided(tied):  # alone, or sharing a rank: nothing was decided
            continue
        points = plural("results.points", score, ctx.locale)
        soys = sorted({players[seat]["soy"] for seat in tied})
        if len(soys) > 1:
            parts = " · ".join(
                ctx.t("kaiten.explain.tie_soy_part", name=ctx.name(seat), soy=players[seat]["soy"])
                for seat in tied
            )
            notes.append(ctx.t("kaiten.explain.tie_soy", points=points, parts=parts))
        for soy in soys:
            same = [seat for seat in tied if players[seat]["soy"] == soy]
            if not decided(same):
                continue
            parts = " · ".join(
                ctx.t(
                    "kaiten.explain.tie_ginger_part",
                    name=ctx.name(seat),
                    ginger=players[seat]["ginger_placed"],
                )
                for seat in same
            )
            key = "kaiten.explain.tie_ginger" if len(same) == len(tied) else "kaiten.explain.tie_ginger_some"
            soy_words = plural("kaiten.count.soy", soy, ctx.locale)
            notes.append(ctx.t(key, points=points, soy=soy_words, parts=parts))
    if not notes:
        return None
    # The results board marks the first note ⚖️; any further one gets its own line and mark.
    return "\n".join([notes[0], *(ctx.t("results.tie_break", how=note) for note in notes[1:])])


# ---------------------------------------------------------------- picture


FONTS = Path(__file__).resolve().parents[1] / "fonts"
FONT_CHAIN = ("DejaVuSans.ttf", "DroidSansFallback-CJK.ttf")
"""Each character is drawn by the first of these fonts that has a glyph for it (cogs/fonts/README.md)."""

# Both fonts lay out text without Raqm, so the picture reads the same on every machine whether or not
# libraqm and FriBiDi are installed: arabic-reshaper picks each Persian letter's joined form
# (presentation forms, which DejaVu Sans has), python-bidi puts mixed text in visual order, and each
# run of one font is drawn left to right. Raqm could not order runs of two fonts anyway.
# DejaVu Sans has no glyph for the one-character ligature of "Allah": spelled letter by letter.
_RESHAPER = ArabicReshaper({"ARABIC LIGATURE ALLAH": False})
_INVISIBLE = {"Cc", "Cf"}
"""Controls and format characters (bidi marks and isolates, ZWJ, ZWNJ): they steer shaping and ordering
and are then left out."""


def _unwanted(char: str) -> bool:
    """Emoji presentation selectors and skin tones: without their emoji they would draw nothing useful."""
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or 0x1F3FB <= code <= 0x1F3FF


@cache
def _coverage(index: int) -> frozenset[int]:
    """The code points font `index` of the chain has glyphs for (read once; the CJK font only when a
    character needs it)."""
    return frozenset(TTFont(FONTS / FONT_CHAIN[index], lazy=True).getBestCmap() or {})


def _font_of(char: str) -> int | None:
    """The first font of the chain that draws `char`, None when none does."""
    code = ord(char)
    return next((index for index in range(len(FONT_CHAIN)) if code in _coverage(index)), None)


def _drawable(char: str) -> str:
    """`char` as it can be drawn: itself, its compatibility form where only that has a glyph (𝐀 -> A,
    a presentation form DejaVu lacks -> its letter), or nothing."""
    if _unwanted(char):
        return ""
    if _font_of(char) is not None:
        return char
    plain = unicodedata.normalize("NFKC", char)
    if plain != char and all(_font_of(part) is not None for part in plain):
        return plain
    return ""


@cache
def _fonts(size: int) -> tuple[ImageFont.FreeTypeFont, ...]:
    return tuple(
        ImageFont.truetype(str(FONTS / name), size, layout_engine=ImageFont.Layout.BASIC)
        for name in FONT_CHAIN
    )


@lru_cache(maxsize=1024)
def printable(text: str) -> str:
    """`text` without what no font draws (most emoji), its spaces collapsed; "" when nothing visible is
    left. Still in logical order, with the controls that shaping and ordering need."""
    kept = "".join(
        char if unicodedata.category(char) in _INVISIBLE else _drawable(char)
        for char in unicodedata.normalize("NFC", text)
        if unicodedata.category(char) != "Cc"
    )
    kept = " ".join(kept.split())
    if all(char.isspace() or unicodedata.category(char) in _INVISIBLE for char in kept):
        return ""
    return kept


@lru_cache(maxsize=1024)
def runs(text: str) -> tuple[tuple[int, str], ...]:
    """`text` as drawn: shaped, in visual order (left to right), cut into runs of one font each
    (its index in FONT_CHAIN). Characters no font has are left out."""
    visual = str(get_display(_RESHAPER.reshape(printable(text))))
    pieces: list[tuple[int, str]] = []
    for char in visual:
        if unicodedata.category(char) in _INVISIBLE:
            continue
        drawn = _drawable(char)
        if len(drawn) > 1 and unicodedata.bidirectional(char) in ("R", "AL"):
            drawn = drawn[::-1]  # a ligature spelled out, already in visual order
        for part in drawn:
            index = _font_of(part)
            assert index is not None, "_drawable keeps only what a font has"
            if pieces and pieces[-1][0] == index:
                pieces[-1] = (index, pieces[-1][1] + part)
            else:
                pieces.append((index, part))
    return tuple(pieces)


def _width(text: str, size: int) -> float:
    fonts = _fonts(size)
    return sum(fonts[index].getlength(run) for index, run in runs(text))


@lru_cache(maxsize=256)
def _fit(text: str, size: int, width: float) -> str:
    """`text`, cut short with "…" where it is wider than `width` pixels."""
    if _width(text, size) <= width:
        return text
    while text and _width(text + "…", size) > width:
        text = text[:-1].rstrip()
    return text + "…"


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fill: tuple[int, int, int],
    size: int,
    anchor: str = "lm",
) -> None:
    """Draw `text` like `draw.text` with a left, middle or right, vertically middle `anchor`, each run in
    its own font on one baseline (that of the first font, so mixed scripts line up)."""
    assert anchor in ("lm", "mm", "rm"), anchor
    fonts = _fonts(size)
    pieces = runs(text)
    widths = [fonts[index].getlength(run) for index, run in pieces]
    x, y = xy
    x -= {"l": 0.0, "m": sum(widths) / 2, "r": sum(widths)}[anchor[0]]
    ascent, descent = fonts[0].getmetrics()
    baseline = y + (ascent - descent) / 2
    for (index, run), width in zip(pieces, widths, strict=True):
        draw.text((x, baseline), run, fill=fill, font=fonts[index], anchor="ls")
        x += width


def _cell_box(cell: int) -> tuple[int, int, int, int]:
    row, col = divmod(cell, SIZE)
    x, y = BOARD_X + col * CELL, BOARD_Y + row * CELL
    return x, y, x + CELL, y + CELL


def _pine_centre(pine: PineView) -> tuple[int, int]:
    """The middle of a pine's edge space: beside its row or column, on its side of the board."""
    middle = pine["index"] * CELL + CELL // 2
    if pine["line"] == "column":
        y = BOARD_Y - PINE_BAND // 2 if pine["side"] == "top" else BOARD_Y + BOARD_PX + PINE_BAND // 2
        return BOARD_X + middle, y
    x = BOARD_X + BOARD_PX + PINE_BAND // 2 if pine["side"] == "right" else BOARD_X - PINE_BAND // 2
    return x, BOARD_Y + middle


def _plate_origin(seat: int) -> tuple[int, int]:
    column, row = seat % 2, seat // 2
    return PANEL_X + column * PLATE_BOX_W, 8 + row * PLATE_BOX_H


def _plate_cells_origin(seat: int) -> tuple[int, int]:
    x, y = _plate_origin(seat)
    return x + 14, y + 40


def draw_sushi(image: Image.Image, box: tuple[int, int, int, int], sushi: str, pad: int) -> None:
    """A nigiri seen from above, pasted from its sprite (drawn once per kind and size)."""
    x0, y0, x1, y1 = box
    sprite = _sushi_sprite(x1 - x0, y1 - y0, sushi, pad)
    image.paste(sprite, (x0, y0), sprite)


@lru_cache(maxsize=256)
def _sushi_sprite(width: int, height: int, sushi: str, pad: int) -> Image.Image:
    """A rounded block of rice with its topping on it, on a transparent ground (shapes without
    antialiasing, so pasting it gives the very pixels drawing it there would)."""
    sprite = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    rice, _, ingredient = sushi.partition(":")
    x0, y0, x1, y1 = 0, 0, width, height
    draw.rounded_rectangle(
        (x0 + pad, y0 + pad, x1 - pad, y1 - pad),
        radius=max(3, (x1 - x0) // 5),
        fill=RICE[rice],
        outline=RICE_EDGE[rice],
        width=2,
    )
    inset = pad + (x1 - x0) // 5
    draw.ellipse(
        (x0 + inset, y0 + inset + 1, x1 - inset, y1 - inset - 1),
        fill=INGREDIENT[ingredient],
        outline=INGREDIENT_EDGE.get(ingredient, RICE_EDGE[rice]),
        width=2,
    )
    return sprite


def _draw_sake(draw: ImageDraw.ImageDraw, centre: tuple[int, int]) -> None:
    """A small sake bottle standing on the pine."""
    x, y = centre
    draw.ellipse((x - 11, y - 11, x + 11, y + 11), fill=(255, 214, 92))
    draw.rounded_rectangle((x - 6, y - 4, x + 6, y + 9), radius=4, fill=(250, 248, 240), outline=(60, 60, 60))
    draw.rectangle((x - 2, y - 10, x + 2, y - 4), fill=(250, 248, 240), outline=(60, 60, 60))
    draw.rectangle((x - 6, y + 1, x + 6, y + 4), fill=(40, 90, 170))


@cache
def _static_layer(players: int) -> Image.Image:
    """Everything that does not depend on the game: mat, coordinates, pines, empty plate slots."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (
            BOARD_X - PINE_BAND,
            BOARD_Y - PINE_BAND,
            BOARD_X + BOARD_PX + PINE_BAND,
            BOARD_Y + BOARD_PX + PINE_BAND,
        ),
        radius=14,
        fill=MAT,
    )
    for index in range(SIZE):
        middle = index * CELL + CELL // 2
        _text(draw, (BOARD_X + middle, LABEL // 2), COLUMNS[index], TEXT, 14, "mm")
        _text(draw, (LABEL // 2, BOARD_Y + middle), str(index + 1), TEXT, 14, "mm")
        for x, y in (
            (BOARD_X + middle, BOARD_Y - PINE_BAND // 2),
            (BOARD_X + middle, BOARD_Y + BOARD_PX + PINE_BAND // 2),
            (BOARD_X - PINE_BAND // 2, BOARD_Y + middle),
            (BOARD_X + BOARD_PX + PINE_BAND // 2, BOARD_Y + middle),
        ):
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=PINE)
    for seat in range(players):
        x, y = _plate_origin(seat)
        draw.rounded_rectangle(
            (x + 4, y, x + PLATE_BOX_W - 6, y + PLATE_BOX_H - 10), radius=12, fill=(54, 57, 63)
        )
        px, py = _plate_cells_origin(seat)
        span = PLATE * PLATE_CELL
        draw.ellipse((px - 6, py - 6, px + span + 6, py + span + 6), fill=(225, 225, 230))
        for cell in range(PLATE * PLATE):
            row, col = divmod(cell, PLATE)
            cx, cy = px + col * PLATE_CELL, py + row * PLATE_CELL
            draw.rounded_rectangle(
                (cx + 2, cy + 2, cx + PLATE_CELL - 2, cy + PLATE_CELL - 2), radius=6, outline=(190, 190, 198)
            )
    return image


def _draw_board(image: Image.Image, draw: ImageDraw.ImageDraw, view: KaitenView) -> None:
    line = set(view["sake"]["cells"])
    fetchable = set(view["fetchable"])
    hidden_tile = [condiment is None for condiment in view["condiments"]]
    for cell, sushi in enumerate(view["board"]):
        x0, y0, x1, y1 = _cell_box(cell)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=LINE_SLOT if cell in line else SLOT)
        if hidden_tile[cell]:  # a face-down condiment tile still lies under this cell
            draw.rounded_rectangle((x0 + 4, y0 + 4, x1 - 4, y1 - 4), radius=5, fill=TILE)
        if sushi is not None:
            draw_sushi(image, (x0, y0, x1, y1), sushi, 7)
        if cell in fetchable:
            draw.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), radius=7, outline=FETCHABLE, width=3)
    fetched_from = view["fetched_from"]
    if fetched_from is not None and view["phase"] == "place":
        x0, y0, x1, y1 = _cell_box(fetched_from)
        draw.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), radius=7, outline=(255, 255, 255), width=2)
    _draw_sake(draw, _pine_centre(view["sake"]))


def _draw_reserve(image: Image.Image, draw: ImageDraw.ImageDraw, view: KaitenView, words: Words) -> None:
    _text(draw, (BOARD_X - PINE_BAND, RESERVE_Y + 18), words["reserve"], DIM, 14)
    x = BOARD_X + 32
    for black, white in view["reserve"]:
        for sushi in (black, white):
            draw_sushi(image, (x, RESERVE_Y + 4, x + 28, RESERVE_Y + 32), sushi, 2)
            x += 25
        x += 8
    if not view["reserve"]:
        _text(draw, (x, RESERVE_Y + 18), words["empty"], DIM, 14)


def _counter(
    draw: ImageDraw.ImageDraw, x: int, y: int, colour: tuple[int, int, int], count: str, what: str
) -> None:
    draw.ellipse((x, y, x + 16, y + 16), fill=colour, outline=(30, 30, 30))
    _text(draw, (x + 21, y + 8), f"{count} {what}", TEXT, 13)


def _draw_plate(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    player: KaitenPlayerView,
    name: str,
    current: bool,
    holding: str | None,
    due: list[list[int]],
    words: Words,
    locale: str | None,
) -> None:
    seat = player["seat"]
    x, y = _plate_origin(seat)
    if current:
        draw.rounded_rectangle(
            (x + 4, y, x + PLATE_BOX_W - 6, y + PLATE_BOX_H - 10), radius=12, outline=CURRENT, width=3
        )
    score = player["score"]
    points = words["point" if abs(score) == 1 else "points"].format(score=number(score, locale))
    _text(draw, (x + PLATE_BOX_W - 18, y + 16), points, CURRENT, 16, "rm")
    # A name of emoji only would leave nothing: "Player 2" stands in for it.
    title = printable(name) or words["seat"].format(seat=number(seat + 1, locale))
    room = PLATE_BOX_W - 18 - 16 - 8 - _width(points, 16)
    _text(draw, (x + 16, y + 16), _fit(title, 16, room), TEXT, 16)
    _text(draw, (x + 16, y + 32), words[f"side.{player['side']}"], DIM, 11)
    px, py = _plate_cells_origin(seat)
    for cell, sushi in enumerate(player["plate"]):
        if sushi is None:
            continue
        row, col = divmod(cell, PLATE)
        cx, cy = px + col * PLATE_CELL, py + row * PLATE_CELL
        draw_sushi(image, (cx, cy, cx + PLATE_CELL, cy + PLATE_CELL), sushi, 3)
    for edges, colour in ((player["ginger_edges"], GINGER), (player["missing_ginger"], MISSING), (due, DUE)):
        for i, j in edges:
            _edge_mark(draw, px, py, min(i, j), max(i, j), colour, pending=colour == DUE)
    if holding is not None:
        hx = px + PLATE * PLATE_CELL + 16
        _text(draw, (hx + 20, py + 4), words["holding"], DIM, 11, "mm")
        draw_sushi(image, (hx, py + 12, hx + 40, py + 52), holding, 3)
    base = y + PLATE_BOX_H - 46
    _counter(draw, x + 14, base, GINGER, number(player["ginger"], locale), words["ginger"])
    _counter(draw, x + 14, base + 18, WASABI, number(player["wasabi"], locale), words["wasabi"])
    _counter(draw, x + 110, base, SOY, number(player["soy"], locale), words["soy"])
    if due:  # the choice waiting for this player, above the other notes
        _text(draw, (x + 110, base + 26), words["ginger_due"], DUE, 12)
    elif player["missing_ginger"]:
        _text(draw, (x + 110, base + 26), words["no_ginger"], MISSING, 12)


def _edge_mark(
    draw: ImageDraw.ImageDraw,
    px: int,
    py: int,
    i: int,
    j: int,
    colour: tuple[int, int, int],
    *,
    pending: bool = False,
) -> None:
    """A ginger slice (or a red gap where one is missing) across the edge between plate cells i < j; a
    pending edge (its ginger still to be chosen) is larger, outlined white, with a "?"."""
    row, col = divmod(i, PLATE)
    if j == i + 1:  # side by side: a vertical mark on the shared edge
        ex, ey = px + (col + 1) * PLATE_CELL, py + row * PLATE_CELL + PLATE_CELL // 2
        box = (ex - 4, ey - 12, ex + 4, ey + 12)
    else:  # one above the other: a horizontal mark
        ex, ey = px + col * PLATE_CELL + PLATE_CELL // 2, py + (row + 1) * PLATE_CELL
        box = (ex - 12, ey - 4, ex + 12, ey + 4)
    if pending:
        x0, y0, x1, y1 = box
        box = (x0 - 3, y0 - 3, x1 + 3, y1 + 3)
        draw.rounded_rectangle(box, radius=5, fill=colour, outline=(255, 255, 255), width=2)
        _text(draw, (ex, ey), "?", (40, 20, 0), 12, "mm")
        return
    draw.rounded_rectangle(box, radius=4, fill=colour, outline=(60, 30, 40))


def render_png(view: KaitenView, names: Sequence[str], words: Words, locale: str | None = None) -> bytes:
    """The whole table as PNG bytes: board, sake, reserve, and one plate per seat.

    `names` per seat; `words` the few words drawn in the picture (keys of WORD_KEYS), already translated
    into the language of `locale`, which also writes the numbers.
    """
    players = view["players"]
    image = _static_layer(len(players)).copy()
    draw = ImageDraw.Draw(image)
    _draw_board(image, draw, view)
    _draw_reserve(image, draw, view, words)
    for player in players:
        current = view["turn"] == player["seat"]
        holding = view["holding"] if current else None
        due = view["ginger_due"] if current else []
        _draw_plate(image, draw, player, names[int(player["seat"])], current, holding, due, words, locale)
    return png(image)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png(image: Image.Image) -> bytes:
    """An RGB picture as PNG, written here: rows unfiltered, deflated at level 3. Pillow's encoder tries
    every row filter on every row, two thirds of a render; a board of flat shapes deflates as small
    without them, three times faster (bench/bench_kaiten_render.py). zlib lets other threads run."""
    assert image.mode == "RGB", image.mode
    width, height = image.size
    raw = image.tobytes()
    stride = width * 3
    rows = b"".join(b"\x00" + raw[row * stride : (row + 1) * stride] for row in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(rows, 3)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
