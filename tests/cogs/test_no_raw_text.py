"""No player-facing text bypasses the catalogs: a walk over every cog's syntax tree.

A string literal with letters in it that reaches a player directly — a message's content, an
embed's title, text, field name or value, a button's label, a select's placeholder or option — is
an English line every German, Spanish or Persian player would read. Such words belong in
`cogs/<package>/locales/<language>.json`, fetched with `t()` / `ctx.t()`. Slash command declarations
(`app_commands.*` decorators and choices) are exempt: the Translator localises them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

COGS = Path(__file__).resolve().parents[2] / "cogs"

# Keyword arguments whose value a player reads (components, embeds, messages).
TEXT_KEYWORDS = frozenset(
    {"content", "label", "placeholder", "description", "title", "text", "name", "value", "footer"}
)
# Calls whose positional argument at that index is what a player reads (Pillow's `draw.text(xy, text)`
# writes on the Kaiten picture).
TEXT_CALLS = {"send_message": 0, "send": 0, "Embed": 0, "SelectOption": 0, "reply_ephemeral": 1, "text": 1}
# Declarations Discord's command tree carries (localised by the Translator), not messages.
EXEMPT_PREFIXES = ("app_commands.",)
# Strings with letters that are no language: none so far. Add one only with a reason.
ALLOWED: frozenset[str] = frozenset()


def _callee(call: ast.Call) -> str:
    return ast.unparse(call.func)


def _literal_words(node: ast.expr) -> list[str]:
    """The literal text with letters in an expression, not looking inside calls (`t(...)` is fine)."""
    found: list[str] = []
    stack: list[ast.AST] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Call | ast.Lambda):
            continue
        if isinstance(current, ast.Subscript):  # FACES["sushi"]: a lookup key, not text
            stack.append(current.value)
            continue
        if isinstance(current, ast.Compare):  # x == "over": a code compared, not text
            continue
        if isinstance(current, ast.Constant) and isinstance(current.value, str):
            text = current.value
            if any(char.isalpha() for char in text) and text.strip() not in ALLOWED:
                found.append(text)
            continue
        stack.extend(ast.iter_child_nodes(current))
    return found


def _exempt(call: ast.Call, decorators: set[int]) -> bool:
    return id(call) in decorators or _callee(call).startswith(EXEMPT_PREFIXES)


def raw_texts(source: str, filename: str = "<snippet>") -> list[str]:
    """`file:line: text` for every literal with letters a player would read, bypassing the catalogs."""
    tree = ast.parse(source, filename)
    decorators = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        for decorator in node.decorator_list
        for inner in ast.walk(decorator)
        if isinstance(inner, ast.Call)
    }
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or _exempt(node, decorators):
            continue
        shown: list[ast.expr] = [kw.value for kw in node.keywords if kw.arg in TEXT_KEYWORDS]
        at = TEXT_CALLS.get(_callee(node).rsplit(".", 1)[-1])
        if at is not None and len(node.args) > at:
            shown.append(node.args[at])
        for argument in shown:
            found += [f"{filename}:{argument.lineno}: {text!r}" for text in _literal_words(argument)]
    return found


def test_no_cog_shows_a_player_text_outside_the_catalogs():
    found: list[str] = []
    for path in sorted(COGS.rglob("*.py")):
        found += raw_texts(path.read_text(encoding="utf-8"), str(path.relative_to(COGS.parent)))
    assert found == [], "player-facing text outside the catalogs:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "snippet",
    [
        'await interaction.response.send_message("Your turn!", ephemeral=True)',
        'await channel.send(content=f"{name} wins the game")',
        'embed = discord.Embed(title="Final result")',
        'embed.add_field(name=ctx.t("x"), value="nothing yet")',
        'embed.set_footer(text="Good luck")',
        'button = TableButton(game, channel, 0, "t:hand", label="My hand")',
        'select = TableSelect(game, channel, 0, "a", options=[], placeholder="Pick a card")',
        'option = discord.SelectOption(label=card, value=card, description="worth 3 points")',
        'await reply_ephemeral(interaction, "Only admins may do that")',
        'draw.text((4, 8), "Score", fill=INK, font=font)',
        'text = ctx.t("k") if ok else "nothing"\nawait interaction.followup.send(text or "Done")',
    ],
)
def test_a_planted_raw_string_is_found(snippet: str):
    assert raw_texts(snippet)


@pytest.mark.parametrize(
    "snippet",
    [
        'await interaction.response.send_message(t("table.ok", locale), ephemeral=True)',
        'embed = discord.Embed(title=ctx.t("sushizock.title"), colour=discord.Colour.orange())',
        'embed.add_field(name=f"{emoji} {ctx.name(seat)}", value=" · ".join(parts) or "—")',
        'button = TableButton(game, channel, 0, "t:hand", label=label, emoji="🤫")',
        'option = discord.SelectOption(label="-")',
        "@app_commands.command(name='roll', description='Roll dice')\nasync def roll(self, i): ...",
        "choices = [app_commands.Choice(name='English', value='en')]",
        'text = FACE_EMOJI["sushi"] + " " + number(3)\nawait channel.send(content=text)',
    ],
)
def test_words_from_the_catalogs_and_language_free_strings_pass(snippet: str):
    assert raw_texts(snippet) == []
