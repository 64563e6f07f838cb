"""The bot's slash commands as texts name them: their paths, options and Discord ids.

Catalog texts name commands in English ("`/sushigo pick`"). Discord draws `</sushigo pick:ID>` as a
clickable command in the reader's own client language, so `cogs.i18n` turns a named command into
that mention once its id is known. The structure comes from the local command tree (no I/O); the
ids from what the start-up sync or fetch returned (`bot.py`): no request of its own. Kept apart
from `cogs.i18n` so that the catalogs never wait on Discord.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from discord import app_commands

log = logging.getLogger(__name__)

Path = tuple[str, ...]  # ("sushigo", "pick"): a command's English names, outermost first


@dataclass
class SlashCommands:
    """What the bot has registered: runnable commands with their option names, groups, and the
    id of each top-level command (a mention of a subcommand uses its top-level command's id)."""

    runnable: dict[Path, frozenset[str]] = field(default_factory=dict)
    groups: set[Path] = field(default_factory=set)
    ids: dict[str, int] = field(default_factory=dict)

    def learn(
        self,
        commands: Iterable[object],
        registered: Iterable[app_commands.AppCommand] | None = None,
    ) -> None:
        """Replace what is known by the local tree's `commands` and the ids Discord returned for them
        (None: the ids could not be had; texts then keep the commands as text)."""
        runnable: dict[Path, frozenset[str]] = {}
        groups: set[Path] = set()

        def walk(command: object, parent: Path) -> None:
            if isinstance(command, app_commands.Group):
                path = (*parent, command.name)
                groups.add(path)
                for sub in command.commands:
                    walk(sub, path)
            elif isinstance(command, app_commands.Command):
                path = (*parent, command.name)
                runnable[path] = frozenset(parameter.display_name for parameter in command.parameters)

        for command in commands:
            walk(command, ())
        self.runnable, self.groups = runnable, groups
        self.ids = {command.name: command.id for command in registered or ()}

    def clear(self) -> None:
        self.learn(())

    def find(self, words: Sequence[str]) -> Path | None:
        """The longest command path `words` begin with: ("bock", "roll", "x") -> ("bock", "roll")."""
        for length in range(min(len(words), 3), 0, -1):
            path = tuple(words[:length])
            if path in self.runnable or path in self.groups:
                return path
        return None

    def mention(self, path: Path) -> str | None:
        """`</sushigo pick:ID>` for a runnable command whose id is known, else None."""
        command_id = self.ids.get(path[0])
        if path not in self.runnable or command_id is None:
            return None
        return f"</{' '.join(path)}:{command_id}>"


# The bot's one registry: filled at start-up (bot.py), read whenever a text is worded.
SLASH_COMMANDS = SlashCommands()
