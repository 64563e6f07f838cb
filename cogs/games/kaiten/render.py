"""Kaiten Sushi's board: the embed in words and its buttons, with the picture (cogs/games/kaiten/picture.py).

Everything is drawn from `GAME.view(state, None)` and nothing else. Cells are named as on the picture:
columns A-F from the left, rows 1-6 from the top ("C4").
"""

from __future__ import annotations

import io
from typing import Any, TypeAlias

import discord
from babel.numbers import format_decimal

from cogs.games.kaiten.picture import COLUMNS, PLATE, SIZE, picture_words, render_png
from cogs.kit.messages import Board
from cogs.kit.words.catalogs import language_of
from cogs.kit.words.text import DIGITS, number, numbering_system, plural, signed
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog, ResultNotes
from rules.engine import Action, Event
from rules.kaiten.game import Challenge
from rules.kaiten.state import Ginger, KaitenState, Place, Refill
from rules.kaiten.view import GingerChoiceView, KaitenPlayerView, KaitenView, PineView, PlateLineView

Context: TypeAlias = TableContext[KaitenState, Action, KaitenView]
"""A Kaiten table: `ctx.public()` is a KaitenView (every seat sees the same in Kaiten Sushi)."""
Cog: TypeAlias = GameCog[KaitenState, Action, KaitenView]
"""The Kaiten cog, as its boards see it: its builders take Kaiten actions."""

LABEL_LIMIT = 80
"""Discord's longest button label."""


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


def decimal(value: float, locale: str | None) -> str:
    """Seconds as the language writes them: "4.5" in English, "4,5" in German, "۴٫۵" in Persian."""
    if value.is_integer():
        return number(int(value), locale)
    written = format_decimal(value, locale=language_of(locale), numbering_system="default")
    return written.translate(str.maketrans(DIGITS["latn"], DIGITS[numbering_system(locale)]))


def cell_name(cell: int) -> str:
    """Board cell 0..35 as on the picture: column letter A-F, row number 1-6 ("C4")."""
    row, column = divmod(cell, SIZE)
    return f"{COLUMNS[column]}{row + 1}"


# ---------------------------------------------------------------- words


def sushi_words(ctx: Context, sushi: str) -> str:
    rice, _, ingredient = sushi.partition(":")
    return ctx.t(
        "kaiten.sushi",
        rice=ctx.t(f"kaiten.emoji.{rice}"),
        topping=ctx.t(f"kaiten.emoji.{ingredient}"),
        ingredient=ctx.t(f"kaiten.ingredient.{ingredient}"),
        colour=ctx.t(f"kaiten.rice.{rice}"),
    )


def sushi_emoji(ctx: Context, sushi: str) -> str:
    """A sushi as its two emoji, rice then topping ("⬛🔴"): where the words around it (or the picture)
    already name it."""
    rice, _, ingredient = sushi.partition(":")
    return ctx.t(f"kaiten.emoji.{rice}") + ctx.t(f"kaiten.emoji.{ingredient}")


def pines(ctx: Context, steps: int) -> str:
    """How far a wasabi moves the sake: "1 pine", "2 pines"."""
    return plural("kaiten.count.pine", abs(steps), ctx.locale)


def direction_words(ctx: Context, steps: int) -> str:
    """Which way the sake moves: clockwise for positive steps, back otherwise."""
    return ctx.t(f"kaiten.event.direction.{'forward' if steps > 0 else 'back'}")


def line_words(ctx: Context, pine: PineView) -> str:
    index = pine["index"]
    if pine["line"] == "column":
        return ctx.t("kaiten.line.column", name=COLUMNS[index])
    return ctx.t("kaiten.line.row", name=index + 1)  # a number: Persian reads ردیف ۱, not ردیف 1


def plate_lines(ctx: Context, edges: list[list[int]]) -> str:
    """The plate rows/columns that bare black/white edges spoil, in words."""
    lines: list[int] = []
    for i, j in edges:
        low, high = min(i, j), max(i, j)
        line = low // PLATE if high == low + 1 else PLATE + low % PLATE
        if line not in lines:
            lines.append(line)
    return line_names(ctx, lines)


def line_names(ctx: Context, lines: list[int]) -> str:
    """Plate lines by index (rows 0-2, then columns 0-2, as `rules.kaiten.plate.PLATE_LINES`), in words."""
    return ", ".join(
        ctx.t(f"kaiten.plate_line.{'row' if line < PLATE else 'column'}.{line % PLATE}") for line in lines
    )


def edge_words(ctx: Context, edges: list[list[int]], separator: str = " + ") -> str:
    """Plate edges by the two cells they separate: "top middle | centre + centre | bottom middle"."""
    return separator.join(
        ctx.t("kaiten.edge", a=ctx.t(f"kaiten.plate.{i}"), b=ctx.t(f"kaiten.plate.{j}")) for i, j in edges
    )


def ginger_choice_words(ctx: Context, choice: GingerChoiceView) -> tuple[str, str]:
    """A ginger choice as (where the ginger goes, what it costs)."""
    return edge_words(ctx, choice["edges"]), line_names(ctx, choice["spoils"])


def event_line(ctx: Context, event: Event, view: KaitenView) -> str | None:
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
        # Live, the turn line names who holds which sushi (placing it): this line only says where it was
        # and what lay under it. A replay, without a turn line, says it all (the sushi as its emoji).
        key = "kaiten.event.fetched" if ctx.replaying else "kaiten.event.found"
        sushi = sushi_emoji(ctx, event["sushi"])
        words = {"player": player, "sushi": sushi, "cell": cell_name(event["cell"])}
        if event["condiment"] is None:
            return ctx.t(f"{key}_refilled", **words)
        if event["condiment"] == "blank":
            return ctx.t(f"{key}_blank", **words)
        return ctx.t(key, condiment=ctx.t(f"kaiten.condiment.{event['condiment']}"), **words)
    if kind == "dropped":
        sushi = sushi_emoji(ctx, event["sushi"])  # it stays on the board, where the picture shows it
        return ctx.t(
            "kaiten.event.dropped",
            player=player,
            sushi=sushi,
            cell=cell_name(event["cell"]),
            soy=event["soy"],
        )
    if kind == "placed":
        return None  # the picture shows the sushi on its plate
    if kind == "ginger":
        lines = []
        if event["laid"]:
            lines.append(plural("kaiten.event.ginger_laid", len(event["laid"]), ctx.locale, player=player))
        if event["missing"]:
            spoiled = plate_lines(ctx, event["missing"])
            key = "kaiten.event.ginger_missing" + ("_too" if lines else "")  # named on the line above
            lines.append(ctx.t(key, player=player, lines=spoiled))
        return "\n".join(lines) or None
    if kind == "sake_moved":
        pine = view["pines"][event["to"]]
        if event["reason"] == "no_reserve":
            return ctx.t("kaiten.event.sake_no_reserve", line=line_words(ctx, pine))
        return None  # its regular move: the picture and the turn line show where it points now
    if kind == "refilled":
        return ctx.t(
            "kaiten.event.refilled",
            player=player,
            near_sushi=sushi_emoji(ctx, event["near_sushi"]),
            far_sushi=sushi_emoji(ctx, event["far_sushi"]),
            near=cell_name(event["near"]),
            far=cell_name(event["far"]),
            pairs=plural("kaiten.count.pair", event["reserve_left"], ctx.locale),
        )
    return None  # "turn", "game_over": the turn line names the next player, the title the end


def board(cog: Cog, ctx: Context, *, wasabi_picker: bool = False) -> Board:
    """The public board: the picture, and in words only what it does not show (whose turn and what
    they may do, what just happened), with the buttons of the player to move (or the wasabi picker).
    The picture draws the conveyor, the sake, the reserve and every plate with its points."""
    view = ctx.public()
    over = view["over"]
    lines = situation(ctx, view)
    embed = discord.Embed(
        title=ctx.t("kaiten.board.title_over")
        if over
        else ctx.t("kaiten.board.title", turn=view["turn_number"]),
        description="\n".join(lines) or None,
        colour=discord.Colour.gold() if over else discord.Colour.red(),
    )
    names = [ctx.plain_name(seat) for seat in range(ctx.players)]  # drawn, not markdown: as stored
    words = picture_words(ctx.locale)
    picture = discord.File(io.BytesIO(render_png(view, names, words, ctx.locale)), filename="board.png")
    embed.set_image(url="attachment://board.png")
    if over or ctx.replaying:  # a replay shows what happened, not what the player was asked to do
        return Board(content=None, embed=embed, files=[picture])
    # With the wasabi picker open, who chooses where the sake goes says the turn line's part.
    content = (
        ctx.t("kaiten.board.wasabi_picker", player=ctx.mention(acting(view)))
        if wasabi_picker
        else turn_line(ctx, view)
    )
    return Board(content=content, embed=embed, items=controls(cog, ctx, view, wasabi_picker), files=[picture])


def turn_line(ctx: Context, view: KaitenView) -> str:
    """Whose turn it is and what they may do now, said to the table."""
    seat, step = acting(view), view["phase"]
    words: dict[str, str] = {"player": ctx.mention(seat), "line": line_words(ctx, view["sake"])}
    if step == "place":
        holding = view["holding"]
        assert holding is not None, "the place step holds a sushi"
        words["sushi"] = sushi_words(ctx, holding)
    elif step == "ginger":
        words["ginger"] = plural("kaiten.count.ginger", view["players"][seat]["ginger"], ctx.locale)
        words["edges"] = plural("kaiten.count.edge", len(view["ginger_due"]), ctx.locale)
    elif step == "refill":
        near, far = view["refill_cells"]
        words |= {"near": cell_name(near), "far": cell_name(far)}
    return ctx.t(f"kaiten.content.turn.{step}", **words)


def situation(ctx: Context, view: KaitenView) -> list[str]:
    """The embed's lines: the step's details the buttons may not hold (a ginger choice too long for its
    button), then what just happened. The picture's legend is in the rules ("How to play"), and with the
    wasabi picker open its line stands in for the turn line: the board fits a screen at every step."""
    lines: list[str] = []
    live = not view["over"] and not ctx.replaying
    if live and view["phase"] == "ginger":
        for choice in view["ginger_choices"]:
            edges, spoils = ginger_choice_words(ctx, choice)
            if len(ctx.t("kaiten.button.ginger", edges=edges, lines=spoils)) > LABEL_LIMIT:
                lines.append(ctx.t("kaiten.board.ginger_choice", edges=edges, lines=spoils))
    lines += [text for event in view["last"] if (text := event_line(ctx, event, view))]
    return lines


def controls(cog: Cog, ctx: Context, view: KaitenView, wasabi_picker: bool) -> list[discord.ui.Item[Any]]:
    """Buttons for what the player to move may do now (rows 0-3)."""
    step = view["phase"]
    items: list[discord.ui.Item[Any]] = []
    if step in ("wasabi_or_fetch", "fetch") and wasabi_picker:
        for steps in view["wasabi_moves"]:
            target = view["pines"][(view["sake"]["pine"] + steps) % len(view["pines"])]
            # The line it leads to by its name alone, as the picture writes it over its column or beside
            # its row ("B", "3"): the four moves and their emoji fit one row in every language.
            name = COLUMNS[target["index"]] if target["line"] == "column" else target["index"] + 1
            label = ctx.t("kaiten.button.move", name=name)
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
        items.append(cog.ui_button(ctx, "back", ctx.t("kaiten.button.back"), row=1))  # beside "How to play"
    elif step in ("wasabi_or_fetch", "fetch"):
        # A fetch by its cell, as the picture names it, in its topping's colour: short, so the
        # line's six fit two rows (the picture shows each sushi whole).
        for index, cell in enumerate(view["fetchable"]):
            ingredient = sushi_at(view, cell).partition(":")[2]
            items.append(
                cog.ui_button(
                    ctx,
                    f"f:{cell}",
                    cell_name(cell),
                    emoji=ctx.t(f"kaiten.emoji.{ingredient}"),
                    style=discord.ButtonStyle.primary,
                    row=index // 5,
                )
            )
        if view["wasabi_moves"]:
            wasabi = ctx.t("kaiten.button.wasabi")
            emoji = ctx.t("kaiten.emoji.wasabi")
            # Beside the last fetches where their row has room (then "How to play" may join it too): a
            # row less to scroll past.
            last = max(0, len(view["fetchable"]) - 1) // 5
            row = last if len(view["fetchable"]) - 5 * last < 5 else last + 1
            items.append(cog.ui_button(ctx, "wasabi", wasabi, emoji=emoji, row=row))
    elif step == "place":
        # Only where the sushi may go (at most five places), each with an arrow pointing to it on the
        # plate: one row, where a 3x3 grid of buttons took three (and eight lines on a phone). The
        # picture shows the plate.
        for cell in view["plate_cells"]:
            items.append(
                cog.action_button(
                    ctx,
                    Place(cell),
                    ctx.t(f"kaiten.plate.{cell}"),
                    style=discord.ButtonStyle.success,
                    emoji=ctx.t(f"kaiten.emoji.plate.{cell}"),
                    row=0,
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
                near_sushi=sushi_emoji(ctx, nearer),
                near=near,
                far_sushi=sushi_emoji(ctx, farther),
                far=far,
            )
            # Short (the sushi as emoji; the picture shows the pair on the reserve's tray): one row.
            items.append(cog.action_button(ctx, Refill(black_nearer), label, row=0))
    return items


def chopsticks(cog: Cog, ctx: Context, seat: int, cell: int, found: Challenge) -> Board:
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
        sushi=sushi_words(ctx, sushi_at(ctx.public(), cell)),
        cell=cell_name(cell),
        seconds=decimal(found.window_seconds, ctx.locale),
    )
    return Board(content=prompt, items=buttons)


# ---------------------------------------------------------------- how the results came about


def result_notes(ctx: Context) -> ResultNotes:
    """Each plate as the rulebook counts it (rows, columns, wasabi, soy, rice), and the tie-break
    (fewer soy, then more ginger placed) where it split equal scores."""
    view = ctx.public()
    ranking = view["ranking"]
    assert ranking is not None, "only a finished game is explained"
    breakdown = {player["seat"]: plate_breakdown(ctx, player) for player in view["players"]}
    return ResultNotes(breakdown=breakdown, tie_break=tie_break(ctx, view, ranking))


def plate_breakdown(ctx: Context, player: KaitenPlayerView) -> str:
    """ "Rows ⚫🔴🟤 **5** · … / Columns … / 🌿 … · 🫗 … · 🍚 …": every part of the score, in bold."""
    parts = player["score_parts"]
    lines = {
        kind: " · ".join(_line_part(ctx, player, line) for line in parts["lines"] if line["line"] == kind)
        for kind in ("row", "column")
    }
    wasabi, soy = player["wasabi"], player["soy"]
    extras = [
        plural("kaiten.explain.wasabi", wasabi, ctx.locale, points=signed(parts["wasabi"], ctx.locale))
        if wasabi
        else ctx.t("kaiten.explain.no_wasabi"),
        plural("kaiten.explain.soy", soy, ctx.locale, points=signed(parts["soy"], ctx.locale))
        if soy
        else ctx.t("kaiten.explain.no_soy"),
    ]
    fewer = parts["fewer_rice"]
    if fewer is None:  # only before the end: a full plate has an odd number of sushi
        extras.append(ctx.t("kaiten.explain.rice_even", points=signed(parts["rice"], ctx.locale)))
    else:
        extras.append(
            plural(
                "kaiten.explain.rice",
                parts["rice"],
                ctx.locale,
                rice=ctx.t(f"kaiten.emoji.{fewer}"),
                colour=ctx.t(f"kaiten.rice.{fewer}"),
                points=signed(parts["rice"], ctx.locale),
            )
        )
    return ctx.t(
        "kaiten.explain.plate", rows=lines["row"], columns=lines["column"], extras=" · ".join(extras)
    )


def _line_part(ctx: Context, player: KaitenPlayerView, line: PlateLineView) -> str:
    """One row or column: its three toppings and its points, struck through when a ginger is missing."""
    toppings = "".join(emoji_topping(ctx, player["plate"][cell]) for cell in line["cells"])
    if line["spoiled"]:
        if line["card"] is None:
            return ctx.t("kaiten.explain.line_spoiled_open", toppings=toppings)
        return ctx.t("kaiten.explain.line_spoiled", toppings=toppings, card=line["card"])
    if line["points"] is None:
        return ctx.t("kaiten.explain.line_open", toppings=toppings)
    return ctx.t("kaiten.explain.line", toppings=toppings, points=line["points"])


def emoji_topping(ctx: Context, sushi: str | None) -> str:
    """A sushi's topping as its emoji (the line scores by toppings alone), an empty cell as ▫️."""
    if sushi is None:
        return ctx.t("kaiten.emoji.empty_cell")
    return ctx.t(f"kaiten.emoji.{sushi.partition(':')[2]}")


def tie_break(ctx: Context, view: KaitenView, ranking: list[int]) -> str | None:
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
        soys = sorted({players[seat]["soy"] for seat in tied})
        if len(soys) > 1:
            parts = " · ".join(
                ctx.t("kaiten.explain.tie_soy_part", name=ctx.name(seat), soy=players[seat]["soy"])
                for seat in tied
            )
            notes.append(plural("kaiten.explain.tie_soy", score, ctx.locale, parts=parts))
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
            soy_words = plural("kaiten.count.soy", soy, ctx.locale)
            if len(same) < len(tied):  # fewer soy split the tie first: these share a soy count
                key = "kaiten.explain.tie_ginger_some" + ("" if soy else "_no_soy")
                notes.append(ctx.t(key, soy=soy_words, parts=parts))
            else:
                key = "kaiten.explain.tie_ginger" + ("" if soy else "_no_soy")
                notes.append(plural(key, score, ctx.locale, soy=soy_words, parts=parts))
    if not notes:
        return None
    # The results board marks the first note ⚖️; any further one gets its own line and mark.
    return "\n".join([notes[0], *(ctx.t("results.tie_break", how=note) for note in notes[1:])])
