"""/roll in words: a roll's message (full, or short past Discord's 2,000 characters), the error
with a caret under the place it went wrong (and ours for another bot's spelling), saved rolls in
pages, the server's dice statistics and help."""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import import_module

import discord

from cogs.kit import pages
from cogs.kit.words import bidi
from cogs.kit.words.text import join_list, number, plural, t
from rules.dice_notation import (
    MAX_ROLLS,
    MAX_SETS,
    MAX_THROWS,
    DiceRoll,
    Die,
    GameRoll,
    Roll,
    RollError,
    SetRoll,
    SeveralRoll,
    TermRoll,
    expected_face,
    game_words,
    lenders,
)
from storage.rolls import DieStats, SavedRoll

Locale = discord.Locale | str | None
MESSAGE_LIMIT = 2000
STATS_LINES = 20
FATE_FACES = {-1: "−", 0: "0", 1: "+"}
UNUSUAL = 3.0  # standard errors: a fair die's average leaves this band 3 times in 1,000
DiceDrawing = Callable[[tuple[str, ...], Locale], list[str]]
"""A dice game's `<cogs>.dice.lines`: its throw's faces drawn as the lines of the message."""


def header(user: str, name: str | None, expression: str, label: str | None, locale: Locale) -> str:
    """The request echoed: who rolled what (a saved roll by its name too), and what for."""
    shown = _code(expression)
    if name:
        text = t(
            "roll.header_saved", locale, user=user, name=discord.utils.escape_markdown(name), expression=shown
        )
    else:
        text = t("roll.header", locale, user=user, expression=shown)
    return text + _label(label, locale)


def _label(label: str | None, locale: Locale) -> str:
    """What the roll is for, on the roll's own line: a label typed over several lines reads as one (a
    line of its own would start a paragraph no isolate reaches)."""
    if not label or not (one_line := " ".join(label.split())):
        return ""
    return t("roll.label", locale, label=bidi.quoted(discord.utils.escape_markdown(one_line)))


def message(roll: Roll, *, user: str, name: str | None, label: str | None, locale: Locale) -> str:
    """The whole answer to a roll: every die when it fits in one message, else a shorter form.

    `name` is the saved roll's name when one was called; `label` what the roll is for."""
    if isinstance(roll, GameRoll):
        dice = plural(f"roll.game.{roll.request.game}", roll.request.count, locale)
        top = t("roll.header_game", locale, user=user, dice=dice) + _label(label, locale)
        return _fit([top, *_game_lines(roll, locale)])
    top = header(user, name, roll.request.text, label, locale)
    for detail in ("dice", "counts", "totals"):
        text = "\n".join([top, *_lines(roll, detail, locale)])
        if detail != "dice":
            text += "\n" + t("roll.short_form", locale)
        if len(text) <= MESSAGE_LIMIT:
            return text
    return _fit([top, *_lines(roll, "totals", locale)])


def _lines(roll: DiceRoll | SeveralRoll, detail: str, locale: Locale) -> list[str]:
    if isinstance(roll, DiceRoll):
        return _dice_lines(roll, detail, locale)
    lines: list[str] = []
    for index, part in enumerate(roll.rolls, start=1):  # `a; b`: each roll under its own line
        if isinstance(part, GameRoll):
            dice = plural(f"roll.game.{part.request.game}", part.request.count, locale)
            lines.append(
                t("roll.part_game", locale, index=index, dice=dice) + _label(part.request.label, locale)
            )
            lines += _game_lines(part, locale)
            continue
        shown = _code(part.request.text)
        lines.append(
            t("roll.part", locale, index=index, expression=shown) + _label(part.request.label, locale)
        )
        lines += _dice_lines(part, detail, locale)
    return lines


def _fit(lines: list[str]) -> str:
    text = "\n".join(lines)
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


def _dice_lines(roll: DiceRoll, detail: str, locale: Locale) -> list[str]:
    """`detail`: "dice" shows every die, "counts" how many dice each term threw, "totals" only totals."""
    request = roll.request
    key = "roll.successes" if roll.counts_successes else "roll.total"
    if len(roll.sets) == 1:
        only = roll.sets[0]
        lines = [] if detail == "totals" else [_breakdown(request.text, request.body, only, detail, locale)]
        return [*lines, t(key, locale, total=only.total)]
    lines = []
    for index, result in enumerate(roll.sets, start=1):
        if detail == "totals":
            lines.append(t("roll.set_short", locale, index=index, total=result.total))
        else:
            breakdown = _breakdown(request.text, request.body, result, detail, locale)
            lines.append(t("roll.set_line", locale, index=index, breakdown=breakdown, total=result.total))
    totals = join_list((f"`{total}`" for total in roll.totals), locale, style="comma")
    sum_key = "roll.successes_totals" if roll.counts_successes else "roll.totals"
    return [*lines, t(sum_key, locale, totals=totals, sum=sum(roll.totals))]


def _breakdown(text: str, body: int, result: SetRoll, detail: str, locale: Locale) -> str:
    """The expression as typed, each dice term followed by its dice, a set's dropped items struck:
    `4d6kh3 (~~1~~, 3, 5, **6**) + 2`, `(1d20 (12)+5, ~~1d20 (3)+5~~)kh1`."""
    inserts: list[tuple[int, int, str]] = []  # (where, order at the same place, what)
    dropped = [
        span
        for pool in result.pools
        for span, kept in zip(pool.pool.spans, pool.kept, strict=True)
        if not kept
    ]
    for term in result.terms:
        # a struck item strikes its dice already (Discord draws no strike inside a strike)
        inside = any(start <= term.dice.start and term.dice.end <= end for start, end in dropped)
        if detail == "dice":
            shown = " (" + ", ".join(_die(die, term, locale, strike=not inside) for die in term.rolled) + ")"
        else:
            shown = " (" + plural("roll.hidden", len(term.rolled), locale) + ")"
        inserts.append((term.dice.end, 0, shown))
    for pool in result.pools:
        for (start, end), kept in zip(pool.pool.spans, pool.kept, strict=True):
            if not kept:
                inserts += [(start, 2, "~~"), (end, 1, "~~")]
    parts = []
    cursor = body
    for where, _, shown in sorted(inserts):
        parts.append(discord.utils.escape_markdown(text[cursor:where]))
        parts.append(shown)
        cursor = where
    parts.append(discord.utils.escape_markdown(text[cursor:]))
    return "".join(parts)


def _die(die: Die, term: TermRoll, locale: Locale, *, strike: bool = True) -> str:
    """One die: **bold** at its highest or lowest face, ~~struck~~ when dropped, `!` when it exploded,
    faces rerolled away struck before it, a compounded die's faces added up (`**6**+**6**+2`)."""
    if die.compounded:
        value = "+".join(_face(face, term, locale) for face in die.compounded)
    else:
        value = FATE_FACES[die.value] if term.dice.fate else number(die.value, locale)
        if die.extreme is not None:
            value = f"**{value}**"
    if die.exploded:
        value += "!"
    if not die.kept and strike:
        value = f"~~{value}~~"
    rerolled = "".join(
        f"~~{number(face, locale)}~~→" if strike else f"{number(face, locale)}→" for face in die.rerolled
    )
    return rerolled + value


def _face(face: int, term: TermRoll, locale: Locale) -> str:
    shown = number(face, locale)
    return f"**{shown}**" if face in (term.dice.low, term.dice.high) else shown


def _game_lines(roll: GameRoll, locale: Locale) -> list[str]:
    """The game's dice drawn by its own cogs package (`<cogs>.dice`), with the emoji its table uses."""
    drawing: DiceDrawing = import_module(f"{lenders()[roll.request.game].cogs}.dice").lines
    return drawing(roll.faces, locale)


def _code(text: str) -> str:
    """Text safe inside `code` (a backtick would end it)."""
    return text.replace("`", "'")


# ---------------------------------------------------------------- errors


def error_parts(error: RollError, locale: Locale) -> dict[str, str]:
    """The reason and the expression with a caret under where it went wrong (`roll.error.at`)."""
    # A lone surrogate (JSON lets a client send one) cannot be sent back: shown as �, one for one, so
    # the caret still points where it did.
    text = _code(re.sub("[\ud800-\udfff]", "\ufffd", error.text))
    position = max(0, min(error.position, len(text)))
    return {
        "reason": _reason(error, locale),
        "expression": text or " ",
        "caret": " " * position + "^",
    }


def _reason(error: RollError, locale: Locale) -> str:
    """Why, and for another bot's spelling, ours: "… did you mean `4d6dl1`?"."""
    params = {name: value for name, value in error.params.items() if name != "suggestion"}
    reason = t(f"roll.error.{error.code}", locale, **params)
    suggestion = error.params.get("suggestion")
    if isinstance(suggestion, str):
        reason += " " + t("roll.error.did_you_mean", locale, suggestion=_code(suggestion))
    return reason


# ---------------------------------------------------------------- saved rolls, stats, help


def saved_pages(own: list[SavedRoll], server: list[SavedRoll] | None, locale: Locale) -> list[discord.Embed]:
    """The player's saved rolls, then the server's, in as many pages as they need (cogs/kit/pages.py):
    each page says whose rolls it lists, a section that goes on says so again on the next page."""
    sections = [("roll.list.own", own)] + ([("roll.list.server", server)] if server is not None else [])
    lines: list[tuple[str, str]] = []  # (section, line)
    for key, rolls in sections:
        entries = [
            t("roll.list.line", locale, name=saved.name, expression=_code(saved.expression))
            for saved in rolls
        ]
        lines += [(key, entry) for entry in entries or [t("roll.list.none", locale)]]
    embeds = []
    start = 0
    for page in pages.pack([line for _, line in lines], limit=pages.PAGE_TEXT):
        text: list[str] = []
        shown = None
        for section, line in lines[start : start + len(page)]:
            if section != shown:
                text.append(t(section, locale))
                shown = section
            text.append(pages.shorten(line, pages.PAGE_TEXT))
        start += len(page)
        embed = discord.Embed(
            title=t("roll.list.title", locale), description="\n".join(text), colour=discord.Colour.blurple()
        )
        embed.set_footer(text=t("roll.list.footer", locale))
        embeds.append(embed)
    return embeds


def stats_embed(stats: list[DieStats], locale: Locale) -> discord.Embed:
    """Per die size: how many dice, their average against a fair die's, and whether that is unusual."""
    embed = discord.Embed(title=t("roll.stats.title", locale), colour=discord.Colour.green())
    if not stats:
        embed.description = t("roll.stats.empty", locale)
        return embed
    shown = sorted(stats, key=lambda row: -row.dice)[:STATS_LINES]
    lines = [_stats_line(row, locale) for row in sorted(shown, key=lambda row: row.sides)]
    if len(stats) > len(shown):
        lines.append(t("roll.stats.more", locale, count=len(stats) - len(shown)))
    embed.description = "\n".join(lines)
    embed.set_footer(text=t("roll.stats.footer", locale))
    return embed


def _stats_line(row: DieStats, locale: Locale) -> str:
    mean, deviation = expected_face(row.sides)
    margin = UNUSUAL * deviation / row.dice**0.5
    return t(
        "roll.stats.line",
        locale,
        verdict="✅" if abs(row.average - mean) <= margin else "⚠️",
        die="dF" if row.sides == 0 else f"d{row.sides}",
        dice=plural("roll.stats.dice", row.dice, locale),
        rolls=plural("roll.stats.rolls", row.rolls, locale),
        average=row.average,
        expected=mean,
        margin=margin,
    )


def _games_dice(locale: Locale) -> str:
    """The registered games' dice, each worded by its game (`roll.help.dice.<word>` in its catalog)."""
    words = game_words()
    if not words:
        return ""
    return t(
        "roll.help.games",
        locale,
        dice=join_list([t(f"roll.help.dice.{word}", locale) for word in words], locale, style="comma"),
    )


def help_embed(locale: Locale) -> discord.Embed:
    """The notation, then the spellings of other bots it reads (and the ones it answers with ours)."""
    embed = discord.Embed(
        title=t("roll.help.title", locale),
        description=t(
            "roll.help.text",
            locale,
            sets=MAX_SETS,
            rolls=MAX_ROLLS,
            throws=MAX_THROWS,
            games=_games_dice(locale),
        ),
        colour=discord.Colour.blurple(),
    )
    embed.add_field(
        name=t("roll.help.others_title", locale), value=t("roll.help.others", locale), inline=False
    )
    embed.add_field(
        name=t("roll.help.random_title", locale), value=t("roll.help.random", locale), inline=False
    )
    return embed
