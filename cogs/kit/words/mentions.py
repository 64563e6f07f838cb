"""The bot's slash commands as texts name them: their paths, options and Discord ids.

Catalog texts name commands in English ("`/sushigo pick`"). Discord draws `</sushigo pick:ID>` as a
clickable command in the reader's own client language, so `name_commands` turns a named command
into that mention once its id is known (`t()` asks it of every text naming one). The structure comes
from the local command tree (no I/O); the ids from what the start-up sync or fetch returned
(`bot.py`): no request of its own.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

import discord
from discord import app_commands

from cogs.kit.words.catalogs import DEFAULT_LANGUAGE, Localish, catalog, language_of

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


# ---------------------------------------------------------------- commands named in texts

_COMMAND_IN_CODE = re.compile(r"`/([^`\n]+)`")


_OPTION = re.compile(r"([-_a-z0-9]+):(.*)", re.DOTALL)


@cache
def _client_languages() -> frozenset[str]:
    """The catalogs some Discord client locale reads (de, es): their command names are localised by
    `CatalogTranslator`. Persian is no Discord locale, so its readers' clients show English names."""
    return frozenset(language_of(locale) for locale in discord.Locale) - {DEFAULT_LANGUAGE}


def name_commands(text: str, locale: Localish = None, /) -> str:
    """The commands a text names in code, as the reader's client shows them.

    "`/sushigo pick`" (a command alone) becomes its mention `</sushigo pick:ID>`, which Discord draws
    clickable in the reader's own client language; with options ("`/sushizock roll set_aside:1 3`")
    it stays code, with the command's and options' names as a German or Spanish client shows them
    and the values untouched. A command the bot does not have is left as it is. English texts are
    left as they are: they name the commands as an English client shows them.
    """
    language = language_of(locale)
    if language == DEFAULT_LANGUAGE:
        return text
    names = catalog(language) if language in _client_languages() else {}

    def localised(name: str) -> str:
        return names.get(f"command.text.{name}", name)

    def rewrite(match: re.Match[str]) -> str:
        words = match[1].split(" ")
        path = SLASH_COMMANDS.find(words)
        if path is None:
            return match[0]
        rest = words[len(path) :]
        if not rest:
            mention = SLASH_COMMANDS.mention(path)
            if mention is not None:
                return mention
        elif path not in SLASH_COMMANDS.runnable:  # a group and then no subcommand of it
            return match[0]
        options = SLASH_COMMANDS.runnable.get(path, frozenset())
        said = [localised(name) for name in path]
        for word in rest:  # option names are localised, values and plain arguments ("2d6") are not
            option = _OPTION.fullmatch(word)
            said.append(f"{localised(option[1])}:{option[2]}" if option and option[1] in options else word)
        return "`/" + " ".join(said) + "`"

    return _COMMAND_IN_CODE.sub(rewrite, text)
