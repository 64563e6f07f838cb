"""The table's own boards: the lobby, the results, and a game's board with the table's row.

Pure rendering from a TableContext; no I/O.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.i18n import plural, t
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog
from cogs.tables.ui import TABLE_ROW, Board, TableButton

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def table_board(ctx: TableContext, cog: GameCog) -> Board:
    """The public board for any status, with the table's own row of buttons."""
    record = ctx.record
    if record.status == "lobby":
        return lobby_board(ctx, cog)
    if record.status in ("cancelled", "abandoned"):
        return ended_board(ctx, cog)
    board = cog.render_board(ctx)
    if record.status == "playing" and cog.private_mode != "none":
        label = t(f"table.private_button.{cog.private_mode}", ctx.locale)
        board.items.append(
            TableButton(cog.game.id, ctx.channel_id, 0, "t:hand", label=label, emoji="🤫", row=TABLE_ROW)
        )
    return board


def ended_board(ctx: TableContext, cog: GameCog) -> Board:
    """A cancelled or abandoned table keeps its last board, without controls, under a line saying so."""
    line = t(f"table.{ctx.record.status}_board", ctx.locale, game=ctx.game.title)
    board = lobby_board(ctx, cog) if ctx.state is None else cog.render_board(ctx)
    board.content = f"{line}\n{board.content}" if board.content else line
    board.items = []
    return board


def lobby_board(ctx: TableContext, cog: GameCog) -> Board:
    record = ctx.record
    game = cog.game
    seated = "\n".join(
        f"{index + 1}. <@{seat.user_id}>" + (" 👑" if seat.user_id == record.host_id else "")
        for index, seat in enumerate(record.seats)
    )
    embed = discord.Embed(
        title=t("lobby.title", ctx.locale, game=game.title),
        description=t(
            "lobby.text",
            ctx.locale,
            min=game.min_players,
            max=game.max_players,
            group=cog.group,
        ),
        colour=discord.Colour.orange(),
    )
    embed.add_field(
        name=t("lobby.seats", ctx.locale, count=len(record.seats), max=game.max_players),
        value=seated,
    )
    if record.options:
        embed.add_field(
            name=t("lobby.options", ctx.locale),
            value="\n".join(f"{name}: **{value}**" for name, value in record.options.items()),
        )
    buttons = [
        ("join", "lobby.join", discord.ButtonStyle.success, len(record.seats) >= game.max_players),
        ("leave", "lobby.leave", discord.ButtonStyle.secondary, False),
        ("start", "lobby.start", discord.ButtonStyle.primary, len(record.seats) < game.min_players),
        ("cancel", "lobby.cancel", discord.ButtonStyle.danger, False),
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
        )
        for word, key, style, off in buttons
    ]
    return Board(embed=embed, items=items)


def results_board(ctx: TableContext, cog: GameCog) -> Board:
    """Final ranks and scores with how each was counted, posted as a message of its own, with Rematch."""
    game = ctx.game
    scores = game.scores(ctx.state)
    ranking = game.ranking(ctx.state)
    notes = cog.explain(ctx)
    order = sorted(range(ctx.players), key=lambda seat: (ranking[seat], seat))
    lines = []
    for seat in order:
        line = t(
            "results.line",
            ctx.locale,
            medal=MEDALS.get(ranking[seat], "▫️"),
            rank=ranking[seat],
            player=ctx.mention(seat),
            points=plural(cog.score_unit, scores[seat], ctx.locale),
        )
        if seat in notes.breakdown:
            line += "\n" + t("results.breakdown", ctx.locale, how=notes.breakdown[seat])
        lines.append(line)
    if notes.tie_break:
        lines.append(t("results.tie_break", ctx.locale, how=notes.tie_break))
    embed = discord.Embed(
        title=t("results.title", ctx.locale, game=game.title),
        description="\n".join(lines),
        colour=discord.Colour.gold(),
    )
    embed.set_footer(text=t("results.footer", ctx.locale))
    rematch = TableButton(
        game.id,
        ctx.channel_id,
        0,
        "t:rematch",
        label=t("results.rematch", ctx.locale),
        style=discord.ButtonStyle.success,
        emoji="🔁",
    )
    return Board(embed=embed, items=[rematch])
