"""/roll in words: a roll's message (full, or short past Discord's 2,000 characters), the error
with a caret under the place it went wrong, saved rolls, the server's dice statistics and help."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

import discord

from cogs.i18n import join_list, number, plural, t
from rules.dice_notation import (
    CHAIN_CAP,
    MAX_SETS,
    DiceRoll,
    Die,
    GameRoll,
    Roll,
    RollError,
    TermRoll,
    expected_face,
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
    return t("roll.label", locale, label=discord.utils.escape_markdown(label)) if label else ""


def message(roll: Roll, *, user: str, name: str | None, label: str | None, locale: Locale) -> str:
    """The whole answer to a roll: every die when it fits in one message, else a shorter form.

    `name` is the saved roll's name when one was called; `label` what the roll is for."""
    if isinstance(roll, GameRoll):
        dice = plural(f"roll.game.{roll.request.game}", roll.request.count, locale)
        top = t("roll.header_game", locale, user=user, dice=dice) + _label(label, locale)
        return _fit([top, *_game_lines(roll, locale)])
    top = header(user, name, roll.request.text, label, locale)
    capped = [t("roll.capped", locale, cap=CHAIN_CAP)] if _capped(roll) else []
    for detail in ("dice", "counts", "totals"):
        text = "\n".join([top, *_dice_lines(roll, detail, locale), *capped])
        if detail != "dice":
            text += "\n" + t("roll.short_form", locale)
        if len(text) <= MESSAGE_LIMIT:
            return text
    return _fit([top, *_dice_lines(roll, "totals", locale)])


def _fit(lines: list[str]) -> str:
    text = "\n".join(lines)
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


def _capped(roll: DiceRoll) -> bool:
    return any(term.capped for result in roll.sets for term in result.terms)


def _dice_lines(roll: DiceRoll, detail: str, locale: Locale) -> list[str]:
    """`detail`: "dice" shows every die, "counts" how many dice each term threw, "totals" only totals."""
    request = roll.request
    key = "roll.successes" if roll.counts_successes else "roll.total"
    if len(roll.sets) == 1:
        only = roll.sets[0]
        lines = (
            [] if detail == "totals" else [_breakdown(request.text, request.body, only.terms, detail, locale)]
        )
        return [*lines, t(key, locale, total=number(only.total))]
    lines = []
    for index, result in enumerate(roll.sets, start=1):
        if detail == "totals":
            lines.append(t("roll.set_short", locale, index=index, total=number(result.total)))
        else:
            breakdown = _breakdown(request.text, request.body, result.terms, detail, locale)
            lines.append(
                t("roll.set_line", locale, index=index, breakdown=breakdown, total=number(result.total))
            )
    totals = join_list((f"`{number(total)}`" for total in roll.totals), locale, style="comma")
    sum_key = "roll.successes_totals" if roll.counts_successes else "roll.totals"
    return [*lines, t(sum_key, locale, totals=totals, sum=number(sum(roll.totals)))]


def _breakdown(text: str, body: int, terms: tuple[TermRoll, ...], detail: str, locale: Locale) -> str:
    """The expression as typed, each dice term followed by its dice: `4d6kh3 (~~1~~, 3, 5, **6**) + 2`."""
    parts = []
    cursor = body
    for term in terms:
        start, end = term.dice.start, term.dice.end
        parts.append(discord.utils.escape_markdown(text[cursor:start]))
        parts.append(discord.utils.escape_markdown(text[start:end]))
        if detail == "dice":
            parts.append(" (" + ", ".join(_die(die, term) for die in term.rolled) + ")")
        else:
            parts.append(" (" + plural("roll.hidden", len(term.rolled), locale) + ")")
        cursor = end
    parts.append(discord.utils.escape_markdown(text[cursor:]))
    return "".join(parts)


def _die(die: Die, term: TermRoll) -> str:
    """One die: **bold** at its highest or lowest face, ~~struck~~ when dropped, `!` when it exploded,
    faces rerolled away struck before it."""
    value = FATE_FACES[die.value] if term.dice.fate else number(die.value)
    if die.extreme is not None:
        value = f"**{value}**"
    if die.exploded:
        value += "!"
    if not die.kept:
        value = f"~~{value}~~"
    rerolled = "".join(f"~~{number(face)}~~→" for face in die.rerolled)
    return rerolled + value


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
    text = _code(error.text)
    position = max(0, min(error.position, len(text)))
    return {
        "reason": t(f"roll.error.{error.code}", locale, **error.params),
        "expression": text or " ",
        "caret": " " * position + "^",
    }


# ---------------------------------------------------------------- saved rolls, stats, help


def saved_embed(own: list[SavedRoll], server: list[SavedRoll] | None, locale: Locale) -> discord.Embed:
    embed = discord.Embed(title=t("roll.list.title", locale), colour=discord.Colour.blurple())
    sections = [("roll.list.own", own)] + ([("roll.list.server", server)] if server is not None else [])
    for key, rolls in sections:
        lines = [
            t("roll.list.line", locale, name=saved.name, expression=_code(saved.expression))
            for saved in rolls
        ]
        embed.add_field(
            name=t(key, locale), value="\n".join(lines) or t("roll.list.none", locale), inline=False
        )
    embed.set_footer(text=t("roll.list.footer", locale))
    return embed


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


def help_embed(locale: Locale) -> discord.Embed:
    text = t("roll.help.text", locale, cap=CHAIN_CAP, sets=MAX_SETS)
    return discord.Embed(
        title=t("roll.help.title", locale),
        description=f"{text}\n\n{t('roll.help.random', locale)}",
        colour=discord.Colour.blurple(),
    )
