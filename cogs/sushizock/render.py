"""Drawing Sushizock im Gockelwok: the board, the dice toggles and the steal pickers, from `view()` only.

The toggle selection (which dice of the current throw the player means to set
aside) and the chosen target of a blind steal are UI state: they live in the
components' custom_ids (`u:keep.<mask>.<aim>`, `u:aim.<mask>`), never in the game.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import discord

from cogs.i18n import plural, signed
from cogs.tables.boards import medal
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog, ResultNotes
from cogs.tables.ui import Board
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
THROWS = 3
NO_AIM = -1


def row_of(view: SushizockView, pile: str) -> list[int]:
    return view["sushi_row"] if pile == "sushi" else view["bone_row"]


def piles_of(view: SushizockView, pile: str) -> list[PileShown]:
    return view["sushi_piles"] if pile == "sushi" else view["bone_piles"]


def tile_text(tile: int) -> str:
    """+5 for sushi, −2 (a true minus sign) for bones."""
    return signed(tile)


def points_text(ctx: Context, score: int) -> str:
    """A final score in words: "1 point", "−3 points"."""
    return plural("sushizock.board.points", score, ctx.locale)


def dice_text(faces: list[str]) -> str:
    return " ".join(FACE_EMOJI[face] for face in faces)


def kept_indices(mask: int, dice: int) -> tuple[int, ...]:
    return tuple(index for index in range(dice) if mask >> index & 1)


def describe_event(ctx: Context, event: Event) -> str | None:
    """A verb phrase for what a seat did ("took sushi #3: +5"); None for other events."""
    kind = event.get("type")
    if kind == "rolled":
        params = {"dice": dice_text(event["dice"]), "throw": event["throw"]}
        if event["kept"]:
            return ctx.t("sushizock.did.roll_kept", kept=dice_text(event["kept"]), **params)
        return ctx.t("sushizock.did.roll", **params)
    if kind == "took":
        key = "sushizock.did.forced_take" if event["forced"] else "sushizock.did.take"
        pile = ctx.t(f"sushizock.pile.{event['pile']}")
        return ctx.t(key, pile=pile, nth=event["nth"], tile=tile_text(event["tile"]))
    if kind == "stole":
        key = "sushizock.did.steal_blind" if event["blind"] else "sushizock.did.steal"
        return ctx.t(
            key,
            tile=tile_text(event["tile"]),
            target=ctx.name(event["target"]),
            pile=ctx.t(f"sushizock.pile.{event['pile']}"),
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
        key,
        player=ctx.name(event["seat"]),
        target=ctx.name(event["target"]),
        pile=ctx.t(f"sushizock.pile.{event['pile']}"),
        tile=tile_text(event["tile"]),
        position=event["position"],
    )


# ---------------------------------------------------------------- the board


def board(cog: Cog, ctx: Context, *, mask: int = 0, aim: int = NO_AIM) -> Board:
    """The public board with the game's own controls: `mask` marks dice of the current throw to
    set aside, `aim` is the seat a blind steal is aimed at (both interface steps, not game state)."""
    view = ctx.public()
    options = view["options"]
    if view["over"] or options is None:
        return _final(ctx, view)
    turn = view["turn"]
    embed = discord.Embed(title=ctx.t("sushizock.title"), colour=discord.Colour.orange())
    embed.description = _rows(ctx, view)
    for seat in range(ctx.players):
        name = ctx.t("sushizock.board.turn_marker", player=ctx.name(seat)) if seat == turn else ctx.name(seat)
        embed.add_field(name=name, value=_piles(ctx, view, seat), inline=True)
    can_roll = options["can_roll"] and view["throws"] > 0
    if not can_roll:
        mask = 0
    mask &= (1 << len(view["thrown"])) - 1
    embed.add_field(name=_dice_title(ctx, view), value=_dice(ctx, view, mask), inline=False)
    last = last_action(ctx, view)
    if last is not None:
        actor, what = last
        line = ctx.t("sushizock.board.last_line", player=ctx.name(actor), what=what)
        embed.add_field(name=ctx.t("sushizock.board.last"), value=line, inline=False)
    embed.set_footer(text=ctx.t("sushizock.board.legend"))
    drawn = Board(content=_turn_line(ctx, view), embed=embed)
    drawn.items.extend(_controls(cog, ctx, view, mask, aim))
    return drawn


def _playing(view: SushizockView) -> tuple[int, TurnOptions]:
    """The seat to move and what it may do, while the game is on."""
    turn, options = view["turn"], view["options"]
    assert turn is not None and options is not None, "the board of a finished game is the final one"
    return turn, options


def _turn_line(ctx: Context, view: SushizockView) -> str:
    turn, options = _playing(view)
    player = ctx.mention(turn)
    if view["throws"] == 0:
        key = "sushizock.turn.start"
    elif options["forced"]:
        key = "sushizock.turn.forced"
    elif options["can_roll"]:
        portion = options["sushi"] is not None or options["bone"] is not None or options["steal"] is not None
        key = "sushizock.turn.throwing" if portion else "sushizock.turn.must_roll"
    else:
        key = "sushizock.turn.must_take"
    return ctx.t(key, player=player, throws=view["throws"])


def _row(ctx: Context, tiles: list[int], reach: int | None) -> str:
    if not tiles:
        return ctx.t("sushizock.board.row_empty")
    shown = []
    for nth, tile in enumerate(tiles, start=1):
        text = tile_text(tile)
        shown.append(f"`{nth}` **[{text}]**" if nth == reach else f"`{nth}` {text}")
    return "  ".join(shown)


def _rows(ctx: Context, view: SushizockView) -> str:
    _, options = _playing(view)
    lines = [
        f"**{ctx.t('sushizock.board.sushi_row')}**",
        _row(ctx, view["sushi_row"], options["sushi"]),
        f"**{ctx.t('sushizock.board.bone_row')}**",
        _row(ctx, view["bone_row"], options["bone"]),
    ]
    for pile in ("sushi", "bone"):
        nth = options[pile]
        if nth is not None:
            lines.append(
                ctx.t(
                    "sushizock.board.reach",
                    pile=ctx.t(f"sushizock.pile.{pile}"),
                    nth=nth,
                    tile=tile_text(row_of(view, pile)[nth - 1]),
                )
            )
    return "\n".join(lines)


def _pile_line(ctx: Context, shown: PileShown, pile: str) -> str:
    emoji = PILE_EMOJI[pile]
    if shown["top"] is None:
        return ctx.t("sushizock.board.pile_none", emoji=emoji)
    return plural(
        "sushizock.board.pile", shown["height"], ctx.locale, emoji=emoji, top=tile_text(shown["top"])
    )


def _piles(ctx: Context, view: SushizockView, seat: int) -> str:
    return "\n".join(_pile_line(ctx, piles_of(view, pile)[seat], pile) for pile in ("sushi", "bone"))


def _dice_title(ctx: Context, view: SushizockView) -> str:
    if view["throws"] == 0:
        return ctx.t("sushizock.board.dice_ready")
    return ctx.t("sushizock.board.dice", throws=view["throws"])


def _dice(ctx: Context, view: SushizockView, mask: int) -> str:
    if view["throws"] == 0:
        return ctx.t("sushizock.board.dice_not_thrown")
    lines = []
    if view["set_aside"]:
        lines.append(ctx.t("sushizock.board.set_aside", dice=dice_text(view["set_aside"])))
    thrown = "  ".join(
        f"`{index + 1}` {FACE_EMOJI[face]}" + (" 📌" if mask >> index & 1 else "")
        for index, face in enumerate(view["thrown"])
    )
    lines.append(ctx.t("sushizock.board.thrown", dice=thrown))
    if mask:
        lines.append(ctx.t("sushizock.board.marked"))
    counts = " · ".join(f"{count} {FACE_EMOJI[face]}" for face, count in view["result"].items() if count)
    lines.append(ctx.t("sushizock.board.result", counts=counts))
    _, options = _playing(view)
    steal = options["steal"]
    if steal is not None:
        key = "sushizock.board.steal_blind" if steal["blind"] else "sushizock.board.steal"
        lines.append(ctx.t(key, pile=ctx.t(f"sushizock.pile.{steal['pile']}")))
    if view["throws_left"]:
        lines.append(ctx.t("sushizock.board.throws_left", count=view["throws_left"]))
    else:
        lines.append(ctx.t("sushizock.board.no_throws_left"))
    return "\n".join(lines)


# ---------------------------------------------------------------- the controls


def _controls(cog: Cog, ctx: Context, view: SushizockView, mask: int, aim: int) -> list[discord.ui.Item[Any]]:
    items: list[discord.ui.Item[Any]] = []
    turn, options = _playing(view)
    primary, secondary = discord.ButtonStyle.primary, discord.ButtonStyle.secondary
    if view["throws"] == 0:
        items.append(cog.action_button(ctx, Roll(), ctx.t("sushizock.button.roll_all"), emoji="🎲", row=1))
        return items
    steal = options["steal"]
    if steal is None or not steal["blind"] or aim not in steal["targets"]:
        aim = NO_AIM
    thrown = view["thrown"]
    if options["can_roll"]:
        for index, face in enumerate(thrown):
            kept = bool(mask >> index & 1)
            key = "sushizock.button.die_kept" if kept else "sushizock.button.die"
            items.append(
                cog.ui_button(
                    ctx,
                    f"keep.{mask ^ (1 << index)}.{aim}",
                    ctx.t(key, n=index + 1),
                    emoji=FACE_EMOJI[face],
                    style=discord.ButtonStyle.success if kept else secondary,
                    row=0,
                )
            )
        keep = kept_indices(mask, len(thrown))
        left = len(thrown) - len(keep)
        legal = Roll(keep) in ctx.game.legal_actions(ctx.live, turn)
        if not keep:
            label = ctx.t("sushizock.button.roll_pick")
        elif left == 0:
            label = ctx.t("sushizock.button.roll_leave_one")
        else:
            label = plural("sushizock.button.roll", left, ctx.locale)
        items.append(
            cog.action_button(ctx, Roll(keep), label, emoji="🎲", style=primary, disabled=not legal, row=1)
        )
    for pile, style in (("sushi", discord.ButtonStyle.success), ("bone", secondary)):
        nth = options["sushi"] if pile == "sushi" else options["bone"]
        if nth is not None:
            label = ctx.t(
                f"sushizock.button.take_{pile}", nth=nth, tile=tile_text(row_of(view, pile)[nth - 1])
            )
            items.append(
                cog.action_button(ctx, Take(pile), label, emoji=PILE_EMOJI[pile], style=style, row=1)
            )
    forced = view["forced_tile"]
    if options["forced"] and forced is not None:
        label = ctx.t(
            "sushizock.button.forced",
            pile=ctx.t(f"sushizock.pile.{forced['pile']}"),
            nth=forced["nth"],
            tile=tile_text(forced["tile"]),
        )
        items.append(
            cog.action_button(ctx, ForcedTake(), label, emoji="😖", style=discord.ButtonStyle.danger, row=1)
        )
    if steal is not None:
        items.extend(_steal_pickers(cog, ctx, view, steal, mask, aim))
    return items


def _steal_pickers(
    cog: Cog, ctx: Context, view: SushizockView, steal: StealOffer, mask: int, aim: int
) -> list[discord.ui.Item[Any]]:
    pile = steal["pile"]
    pile_word = ctx.t(f"sushizock.pile.{pile}")
    piles = piles_of(view, pile)

    def top(seat: int) -> str:
        """The top tile of a target's pile (a steal target's pile is never empty)."""
        tile = piles[seat]["top"]
        assert tile is not None
        return tile_text(tile)

    def details(seat: int) -> str:
        return plural(
            "sushizock.steal.option_desc", piles[seat]["height"], ctx.locale, pile=pile_word, top=top(seat)
        )

    if not steal["blind"]:
        choices = [
            (
                ctx.t("sushizock.steal.option", player=ctx.name(seat), top=top(seat)),
                Steal(seat, 1),
                details(seat),
            )
            for seat in steal["targets"]
        ]
        placeholder = ctx.t("sushizock.steal.placeholder", pile=pile_word)
        top_steal: list[discord.ui.Item[Any]] = [
            cog.action_select(ctx, choices, placeholder=placeholder, row=2)
        ]
        return top_steal
    picker = cog.ui_select(
        ctx,
        f"aim.{mask}",
        [
            (ctx.t("sushizock.steal.option_player", player=ctx.name(seat)), str(seat), details(seat))
            for seat in steal["targets"]
        ],
        placeholder=ctx.t("sushizock.steal.placeholder_blind", pile=pile_word),
        row=2,
    )
    items: list[discord.ui.Item[Any]] = [picker]
    if aim == NO_AIM:
        return items
    for option in picker.item.options:
        option.default = option.value == str(aim)
    shown = piles[aim]
    positions = [
        (
            ctx.t("sushizock.steal.position_top", top=top(aim))
            if position == 1
            else ctx.t("sushizock.steal.position", position=position),
            Steal(aim, position),
            None,
        )
        for position in range(1, shown["height"] + 1)
    ]
    placeholder = ctx.t("sushizock.steal.placeholder_position", player=ctx.name(aim), pile=pile_word)
    items.append(cog.action_select(ctx, positions, placeholder=placeholder, row=3))
    return items


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
            tile_text(tile) if index < counted else f"~~{tile_text(tile)}~~"
            for index, tile in enumerate(piles["sushi_pile"])
        ]
        bones = [tile_text(tile) for tile in piles["bone_pile"]]
        none = ctx.t("sushizock.board.final_none")
        value = "\n".join(
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
    """One seat's score in the rulebook's terms: "🍣 +1 +6 +4 +1 = +12 (~~+5~~: above …) · 🦴 … = −8"."""
    counted, over = piles["sushi_pile"][: piles["counted"]], piles["sushi_pile"][piles["counted"] :]
    bones = piles["bone_pile"]

    def tiles(pile: list[int]) -> str:
        return " ".join(tile_text(tile) for tile in pile)

    if not piles["sushi_pile"]:
        sushi = ctx.t("sushizock.explain.sushi_none")
    elif not counted:
        sushi = ctx.t("sushizock.explain.sushi_all_over", over=tiles(over))
    else:
        key = "sushizock.explain.sushi_over" if over else "sushizock.explain.sushi"
        sushi = ctx.t(key, tiles=tiles(counted), total=signed(sum(counted)), over=tiles(over))
    if bones:
        bone = ctx.t("sushizock.explain.bones", tiles=tiles(bones), total=signed(sum(bones)))
    else:
        bone = ctx.t("sushizock.explain.bones_none")
    return ctx.t("sushizock.explain.piles", sushi=sushi, bones=bone)
