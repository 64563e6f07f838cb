"""Drawing Sushizock im Gockelwok: the board and its controls, from `view()` only.

The dice to set aside are toggled on the board, one button per die of the throw; which are
marked is interface state carried in the toggles' custom_ids (`u:keep.<mask>`), never the
game's. "Steal" answers its clicker privately with the targets and positions (`steal_step`),
so the board fits twelve lines with five players, its rows of buttons counted. A table that draws
pictures gets the piles turned over as a picture on its results (cogs/games/sushizock/picture.py).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any, TypeAlias

import discord

from cogs.games.sushizock import picture
from cogs.kit.messages import Board
from cogs.kit.words.catalogs import Localish
from cogs.kit.words.text import number, plural, signed, t
from cogs.tables.boards import medal
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog, ResultNotes
from rules.engine import Action, Event
from rules.sushizock.game import (
    FinalPiles,
    ForcedTake,
    PileShown,
    Roll,
    Steal,
    StealOffer,
    SushizockState,
    SushizockView,
    Take,
    TurnOptions,
)

Context: TypeAlias = TableContext[SushizockState, Action, SushizockView]
"""A Sushizock table: `ctx.public()` is a SushizockView."""
Cog: TypeAlias = GameCog[SushizockState, Action, SushizockView]
"""The Sushizock cog, as its boards see it: its builders take Sushizock actions."""

FACE_EMOJI = {"sushi": "🍣", "bone": "🦴", "blue": "🔵", "red": "🔴"}
PILE_EMOJI = {"sushi": "🍣", "bone": "🦴"}
PICTURE = "sushizock-piles.png"
"""The file name of the piles' picture on the results."""


def row_of(view: SushizockView, pile: str) -> list[int]:
    return view["sushi_row"] if pile == "sushi" else view["bone_row"]


def piles_of(view: SushizockView, pile: str) -> list[PileShown]:
    return view["sushi_piles"] if pile == "sushi" else view["bone_piles"]


def tile_text(tile: int, locale: Localish = None) -> str:
    """+5 for sushi, −2 (a true minus sign) for bones, in the language's digits."""
    return signed(tile, locale)


def points_text(ctx: Context, score: int) -> str:
    """A final score in words: "1 point", "−3 points"."""
    return plural("sushizock.board.points", score, ctx.locale)


def dice_text(faces: list[str]) -> str:
    return " ".join(FACE_EMOJI[face] for face in faces)


def face_counts(counts: Mapping[str, int], locale: Localish) -> str:
    """How many dice show each face: "3 🍣 · 2 🔵", the numbers in the language's digits."""
    return " · ".join(
        t("sushizock.turn.count", locale, count=count, face=FACE_EMOJI[face])
        for face, count in counts.items()
        if count
    )


def describe_event(ctx: Context, event: Event) -> str | None:
    """A verb phrase for what a seat did ("took sushi #3: +5"); None for other events. Each row or pile
    has its own sentence, since the languages inflect "the 3rd bone" and "the sushi pile" apart."""
    kind = event.get("type")
    if kind == "rolled":
        params = {"dice": dice_text(event["dice"]), "throw": event["throw"]}
        if event["kept"]:
            return ctx.t("sushizock.did.roll_kept", kept=dice_text(event["kept"]), **params)
        return ctx.t("sushizock.did.roll", **params)
    if kind == "took":
        key = "sushizock.did.forced_take" if event["forced"] else "sushizock.did.take"
        return ctx.t(f"{key}.{event['pile']}", nth=event["nth"], tile=tile_text(event["tile"], ctx.locale))
    if kind == "stole":
        key = "sushizock.did.steal_blind" if event["blind"] else "sushizock.did.steal"
        return ctx.t(
            f"{key}.{event['pile']}",
            tile=tile_text(event["tile"], ctx.locale),
            target=ctx.name(event["target"]),
            position=event["position"],
        )
    return None


def last_action(ctx: Context, view: SushizockView) -> tuple[int, str] | None:
    """Who did the most recent action and what, in words ("took sushi #3: +5"); None at first."""
    for event in view["last"]:
        what = describe_event(ctx, event)
        if what is not None:
            return event["seat"], what
    return None


def announcement(ctx: Context, event: Event) -> str | None:
    """A steal changes another player's pile (and a blind one reveals a tile): worth its own line."""
    if event.get("type") != "stole":
        return None
    key = "sushizock.announce.steal_blind" if event["blind"] else "sushizock.announce.steal"
    return ctx.t(
        f"{key}.{event['pile']}",
        player=ctx.name(event["seat"]),
        target=ctx.name(event["target"]),
        tile=tile_text(event["tile"], ctx.locale),
        position=event["position"],
    )


# ---------------------------------------------------------------- the board


def board(cog: Cog, ctx: Context, *, mask: int = 0) -> Board:
    """The public board with the game's own controls, twelve lines at five players with its rows of
    buttons: the throw above the embed, one line per row of tiles and per player in it; the legend
    on the game's first board only (the rules carry it too). `mask` marks dice of the throw to set
    aside: an interface step (the toggles' `u:keep.<mask>`), never game state."""
    view = ctx.public()
    if view["over"] or view["options"] is None:
        return _final(ctx, view)
    embed = discord.Embed(title=ctx.t("sushizock.title"), colour=discord.Colour.orange())
    lines = [*_rows(ctx, view), *(_seat_line(ctx, view, seat) for seat in range(ctx.players))]
    last = last_action(ctx, view)
    if view["throws"] == 0 and last is not None:  # how the last turn ended (the new one's dice are above)
        lines.append(ctx.t("sushizock.board.last_line", player=ctx.name(last[0]), what=last[1]))
    embed.description = "\n".join(lines)
    if not (_playing(view)[1]["can_roll"] and view["throws"]):
        mask = 0  # nothing may be set aside: no die is marked
    mask &= (1 << len(view["thrown"])) - 1
    if _first_board(view):
        embed.set_footer(text=ctx.t("sushizock.board.legend"))
    drawn = Board(content=_turn_line(ctx, view, mask), embed=embed)
    if not ctx.replaying:  # a replay offers no moves
        drawn.items.extend(_controls(cog, ctx, view, mask))
    return drawn


def _first_board(view: SushizockView) -> bool:
    """Nobody has thrown or taken anything yet: the board the table opens with."""
    untouched = all(shown["height"] == 0 for shown in (*view["sushi_piles"], *view["bone_piles"]))
    return untouched and view["throws"] == 0


def _playing(view: SushizockView) -> tuple[int, TurnOptions]:
    """The seat to move and what it may do, while the game is on."""
    turn, options = view["turn"], view["options"]
    assert turn is not None and options is not None, "the board of a finished game is the final one"
    return turn, options


def _turn_line(ctx: Context, view: SushizockView, mask: int) -> str:
    """Whose turn it is and their dice, said to the table: the player is named, never addressed
    (mentioned on the live board; a replay names them), the dice marked to set aside pinned 📌.
    What they may do is on the controls."""
    turn, options = _playing(view)
    player = ctx.name(turn) if ctx.replaying else ctx.mention(turn)
    if view["throws"] == 0:
        return ctx.t("sushizock.turn.start", player=player)
    dice = "  ".join(  # the dice's numbers in the reader's digits: Persian reads ۱ ۲ ۳, not 1 2 3
        f"`{number(index + 1, ctx.locale)}` {FACE_EMOJI[face]}" + (" 📌" if mask >> index & 1 else "")
        for index, face in enumerate(view["thrown"])
    )
    if view["set_aside"]:
        dice = ctx.t("sushizock.turn.set_aside", thrown=dice, kept=dice_text(view["set_aside"]))
    result = view["result"]
    counts = face_counts(
        {"sushi": result["sushi"], "bone": result["bone"], "blue": result["blue"], "red": result["red"]},
        ctx.locale,
    )
    key = "sushizock.turn.throw" if view["throws_left"] else "sushizock.turn.throw_last"
    line = ctx.t(key, player=player, throws=view["throws"], dice=dice, counts=counts)
    return ctx.t("sushizock.turn.nothing_fits", throw=line) if options["forced"] else line


def _row(ctx: Context, pile: str, tiles: list[int], reach: int | None) -> str:
    """A row of the middle, the tile the dice reach marked: "🍣 +1 +1 **[+4]** +6 …"."""
    if not tiles:
        return ctx.t("sushizock.board.row_empty", emoji=PILE_EMOJI[pile])
    shown = [
        f"**[{tile_text(tile, ctx.locale)}]**" if nth == reach else tile_text(tile, ctx.locale)
        for nth, tile in enumerate(tiles, start=1)
    ]
    return ctx.t("sushizock.board.row", emoji=PILE_EMOJI[pile], tiles=" ".join(shown))


def _rows(ctx: Context, view: SushizockView) -> list[str]:
    _, options = _playing(view)
    return [_row(ctx, pile, row_of(view, pile), options[pile]) for pile in ("sushi", "bone")]


def _pile_text(ctx: Context, shown: PileShown, pile: str) -> str:
    emoji = PILE_EMOJI[pile]
    if shown["top"] is None:
        return ctx.t("sushizock.board.pile_none", emoji=emoji)
    return plural(
        "sushizock.board.pile",
        shown["height"],
        ctx.locale,
        emoji=emoji,
        top=tile_text(shown["top"], ctx.locale),
    )


def _seat_line(ctx: Context, view: SushizockView, seat: int) -> str:
    """A player and their two piles, the one to move marked: "▶️ alice · 🍣 top +5 (2 tiles) · 🦴 —"."""
    key = "sushizock.board.seat_turn" if seat == view["turn"] else "sushizock.board.seat"
    piles = [_pile_text(ctx, piles_of(view, pile)[seat], pile) for pile in ("sushi", "bone")]
    return ctx.t(key, player=ctx.name(seat), sushi=piles[0], bones=piles[1])


# ---------------------------------------------------------------- the controls


def kept_indices(mask: int, dice: int) -> tuple[int, ...]:
    """The dice a toggle mask marks to set aside: bit i is die i of the current throw."""
    return tuple(index for index in range(dice) if mask >> index & 1)


def _controls(cog: Cog, ctx: Context, view: SushizockView, mask: int) -> list[discord.ui.Item[Any]]:
    """Three rows at most with the table's own: a toggle per die of the throw while dice may be set
    aside, then "Roll" (the unmarked dice), each take and "Steal", every one only when legal. The
    steal's target and position are asked privately (`steal_step`), so the board stays short."""
    turn, options = _playing(view)
    if view["throws"] == 0:
        return [cog.action_button(ctx, Roll(), ctx.t("sushizock.button.roll_all"), emoji="🎲", row=1)]
    items: list[discord.ui.Item[Any]] = []
    secondary = discord.ButtonStyle.secondary
    if options["can_roll"]:
        thrown = view["thrown"]
        for index, face in enumerate(thrown):
            kept = bool(mask >> index & 1)
            key = "sushizock.button.die_kept" if kept else "sushizock.button.die"
            items.append(
                cog.ui_button(
                    ctx,
                    f"keep.{mask ^ (1 << index)}",
                    ctx.t(key, n=index + 1),
                    emoji=FACE_EMOJI[face],
                    style=discord.ButtonStyle.success if kept else secondary,
                    row=0,
                )
            )
        keep = kept_indices(mask, len(thrown))
        left = len(thrown) - len(keep)
        if Roll(keep) in ctx.game.legal_actions(ctx.live, turn):
            label = plural("sushizock.button.roll", left, ctx.locale)
            items.append(cog.action_button(ctx, Roll(keep), label, emoji="🎲", row=1))
        else:  # not a move yet: says what the toggles are for, and cannot be clicked
            key = "sushizock.button.roll_pick" if not keep else "sushizock.button.roll_leave_one"
            items.append(cog.ui_button(ctx, "roll", ctx.t(key), emoji="🎲", disabled=True, row=1))
    for pile, style in (("sushi", discord.ButtonStyle.success), ("bone", secondary)):
        nth = options["sushi"] if pile == "sushi" else options["bone"]
        if nth is not None:
            tile = tile_text(row_of(view, pile)[nth - 1], ctx.locale)
            label = ctx.t(f"sushizock.button.take_{pile}", nth=nth, tile=tile)
            items.append(
                cog.action_button(ctx, Take(pile), label, emoji=PILE_EMOJI[pile], style=style, row=1)
            )
    forced = view["forced_tile"]
    if options["forced"] and forced is not None:
        label = ctx.t(
            f"sushizock.button.forced.{forced['pile']}",
            nth=forced["nth"],
            tile=tile_text(forced["tile"], ctx.locale),
        )
        items.append(
            cog.action_button(ctx, ForcedTake(), label, emoji="😖", style=discord.ButtonStyle.danger, row=1)
        )
    steal = options["steal"]
    if steal is not None:
        label = ctx.t(f"sushizock.button.steal.{steal['pile']}")
        items.append(cog.ui_button(ctx, "steal", label, emoji="🥢", style=discord.ButtonStyle.primary, row=1))
    return items


def steal_step(cog: Cog, ctx: Context) -> Board:
    """The Steal button's private answer: each steal on offer, a blind one by position, in one menu
    whose choice plays it. Within Discord's 25 options: a pile row holds 12 tiles in all, so every
    tile of every other pile is at most 12 choices."""
    _, options = _playing(ctx.public())
    steal = options["steal"]
    assert steal is not None, "the Steal button is drawn only with a steal on offer"
    pile = steal["pile"]
    key = "sushizock.steal.ask_blind" if steal["blind"] else "sushizock.steal.ask"
    menu = cog.action_select(
        ctx,
        _steals(ctx, ctx.public(), steal),
        placeholder=ctx.t(f"sushizock.steal.placeholder.{pile}"),
        row=0,
    )
    return Board(content=ctx.t(f"{key}.{pile}"), items=[menu])


def _steals(ctx: Context, view: SushizockView, steal: StealOffer) -> list[tuple[str, Action, str | None]]:
    """The steals on offer: each other pile's top tile, or (blind) every tile of each, by position."""
    pile = steal["pile"]
    piles = piles_of(view, pile)
    choices: list[tuple[str, Action, str | None]] = []
    for seat in steal["targets"]:
        shown = piles[seat]
        top = tile_text(shown["top"], ctx.locale) if shown["top"] is not None else ""  # never empty
        details = plural(f"sushizock.steal.option_desc.{pile}", shown["height"], ctx.locale)
        positions = range(1, shown["height"] + 1) if steal["blind"] else range(1, 2)
        for position in positions:
            if position == 1:
                label = ctx.t("sushizock.steal.option", player=ctx.name(seat), top=top)
            else:
                label = ctx.t("sushizock.steal.option_blind", player=ctx.name(seat), position=position)
            choices.append((label, Steal(seat, position), details))
    return choices


# ---------------------------------------------------------------- the end


def _final(ctx: Context, view: SushizockView) -> Board:
    embed = discord.Embed(
        title=ctx.t("sushizock.title_over"),
        description=ctx.t("sushizock.board.final"),
        colour=discord.Colour.gold(),
    )
    ranking, scores, final_piles = view["ranking"], view["scores"], view["final_piles"]
    assert ranking is not None and final_piles is not None, "the piles are turned over once the game is over"
    for seat in sorted(range(ctx.players), key=lambda seat: (ranking[seat], seat)):
        piles = final_piles[seat]
        counted = piles["counted"]
        sushi = [
            tile_text(tile, ctx.locale) if index < counted else f"~~{tile_text(tile, ctx.locale)}~~"
            for index, tile in enumerate(piles["sushi_pile"])
        ]
        bones = [tile_text(tile, ctx.locale) for tile in piles["bone_pile"]]
        none = ctx.t("sushizock.board.final_none")
        value = " · ".join(
            [
                ctx.t("sushizock.board.final_sushi", tiles=" ".join(sushi) or none),
                ctx.t("sushizock.board.final_bones", tiles=" ".join(bones) or none),
            ]
        )
        name = ctx.t(
            "sushizock.board.final_player",
            medal=medal(ranking[seat]),
            player=ctx.name(seat),
            points=points_text(ctx, scores[seat]),
        )
        embed.add_field(name=name, value=value, inline=False)
    return Board(content=ctx.t("sushizock.over"), embed=embed)


def piles_picture(ctx: Context) -> discord.File:
    """The piles turned over as a picture (cogs/games/sushizock/picture.py), for the results of a table that
    draws pictures."""
    names = [ctx.plain_name(seat) for seat in range(ctx.players)]  # drawn, not markdown: as stored
    drawn = picture.render_png(ctx.public(), names, ctx.locale)
    return discord.File(io.BytesIO(drawn), filename=PICTURE)


def result_notes(ctx: Context) -> ResultNotes:
    """Each player's two piles as the rulebook scores them: the sushi that count (as many as the
    player has bones, from the bottom), those above the bone pile (worthless), and every bone.

    Sushizock has no tie-break: equal scores share a rank, so there is never one to name.
    """
    final_piles = ctx.public()["final_piles"]
    if final_piles is None:
        return ResultNotes()
    return ResultNotes(breakdown={seat: pile_sums(ctx, piles) for seat, piles in enumerate(final_piles)})


def pile_sums(ctx: Context, piles: FinalPiles) -> str:
    """One seat's score in the rulebook's terms: "🍣 +1 +6 +4 +1 = +12 (~~+5~~: higher than the bone pile
    of 4 tiles, worthless) · 🦴 −3 −2 −1 −2 = −8": every number the results show, with its reason."""
    counted, over = piles["sushi_pile"][: piles["counted"]], piles["sushi_pile"][piles["counted"] :]
    bones = piles["bone_pile"]

    def tiles(pile: list[int]) -> str:
        return " ".join(tile_text(tile, ctx.locale) for tile in pile)

    if not piles["sushi_pile"]:
        sushi = ctx.t("sushizock.explain.sushi_none")
    elif not counted:
        sushi = ctx.t("sushizock.explain.sushi_all_over", over=tiles(over))
    else:
        key = "sushizock.explain.sushi_over" if over else "sushizock.explain.sushi"
        height = plural("sushizock.count.tiles", len(bones), ctx.locale)  # as many sushi count as bones
        total = signed(sum(counted), ctx.locale)
        sushi = ctx.t(key, tiles=tiles(counted), total=total, over=tiles(over), height=height)
    if bones:
        bone = ctx.t("sushizock.explain.bones", tiles=tiles(bones), total=signed(sum(bones), ctx.locale))
    else:
        bone = ctx.t("sushizock.explain.bones_none")
    return ctx.t("sushizock.explain.piles", sushi=sushi, bones=bone)
