"""The end-to-end helpers every game's tests share: seating, clicking, reading boards and DMs.

A `Table` is one guild channel with named members. Assertions read what Discord shows (messages,
embeds, components); `Table.live()` / `Table.view()` read the bot's own state only to decide
what to play next.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import discord
from simcord import Env

from cogs.kit.words.bidi import plain
from cogs.tables import tables_of
from cogs.tables.cache import Loaded
from cogs.tables.context import now
from rules.registry import GAMES
from tests.e2e.transcript import player_did
from tests.games import kit

# ---------------------------------------------------------------- reading messages


def _tree(message: Any) -> list[Any]:
    """Every component of a message in reading order, nested ones included (a card's container, its
    sections and their buttons, its action rows); payload dicts are read as discord.py's objects."""
    found: list[Any] = []

    def walk(component: Any) -> None:
        if isinstance(component, dict):
            component = discord.components._component_factory(component)  # type: ignore[attr-defined]
        if component is None:
            return
        found.append(component)
        for child in getattr(component, "children", None) or []:
            walk(child)
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            walk(accessory)

    for top in message.components:
        walk(top)
    return found


def _raw_texts(message: Any) -> list[str]:
    """A message's content and its card's texts as sent (mentions as `<#id>`)."""
    texts = [message.content or ""]
    return texts + [item.content for item in _tree(message) if isinstance(item, discord.TextDisplay)]


def components(message: Any) -> list[discord.Component]:
    """Every button and select of a message, in order, wherever the card holds them."""
    return [item for item in _tree(message) if isinstance(item, (discord.Button, discord.SelectMenu))]


def buttons(message: Any) -> list[discord.Button]:
    return [item for item in components(message) if isinstance(item, discord.Button)]


def selects(message: Any) -> list[discord.SelectMenu]:
    return [item for item in components(message) if isinstance(item, discord.SelectMenu)]


def labels(message: Any, *, enabled_only: bool = False) -> list[str]:
    return [
        plain(button.label or "") for button in buttons(message) if not (enabled_only and button.disabled)
    ]


def button(message: Any, prefix: str) -> discord.Button:
    """The one enabled button whose label starts with `prefix`."""
    found = [b for b in buttons(message) if plain(b.label or "").startswith(prefix) and not b.disabled]
    assert len(found) == 1, f"no single button {prefix!r} among {labels(message)}"
    return found[0]


def label_starting(message: Any, prefix: str) -> str:
    return plain(button(message, prefix).label or "")


def payload(item: discord.Button | discord.SelectMenu) -> str:
    """What a table component means: the last part of its custom_id (`a:<action>`, `u:<word>`, `t:<word>`)."""
    return (item.custom_id or "").split(":", 4)[4]


def text_of(message: Any) -> str:
    """A message's words as a reader sees them: content, each embed's title, text and fields, and a
    card's texts (without the bidi marks and isolates, which a reader does not see)."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{field.name}\n{field.value}" for field in embed.fields]
        if embed.footer and embed.footer.text:
            parts.append(embed.footer.text)
    for item in _tree(message):
        if isinstance(item, discord.TextDisplay):
            parts.append(item.content)
        elif isinstance(item, discord.MediaGalleryComponent):
            parts += [picture.description or "" for picture in item.items]
    return plain("\n".join(part for part in parts if part))


def action_value(game_id: str, action: Any) -> str:
    """An action as the bot writes it into a select option's value or a button's payload."""
    return json.dumps(GAMES[game_id].encode_action(action), separators=(",", ":"))


# ---------------------------------------------------------------- a table


class Table:
    """A guild, a channel and some members, with the table's board at hand."""

    def __init__(
        self,
        env: Env,
        group: str,
        names: list[str],
        *,
        closed_dms: tuple[str, ...] = (),
        shard_id: int | None = None,
    ) -> None:
        self.env = env
        self.group = group
        self.guild = env.create_guild("Sushi Bar test", shard_id=shard_id)  # shard: which process hears it
        self.channel = self.guild.create_text_channel("sushi")
        # The text channel the table was opened in: `channel` becomes the table's thread once the bot
        # opens one (`open`), and commands there reach the table as players give them in the thread.
        self.parent = self.channel
        self.players = {
            name: self.guild.add_member(env.create_user(name, bot=name in closed_dms)) for name in names
        }
        # Reads the channel as a bystander would: nobody's ephemeral messages.
        self.spectator = self.guild.add_member(env.create_user("spectator"))

    def beside(self, group: str, names: list[str], *, channel: Any = None) -> Table:
        """Another table of the same server: in `channel` (a text channel of this server), else in
        this table's text channel beside it; its players this table's members where they are."""
        other = Table.__new__(Table)
        other.env, other.group, other.guild, other.spectator = self.env, group, self.guild, self.spectator
        other.channel = other.parent = channel or self.parent
        other.players = {
            name: self.players.get(name) or self.guild.add_member(self.env.create_user(name))
            for name in names
        }
        return other

    @property
    def host(self) -> Any:
        return next(iter(self.players.values()))

    @property
    def host_name(self) -> str:
        return next(iter(self.players))

    def member(self, name: str) -> Any:
        if name not in self.players:
            self.players[name] = self.guild.add_member(self.env.create_user(name))
        return self.players[name]

    # ------------------------------------------------------------ reading

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
        """All public words of the channel, embeds included, for "never shows X" checks."""
        return "\n".join(text_of(message) for message in self.public_messages())

    def dm(self, name: str) -> discord.Message | None:
        """The latest DM the bot sent this player."""
        return self.member(name).user.dm_channel.last_message

    @property
    def tables(self) -> Any:
        """The bot's Tables cog (to read its state; tests act through Discord)."""
        return tables_of(self.env.bot)

    async def live(self) -> Any:
        """The open table as the bot holds it (a TableContext), None when there is none.

        Only to decide what to play: assertions read what Discord shows.
        """
        return await self.tables.context(self.channel.id)

    async def rig(self, change: Callable[[Any], None]) -> None:
        """Rewrite the live game state as a move would: a changed copy is stored and becomes the
        table the bot holds (a held state is never edited in place: its views are drawn once)."""
        ctx = await self.live()
        state = ctx.game.load(ctx.game.dump(ctx.state))
        change(state)
        record = ctx.record.copy()
        record.state = ctx.game.dump(state)
        await self.tables.store.save(
            record, expected_version=ctx.record.version, action={"type": "test_rig"}, seat=None, now=now()
        )
        self.tables.cache.remember(Loaded(record, state))

    async def state(self) -> Any:
        """The game state of the open table, or of the channel's last table once it has ended."""
        ctx = await self.live()
        if ctx is not None:
            return ctx.state
        record = await self.tables.store.last_table(self.channel.id)
        assert record is not None and record.state is not None, "no game in this channel"
        return GAMES[record.game_id].load(record.state)

    async def view(self) -> Any:
        """What the whole table may see of the current (or just finished) game."""
        ctx = await self.live()
        if ctx is not None and ctx.state is not None:
            return ctx.public()
        record = await self.tables.store.last_table(self.channel.id)
        assert record is not None and record.state is not None, "no game in this channel"
        game = GAMES[record.game_id]
        return game.view(game.load(record.state), None)

    # ------------------------------------------------------------ acting

    def did(self, name: str, what: str) -> None:
        """Note in the transcript what a player does next."""
        player_did(self.env, f"{name} {what}")

    async def slash(self, name: str, command: str, **options: Any) -> Any:
        self.did(name, f"runs /{self.group} {command} {_options(options)}".rstrip())
        return await self.member(name).slash(self.channel, f"{self.group} {command}", **options)

    async def open(self, **options: Any) -> Any:
        """`/<game> new` in the text channel; the table's thread, if the bot opened one, is then the
        channel the test plays in."""
        self.did(self.host_name, f"runs /{self.group} new {_options(options)}".rstrip())
        before = {thread.id for thread in self.parent.threads}
        opened = await self.host.slash(self.parent, f"{self.group} new", **options)
        self.follow_thread(before)
        return opened

    def follow_thread(self, before: set[int]) -> None:
        """Play on in the thread the bot opened since `before` (the thread ids there were then)."""
        new = [thread for thread in self.parent.threads if thread.id not in before]
        if new:
            self.channel = new[-1]

    @property
    def line(self) -> discord.Message | None:
        """The table's line in the text channel (None when the table is played in the channel)."""
        if self.channel is self.parent:
            return None
        return next(
            (
                m
                for m in self.parent.history(viewer=self.spectator)
                if str(self.channel.id) in "".join(text for text in _raw_texts(m))
            ),
            None,
        )

    async def join(self, *names: str) -> None:
        for name in names:
            await self.lobby_button(name, "join")

    async def start(self) -> Any:
        return await self.lobby_button(self.host_name, "start")

    async def lobby_button(self, name: str, word: str) -> Any:
        """The lobby's button that does `word` (`join`, `start`…), whatever its label says in the
        table's language."""
        found = next(item for item in buttons(self.board) if payload(item) == f"t:{word}")
        self.did(name, f"clicks “{plain(found.label or '')}”")
        return await self.member(name).click(self.board, custom_id=found.custom_id)

    async def seat_everyone(self, **options: Any) -> None:
        await self.open(**options)
        await self.join(*list(self.players)[1:])
        await self.start()

    async def click(self, name: str, label: str, message: discord.Message | None = None) -> Any:
        """Click the button labelled exactly `label` (on the board unless another message is named)."""
        self.did(name, f"clicks “{label}”")
        target = message or self.board
        found = [b for b in buttons(target) if plain(b.label or "") == label]
        if len(found) == 1:  # as the player reads it (a right-to-left label carries marks)
            return await self.member(name).click(target, custom_id=found[0].custom_id)
        return await self.member(name).click(target, label=label)

    async def press(self, name: str, prefix: str, message: discord.Message | None = None) -> Any:
        """Click the one enabled button whose label starts with `prefix`."""
        target = message or self.board
        found = button(target, prefix)
        self.did(name, f"clicks “{found.label}”")
        return await self.member(name).click(target, custom_id=found.custom_id)

    async def choose(
        self, name: str, values: list[str], message: discord.Message | None = None, *, part: str = ""
    ) -> Any:
        """Pick `values` in the select whose payload starts with `part` (the only one if empty)."""
        target = message or self.board
        found = [select for select in selects(target) if payload(select).startswith(part)]
        assert len(found) == 1, [select.custom_id for select in selects(target)]
        chosen = [option.label for option in found[0].options if option.value in values]
        self.did(name, f"chooses {', '.join(f'“{label}”' for label in chosen)}")
        return await self.member(name).select(target, values, custom_id=found[0].custom_id)


def _options(options: dict[str, Any]) -> str:
    return " ".join(f"{key}:{getattr(value, 'name', value)}" for key, value in options.items())


# ---------------------------------------------------------------- acting by components


class Player:
    """Where one player finds their controls: the board, their DM, their panel (once opened)."""

    def __init__(self, table: Table, name: str) -> None:
        self.table, self.name = table, name
        self.opened: Any = None  # the "My hand" / "Open my dice" click, whose reply is the live panel
        self.step: Any = None  # a private answer to an interface step (Sushizock's Steal), for one move

    def places(self) -> list[tuple[discord.Message, Any]]:
        """Messages with this player's controls, each with who clicks it (member, or user in a DM)."""
        member = self.table.member(self.name)
        found: list[tuple[discord.Message, Any]] = [(self.table.board, member)]
        dm = self.table.dm(self.name)
        if dm is not None:
            found.append((dm, member.user))
        if self.opened is not None:
            found.append((self.opened.response.message, member))
        if self.step is not None:
            found.append((self.step.response.message, member))
        return found

    async def open_panel(self) -> None:
        """The board's "My hand" / "Open my dice" button, whatever its label says in this language."""
        hand = next(item for item in buttons(self.table.board) if payload(item) == "t:hand")
        self.table.did(self.name, f"clicks “{hand.label}”")
        opened = await self.table.member(self.name).click(self.table.board, custom_id=hand.custom_id)
        assert opened.ephemeral
        self.opened = opened

    async def play(self, game_id: str, action: Any) -> bool:
        """Play `action` by the button or menu option that carries it; False when none is shown."""
        value = action_value(game_id, action)
        self.step = None
        for step in interface_steps(game_id, action):
            await self._click(step)
        wanted = {f"a:{value}", *(f"u:{step}" for step in kit(game_id).shortcuts(action))}
        for message, who in self.places():
            for item in buttons(message):
                if payload(item) in wanted and not item.disabled:
                    self.table.did(self.name, f"clicks “{item.label}”")
                    result = await who.click(message, custom_id=item.custom_id)
                    no_refusal(result)
                    return True
            for menu in selects(message):
                chosen = [option for option in menu.options if option.value == value]
                if payload(menu) == "a" and chosen:
                    self.table.did(self.name, f"chooses “{chosen[0].label}”")
                    result = await who.select(message, [value], custom_id=menu.custom_id)
                    no_refusal(result)
                    return True
        return False

    async def _click(self, wanted: str) -> None:
        """A step of the game's own interface on the board (Sushizock: a die toggled to set aside, or
        "Steal", whose private answer holds the steals)."""
        board = self.table.board
        item = next(item for item in buttons(board) if payload(item) == wanted)
        self.table.did(self.name, f"clicks “{item.label}”")
        result = await self.table.member(self.name).click(board, custom_id=item.custom_id)
        no_refusal(result)
        if result.ephemeral:
            self.step = result


def interface_steps(game_id: str, action: Any) -> list[str]:
    """The interface clicks an action needs first (the game's testkit: Sushizock's dice toggled to set
    aside, its Steal button)."""
    return [f"u:{step}" for step in kit(game_id).interface_steps(action)]


def no_refusal(result: Any) -> None:
    """A click was taken: an ephemeral answer without controls is a refusal."""
    response = getattr(result, "response", None)
    text = getattr(response, "content", None) or ""
    assert not (result.ephemeral and text and not getattr(response, "components", None)), text


# ---------------------------------------------------------------- whole games


async def play_a_move(players: dict[int, Player], ctx: Any) -> None:
    """Each seat owing a move plays the table's own choice for it, else any move its controls offer."""
    game = ctx.game
    for seat in sorted(game.to_move(ctx.state)):
        player = players[seat]
        choices = [game.default_action(ctx.state, seat), *game.legal_actions(ctx.state, seat)]
        choices.sort(key=kit(game.id).later)  # Sushizock: a take ends the turn, for a shorter game
        for action in choices:
            if await player.play(game.id, action):
                break
        else:
            raise AssertionError(f"no control for any move of seat {seat}: {choices[:5]}")
        ctx = await player.table.live()
        if ctx is None:
            return


async def play_to_the_end(table: Table, players: dict[int, Player]) -> None:
    """Every seat played by its player's controls (turn by turn) until the table closes."""
    for _ in range(400):
        ctx = await table.live()
        if ctx is None:
            return
        await play_a_move(players, ctx)
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------- reading a card's parts


def card_texts(message: Any) -> list[str]:
    """Each text display of a message's card in reading order, without the bidi marks."""
    return [plain(item.content) for item in _tree(message) if isinstance(item, discord.TextDisplay)]


def heading_of(message: Any) -> str:
    """A card's heading (its `### ` lines, the title an embed had), without the `### `."""
    lines = [embed.title or "" for embed in message.embeds]
    for text in card_texts(message):
        lines += [line[4:] for line in text.splitlines() if line.startswith("### ")]
    return plain("\n".join(line for line in lines if line))


def body_lines(message: Any) -> list[str]:
    """The lines of a card's first text (its content and what an embed's description said), without
    its heading and author lines."""
    texts = card_texts(message)
    if not texts:
        return []
    return [line for line in texts[0].splitlines() if not line.startswith(("### ", "-# "))]


def field_of(message: Any, part: str) -> str:
    """The value under the first part of a card (`**name**` over its lines, as an embed's field was)
    whose name contains `part`."""
    for text in card_texts(message):
        lines = text.splitlines()
        for at, line in enumerate(lines):
            if _part_name(line) is not None and part in (_part_name(line) or ""):
                value = []
                for later in lines[at + 1 :]:
                    if _part_name(later) is not None:
                        break
                    value.append(later)
                return "\n".join(value)
    raise AssertionError(f"no part {part!r} in {card_texts(message)}")


def _part_name(line: str) -> str | None:
    """The name of a card's part when `line` is one (`**name**` alone on its line)."""
    stripped = line.strip()
    if len(stripped) > 4 and stripped.startswith("**") and stripped.endswith("**"):
        inner = stripped[2:-2]
        if "**" not in inner:
            return inner
    return None


def footer_of(message: Any) -> str:
    """A card's small print (its `-# ` lines after the first text), without the `-# `."""
    lines = [embed.footer.text or "" for embed in message.embeds if embed.footer]
    for text in card_texts(message)[1:]:
        lines += [line[3:] for line in text.splitlines() if line.startswith("-# ")]
    return plain("\n".join(line for line in lines if line))


def action_rows(message: Any) -> list[discord.ActionRow]:
    """The rows of controls of a message, wherever its card holds them (a reader scrolls past each)."""
    return [item for item in _tree(message) if isinstance(item, discord.ActionRow)]


def part_texts(message: Any) -> list[str]:
    """A card's texts between its first text and its small print: what an embed's fields (and a
    card's sections) said; empty when the card shows only its head."""
    return [
        text
        for text in card_texts(message)[1:]
        if not all(line.startswith("-# ") for line in text.splitlines() if line.strip())
    ]


def text_without_small_print(message: Any) -> str:
    """A card's words (`text_of`) without its `-# ` lines (its small print, where a footer went)."""
    return "\n".join(line for line in text_of(message).splitlines() if not line.startswith("-# "))


def picture_urls(message: Any) -> list[str]:
    """The addresses of a card's pictures (its media galleries' items; an `attachment://` one as Discord
    resolves it: the attachment's own URL)."""
    return [
        picture.media.url
        for item in _tree(message)
        if isinstance(item, discord.MediaGalleryComponent)
        for picture in item.items
    ]
