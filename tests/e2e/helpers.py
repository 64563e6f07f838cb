"""Small conveniences for end-to-end tests: one table in one channel, driven by named players."""

from __future__ import annotations

from typing import Any

import discord
from simcord import Env


class Table:
    """A guild, a channel and some members, with the table's board at hand."""

    def __init__(self, env: Env, group: str, names: list[str], *, closed_dms: tuple[str, ...] = ()) -> None:
        self.env = env
        self.group = group
        self.guild = env.create_guild("Sushi Bar test")
        self.channel = self.guild.create_text_channel("sushi")
        self.players = {
            name: self.guild.add_member(env.create_user(name, bot=name in closed_dms)) for name in names
        }

    @property
    def host(self) -> Any:
        return next(iter(self.players.values()))

    def member(self, name: str) -> Any:
        if name not in self.players:
            self.players[name] = self.guild.add_member(self.env.create_user(name))
        return self.players[name]

    @property
    def board(self) -> discord.Message:
        """The newest message of the bot carrying components (the live board)."""
        for message in reversed(self.channel.history()):
            if message.author.bot and message.components:
                return message
        raise AssertionError("no board in the channel")

    def messages(self) -> list[discord.Message]:
        return list(self.channel.history())

    async def slash(self, name: str, command: str, **options: Any) -> Any:
        return await self.member(name).slash(self.channel, f"{self.group} {command}", **options)

    async def open(self, **options: Any) -> Any:
        return await self.host.slash(self.channel, f"{self.group} new", **options)

    async def join(self, *names: str) -> None:
        for name in names:
            await self.member(name).click(self.board, label="Join")

    async def start(self) -> Any:
        return await self.host.click(self.board, label="Start")

    async def seat_everyone(self) -> None:
        await self.open()
        await self.join(*list(self.players)[1:])
        await self.start()

    async def click(self, name: str, label: str, message: discord.Message | None = None) -> Any:
        return await self.member(name).click(message or self.board, label=label)

    def dm(self, name: str) -> discord.Message | None:
        return self.players[name].user.dm_channel.last_message if hasattr(self.players[name], "user") else None
