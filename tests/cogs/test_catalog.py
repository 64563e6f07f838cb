"""Every word a player can meet exists in the English catalog, and every template is well-formed."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from cogs.kit.words.catalogs import catalog, has
from rules.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = catalog("en")


def _calls(path: Path, names: set[str]) -> list[ast.Call]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = getattr(func, "id", None) or getattr(func, "attr", None)
            if name in names:
                found.append(node)
    return found


def _refusal_codes(game_id: str) -> set[str]:
    """Codes a game can refuse with — require(cond, "code") and IllegalAction("code") in its engine,
    IllegalAction("code") in its cogs package — all worded by the cog's `refusal` hook."""
    codes = set()
    sources = [
        ROOT / "rules" / game_id / "game.py",
        *sorted((ROOT / "cogs" / "games" / game_id).glob("*.py")),
    ]
    calls = [call for source in sources for call in _calls(source, {"require", "IllegalAction"})]
    for call in calls:
        position = 1 if isinstance(call.func, ast.Name) and call.func.id == "require" else 0
        if len(call.args) > position and isinstance(call.args[position], ast.Constant):
            codes.add(call.args[position].value)
    return codes


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_refusal_code_has_words(game_id: str):
    codes = _refusal_codes(game_id)
    assert codes, "the scan found no refusal codes"
    missing = sorted(code for code in codes if not (has(f"{game_id}.error.{code}") or has(f"error.{code}")))
    assert missing == []


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_has_rules_and_a_summary(game_id: str):
    for key in ("rules.title", "rules.text", "summary"):
        assert ENGLISH.get(f"{game_id}.{key}"), f"{game_id}.{key}"


def test_every_literal_key_used_in_the_cogs_exists():
    """Keys of t("key", ...) and of Refusal("key", ...), which the one refusal handler words."""
    missing = []
    for path in sorted((ROOT / "cogs").rglob("*.py")):
        for call in _calls(path, {"t", "Refusal"}):
            key = call.args[0].value if call.args and isinstance(call.args[0], ast.Constant) else None
            if isinstance(key, str) and key not in ENGLISH:
                missing.append(f"{path.name}: {key}")
    assert missing == []


@pytest.mark.parametrize("key", sorted(ENGLISH))
def test_every_template_parses(key: str):
    list(string.Formatter().parse(ENGLISH[key]))  # raises on an unbalanced brace
