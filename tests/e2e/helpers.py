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
        # Reads the channel as a bystander would: nobody's ephemeral messages.
        self.spectator = self.guild.add_member(env.create_user("spectator"))

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
        for message in reversed(self.public_messages()):
            if message.author.bot and message.components:
                return message
        raise AssertionError("no board in the channel")

    def public_messages(self) -> list[discord.Message]:
        """What everyone in the channel sees (no ephemeral replies)."""
        return list(self.channel.history(viewer=self.spectator))

    def public_text(self) -> str:
        """All public text of the channel, embeds included, for "never shows X" checks."""
        parts: list[str] = []
        for message in self.public_messages():
            parts.append(message.content or "")
            for embed in message.embeds:
                parts.append(str(embed.to_dict()))
        return "\n".join(parts)

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
        """The latest DM the bot sent this player."""
        return self.member(name).user.dm_channel.last_message
