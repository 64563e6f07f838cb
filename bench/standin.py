"""A minimal Discord stand-in for benchmarks: HTTP API v10 and Gateway, enough for an unmodified discord.py.

    stand_in = StandIn(); port = await stand_in.start()
    guild = stand_in.add_guild("bench 1", ["alice", "bob"])      # before the bot connects
    # the bot's process: discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10" and
    # discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    await stand_in.connected(); record = await stand_in.slash(guild, guild.members[0], "sushigo", "new")

bench/load_process.py drives it (the bot in another process); one aiohttp server, no more than clicks need:

- Gateway (`/gateway`): HELLO (op 10); IDENTIFY (op 2) is answered by READY (every guild
  unavailable) and a GUILD_CREATE per guild (its text channel, @everyone and the bot's role, the
  bot's and the players' members); a heartbeat (op 1) by op 11. Frames are uncompressed TEXT:
  discord.py asks for zlib-stream (or zstd) but `DiscordWebSocket.received_message` decompresses
  only binary frames and parses text frames as they are.
- REST: `gateway/bot`, `users/@me`, `oauth2/applications/@me`, the application's commands (a sync
  is kept and echoed with ids, which slash events then carry), interaction callbacks (JSON or
  multipart with `payload_json`; 204 unless `with_response` asks for the callback object), the
  interaction's webhook (`@original`, followups), channel messages (send, edit, delete, fetch), DM
  channels (`users/@me/channels`), users, threads and channel edits; anything else gets 200 `{}`
  (GET) or 204, logged once per route.
- Every message the bot sent or edited is kept by id, shaped as Discord answers it (snowflakes,
  channel_id, guild_id, author = the bot, timestamps, embeds, components numbered with their `id`,
  flags, attachments); a click carries the stored message.
- `slash` and `click` dispatch INTERACTION_CREATE (op 0) and return an `Interaction` record; its
  acknowledgement (`acked`, perf_counter) is the arrival of its first callback POST. As on
  Discord, a callback after 3 s is refused with 10062 and a second one with 40060.
- Requests are counted by kind (`KINDS`: answer, followup, board edit, message send, dm, other)
  and by route in `counts` and `routes`; `reset_counts()` starts a window.

Liberties taken vs Discord: no rate limits, no validation of what the bot sends (limits are the
bot's own tests' business) and no permission checks; no presences, members intent or resume;
a thread is made but never announced; files are kept as name and size, with made-up URLs, and
a card's `attachment://` references are left as sent; tokens live for the whole run.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import BodyPartReader, WSMsgType, web

log = logging.getLogger("standin")

DISCORD_EPOCH_MS = 1_420_070_400_000
LATE = 3.0  # Discord's window for the first answer to an interaction
EPHEMERAL, LOADING, COMPONENTS_V2 = 1 << 6, 1 << 7, 1 << 15
# @everyone may read, write, embed, attach, react and use commands and threads; the bot also manages.
EVERYONE = sum(1 << bit for bit in (6, 10, 11, 14, 15, 16, 18, 31, 35, 38))
BOT_ROLE = EVERYONE | 1 << 13 | 1 << 34
KINDS = ("answer", "followup", "board edit", "message send", "dm", "other")

Json = dict[str, Any]
Files = list[tuple[str, int]]  # a multipart request's files: name, size
JSON_HEADERS = {"Content-Type": "application/json"}  # exactly: discord.py compares the whole header

# Payload templates in Discord's shape: a use copies the top level and sets its own fields (nested
# empty lists are shared and never changed in place: an edit assigns new ones).
GUILD = json.loads("""{"icon": null, "splash": null, "discovery_splash": null, "banner": null,
 "description": null, "afk_channel_id": null, "afk_timeout": 300, "verification_level": 0,
 "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0, "premium_tier": 0,
 "premium_subscription_count": 0, "preferred_locale": "en-US", "system_channel_id": null,
 "system_channel_flags": 0, "rules_channel_id": null, "public_updates_channel_id": null,
 "vanity_url_code": null, "application_id": null, "max_members": 500000, "features": [], "emojis": [],
 "stickers": [], "large": false, "unavailable": false, "threads": [], "presences": [], "voice_states": [],
 "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
 "premium_progress_bar_enabled": false, "nsfw_level": 0}""")
TEXT_CHANNEL = json.loads("""{"type": 0, "name": "sushi", "position": 0, "permission_overwrites": [],
 "parent_id": null, "topic": null, "nsfw": false, "rate_limit_per_user": 0, "last_message_id": null,
 "flags": 0}""")
ROLE = json.loads("""{"color": 0, "hoist": false, "mentionable": false, "flags": 0, "icon": null,
 "unicode_emoji": null, "managed": false}""")
MEMBER = json.loads("""{"nick": null, "avatar": null, "premium_since": null, "deaf": false, "mute": false,
 "pending": false, "flags": 0, "communication_disabled_until": null}""")
USER = json.loads("""{"discriminator": "0", "avatar": null, "bot": false, "public_flags": 0, "flags": 0}""")
MESSAGE = json.loads("""{"content": "", "edited_timestamp": null, "tts": false, "mention_everyone": false,
 "mentions": [], "mention_roles": [], "attachments": [], "embeds": [], "components": [], "pinned": false,
 "type": 0}""")
INTERACTION = json.loads("""{"version": 1, "locale": "en-US", "entitlements": [],
 "attachment_size_limit": 26214400}""")


def iso() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(eq=False)
class User:
    id: int
    payload: Json
    dm: Channel | None = None  # opened by the bot's POST /users/@me/channels


@dataclass(eq=False)
class Channel:
    id: int
    payload: Json
    guild: Guild | None = None
    messages: list[int] = field(default_factory=list)  # ids in order of posting


@dataclass(eq=False)
class Guild:
    id: int
    channel: Channel
    members: list[User]
    payload: Json  # its GUILD_CREATE
    member_payloads: dict[int, Json] = field(default_factory=dict)  # user id -> member, with permissions


@dataclass(eq=False)
class Interaction:
    id: int
    token: str
    type: int  # 2 slash command, 3 component
    user: User
    channel: Channel
    sent: float = 0.0  # perf_counter when dispatched
    message: Json | None = None  # a component's message
    acked: float | None = None
    answer: int | None = None  # the callback's type: 4 message, 5/6 deferred, 7 update
    flags: int = 0
    components: bool = False  # the answer carried components
    original: Json | None = None  # the response message (4, 5), else the clicked message
    late: bool = False  # a callback came after LATE (refused)
    answered: asyncio.Event = field(default_factory=asyncio.Event)

    async def wait_answered(self, what: str) -> Interaction:
        """This interaction once answered (any answer: an ephemeral line may be a confirmation)."""
        try:
            await asyncio.wait_for(self.answered.wait(), 30)
        except TimeoutError:
            raise RuntimeError(f"{what}: no answer within 30 s") from None
        return self

    @property
    def refused(self) -> bool:
        """The bot's refusal: an ephemeral one-line message (type 4, flags 64, no components)."""
        return self.answer == 4 and bool(self.flags & EPHEMERAL) and not self.components


def walk(components: list[Json]) -> Iterator[Json]:
    """Every component of a message in reading order, nested ones (a card's) included."""
    for item in components:
        yield item
        yield from walk(item.get("components") or [])
        if item.get("accessory") is not None:
            yield from walk([item["accessory"]])


def number_components(components: list[Json]) -> None:
    """Discord numbers every component of a message (V2 cards included) where no id was given."""
    for number, item in enumerate(walk(components), start=1):
        item.setdefault("id", number)


class StandIn:
    """The stand-in's world, server and players (the module docstring says what it speaks)."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self.bot = self.new_user("Sushi Bar", bot=True)
        self.app_id = self.bot.id
        self.owner = self.new_user("owner")
        self.guilds: list[Guild] = []
        self.channels: dict[int, Channel] = {}
        self.users: dict[int, User] = {}
        self.messages: dict[int, Json] = {}
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.commands: dict[str, Json] = {}  # name -> the synced command, with its id
        self.counts: Counter[str] = Counter()
        self.routes: Counter[str] = Counter()
        self.unknown: set[str] = set()
        self.last_request = time.perf_counter()
        self.port = 0
        self._ws: web.WebSocketResponse | None = None
        self._sequence = 0
        self._identified = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._static: dict[str, Json] = {}  # path -> what a GET of it answers

    # ------------------------------------------------------------ the world

    def snowflake(self) -> int:
        return (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22 | next(self._ids) % (1 << 22)

    def new_user(self, name: str, *, bot: bool = False) -> User:
        user_id = self.snowflake()
        payload = {**USER, "id": str(user_id), "username": name, "bot": bot}
        return User(user_id, payload | {"global_name": None if bot else name})

    def add_guild(self, name: str, players: list[str]) -> Guild:
        """A guild with one text channel and `players` as members (create them before the bot connects)."""
        guild_id, channel_id, role_id = self.snowflake(), self.snowflake(), self.snowflake()
        channel = Channel(channel_id, {**TEXT_CHANNEL, "id": str(channel_id), "guild_id": str(guild_id)})
        members = [self.new_user(player) for player in players]
        roles = [
            {**ROLE, "id": str(guild_id), "name": "@everyone", "permissions": str(EVERYONE), "position": 0},
            {**ROLE, "id": str(role_id), "name": "Sushi Bar", "permissions": str(BOT_ROLE), "position": 1},
        ]
        roles[1]["managed"] = True
        joined = iso()
        member_list = [
            {**MEMBER, "user": u.payload, "roles": [], "joined_at": joined} for u in [self.bot, *members]
        ]
        member_list[0]["roles"] = [str(role_id)]  # the bot's own role
        payload: Json = {**GUILD, "id": str(guild_id), "name": name, "owner_id": str(self.owner.id)}
        payload |= {"roles": roles, "member_count": len(member_list), "joined_at": joined}
        payload |= {"members": member_list, "channels": [channel.payload]}
        guild = channel.guild = Guild(guild_id, channel, members, payload)
        self.channels[channel_id] = channel
        for user, member in zip(members, member_list[1:], strict=True):
            self.users[user.id] = user
            guild.member_payloads[user.id] = {**member, "permissions": str(EVERYONE)}
        self.guilds.append(guild)
        return guild

    def dm_channel(self, user: User) -> Channel:
        if user.dm is None:
            channel_id = self.snowflake()
            payload = {"id": str(channel_id), "type": 1, "last_message_id": None, "flags": 0}
            user.dm = self.channels[channel_id] = Channel(
                channel_id, payload | {"recipients": [user.payload]}
            )
        return user.dm

    def latest(self, channel: Channel | None) -> Json | None:
        """The newest public message of the bot in `channel` carrying components (a board, a hand)."""
        for message_id in reversed(channel.messages if channel is not None else []):
            message = self.messages.get(message_id)
            if message is not None and message["components"] and not message["flags"] & EPHEMERAL:
                return message
        return None

    # ------------------------------------------------------------ the server

    async def start(self) -> int:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        api, add = "/api/v10", app.router.add_route
        add("GET", "/gateway", self.gateway)
        for path in ("/gateway/bot", "/gateway", "/users/@me", "/oauth2/applications/@me"):
            add("GET", api + path, self.static)
        add("*", api + "/applications/{app}/commands", self.sync)
        add("POST", api + "/interactions/{id}/{token}/callback", self.callback)
        add("POST", api + "/webhooks/{app}/{token}", self.followup)
        add("*", api + "/webhooks/{app}/{token}/messages/{message}", self.webhook_message)
        add("POST", api + "/channels/{channel}/messages", self.send)
        add("*", api + "/channels/{channel}/messages/{message}", self.channel_message)
        add("POST", api + "/users/@me/channels", self.open_dm)
        add("GET", api + "/users/{user}", self.user)
        add("POST", api + "/channels/{channel}/threads", self.thread)
        add("*", api + "/channels/{channel}", self.channel)
        add("*", "/{tail:.*}", self.other)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.port = self._runner.addresses[0][1]
        me = self.bot.payload | {"verified": True, "mfa_enabled": False}
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        gateway = {"url": f"ws://127.0.0.1:{self.port}/gateway", "shards": 1, "session_start_limit": limit}
        application = {"id": str(self.app_id), "name": "Sushi Bar", "icon": None, "description": ""}
        application |= {"bot_public": True, "bot_require_code_grant": False, "owner": self.owner.payload}
        application |= {"verify_key": "0" * 64, "flags": 0, "bot": me, "interactions_endpoint_url": None}
        self._static = {f"{api}/gateway/bot": gateway, f"{api}/gateway": gateway, f"{api}/users/@me": me}
        self._static[f"{api}/oauth2/applications/@me"] = application
        return self.port

    async def stop(self) -> None:
        if self._ws is not None and not self._ws.closed:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def reset_counts(self) -> None:
        self.counts.clear()
        self.routes.clear()

    def _count(self, request: web.Request, kind: str) -> None:
        self.last_request = time.perf_counter()
        self.counts[kind] += 1
        resource = request.match_info.route.resource
        self.routes[f"{request.method} {resource.canonical if resource else request.path}"] += 1

    def _kind(self, request: web.Request, guild_kind: str) -> Channel | None:
        """Count a channel route: `dm` in a DM channel, else `guild_kind`; the channel, if known."""
        channel = self.channels.get(int(request.match_info["channel"]))
        self._count(request, "dm" if channel is not None and channel.guild is None else guild_kind)
        return channel

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        return web.Response(body=json.dumps(data).encode(), status=status, headers=JSON_HEADERS)

    @staticmethod
    def _error(status: int, code: int, message: str) -> web.Response:
        return StandIn._json({"code": code, "message": message}, status)

    @staticmethod
    async def _body(request: web.Request) -> tuple[Any, Files]:
        """A request's JSON, and its files when it is multipart with `payload_json`."""
        if not request.can_read_body:
            return {}, []
        if not request.content_type.startswith("multipart/"):
            raw = await request.read()
            return (json.loads(raw) if raw else {}), []
        body: Json = {}
        files: Files = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if isinstance(part, BodyPartReader):
                data = await part.read()
                if part.name == "payload_json":
                    body = json.loads(data)
                else:
                    files.append((part.filename or "file", len(data)))
        return body, files

    # ------------------------------------------------------------ messages

    def new_message(
        self, channel: Channel, body: Json, files: Files, *, by: Interaction | None = None, flags: int = 0
    ) -> Json:
        """A message of the bot's in `channel` (`by`: an interaction's answer or followup)."""
        message_id = self.snowflake()
        message: Json = {**MESSAGE, "id": str(message_id), "channel_id": str(channel.id), "timestamp": iso()}
        message["author"] = self.bot.payload
        message["flags"] = (body.get("flags") or 0) & (EPHEMERAL | COMPONENTS_V2 | 4 | 4096) | flags
        if channel.guild is not None:
            message["guild_id"] = str(channel.guild.id)
        if by is not None:
            message |= {"webhook_id": str(self.app_id), "application_id": str(self.app_id)}
            message["type"] = 20 if by.type == 2 else 0
            message["interaction_metadata"] = {"id": str(by.id), "type": by.type, "user": by.user.payload}
            message["interaction_metadata"]["authorizing_integration_owners"] = {}
        self.edit(message, body, files, edited=False)
        self.messages[message_id] = message
        channel.messages.append(message_id)
        channel.payload["last_message_id"] = message["id"]
        return message

    def edit(self, message: Json, body: Json, files: Files, *, edited: bool = True) -> None:
        """What a PATCH (or an UPDATE_MESSAGE answer) sets: the fields sent, a null clearing them."""
        for key, empty in (("content", ""), ("embeds", []), ("components", [])):
            if key in body:
                message[key] = empty if body[key] is None else body[key]
        if "components" in body:
            number_components(message["components"])
        if "attachments" in body or files:
            kept = {attachment["id"]: attachment for attachment in message["attachments"]}
            attachments = [kept[str(a["id"])] for a in body.get("attachments") or [] if str(a["id"]) in kept]
            for name, size in files:
                attachment_id = str(self.snowflake())
                url = f"https://cdn.discordapp.com/attachments/{message['channel_id']}/{attachment_id}/{name}"
                attachments.append({"id": attachment_id, "filename": name, "size": size, "url": url})
                attachments[-1]["proxy_url"] = url
            message["attachments"] = attachments
        if body.get("flags") is not None:  # an edit may set the card flag, never clear it
            message["flags"] |= body["flags"] & COMPONENTS_V2
        if edited:
            message["edited_timestamp"] = iso()

    def _message_in(self, channel_id: str, message_id: str) -> Json | None:
        message = self.messages.get(int(message_id)) if message_id.isdigit() else None
        return message if message is not None and message["channel_id"] == channel_id else None

    async def _on_message(self, request: web.Request, message: Json) -> web.Response:
        if request.method == "GET":
            return self._json(message)
        if request.method == "DELETE":
            self.messages.pop(int(message["id"]), None)
            return web.Response(status=204)
        body, files = await self._body(request)
        message["flags"] &= ~LOADING
        self.edit(message, body, files)
        return self._json(message)

    # ------------------------------------------------------------ gateway

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = self._ws = web.WebSocketResponse(max_msg_size=0, compress=False)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}))
        async for frame in ws:
            op = json.loads(frame.data).get("op") if frame.type == WSMsgType.TEXT else None
            if op == 1:
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
            elif op == 2:
                await self._ready()
        return ws

    async def _ready(self) -> None:
        self._sequence = 0
        ready: Json = {"v": 10, "user": self._static["/api/v10/users/@me"], "session_id": "bench-session"}
        ready["guilds"] = [{"id": str(guild.id), "unavailable": True} for guild in self.guilds]
        ready["resume_gateway_url"] = f"ws://127.0.0.1:{self.port}/gateway"
        ready["application"] = {"id": str(self.app_id), "flags": 0}
        ready |= {"private_channels": [], "relationships": []}
        await self.dispatch("READY", ready)
        for guild in self.guilds:
            await self.dispatch("GUILD_CREATE", guild.payload)
        self._identified.set()

    async def connected(self) -> None:
        """The bot has identified and has been sent every guild."""
        await self._identified.wait()

    async def dispatch(self, event: str, data: Json) -> None:
        if self._ws is None or self._ws.closed:
            raise RuntimeError("the bot is not connected to the stand-in's gateway")
        self._sequence += 1
        await self._ws.send_str(json.dumps({"op": 0, "t": event, "s": self._sequence, "d": data}))

    # ------------------------------------------------------------ players

    async def _interact(
        self, kind: int, user: User, channel: Channel, data: Json, message: Json | None
    ) -> Interaction:
        interaction_id = self.snowflake()
        token = f"aW50ZXJhY3Rpb246{interaction_id}:benchtoken"
        record = self.interactions[interaction_id] = Interaction(interaction_id, token, kind, user, channel)
        self.by_token[token] = record
        payload: Json = {**INTERACTION, "id": str(interaction_id), "application_id": str(self.app_id)}
        payload |= {"type": kind, "token": token, "data": data, "app_permissions": str(BOT_ROLE)}
        payload |= {"channel_id": str(channel.id), "channel": channel.payload}
        guild = channel.guild
        if guild is not None:
            payload |= {"guild_id": str(guild.id), "guild_locale": "en-US", "context": 0}
            payload["member"] = guild.member_payloads[user.id]
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
        else:
            payload |= {"user": user.payload, "authorizing_integration_owners": {"0": "0"}, "context": 1}
        if message is not None:
            record.message = payload["message"] = message
        record.sent = time.perf_counter()
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def slash(
        self, guild: Guild, user: User, name: str, sub: str | None = None, **options: Any
    ) -> Interaction:
        """`/name sub option:value…` by `user` in the guild's channel."""
        given = [{"name": k, "type": 3 if isinstance(v, str) else 4, "value": v} for k, v in options.items()]
        command_id = self.commands[name]["id"] if name in self.commands else str(self.snowflake())
        data: Json = {"id": command_id, "name": name, "type": 1}
        data["options"] = [{"name": sub, "type": 1, "options": given}] if sub else given
        return await self._interact(2, user, guild.channel, data, None)

    async def click(
        self, user: User, message: Json, custom_id: str, *, values: list[str] | None = None
    ) -> Interaction:
        """A button press (`values` None) or a select's choice on `message` (a stored message)."""
        data: Json = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
        if values is not None:
            data["values"] = values
        return await self._interact(3, user, self.channels[int(message["channel_id"])], data, message)

    # ------------------------------------------------------------ REST

    async def static(self, request: web.Request) -> web.Response:
        self._count(request, "other")
        return self._json(self._static[request.path])

    async def sync(self, request: web.Request) -> web.Response:
        """GET the commands, or PUT them (a sync): kept with ids, as Discord answers."""
        self._count(request, "other")
        if request.method == "PUT":
            body, _ = await self._body(request)
            for command in body:
                command |= {"id": str(self.snowflake()), "application_id": str(self.app_id), "version": "1"}
                command.setdefault("type", 1)
                command.setdefault("default_member_permissions", None)
                self.commands[command["name"]] = command
        return self._json(list(self.commands.values()))

    async def callback(self, request: web.Request) -> web.Response:
        now = time.perf_counter()  # the acknowledgement: the first callback's arrival
        self._count(request, "answer")
        record = self.interactions.get(int(request.match_info["id"]))
        if record is None or record.token != request.match_info["token"]:
            return self._error(404, 10062, "Unknown interaction")
        if record.acked is not None or record.late:
            return self._error(400, 40060, "Interaction has already been acknowledged.")
        if now - record.sent > LATE:
            record.late = True
            return self._error(404, 10062, "Unknown interaction")
        record.acked = now
        body, files = await self._body(request)
        kind: int = body["type"]
        data: Json = body.get("data") or {}
        record.answer, record.flags = kind, data.get("flags") or 0
        record.components = bool(data.get("components"))
        message: Json | None = None
        if kind == 4:
            message = record.original = self.new_message(record.channel, data, files, by=record)
        elif kind == 5:
            loading = LOADING | record.flags & EPHEMERAL
            record.original = self.new_message(record.channel, {}, [], by=record, flags=loading)
        elif kind == 7 and record.message is not None:
            self.edit(record.message, data, files)
            message = record.message
        record.original = record.original or record.message
        record.answered.set()
        answered: Json = {"id": str(record.id), "type": record.type, "response_message_loading": kind == 5}
        answered["response_message_ephemeral"] = bool(record.flags & EPHEMERAL)
        if record.original is not None:
            answered["response_message_id"] = record.original["id"]
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)  # as Discord: the callback object only when asked for
        resource: Json = {"type": kind} | ({"message": message} if message is not None else {})
        return self._json({"interaction": answered, "resource": resource})

    async def followup(self, request: web.Request) -> web.Response:
        self._count(request, "followup")
        record = self.by_token.get(request.match_info["token"])
        if record is None:
            return self._error(404, 10015, "Unknown Webhook")
        body, files = await self._body(request)
        return self._json(self.new_message(record.channel, body, files, by=record))

    async def webhook_message(self, request: web.Request) -> web.Response:
        self._count(request, "followup")
        record, which = self.by_token.get(request.match_info["token"]), request.match_info["message"]
        message = None
        if record is not None:
            here = str(record.channel.id)
            message = record.original if which == "@original" else self._message_in(here, which)
        if message is None:
            return self._error(404, 10008, "Unknown Message")
        return await self._on_message(request, message)

    async def send(self, request: web.Request) -> web.Response:
        channel = self._kind(request, "message send")
        if channel is None:
            return self._error(404, 10003, "Unknown Channel")
        body, files = await self._body(request)
        return self._json(self.new_message(channel, body, files))

    async def channel_message(self, request: web.Request) -> web.Response:
        self._kind(request, "board edit" if request.method == "PATCH" else "other")
        message = self._message_in(request.match_info["channel"], request.match_info["message"])
        if message is None:
            return self._error(404, 10008, "Unknown Message")
        return await self._on_message(request, message)

    async def open_dm(self, request: web.Request) -> web.Response:
        self._count(request, "dm")
        body, _ = await self._body(request)
        user = self.users.get(int(body["recipient_id"]))
        if user is None:
            return self._error(404, 10013, "Unknown User")
        return self._json(self.dm_channel(user).payload)

    async def user(self, request: web.Request) -> web.Response:
        self._count(request, "other")
        wanted = request.match_info["user"]
        user = self.users.get(int(wanted)) if wanted.isdigit() else None
        return self._json(user.payload) if user is not None else self._error(404, 10013, "Unknown User")

    async def thread(self, request: web.Request) -> web.Response:
        """A public thread in a text channel (not reached when tables play in the channel)."""
        parent = self._kind(request, "other")
        body, _ = await self._body(request)
        if parent is None or parent.guild is None:
            return self._error(404, 10003, "Unknown Channel")
        thread_id = self.snowflake()
        meta = {"archived": False, "auto_archive_duration": 1440, "archive_timestamp": iso(), "locked": False}
        payload: Json = {**parent.payload, "id": str(thread_id), "type": 11, "name": body.get("name", "t")}
        payload |= {"parent_id": str(parent.id), "owner_id": str(self.app_id), "thread_metadata": meta}
        payload |= {"message_count": 0, "member_count": 1}
        self.channels[thread_id] = Channel(thread_id, payload, parent.guild)
        return self._json(payload)

    async def channel(self, request: web.Request) -> web.Response:
        channel = self._kind(request, "other")
        if channel is None:
            return self._error(404, 10003, "Unknown Channel")
        if request.method == "PATCH":
            body, _ = await self._body(request)
            channel.payload |= {key: body[key] for key in ("name", "topic") if key in body}
        return self._json(channel.payload)

    async def other(self, request: web.Request) -> web.Response:
        self._count(request, "other")
        route, answer = f"{request.method} {request.path}", 200 if request.method == "GET" else 204
        if route not in self.unknown:
            self.unknown.add(route)
            log.warning("stand-in: unknown route %s (answered %s)", route, answer)
        return self._json({}) if answer == 200 else web.Response(status=204)
