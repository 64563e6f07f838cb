"""A toy game, "Dice Race", installed as a temporary package on each side and registered like any
other (`rules.registry.register`), to prove that the shared suites need nothing but the registry.

`rules_side/` and `cogs_side/` are its two packages' sources; `installed(folder)` copies them into
`folder` as `toy_rules_pkg` and `toy_cogs_pkg`, puts `folder` on sys.path, registers the game and,
on leaving, takes all of it away again.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rules.registry import Registered, register, unregister

HERE = Path(__file__).parent
RULES, COGS = "toy_rules_pkg", "toy_cogs_pkg"
GAME_ID = "toy"


@contextmanager
def installed(folder: Path) -> Iterator[Registered]:
    """The toy game registered from packages written into `folder` (for as long as the block runs)."""
    shutil.copytree(HERE / "rules_side", folder / RULES, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(HERE / "cogs_side", folder / COGS, ignore=shutil.ignore_patterns("__pycache__"))
    sys.path.insert(0, str(folder))
    try:
        yield register(RULES, cogs=COGS)
    finally:
        unregister(GAME_ID)
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name.split(".")[0] in (RULES, COGS)]:
            del sys.modules[name]
