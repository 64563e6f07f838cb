"""The table's own boards: the lobby, the results, and a game's board with the table's row.

Pure rendering from a TableContext and its game's cog (of the same types); no I/O.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord

from cogs.kit.messages import TABLE_ROW, Board
from cogs.kit.words.text import game_title, option_line, plural, t
from cogs.tables.context import PV, A, S, TableContext, V
from cogs.tables.gamecog import GameCog
from cogs.tables.ui import TableButton

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def medal(rank: int) -> str:
    """The medal shown before a rank in every results list (a small square past the third)."""
    return MEDALS.get(rank, "▫️")


COMPUTERS_COUNTED_EXTRA = "computers_counted"  # record.extra of a finished game with computer players


def table_board(ctx: TableContext[S, A, V, PV], cog: GameCog[S, A, V, PV]) -> Board:
    """The public board for any status, with the table's own row of buttons."""
    record = ctx.record
    if record.status == "lobby":
        return lobby_board(ctx, cog)
    if record.status in ("cancelled", "abandoned"):
        return ended_board(ctx, cog)
    board = cog.render_board(ctx)
    if record.status == "playing":
        if cog.private_mode != "none":
            label = t(f"table.private_button.{cog.private_mode}", ctx.locale)
            board.items.append(
                TableButton(cog.game.id, ctx.channel_id, 0, "t:hand", label=label, emoji="🤫", row=TABLE_ROW)
            )
        board.items.append(rules_button(ctx, cog, TABLE_ROW))
    return board


def rules_button(ctx: TableContext[S, A, V, PV], cog: GameCog[S, A, V, PV], row: int) -> TableButton:
    """The "How to play" button: the game's rules, to the clicker alone (so no board repeats them)."""
    label = t("table.rules_button", ctx.locale)
    return TableButton(cog.game.id, ctx.channel_id, 0, "t:rules", label=label, emoji="📖", row=row)


def ended_board(ctx: TableContext[S, A, V, PV], cog: GameCog[S, A, V, PV]) -> Board:
    """A cancelled or abandoned table keeps its last board, without controls, under a line saying so."""
    line = t(f"table.{ctx.record.status}_board", ctx.locale, game=game_title(ctx.game, ctx.locale))
    # The last board as the table showed it, without live instructions (nobody is to move any more).
    board = lobby_board(ctx, cog) if ctx.state is None else cog.render_board(replace(ctx, replaying=True))
    board.content = f"{line}\n{board.content}" if board.content else line
    board.items, board.sections = [], []
    return board


def lobby_board(ctx: TableContext[S, A, V, PV], cog: GameCog[S, A, V, PV]) -> Board:
    record = ctx.record
    game = cog.game
    seated = "\n".join(
        t(
            "lobby.seat_host" if seat.user_id == record.host_id else "lobby.seat",
            ctx.locale,
            n=index + 1,
            player=ctx.listed(index),
        )
        for index, seat in enumerate(record.seats)
    )
    embed = discord.Embed(
        title=t("lobby.title", ctx.locale, game=game_title(game, ctx.locale)),
        description=t(
            "lobby.text",
            ctx.locale,
            min=game.min_players,
            max=game.max_players,
            group=cog.group,
        ),
        colour=discord.Colour.orange(),
    )
    if record.options:  # first: the seats' list, which grows, ends the card's text
        embed.add_field(
            name=t("lobby.options", ctx.locale),
            value=" · ".join(  # one line
                option_line(game.id, name, value, ctx.locale) for name, value in record.options.items()
            ),
        )
    embed.add_field(
        name=t("lobby.seats", ctx.locale, count=len(record.seats), max=game.max_players),
        value=seated,
    )
    full = len(record.seats) >= game.max_players
    computers = any(not seat.human for seat in record.seats)
    buttons = [  # the table's moves on one row, the computer players' on the next (host only)
        ("join", "lobby.join", discord.ButtonStyle.success, full, 0),
        ("leave", "lobby.leave", discord.ButtonStyle.secondary, False, 0),
        ("start", "lobby.start", discord.ButtonStyle.primary, len(record.seats) < game.min_players, 0),
        ("cancel", "lobby.cancel", discord.ButtonStyle.danger, False, 0),
        ("add_computer", "computers.add", discord.ButtonStyle.secondary, full, 1),
        ("remove_computer", "computers.remove", discord.ButtonStyle.secondary, not computers, 1),
    ]
    items: list[discord.ui.Item[Any]] = [
        TableButton(
            game.id,
            ctx.channel_id,
            0,
            f"t:{word}",
            label=t(key, ctx.locale),
            style=style,
            disabled=off,
            row=row,
            emoji="🤖" if row else None,
        )
        for word, key, style, off, row in buttons
    ]
    items.append(rules_button(ctx, cog, 1))  # before the game starts: what it is about
    return Board(embed=embed, items=items)


def results_board(ctx: TableContext[S, A, V, PV], cog: GameCog[S, A, V, PV]) -> Board:
    """Final ranks and scores with how each was counted, posted as a message of its own, with Rematch."""
    game = ctx.game
    scores = game.scores(ctx.live)
    ranking = game.ranking(ctx.live)
    notes = cog.explain(ctx)
    # A picture of the final scoring shows how each score was counted: the text keeps the ranks.
    picture = cog.results_picture(ctx) if ctx.pictures else None
    order = sorted(range(ctx.players), key=lambda seat: (ranking[seat], seat))
    lines = []
    for seat in order:
        line = t(
            "results.line",
            ctx.locale,
            medal=medal(ranking[seat]),
            rank=ranking[seat],
            player=ctx.listed(seat),
            points=plural(cog.score_unit, scores[seat], ctx.locale),
        )
        if seat in notes.breakdown and picture is None:
            line += "\n" + t("results.breakdown", ctx.locale, how=notes.breakdown[seat])
        lines.append(line)
    if notes.tie_break:
        lines.append(t("results.tie_break", ctx.locale, how=notes.tie_break))
    footer = "results.footer"
    if any(not seat.human for seat in ctx.record.seats):  # say how a game with computers counts
        counted = ctx.record.extra.get(COMPUTERS_COUNTED_EXTRA, True)
        lines.append(
            t("computers.results.counted" if counted else "computers.results.not_counted", ctx.locale)
        )
        footer = footer if counted else "computers.results.footer"
    embed = discord.Embed(
        title=t("results.title", ctx.locale, game=game_title(game, ctx.locale)),
        description="\n".join(lines),
        colour=discord.Colour.gold(),
    )
    embed.set_footer(text=t(footer, ctx.locale))
    rematch = TableButton(
        game.id,
        ctx.channel_id,
        0,
        "t:rematch",
        label=t("results.rematch", ctx.locale),
        style=discord.ButtonStyle.success,
        emoji="🔁",
    )
    if picture is None:
        return Board(embed=embed, items=[rematch])
    embed.set_image(url=f"attachment://{picture.filename}")
    return Board(embed=embed, items=[rematch], files=[picture])
