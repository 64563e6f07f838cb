"""Which release of Sushi Bar is running: the start-up log line and /about say it.

The installed distribution's metadata is the source (`pip install -e .` writes it from
pyproject.toml); a tree run without being installed reads pyproject.toml itself. CHANGELOG.md says
what each version changed.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "sushi-bar"
UNKNOWN = "unknown"
_PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


@cache
def version() -> str:
    """The running release's version, e.g. "0.2.0"; "unknown" when neither source says."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        pass
    try:
        project = tomllib.loads(_PYPROJECT.read_text(encoding="utf-8"))["project"]
    except (OSError, tomllib.TOMLDecodeError, KeyError):
        return UNKNOWN
    found = project.get("version") if project.get("name") == DISTRIBUTION else None
    return found if isinstance(found, str) else UNKNOWN


VERSION = version()
