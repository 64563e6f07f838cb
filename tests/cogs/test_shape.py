"""Five games, one shape: each registered game has an engine, a cog and a renderer with the same
entry points, its hooks in the same order, and the import arrows in cogs/ point one way."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

from bot import GAME_EXTENSIONS
from cogs.tables.gamecog import GameCog
from rules.registry import GAMES

COGS = Path(__file__).resolve().parents[2] / "cogs"
HOOKS = [
    "render_board",
    "render_private",
    "stamp",
    "waits_for",
    "describe",
    "announce",
    "explain",
    "refusal",
    "published",
    "on_ui",
]


def test_the_hooks_listed_here_are_gamecogs_in_its_order():
    assert [name for name in vars(GameCog) if name in HOOKS] == HOOKS


def test_the_bot_loads_one_cog_per_registered_game():
    assert tuple(f"cogs.{game_id}.cog" for game_id in GAMES) == GAME_EXTENSIONS


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_has_a_cog_and_a_renderer_of_the_same_shape(game_id: str):
    module = importlib.import_module(f"cogs.{game_id}.cog")
    assert inspect.iscoroutinefunction(module.setup)
    cogs = [
        value
        for value in vars(module).values()
        if inspect.isclass(value) and issubclass(value, GameCog) and value is not GameCog
    ]
    assert len(cogs) == 1, cogs
    cog = cogs[0]
    assert cog.game is GAMES[game_id]
    overridden = [name for name in vars(cog) if name in HOOKS]
    assert "render_board" in overridden
    assert overridden == [name for name in HOOKS if name in overridden], "hooks in GameCog's order"

    render = importlib.import_module(f"cogs.{game_id}.render")
    entry_points = ["public", "board"] + (["private_board"] if cog.private_mode != "none" else [])
    for name in entry_points:
        assert callable(getattr(render, name, None)), f"cogs/{game_id}/render.py has no {name}()"


def _module_name(path: Path) -> str:
    parts = path.relative_to(COGS.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """Every cogs module and the cogs modules it imports (type-only imports included)."""
    modules = {_module_name(path): path for path in COGS.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                found |= {f"{node.module}.{alias.name}" for alias in node.names}
        graph[name] = {target for target in found if target in modules and target != name}
    return graph


def test_no_import_circles_in_cogs():
    graph = _imports()
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError("import circle: " + " -> ".join([*path[path.index(module) :], module]))
        if module in done:
            return
        for target in sorted(graph[module]):
            visit(target, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])


def test_the_table_machinery_imports_no_game():
    games = {f"cogs.{game_id}" for game_id in GAMES}
    for module, targets in _imports().items():
        if module.startswith("cogs.tables"):
            found = {target for target in targets if target.split(".")[:2] in [g.split(".") for g in games]}
            assert not found, f"{module} imports {found}"
