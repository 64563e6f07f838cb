"""Five games, one shape, and arrows that point one way.

Each registered game has an engine, a cog and a renderer with the same entry points, its hooks in
GameCog's order. Across the whole tree (bot.py, rules/, storage/, cogs/) there is no import circle,
type-only imports included, and the architecture's arrows hold: `rules` imports nothing of the
project but itself, `storage` nothing of `cogs`, `cogs/tables/` no game; no product module is longer
than 600 lines.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import re
from pathlib import Path

import pytest

from bot import GAME_EXTENSIONS
from cogs.tables.gamecog import GameCog
from rules.registry import GAMES, REGISTERED
from tests.games import cog_classes

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rules", "storage", "cogs")
LONGEST = 600
"""Lines a product module may have at most."""
HOOKS = [
    "render_board",
    "render_private",
    "stamp",
    "waits_for",
    "invites",
    "describe",
    "announce",
    "explain",
    "refusal",
    "turn_refusal",
    "published",
    "on_ui",
]


def test_the_hooks_listed_here_are_gamecogs_in_its_order():
    assert [name for name in vars(GameCog) if name in HOOKS] == HOOKS


def test_the_bot_loads_one_cog_per_registered_game():
    assert tuple(f"cogs.games.{game_id}.cog" for game_id in GAMES) == GAME_EXTENSIONS


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_has_a_cog_and_a_renderer_of_the_same_shape(game_id: str):
    entry = REGISTERED[game_id]
    module = importlib.import_module(entry.extension)
    assert inspect.iscoroutinefunction(module.setup)
    cogs = cog_classes(game_id)
    assert len(cogs) == 1, cogs
    cog = cogs[0]
    assert vars(cog)["game"] is GAMES[game_id]  # set on the class
    overridden = [name for name in vars(cog) if name in HOOKS]
    assert "render_board" in overridden
    assert overridden == [name for name in HOOKS if name in overridden], "hooks in GameCog's order"

    render = importlib.import_module(f"{entry.cogs}.render")
    entry_points = ["board"] + (["private_board"] if cog.private_mode != "none" else [])
    for name in entry_points:
        assert callable(getattr(render, name, None)), f"{entry.cogs}.render has no {name}()"


# ---------------------------------------------------------------- the import graph


def _product_files() -> dict[str, Path]:
    """Every product module by its dotted name (a package by its own: `cogs.tables` is its __init__)."""
    modules = {"bot": ROOT / "bot.py"}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _parents(module: str) -> list[str]:
    """`a.b.c` -> [`a`, `a.b`]: the packages whose __init__ runs before it."""
    parts = module.split(".")
    return [".".join(parts[:count]) for count in range(1, len(parts))]


def _imported(name: str, path: Path) -> set[str]:
    """The dotted names a module's import statements name (relative ones resolved)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            found.add(module)
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return found


def _imports() -> dict[str, set[str]]:
    """Every product module and the product modules importing it runs: what it names, and the
    packages above each (importing `a.b.c` runs `a/__init__.py` and `a/b/__init__.py` first), but not
    its own packages, which are already being imported when it runs."""
    modules = _product_files()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for target in _imported(name, path):
            targets |= {target, *_parents(target)}
        own = {name, *_parents(name)}
        graph[name] = {target for target in targets if target in modules and target not in own}
    return graph


def test_no_import_circles_anywhere():
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


def _crossing(source: str, forbidden: tuple[str, ...]) -> dict[str, set[str]]:
    """Modules under `source` that import a module under one of `forbidden`."""
    found: dict[str, set[str]] = {}
    for module, targets in _imports().items():
        if module == source or module.startswith(f"{source}."):
            bad = {t for t in targets if any(t == f or t.startswith(f"{f}.") for f in forbidden)}
            if bad:
                found[module] = bad
    return found


@pytest.mark.parametrize(
    ("source", "forbidden"),
    [
        ("rules", ("bot", "cogs", "storage")),  # rules imports nothing of the project but itself
        ("storage", ("bot", "cogs")),
        ("cogs", ("bot",)),
    ],
)
def test_the_arrows_point_one_way(source: str, forbidden: tuple[str, ...]):
    assert _crossing(source, forbidden) == {}


# ---------------------------------------------------------------- the arrows between the packages

ARROWS: dict[str, set[str]] = {
    "rules": set(),
    "storage": {"rules"},  # only the operator's copy tool replays games
    "kit": {"rules", "storage"},  # the shared kit: messages, words, pictures, refusals, services
    "tables": {"kit", "rules", "storage"},  # the table machinery
    "game": {"kit", "tables", "rules", "storage"},  # each game's package: no other game, no feature
    "roll": {"kit", "rules", "storage"},
    "stats": {"kit", "tables", "rules", "storage"},
    "history": {"kit", "tables", "rules", "storage"},
    # /settings season ends a season; /settings forget-server asks as /privacy does
    "preferences": {"kit", "tables", "stats", "privacy", "rules", "storage"},
    "help": {"kit", "tables", "rules", "storage"},
    "privacy": {"kit", "tables", "rules", "storage"},  # /privacy, and a server's data after the bot left
}
"""What each package may import besides itself (bot.py may import anything; nothing imports bot.py).
A feature package is every package of `cogs` but the kit, the tables and the games: a new one must be
given its arrows here."""


def _package(module: str) -> str:
    """The package a module belongs to in ARROWS' terms (`cogs.games.sushigo.render` -> "game")."""
    parts = module.split(".")
    if parts[0] != "cogs":
        return parts[0]
    if len(parts) == 1:
        return "cogs"
    return "game" if parts[1] == "games" else parts[1]


def _game(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if parts[:2] == ["cogs", "games"] and len(parts) > 2 else None


def test_every_package_of_cogs_has_its_arrows():
    packages = {path.parent.name for path in (ROOT / "cogs").glob("*/__init__.py")}
    assert packages - {"games"} <= set(ARROWS), "a new package of cogs: give it its arrows in ARROWS"


def test_the_arrows_between_the_packages_point_one_way():
    wrong = set()
    for module, targets in _imports().items():
        source = _package(module)
        if source in ("bot", "cogs"):
            continue
        for target in targets:
            kind = _package(target)
            if kind == "bot" or (kind != source and kind not in ARROWS[source] and kind != "cogs"):
                wrong.add(f"{module} -> {target}")
            elif kind == source == "game" and _game(module) != _game(target):
                wrong.add(f"{module} -> {target} (another game)")
    assert sorted(wrong) == []


def test_the_table_machinery_imports_no_game():
    games = tuple(entry.cogs for entry in REGISTERED.values()) + tuple(
        entry.package for entry in REGISTERED.values()
    )
    for shared in (
        "cogs.kit",
        "cogs.tables",
        "cogs.roll",
        "cogs.stats",
        "cogs.history",
        "cogs.help",
        "cogs.privacy",
    ):
        assert _crossing(shared, games) == {}
    assert _crossing("cogs.preferences", games) == {}


def test_the_benchmarks_import_nothing_from_the_tests():
    found = {}
    for path in sorted((ROOT / "bench").glob("*.py")):
        names = _imported(f"bench.{path.stem}", path)
        if any(name == "tests" or name.startswith("tests.") for name in names):
            found[path.name] = sorted(name for name in names if name.startswith("tests"))
    assert found == {}


def test_no_product_module_is_longer_than_600_lines():
    lengths = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for path in _product_files().values()
    }
    assert {name: count for name, count in sorted(lengths.items()) if count > LONGEST} == {}


# ---------------------------------------------------------------- a game brings its own words


def _game_names() -> re.Pattern[str]:
    """Every registered game's id, title and dice word, as a whole word."""
    from rules.dice_notation import game_words

    names = {name for entry in REGISTERED.values() for name in (entry.game.id, entry.game.title)}
    names |= set(game_words())
    alternatives = "|".join(rf"\b{re.escape(name)}(?!\w)" for name in sorted(names, key=len, reverse=True))
    return re.compile(alternatives, re.IGNORECASE)


def _shared(path: Path) -> bool:
    """A file of the bot outside every game's own package."""
    return "games" not in path.relative_to(ROOT / "cogs").parts


def test_no_shared_catalog_names_a_game():
    names = _game_names()
    found = {
        f"{path.relative_to(ROOT)}: {key}": value
        for path in sorted((ROOT / "cogs").rglob("locales/*.json"))
        if _shared(path)
        for key, value in json.loads(path.read_text(encoding="utf-8")).items()
        if names.search(key) or names.search(value)
    }
    assert found == {}


def test_no_shared_module_names_a_game_in_its_code():
    """Docstrings and comments may give a game as an example; no name, string or key in code does."""
    names = _game_names()
    found = []
    for path in sorted((ROOT / "cogs").rglob("*.py")):
        if not _shared(path):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            text = None
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                text = node.value
            elif isinstance(node, ast.Name):
                text = node.id
            elif isinstance(node, ast.Attribute):
                text = node.attr
            if text and names.search(text):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text[:60]!r}")
    assert found == []


# ---------------------------------------------------------------- the architecture document


def test_the_architecture_names_every_package_and_module_of_the_shared_parts():
    """docs/ARCHITECTURE.md's tables of the kit and the machinery, and its list of packages, compared
    with the tree: a module added or removed without the document fails here."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    missing = [
        f"cogs/{path.parent.name}/"
        for path in (ROOT / "cogs").glob("*/__init__.py")
        if f"cogs/{path.parent.name}/" not in text
    ]
    for folder in ("kit", "kit/words", "tables"):
        for path in sorted((ROOT / "cogs" / folder).glob("*.py")):
            if path.name != "__init__.py" and path.name not in text:
                missing.append(str(path.relative_to(ROOT)))
    assert missing == []
