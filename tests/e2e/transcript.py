"""What every player saw in an end-to-end test, as text a person can read, and checks on its words.

The transcript is rebuilt from the bot's own REST calls as simcord recorded them: every channel
message and each edit or deletion, every DM, every interaction reply (ephemeral or not), with
embeds, button labels and select options. `tests/e2e/conftest.py` writes one file per test under
`transcripts/` and fails the test when the words break a rule below.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from simcord import Env

from cogs.kit.limits import walk
from cogs.kit.words.bidi import plain
from cogs.kit.words.catalogs import catalog, languages
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog
from rules.engine import IllegalAction
from storage.tables import TableRecord, TableStore
from tests.e2e import bidi_check

_WEBHOOK = re.compile(r"/webhooks/\d+/([^/]+)(?:/messages/[^/]+)?")

ACTIONS: list[tuple[int, str]] = []
"""(number of REST calls so far, what a player did): written by the shared Table helpers."""


def player_did(env: Env, what: str) -> None:
    ACTIONS.append((len(env.http_requests), what))


@dataclass
class Line:
    where: str  # "#channel", "#thread", "DM @alice", "reply", "reply (only you)", ...
    kind: str  # "new", "edit", "delete", "reply"
    text: str  # the words, rendered for reading (mentions as @names)
    raw: str  # the words as sent (mentions as <@id>), for the checks
    pings: tuple[int, ...] = ()  # users this message notifies
    target: int | None = None  # the channel or DM channel it went to
    public: bool = False  # everyone in a server channel sees it (not a DM, not an ephemeral)
    message: int | None = None  # the message it edits or deletes, when the request names it
    reading: str = ""  # what a player reads, as sent: content and embeds, without the components
    controls: tuple[str, ...] = ()  # its components' custom ids
    labels: str = ""  # its buttons' labels and its menus' placeholders and options
    rows: int = 0  # its rows of components (each one line of the screen)
    units: tuple[str, ...] = ()  # each text a client lays out by itself: content, embed parts, labels


def _card_texts(data: dict[str, Any]) -> list[str]:
    """A card's texts in order: its text displays and its pictures' descriptions."""
    texts: list[str] = []
    for component in walk(data.get("components") or []):
        if component.get("type") == 10 and component.get("content"):
            texts.append(str(component["content"]))
        elif component.get("type") == 12:
            pictures = component.get("items") or []
            texts += [str(item["description"]) for item in pictures if item.get("description")]
    return texts


def _controls_of(data: dict[str, Any]) -> list[Mapping[str, Any]]:
    return [item for item in walk(data.get("components") or []) if item.get("type") in (2, 3, 5, 6, 7, 8)]


def _payload_text(data: dict[str, Any]) -> list[str]:
    """The words of one message payload: content, embeds, a card's texts, then its components."""
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
    parts += _card_texts(data)
    parts += _pictures(data)
    parts += _components_text(data)
    return parts


def _reading(data: dict[str, Any]) -> str:
    """What a message shows to read, line by line as Discord lays it out: its content, then each
    embed's title, description, every field's name over its value, and footer, then a card's texts
    (no components)."""
    parts: list[str] = [str(data["content"])] if data.get("content") else []
    for embed in data.get("embeds") or []:
        parts += [str(embed[key]) for key in ("title", "description") if embed.get(key)]
        for field in embed.get("fields") or []:
            parts += [str(field.get("name") or ""), str(field.get("value") or "")]
        if (embed.get("footer") or {}).get("text"):
            parts.append(str(embed["footer"]["text"]))
    parts += _card_texts(data)
    return "\n".join(parts)


def _units(data: dict[str, Any]) -> tuple[str, ...]:
    """Each text of a message that a client lays out on its own (a bidi paragraph per line)."""
    units = [str(data["content"])] if data.get("content") else []
    for embed in data.get("embeds") or []:
        units += [str(embed[key]) for key in ("title", "description") if embed.get(key)]
        for part in embed.get("fields") or []:
            units += [str(part.get("name") or ""), str(part.get("value") or "")]
        units += [
            str((embed.get(key) or {}).get(sub) or "")
            for key, sub in (("footer", "text"), ("author", "name"))
        ]
    units += _card_texts(data)
    for item in _controls_of(data):
        units += [str(item.get(key) or "") for key in ("label", "placeholder")]
        for option in item.get("options") or []:
            units += [str(option.get("label") or ""), str(option.get("description") or "")]
    return tuple(unit for unit in units if unit)


def _controls(data: dict[str, Any]) -> tuple[str, ...]:
    return tuple(str(item.get("custom_id") or "") for item in _controls_of(data))


def _rows(data: dict[str, Any]) -> int:
    """A message's rows of controls, each one line of the screen (a section's button sits beside its
    line and takes none)."""
    return sum(1 for component in walk(data.get("components") or []) if component.get("type") == 1)


def _pictures(data: dict[str, Any]) -> list[str]:
    return [
        f"[picture {attachment['filename']}]"
        for attachment in data.get("attachments") or []
        if attachment.get("filename")
    ]


def _control_text(item: Mapping[str, Any]) -> str:
    if item.get("type") == 2:
        emoji = (item.get("emoji") or {}).get("name") or ""
        label = f"{emoji} {item.get('label') or ''}".strip()
        return f"[{label}{' (off)' if item.get('disabled') else ''}]"
    options = " | ".join(
        option.get("label", "") + (f" — {option['description']}" if option.get("description") else "")
        for option in item.get("options") or []
    )
    return f"[menu “{item.get('placeholder') or ''}”: {options}]"


def _components_text(data: dict[str, Any]) -> list[str]:
    """Each row of controls as one line, and each section's button as a line of its own."""
    parts: list[str] = []
    for component in walk(data.get("components") or []):
        if component.get("type") == 1:
            parts.append(" ".join(_control_text(item) for item in component.get("components") or []))
        elif component.get("type") == 9 and (component.get("accessory") or {}).get("type") == 2:
            parts.append(_control_text(component["accessory"]))
    return parts


def lines(env: Env, names: dict[int, str], dm_channels: dict[int, str]) -> list[Line]:
    """Everything the bot said, in order."""

    def named(text: str) -> str:
        return re.sub(r"<@!?(\d+)>", lambda match: "@" + names.get(int(match[1]), match[1]), text)

    def line(where: str, kind: str, data: dict[str, Any], **more: Any) -> Line:
        raw = "\n".join(_payload_text(data))
        labels = "\n".join(_components_text(data))
        return Line(where, kind, named(raw), raw, reading=_reading(data), controls=_controls(data),
                    labels=labels, rows=_rows(data), units=_units(data),
                    **more)  # fmt: skip

    interactions = env.backend.interactions
    ephemeral = {record.message_id for record in interactions.values() if record.ephemeral}
    found: list[Line] = []
    for request in env.http_requests:
        data = request.json if isinstance(request.json, dict) else {}
        path = request.path
        match = re.fullmatch(r"/channels/(\d+)/messages(?:/(\d+))?", path)
        if match:
            channel = int(match[1])
            message = int(match[2]) if match[2] else None
            public = channel not in dm_channels
            where = dm_channels.get(channel) or _channel_name(env, channel)
            kind = {"POST": "new", "PATCH": "edit", "DELETE": "delete"}.get(request.method, request.method)
            if kind == "delete":
                gone = f"(message {match[2]} deleted)"
                found.append(Line(where, kind, gone, "", (), channel, public=public, message=message))
                continue
            users = tuple(int(user) for user in ((data.get("allowed_mentions") or {}).get("users") or []))
            found.append(line(where, kind, data, pings=users, target=channel, public=public, message=message))
        elif callback := re.fullmatch(r"/interactions/(\d+)/[^/]+/callback", path):
            if data.get("type") not in (4, 7):
                continue
            payload = data.get("data") or {}
            record = interactions.get(int(callback[1]))
            private = bool(int(payload.get("flags") or 0) & 64)
            where = "reply (only the clicker)" if private else "reply"
            if data["type"] == 4:
                message = record.message_id if record else None
                public = not private and record is not None and record.guild_id is not None
                found.append(line(where, "reply", payload, public=public, message=message))
            else:
                message = record.source_message_id if record else None
                public = _seen_by_all(env, record, message, ephemeral)
                found.append(line(where, "edit clicked", payload, public=public, message=message))
        elif hook := _WEBHOOK.fullmatch(path):
            if request.method not in ("POST", "PATCH"):
                continue
            record = interactions.get(env.backend.interaction_tokens.get(hook[1], 0))
            kind = "follow-up" if request.method == "POST" else "edit reply"
            if request.method == "POST":
                private = bool(int(data.get("flags") or 0) & 64)
                public = not private and record is not None and record.guild_id is not None
            else:
                message = record.message_id or record.source_message_id if record else None
                public = _seen_by_all(env, record, message, ephemeral)
            found.append(line("reply", kind, data, public=public))
    return found


def _channel_name(env: Env, channel_id: int) -> str:
    """ "#channel" for a text channel, "#thread" for a thread (a table's own)."""
    channel = env.backend.channels.get(channel_id)
    return "#thread" if channel is not None and channel.is_thread else "#channel"


def _seen_by_all(env: Env, record: Any, message: int | None, ephemeral: set[int | None]) -> bool:
    """Whether the message an interaction edits is a server channel's message for everyone."""
    if record is None or record.guild_id is None or message is None:
        return False
    stored = env.backend.messages.get(record.channel_id, {}).get(message)
    return not stored.is_ephemeral if stored is not None else message not in ephemeral


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


BOARD_MAX_LINES = 12
"""A public board's greatest height, in lines: its content, embed title, description, field names and
values and footer, and each row of buttons (the final results message excepted)."""
BOARD_MAX_CHARS = 900
"""... and in characters, as sent (a mention counts as its `<@id>`, the length of a long name)."""
SECOND_PERSON = re.compile(r"\b(?:you|your|yours|yourself|you're|you've|you'll|you'd)\b", re.IGNORECASE)
"""A word speaking to one reader, in English: a public board speaks to the table, never says "you"."""
_TABLE_CONTROL = re.compile(r"sbs?:")


def public_boards(said: Iterable[Line]) -> list[Line]:
    """Every public board of a table as it was posted or edited: a channel message everyone sees
    that carries a table's controls (the lobby, a game's board), and later edits of such a message
    (a cancelled table's last board, without its controls) — not the results, with their Rematch."""
    boards: list[Line] = []
    known: set[int] = set()
    for line in said:
        if not line.public or line.kind == "delete":
            continue
        table = [control for control in line.controls if _TABLE_CONTROL.match(control)]
        if any(control.endswith(":t:rematch") for control in table):
            continue
        if table or line.message in known:
            if line.message is not None:
                known.add(line.message)
            boards.append(line)
    return boards


def board_problems(said: Iterable[Line]) -> list[str]:
    """A public board too long to read at a glance, or speaking to one person ("you") in English."""
    found: list[str] = []
    for board in public_boards(said):
        text = plain(board.reading)  # the bidi marks and isolates take no room on the screen
        rows = (text.count("\n") + 1 if text else 0) + board.rows
        if rows > BOARD_MAX_LINES or len(text) > BOARD_MAX_CHARS:
            found.append(
                f"public board of {rows} lines and {len(text)} characters "
                f"(at most {BOARD_MAX_LINES} and {BOARD_MAX_CHARS}): {board.text[:160]!r}"
            )
        said_to_one = SECOND_PERSON.search(f"{text}\n{board.labels}")
        if said_to_one:
            found.append(
                f"public board says {said_to_one[0]!r} (it speaks to the table): {board.text[:160]!r}"
            )
    return found


def problems(said: Iterable[Line], commands: dict[str, set[str]]) -> list[str]:
    """Words no player should read: unknown commands, placeholders, Python reprs, "1 points"; public
    boards that are too long or say "you"; and lines that a client would lay out scrambled."""
    said = list(said)
    found: list[str] = board_problems(said)
    for line in said:
        found += bidi_check.problems(line.units)
        found += _same_labels(line)
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


def _same_labels(line: Line) -> list[str]:
    """Two controls of one message with the same words: a player cannot tell which does what (a row of
    look-alike pictures, Kaiten's chopsticks challenge, has no words to tell apart)."""
    found = re.findall(r"\[([^\[\]]+)\]", plain(line.labels))
    labels = [label for label in found if not label.endswith("(off)") and re.search(r"\w", label)]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    return [f"two controls read {label!r}: {line.text[:120]!r}" for label in twice]


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
