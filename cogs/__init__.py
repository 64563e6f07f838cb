"""Discord presentation, in packages of one kind each (the arrows between them: tests/cogs/test_shape.py):

    kit/          the shared kit every other package may use, using none of them: messages and cards,
                  limits, pages, refusals, the services, pictures, and words (catalogs, `t()`, bidi)
    tables/       the table machinery every game runs on
    games/<id>/   one package per game: its cog, its boards and pictures, its dice, its words
    roll/ stats/ history/ preferences/ help/   the features beside the games, each with its words

The bot loads the tables, then every registered game (rules.registry), then every feature module that
is an extension (`feature_extensions`): a new feature is found, not listed.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

HERE = Path(__file__).parent
SHARED = ("kit", "tables", "games")
"""The packages that are not features: the kit, the machinery and the games (loaded by the registry)."""


@cache
def feature_extensions() -> tuple[str, ...]:
    """Every module of a feature package that defines a top-level `setup` (a discord.py extension),
    by its dotted name, in the order of their names."""
    found = []
    for path in sorted(HERE.glob("*/*.py")):
        if path.parent.name in SHARED or not (path.parent / "__init__.py").is_file():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(node, ast.AsyncFunctionDef) and node.name == "setup" for node in tree.body):
            found.append(f"cogs.{path.parent.name}.{path.stem}")
    return tuple(found)
