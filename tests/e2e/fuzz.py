"""The fuzz suite's machinery: scenes at any moment of any game, what Discord may deliver, and the
checker every generated interaction goes through.

A `Scene` is a fresh guild and channel (one per hypothesis example, so examples do not share a table)
with a table of one game at a drawn moment: no table, a lobby, a game some moves in, a cancelled or a
finished one. Its members: ann (the host), ben and cat (seated; cat's DMs are closed, so she plays on
the "My hand" panel), dan (a stranger) and eve (an admin: Manage Server and Manage Channels).

`Checker.run` wraps one interaction and fails, naming what was sent, unless:

1. the interaction got exactly one answer (one callback), not left "thinking…", and answered before
   any other request the bot made for it (slow work comes after the answer: Discord's 3 s are spent
   on the way there, and simcord refuses an answer after its virtual 3 s);
2. every request the bot made meanwhile is within Discord's payload limits (`cogs.kit.limits.problems`);
3. no ERROR was logged and simcord caught no error;
4. every table it could touch is unchanged, or advanced by exactly one move of the member who acted,
   legal in the state before (the engine replays it to the very state stored), or one lobby change
   or new table of theirs.

Clocks: as in the chaos suite, the games' real-time clocks run `SCALE` times slower, so nothing
fires in real time while simcord settles; a step that waits moves the virtual clock itself.

Profiles (hypothesis): `SUSHIBAR_FUZZ=long` explores `LONG` times more examples, freshly random
(for a local run); by default (CI) each test runs its fixed number of derandomized examples.
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from simcord import Env

from bench import simcord_private as private
from cogs.kit import limits
from cogs.tables import tables_of
from cogs.tables.lobby import LOBBY_MOVES
from cogs.tables.pings import MAX_PING_DELAY
from rules.registry import GAMES
from tests.e2e import transcript
from tests.e2e.chaos import ErrorRecords, clickables
from tests.games import kit
from tests.seeds import TableSeeds

SCALE = 30
SETTLE = 3.0  # a Kaiten picture is drawn within it on a busy machine
LONG = 25
EARLIER = 1
"""Requests of the bot allowed before an interaction's answer: one, for background work of an earlier
interaction that wakes meanwhile (a coalesced board edit); the answer's own way holds no request."""
MEMBERS = ("ann", "ben", "cat", "dan", "eve")
SEATED = ("ann", "ben", "cat")

PROFILE = os.environ.get("SUSHIBAR_FUZZ", "ci").strip() or "ci"
_COMMON: dict[str, Any] = {
    "deadline": None,
    "database": None,
    "print_blob": True,
    "suppress_health_check": list(HealthCheck),  # one bot serves every example; fixtures are per test
}
settings.register_profile("fuzz-ci", derandomize=True, **_COMMON)
settings.register_profile("fuzz-long", derandomize=False, **_COMMON)


def fuzz(examples: int) -> settings:
    """A test's hypothesis settings: `examples` fixed ones in CI, `LONG` times more, random, when
    SUSHIBAR_FUZZ=long."""
    if PROFILE == "long":
        return settings(settings.get_profile("fuzz-long"), max_examples=examples * LONG)
    return settings(settings.get_profile("fuzz-ci"), max_examples=examples)


GENERATED: list[int] = [0]
"""How many interactions the checker has seen in this process (the suite prints it)."""

# ---------------------------------------------------------------- what players type

# Text the transcript's word checks would take for the bot's own mistake when a reply quotes it
# ("{x}", "<x>", "/word", a Python repr, "1 points") is left out: those checks run on every e2e test.
_UNSAFE = re.compile(r"[{}<>/]|\b(?:None|True|False)\b|\b1 [a-z]")
FRAGMENTS = (
    "**", "__", "~~", "||", "`", "```", "> ", "# ", "-# ", "[x](https:", "\\", "@everyone", "@here",
    "\u200b", "\u200d", "\u2068", "\u202e", "\u200f", "\ufeff", "e\u0301", "ﷺ", "سلام", "שלום", "۴",
    "٣", "🍣", "🥢", "👩‍👩‍👧‍👦", "🏳️‍🌈", "\ud800", "\udfff", "\n", "\t", "  ", "C4", "4c", "sushi", "kaiten",
    "grey", "1-4+4-7", "2d6", "ＡＢＣ", "İ", "ß", "Ω", "Z̷͉̈", "\x7f", "%s", "'", '"',
)  # fmt: skip
MENTIONS = ("<@1>", "<@&1>", "<#1>", "<@!123456789012345678>")


def _safe(text: str) -> bool:
    without = text
    for mention in MENTIONS:
        without = without.replace(mention, "")
    if _UNSAFE.search(without):
        return False
    return not transcript.problems([transcript.Line("", "", text, text)], {})


_piece = st.one_of(
    st.sampled_from(FRAGMENTS),
    st.sampled_from(MENTIONS),
    st.text(st.characters(exclude_characters="{}<>/"), min_size=1, max_size=8),
)


@st.composite
def typed(draw: st.DrawFn, least: int = 1, most: int = 6000) -> str:
    """What a client may send in a string option: any Unicode of any length Discord lets through
    (6,000 characters: Discord's clients alone keep to an option's max_length)."""
    size = draw(st.one_of(st.integers(least, min(most, 40)), st.sampled_from([most, min(most, 2100)])))
    parts: list[str] = []
    while sum(map(len, parts)) < size:
        parts.append(draw(_piece))
        if len(parts) > 12:  # long text: the drawn pieces repeated, to stay cheap to generate
            parts = parts * (size // max(1, sum(map(len, parts))) + 1)
            break
    text = "".join(parts)[:size]
    if len(text) < least:
        text += "x" * (least - len(text))
    return text if _safe(text) else "x" * len(text)


def pick(data: st.DataObject, choices: list[Any], label: str) -> Any:
    """One of `choices` (None when there is none), which depend on what the bot did: drawn by index,
    always, so that hypothesis sees the same draws whatever the list holds when an example runs again."""
    index = data.draw(st.integers(0, 2**16), label=label)
    return choices[index % len(choices)] if choices else None


# ---------------------------------------------------------------- the scene


@dataclass(frozen=True)
class Moment:
    """When the interaction comes: which game, how far its table got, in which language."""

    game_id: str
    stage: str  # "none", "lobby", "playing", "cancelled", "finished"
    moves: int = 0
    language: str | None = None
    threads: bool = True  # the server's default: each table in a thread of its own


REAL_TIME = "sushidice"
"""Its duels run on clocks of seconds that simcord fires in real time once that much time has passed,
whichever example runs then: its tables are fuzzed before they start (its own suites play it)."""
STAGES = ("none", "lobby", "playing", "playing", "playing", "cancelled")


def _stage(game_id: str, stage: str) -> str:
    return "lobby" if game_id == REAL_TIME and stage == "playing" else stage


moments = st.builds(
    lambda game_id, stage, **more: Moment(game_id, _stage(game_id, stage), **more),
    game_id=st.sampled_from(sorted(GAMES)),
    stage=st.sampled_from(STAGES),
    moves=st.integers(0, 12),
    language=st.sampled_from([None, None, "de", "fa"]),
    threads=st.booleans(),
)


def slow_clocks(env: Env, monkeypatch: Any, seeds: TableSeeds) -> None:
    """The games' real-time clocks `SCALE` times slower; simcord settles within `SETTLE` s; every
    example deals alike (`seeds`: the source the test's bot was built with)."""
    env.settle_timeout = SETTLE
    seeds.fix(4242)
    for game_id in GAMES:
        for module, name, value in kit(game_id).slowed(SCALE):
            monkeypatch.setattr(module, name, value)
    for cog in tables_of(env.bot).games.values():
        monkeypatch.setattr(cog, "computer_delay", cog.computer_delay * SCALE)
        monkeypatch.setattr(cog, "board_refresh_interval", cog.board_refresh_interval * SCALE)


def unbounded_options(env: Env) -> None:
    """Discord's clients keep to an option's max_length, Discord itself does not: every string option
    may carry up to 6,000 characters (its registered copy in simcord says so)."""
    for commands in env.backend.commands.values():
        for command in commands.values():
            _unbound(command)


def _unbound(data: dict[str, Any]) -> None:
    for option in data.get("options") or []:
        if option.get("type") == 3 and "max_length" in option:
            option["max_length"] = 6000
        _unbound(option)


class Scene:
    """One guild, its channel and members, and a table at a moment."""

    def __init__(self, env: Env, moment: Moment, beside: Scene | None = None) -> None:
        """A new guild with its members, or (`beside`) another channel of that scene's guild."""
        self.env = env
        self.moment = moment
        self.tables = tables_of(env.bot)
        if beside is not None:
            self.guild, self.members = beside.guild, beside.members
            self.channel = self.guild.create_text_channel("sushi-too")
            self.cog = self.tables.games[moment.game_id]
            return
        self.guild = env.create_guild("Fuzz")
        self.channel = self.guild.create_text_channel("sushi")
        admins = self.guild.create_role(
            "Admins", permissions=discord.Permissions(manage_guild=True, manage_channels=True)
        )
        self.members: dict[str, Any] = {}
        for name in MEMBERS:
            user = env.create_user(name, bot=name == "cat")  # a "bot" user refuses DMs (50007)
            roles = [admins] if name == "eve" else []
            self.members[name] = self.guild.add_member(user, roles=roles)
        self.cog = self.tables.games[moment.game_id]

    @property
    def group(self) -> str:
        return self.cog.group

    async def build(self) -> None:
        moment = self.moment
        eve = self.members["eve"]
        # Pings after the longest grace: simcord fires a parked timer once that much real time has
        # passed, and 20 s of a long run would ping whichever example runs then.
        await eve.slash(self.channel, "settings pings", delay=MAX_PING_DELAY)
        if moment.language:
            await eve.slash(self.channel, "settings language", choose=moment.language)
        if not moment.threads:
            await eve.slash(self.channel, "settings tables", where="channel")
        if moment.stage == "none":
            return
        ann = self.members["ann"]
        await ann.slash(self.channel, f"{self.group} new")
        for name in ("ben", "cat"):
            await self.members[name].slash(self.channel, f"{self.group} join")
        if moment.stage == "cancelled":
            await ann.slash(self.channel, f"{self.group} cancel")
        if moment.stage in ("lobby", "cancelled"):
            return
        await ann.slash(self.channel, f"{self.group} start")
        for _ in range(moment.moves):
            if not await self.play_one():
                break

    async def play_one(self) -> bool:
        """One move by the machinery's own path (not a Discord interaction): the table's default move
        for the first seat to move. False once no game runs."""
        ctx = await self.tables.context(self.where)
        if ctx is None or ctx.state is None or ctx.record.status != "playing":
            return False
        to_move = sorted(ctx.game.to_move(ctx.state))
        humans = [seat for seat in to_move if ctx.record.seats[seat].human]
        if not humans:
            return False
        seat = humans[0]
        action = ctx.game.default_action(ctx.state, seat)
        # In the bot's scope, as an event the bot dispatched runs: simcord then tracks the work the
        # move starts, a board picture drawn in a worker thread too, and settling waits for it,
        # instead of its edit landing inside the next interaction.
        with private.bot_scope(self.env):
            await self.tables.act(self.where, ctx.record.seats[seat].user_id, action)
        await self.env.settle()
        return True

    @property
    def channels(self) -> list[int]:
        """The scene's channel and the threads opened from it (where its tables are played)."""
        backend = self.env.backend
        threads = [
            channel_id
            for channel_id, channel in backend.channels.items()
            if getattr(channel, "parent_id", None) == self.channel.id
        ]
        return [self.channel.id, *sorted(threads)]

    @property
    def where(self) -> int:
        """The channel the scene's latest table is played in: its thread, else the channel."""
        return self.channels[-1]

    def handle(self, channel_id: int) -> Any:
        """simcord's handle of one of the scene's channels (its threads included), to act in."""
        from simcord import ChannelHandle

        return ChannelHandle(self.env, self.guild, self.env.backend.get_channel(channel_id))

    def board(self) -> Any:
        """The newest message with components where the scene's table is played (its board)."""
        messages = self.env.backend.messages.get(self.where, {}).values()
        from simcord.results import ResponseMessage

        return ResponseMessage(self.env, [m for m in messages if m.components][-1])

    async def close(self) -> None:
        """The example is over: its table is cancelled, so that no later example's clock moves it."""
        ctx = await self.tables.context(self.where)
        if ctx is not None:
            host = next(name for name, member in self.members.items() if member.id == ctx.record.host_id)
            await self.members[host].slash(
                self.channel, f"{self.tables.games[ctx.record.game_id].group} cancel"
            )

    def clickables(self, name: str, channels: list[int]) -> list[tuple[Any, dict[str, Any], bool]]:
        """(stored message, component, in a DM) of every enabled component `name` can see."""
        return clickables(self.env, self.members[name], channels)


# ---------------------------------------------------------------- crossing and crafting


async def crossed(actor: Any, snapshot: Any, data: dict[str, Any]) -> Any:
    """A press on a message as the client last showed it: the bot may have edited it since (the
    press and the edit crossed on the way). simcord clicks only what a message shows now, so this
    goes through its own component dispatch with the old copy (simcord 3.2 internals)."""
    from simcord.actors import _component_interaction

    return await _component_interaction(actor, snapshot, data)


async def wait(env: Env, seconds: float) -> None:
    """The virtual clock moves: the table's time-outs and computer players may play meanwhile."""
    settle, env.settle_timeout = env.settle_timeout, max(env.settle_timeout, 30.0)
    try:
        await env.advance_time(seconds)
    finally:
        env.settle_timeout = settle


def snapshot(env: Env, message: Any) -> Any:
    """The stored message as it is now, to press later as `crossed` does."""
    return copy.deepcopy(env.backend.get_message(message.channel_id, message.id))


async def crafted(env: Env, channel_id: int, custom_ids: list[str], options: list[str] | None = None) -> Any:
    """A message of the bot's own with components it does not make any more, as an older release or a
    message from before a change of format left them; returns the stored message."""
    view = discord.ui.View(timeout=None)
    for index, custom_id in enumerate(custom_ids):
        if options is not None and index == 0:
            select: discord.ui.Select[Any] = discord.ui.Select(
                custom_id=custom_id,
                options=[discord.SelectOption(label=f"#{n}", value=v) for n, v in enumerate(options)],
            )
            view.add_item(select)
        else:
            view.add_item(discord.ui.Button(label=f"#{index}", custom_id=custom_id))
    # Sent as a bare payload: a View sent with channel.send would be stored as this process's own.
    with discord.http.handle_message_parameters(view=view) as params:
        sent = await env.bot.http.send_message(channel_id, params=params)
    await env.settle()
    return env.backend.get_message(channel_id, int(sent["id"]))


# ---------------------------------------------------------------- the checker


@dataclass
class Snapshot:
    table_id: int | None
    version: int
    status: str
    state: str | None
    seats: tuple[int, ...]


@dataclass
class Checker:
    env: Env
    errors: ErrorRecords
    found: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.tables = tables_of(self.env.bot)
        self.error_cursor = self.env.error_cursor

    async def tables_of(self, channels: list[int]) -> dict[int, Snapshot | None]:
        found: dict[int, Snapshot | None] = {}
        for channel in channels:
            record = await self.tables.store.last_table(channel)
            found[channel] = (
                None
                if record is None
                else Snapshot(
                    record.id,
                    record.version,
                    record.status,
                    json.dumps(record.state, sort_keys=True) if record.state is not None else None,
                    tuple(seat.user_id for seat in record.seats),
                )
            )
        return found

    async def run(
        self, what: str, actor_id: int, channels: list[int], act: Callable[[], Awaitable[Any]]
    ) -> Any:
        """One interaction, checked; `channels` are the tables it might change."""
        env = self.env
        transcript.player_did(env, what)
        before = await self.tables_of(channels)
        cursor = len(env.http_requests)
        result = await act()
        GENERATED[0] += 1
        record = private.interaction_record(result)
        problems = self.answer_problems(record, env.http_requests[cursor:])
        problems += self.error_problems()
        problems += await self.state_problems(actor_id, before, await self.tables_of(channels))
        if problems:
            raise AssertionError(f"{what}:\n  " + "\n  ".join(problems))
        return result

    def answer_problems(self, record: Any, requests: list[Any]) -> list[str]:
        found: list[str] = []
        callback = re.compile(rf"/interactions/{record.id}/[^/]+/callback")
        answers = [index for index, request in enumerate(requests) if callback.fullmatch(request.path)]
        if len(answers) != 1:
            found.append(f"answered {len(answers)} times (exactly once, within 3 s)")
        elif answers[0] > EARLIER:
            earlier = ", ".join(f"{r.method} {r.path}" for r in requests[: answers[0]])
            found.append(f"answered only after {answers[0]} other requests ({earlier[:300]})")
        if not record.responded:
            found.append("no answer reached Discord (refused, or too late)")
        if record.loading:
            found.append("deferred and never completed (“thinking…” for ever)")
        for request in requests:
            if request.method in ("POST", "PATCH") and isinstance(request.json, dict):
                for problem in limits.problems(request.json):
                    found.append(f"{request.method} {request.path}: {problem}")
        return found

    def error_problems(self) -> list[str]:
        found = [f"the bot logged an error: {r.getMessage()} {r.exc_info!r}" for r in self.errors.records]
        self.errors.records.clear()
        caught = self.env.errors_since(self.error_cursor)
        self.error_cursor = self.env.error_cursor
        found += [f"simcord caught {error!r}" for error in caught]
        return found

    async def state_problems(
        self, actor: int, before: dict[int, Snapshot | None], after: dict[int, Snapshot | None]
    ) -> list[str]:
        found: list[str] = []
        for channel, was in before.items():
            now = after[channel]
            if now is None or (
                was is not None and now.table_id == was.table_id and now.version == was.version
            ):
                if now is not None and was is not None and now.state != was.state:
                    found.append(f"channel {channel}: the state changed without a new version")
                continue
            if was is None or now.table_id != was.table_id:
                if now.version > 1 or now.seats[:1] != (actor,):
                    found.append(f"channel {channel}: a new table not opened by the member who acted")
                continue
            found += await self._moves(channel, actor, was, now)
        return found

    async def _moves(self, channel: int, actor: int, was: Snapshot, now: Snapshot) -> list[str]:
        """The versions a table went through since `was`: the first is the actor's own move or lobby
        change; any after it, moves the table made at once for computer seats (a stand-in for a player
        who left moves without waiting). Game moves must be legal and lead to the state stored."""
        log = [
            entry for entry in await self.tables.store.actions(was.table_id or 0) if entry[0] > was.version
        ]
        if not log:
            return [f"channel {channel}: a new version with nothing logged"]
        _, seat, first = log[0]
        if first.get("type") in LOBBY_MOVES:
            if first.get("user") != actor:
                return [f"channel {channel}: a lobby change by someone else"]
        elif seat is None or was.seats[seat] != actor or "by" in first:
            return [f"channel {channel}: the first move is seat {seat}'s {first}, not the actor's"]
        others = [entry for entry in log[1:] if entry[2].get("by") != "computer"]
        if others:
            return [f"channel {channel}: {len(log)} moves from one interaction: {[e[2] for e in log]}"]
        moves = [(seat, action) for _, seat, action in log if action.get("type") not in LOBBY_MOVES]
        if was.state is None or now.state is None or len(moves) != len(log):
            return []  # a lobby change (a start deals from a seed): nothing to replay
        record = await self.tables.store.last_table(channel)
        assert record is not None
        game = GAMES[record.game_id]
        state = game.load(json.loads(was.state))
        for mover, action in moves:
            assert mover is not None
            move = game.decode_action({key: value for key, value in action.items() if key != "by"})
            legal = game.legal_actions(state, mover)
            if move not in legal and kit(game.id).as_listed(move) not in legal:
                return [f"channel {channel}: {move!r} was no legal move of seat {mover}"]
            game.apply(state, mover, move)
        if json.dumps(game.dump(state), sort_keys=True) != now.state:
            return [f"channel {channel}: the stored state is not the one the logged moves lead to"]
        return []
