"""What every player saw in an end-to-end test, as text a person can read, and checks on its words.

The transcript is rebuilt from the bot's own REST calls as simcord recorded them: every channel
message and each edit or deletion, every DM, every interaction reply (ephemeral or not), with
embeds, button labels and select options. `tests/e2e/conftest.py` writes one file per test under
`transcripts/` and fails the test when the words break a rule below.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from simcord import Env

from cogs.i18n import catalog, languages
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog
from rules.engine import IllegalAction
from storage.tables import TableRecord, TableStore

_WEBHOOK = re.compile(r"/webhooks/\d+/[^/]+(?:/messages/[^/]+)?")

ACTIONS: list[tuple[int, str]] = []
"""(number of REST calls so far, what a player did): written by the shared Table helpers."""


def player_did(env: Env, what: str) -> None:
    ACTIONS.append((len(env.http_requests), what))


@dataclass
class Line:
    where: str  # "#sushi", "DM @alice", "reply", "reply (only you)", ...
    kind: str  # "new", "edit", "delete", "reply"
    text: str  # the words, rendered for reading (mentions as @names)
    raw: str  # the words as sent (mentions as <@id>), for the checks
    pings: tuple[int, ...] = ()  # users this message notifies
    target: int | None = None  # the channel or DM channel it went to


def _payload_text(data: dict[str, Any]) -> list[str]:
    """The words of one message payload: content, embeds, then its components."""
    parts: list[str] = []
    if data.get("content"):
        parts.append(str(data["content"]))
    for embed in data.get("embeds") or []:
        for key in ("title", "description"):
            if embed.get(key):
                parts.append(str(embed[key]))
        for field in embed.get("fields") or []:
            parts.append(f"{field.get('name', '')}: {field.get('value', '')}")
        if (embed.get("footer") or {}).get("text"):
            parts.append(str(embed["footer"]["text"]))
    for attachment in data.get("attachments") or []:
        if attachment.get("filename"):
            parts.append(f"[picture {attachment['filename']}]")
    for row in data.get("components") or []:
        items = []
        for item in row.get("components") or []:
            if item.get("type") == 2:
                emoji = (item.get("emoji") or {}).get("name") or ""
                label = f"{emoji} {item.get('label') or ''}".strip()
                items.append(f"[{label}{' (off)' if item.get('disabled') else ''}]")
            else:
                options = " | ".join(
                    option.get("label", "")
                    + (f" — {option['description']}" if option.get("description") else "")
                    for option in item.get("options") or []
                )
                items.append(f"[menu “{item.get('placeholder') or ''}”: {options}]")
        parts.append(" ".join(items))
    return parts


def lines(env: Env, names: dict[int, str], dm_channels: dict[int, str]) -> list[Line]:
    """Everything the bot said, in order."""

    def named(text: str) -> str:
        return re.sub(r"<@!?(\d+)>", lambda match: "@" + names.get(int(match[1]), match[1]), text)

    found: list[Line] = []
    for request in env.http_requests:
        data = request.json if isinstance(request.json, dict) else {}
        path = request.path
        match = re.fullmatch(r"/channels/(\d+)/messages(?:/(\d+))?", path)
        if match:
            channel = int(match[1])
            where = dm_channels.get(channel, "#channel")
            kind = {"POST": "new", "PATCH": "edit", "DELETE": "delete"}.get(request.method, request.method)
            if kind == "delete":
                found.append(Line(where, kind, f"(message {match[2]} deleted)", "", (), channel))
                continue
            raw = "\n".join(_payload_text(data))
            users = tuple(int(user) for user in ((data.get("allowed_mentions") or {}).get("users") or []))
            found.append(Line(where, kind, named(raw), raw, users, channel))
        elif re.fullmatch(r"/interactions/\d+/[^/]+/callback", path) and data.get("type") in (4, 7):
            payload = data.get("data") or {}
            private = bool(int(payload.get("flags") or 0) & 64)
            where = "reply (only the clicker)" if private else "reply"
            kind = "reply" if data["type"] == 4 else "edit clicked"
            raw = "\n".join(_payload_text(payload))
            found.append(Line(where, kind, named(raw), raw))
        elif re.fullmatch(r"/webhooks/\d+/[^/]+(?:/messages/[^/]+)?", path) and request.method in (
            "POST",
            "PATCH",
        ):
            raw = "\n".join(_payload_text(data))
            kind = "follow-up" if request.method == "POST" else "edit reply"
            found.append(Line("reply", kind, named(raw), raw))
    return found


def render(env: Env, names: dict[int, str], dm_channels: dict[int, str]) -> str:
    """The transcript as text: what players did, then what the bot showed, in order."""
    said = lines(env, names, dm_channels)
    # Lines and actions share one clock: the number of REST calls made so far.
    calls = [index for index, request in enumerate(env.http_requests) if _is_output(request)]
    out: list[str] = []
    actions = list(ACTIONS)
    for position, line in zip(calls, said, strict=True):
        while actions and actions[0][0] <= position:
            out.append(f"\n▶ {actions.pop(0)[1]}")
        body = line.text.replace("\n", "\n    ")
        out.append(f"[{line.where} · {line.kind}] {body}")
    out += [f"\n▶ {what}" for _, what in actions]
    return "\n".join(out) + "\n"


def _is_output(request: Any) -> bool:
    data = request.json if isinstance(request.json, dict) else {}
    path = request.path
    if re.fullmatch(r"/channels/(\d+)/messages(?:/(\d+))?", path):
        return True
    if re.fullmatch(r"/interactions/\d+/[^/]+/callback", path):
        return data.get("type") in (4, 7)
    return bool(_WEBHOOK.fullmatch(path)) and request.method in ("POST", "PATCH")


# ---------------------------------------------------------------- the checks

PLURALS = (
    "games|dice|points|tiles|plates|cards|players|wins|turns|seconds|symbols|wolves|bocks|goats"
    "|pines|pairs|throws|rounds|puddings|rolls|sushi|chopsticks|soys|gingers|wasabis"
)
# A command's name in a German or Spanish client's words may hold letters beyond a-z ("würfeln").
_SLASH = re.compile(r"(?<![\w<:/.])/([^\W\d_][\w-]*)(?: ([^\W\d_][\w-]*))?")
# `</name sub:ID>` is Discord's command mention, drawn as a clickable command.
_PLACEHOLDER = re.compile(
    r"\{[a-zA-Z_][a-zA-Z0-9_.:]*\}|<(?!@|#|:|a:|t:|/[^<>]+:\d+>|https?://)[^<>\s]{1,40}>"
)
_REPR = re.compile(r"\bNone\b|\[['\"]|\{['\"]|\bdict\(|\bTrue\b|\bFalse\b")
_ONE_MANY = re.compile(rf"(?<![\d.,])[−-]?\b1 ({PLURALS})\b")


def problems(said: Iterable[Line], commands: dict[str, set[str]]) -> list[str]:
    """Words no player should read: unknown commands, placeholders, Python reprs, "1 points"."""
    found: list[str] = []
    for line in said:
        text = line.raw
        for match in _SLASH.finditer(text):
            name, sub = match[1], match[2]
            english = next((known for known in commands if name in _spellings(known)), None)
            if english is None:
                found.append(f"unknown command /{name}: {text[:120]!r}")
            elif (
                commands[english]
                and not any(sub in _spellings(known) for known in commands[english])
                and f"`/{name} {sub}" in text
            ):
                # `/group sub` in code: the subcommand must exist (plain prose may follow a group)
                found.append(f"unknown command /{name} {sub}: {text[:120]!r}")
        for pattern, what in ((_PLACEHOLDER, "placeholder"), (_REPR, "Python repr"), (_ONE_MANY, "plural")):
            for match in pattern.finditer(text):
                found.append(f"{what} {match[0]!r} in {text[:160]!r}")
    return found


def _spellings(name: str) -> set[str]:
    """A command word as any client shows it: its English name and its catalogs' `command.text.*`."""
    return {name} | {catalog(language).get(f"command.text.{name}", name) for language in languages().values()}


TABLE_MOVES = {"join", "leave", "start", "cancel", "add_computer", "remove_computer"}


async def turns_owed(store: TableStore, cog: GameCog, record: TableRecord) -> dict[int, int]:
    """user id -> how often that human came to owe a move after the game's first turn, and made it.

    The game is replayed from its logged seed and moves; a move the table made for someone
    (a time-out, a computer) does not count as theirs.
    """
    log = await store.actions(record.id or 0)
    seed = next((action.get("seed") for _, seat, action in log if seat is None and "seed" in action), None)
    rigged = any(seat is None and action["type"] not in TABLE_MOVES for _, seat, action in log)
    if seed is None or rigged:  # a test that rewrote the state cannot be replayed
        return {}
    game = cog.game
    state = game.new(len(record.seats), seed, record.options)
    playing = dataclasses.replace(record, status="playing")
    owing: set[int] = set(cog.waits_for(TableContext(playing, game, state)))
    fresh_turns: dict[int, int] = {}  # seat -> a turn began for it and was not made yet
    owed: dict[int, int] = {}
    for _, seat, action in log:
        if seat is None:
            continue
        by = action.get("by")
        move = game.decode_action({key: value for key, value in action.items() if key != "by"})
        if by is None and fresh_turns.pop(seat, 0):
            user = record.seats[seat].user_id
            owed[user] = owed.get(user, 0) + 1
        try:
            game.apply(state, seat, move)
        except IllegalAction:  # a test scripted the dice: the log cannot be replayed from the seed
            return {}
        now_owing = (
            set(cog.waits_for(TableContext(playing, game, state))) if not game.is_over(state) else set()
        )
        for other in now_owing - owing - {seat}:
            fresh_turns[other] = 1
        for gone in owing - now_owing:
            fresh_turns.pop(gone, None)
        owing = now_owing
    return owed
