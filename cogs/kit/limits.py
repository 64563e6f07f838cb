"""Discord's message limits in one place: what a player typed is quoted short and harmless, and every
message the bot builds is fitted within what Discord accepts (a refused payload is a player left
without an answer: Discord says 50035 and nothing is shown).

- `echo(text)`: a player's input as a reply may quote it: at most `ECHO` characters (cut with …),
  markdown and mentions escaped, lone surrogates (JSON lets a client send them) replaced.
- `fit_text`, `fit_embed`, `fit_choices`, `fit_kwargs`: a message's parts cut to their limits, the
  last resort of `Board.send_kwargs`/`edit_kwargs` and of every ephemeral reply; a list that can be
  long is paginated by its cog, so that nothing needs cutting here in the first place.
- `problems(payload)`: every limit a REST payload breaks (a message, an interaction's answer with its
  components or autocomplete choices, a Components V2 card), in words; the fuzz suite checks every
  request with it. A card is fitted by `cogs.kit.cards.fit`.

The limits are Discord's documented ones (message resource: content and embed limits; components:
buttons, selects, custom_id, Components V2's 40 components and 4,000 characters; application
commands: autocomplete choices).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import discord

CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FIELDS = 25
FOOTER = 2048
AUTHOR = 256
EMBEDS_TOTAL = 6000  # title, description, field names and values, footer and author of all embeds
EMBEDS = 10
CHOICES = 25  # autocomplete choices (and a select's options)
CHOICE_NAME = 100
CHOICE_VALUE = 100
BUTTON_LABEL = 80
OPTION_LABEL = 100  # a select option's label, value and description
OPTION_DESCRIPTION = 100
OPTION_VALUE = 100
OPTIONS = 25
PLACEHOLDER = 150
CUSTOM_ID = 100
COMPONENTS_V2 = 1 << 15  # the message flag of a Components V2 card
CARD_COMPONENTS = 40  # components in one card message, nested ones counted
CARD_TEXT = 4000  # characters of all text displays of one card message
CARD_TYPES = frozenset({9, 10, 11, 12, 13, 14, 17})  # section, text, thumbnail, gallery, file, line, box

ECHO = 100
"""How much of a player's input a reply quotes: enough to recognise it, never enough to crowd the reply."""
CUT = "…"

_SURROGATE = re.compile("[\ud800-\udfff]")
_MENTION = re.compile(r"<(@[!&]?|#)(\d+)>")


# ---------------------------------------------------------------- quoting input


def clip(text: str, limit: int) -> str:
    """`text` within `limit` characters, cut with … when longer (never in a surrogate pair's middle:
    Python counts code points, as Discord does)."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - len(CUT))].rstrip() + CUT


def echo(text: object, limit: int = ECHO) -> str:
    """A player's input as a message may quote it: short, looking like what was typed, pinging and
    formatting nothing (`discord.utils` escapes markdown and @everyone/@here; a `<@id>` shows as text)."""
    raw = _SURROGATE.sub("\ufffd", str(text))
    shown = clip(" ".join(raw.split()), limit)  # one line: a quote never adds lines to a reply
    shown = discord.utils.escape_markdown(shown)
    shown = _MENTION.sub(lambda match: f"<{match[1]}\u200b{match[2]}>", shown)
    return discord.utils.escape_mentions(shown)


# ---------------------------------------------------------------- fitting what the bot sends


def fit_text(text: str | None, limit: int = CONTENT) -> str | None:
    return None if text is None else clip(text, limit)


def fit_embed(embed: discord.Embed, room: int = EMBEDS_TOTAL) -> discord.Embed:
    """The embed within every limit of its own and within `room` characters in all (it is changed in
    place and returned). The description gives way first, then the fields from the last one."""
    if embed.title and len(embed.title) > EMBED_TITLE:
        embed.title = clip(embed.title, EMBED_TITLE)
    if embed.description and len(embed.description) > EMBED_DESCRIPTION:
        embed.description = clip(embed.description, EMBED_DESCRIPTION)
    footer = embed.footer
    if footer.text and len(footer.text) > FOOTER:
        embed.set_footer(text=clip(footer.text, FOOTER), icon_url=footer.icon_url)
    if embed.author.name and len(embed.author.name) > AUTHOR:
        author = embed.author
        embed.set_author(name=clip(author.name or "", AUTHOR), url=author.url, icon_url=author.icon_url)
    fields = embed.fields
    if len(fields) > FIELDS or any(
        len(field.name or "") > FIELD_NAME or len(field.value or "") > FIELD_VALUE for field in fields
    ):
        embed.clear_fields()
        for field in fields[:FIELDS]:
            embed.add_field(
                name=clip(field.name or "", FIELD_NAME),
                value=clip(field.value or "", FIELD_VALUE),
                inline=bool(field.inline),
            )
    over = len(embed) - room
    if over > 0 and embed.description:
        embed.description = clip(embed.description, max(len(CUT), len(embed.description) - over))
    while len(embed) > room and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    return embed


def fit_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    """discord.py's send/edit keyword arguments (`content`, `embed`, `embeds`) within Discord's limits."""
    content = kwargs.get("content")
    if isinstance(content, str) and len(content) > CONTENT:
        kwargs["content"] = clip(content, CONTENT)
    embeds = [kwargs["embed"]] if isinstance(kwargs.get("embed"), discord.Embed) else []
    embeds += [embed for embed in kwargs.get("embeds") or [] if isinstance(embed, discord.Embed)]
    room = EMBEDS_TOTAL
    for embed in embeds:
        fit_embed(embed, room)
        room = max(0, room - len(embed))
    return kwargs


def fit_items(items: Sequence[discord.ui.Item[Any]]) -> None:
    """Buttons' labels, selects' placeholders and options within their limits (changed in place)."""
    for item in items:
        if isinstance(item, discord.ui.DynamicItem):
            item = item.item
        if isinstance(item, discord.ui.Button) and item.label and len(item.label) > BUTTON_LABEL:
            item.label = clip(item.label, BUTTON_LABEL)
        elif isinstance(item, discord.ui.Select):
            if item.placeholder and len(item.placeholder) > PLACEHOLDER:
                item.placeholder = clip(item.placeholder, PLACEHOLDER)
            for option in item.options:
                option.label = clip(option.label, OPTION_LABEL)
                if option.description:
                    option.description = clip(option.description, OPTION_DESCRIPTION)


def fit_choices(choices: Sequence[Any]) -> list[Any]:
    """At most `CHOICES` autocomplete choices, each named within `CHOICE_NAME` characters."""
    fitted = list(choices[:CHOICES])
    for choice in fitted:
        if isinstance(choice, discord.app_commands.Choice) and len(choice.name) > CHOICE_NAME:
            choice.name = clip(choice.name, CHOICE_NAME)
    return fitted


# ---------------------------------------------------------------- checking a payload


def problems(payload: Mapping[str, Any]) -> list[str]:
    """Every Discord limit a REST payload breaks: a message created or edited, or an interaction's
    answer (`{"type": …, "data": …}`: a message, its components, or autocomplete choices)."""
    data: Mapping[str, Any] = payload
    if "type" in payload and isinstance(payload.get("data"), Mapping):
        data = payload["data"]
    found: list[str] = []
    content = data.get("content")
    if isinstance(content, str) and len(content) > CONTENT:
        found.append(f"content of {len(content)} characters (at most {CONTENT})")
    found += _embed_problems(data.get("embeds") or [])
    found += _component_problems(data.get("components") or [])
    found += _card_problems(data)
    choices = data.get("choices")
    if isinstance(choices, list):
        if len(choices) > CHOICES:
            found.append(f"{len(choices)} autocomplete choices (at most {CHOICES})")
        for choice in choices:
            found += _length(f"choice name {choice.get('name')!r}", choice.get("name"), CHOICE_NAME, 1)
            value = choice.get("value")
            if isinstance(value, str):
                found += _length(f"choice value {value!r}", value, CHOICE_VALUE, 1)
    return found


def _length(what: str, text: object, limit: int, least: int = 0) -> list[str]:
    if text is None:
        return [f"{what} missing"] if least else []
    size = len(str(text))
    if size > limit or size < least:
        return [f"{clip(what, 80)} of {size} characters (between {least} and {limit})"]
    return []


def _embed_problems(embeds: Sequence[Mapping[str, Any]]) -> list[str]:
    found: list[str] = []
    if len(embeds) > EMBEDS:
        found.append(f"{len(embeds)} embeds (at most {EMBEDS})")
    total = 0
    for number, embed in enumerate(embeds, 1):
        fields = embed.get("fields") or []
        if len(fields) > FIELDS:
            found.append(f"embed {number} has {len(fields)} fields (at most {FIELDS})")
        parts = [
            ("title", embed.get("title"), EMBED_TITLE),
            ("description", embed.get("description"), EMBED_DESCRIPTION),
            ("footer", (embed.get("footer") or {}).get("text"), FOOTER),
            ("author", (embed.get("author") or {}).get("name"), AUTHOR),
        ]
        for index, field in enumerate(fields, 1):
            parts += [
                (f"field {index} name", field.get("name"), FIELD_NAME),
                (f"field {index} value", field.get("value"), FIELD_VALUE),
            ]
        for what, text, limit in parts:
            if text is None:
                continue
            total += len(str(text).strip())
            found += _length(f"embed {number} {what}", text, limit)
    if total > EMBEDS_TOTAL:
        found.append(f"embeds of {total} characters in all (at most {EMBEDS_TOTAL})")
    return found


def walk(components: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every component, nested ones included (a card's container and rows, a section's accessory)."""
    for component in components:
        yield component
        yield from walk(component.get("components") or [])
        if isinstance(component.get("accessory"), Mapping):
            yield from walk([component["accessory"]])


def _card_problems(data: Mapping[str, Any]) -> list[str]:
    """A Components V2 message (flag 1 << 15): at most 40 components in all, 4,000 characters of
    text, and nothing beside its components (no content, no embeds)."""
    components = data.get("components") or []
    cards = any(component.get("type") in CARD_TYPES for component in walk(components))
    if not (int(data.get("flags") or 0) & COMPONENTS_V2):
        return ["a card sent without the Components V2 flag"] if cards else []
    found: list[str] = []
    total = sum(1 for _ in walk(components))
    if total > CARD_COMPONENTS:
        found.append(f"a card of {total} components (at most {CARD_COMPONENTS})")
    text = sum(len(str(c.get("content") or "")) for c in walk(components) if c.get("type") == 10)
    if text > CARD_TEXT:
        found.append(f"a card of {text} characters of text (at most {CARD_TEXT})")
    if data.get("content") or data.get("embeds"):
        found.append("a card with content or embeds beside it")
    return found


def _component_problems(components: Sequence[Mapping[str, Any]]) -> list[str]:
    found: list[str] = []
    for component in walk(components):
        kind = component.get("type")
        if "custom_id" in component:
            found += _length(f"custom_id {component['custom_id']!r}", component["custom_id"], CUSTOM_ID, 1)
        if kind == 2:
            found += _length(f"button label {component.get('label')!r}", component.get("label"), BUTTON_LABEL)
        elif kind == 3:
            found += _length("placeholder", component.get("placeholder"), PLACEHOLDER)
            options = component.get("options") or []
            if len(options) > OPTIONS:
                found.append(f"a select of {len(options)} options (at most {OPTIONS})")
            for option in options:
                found += _length(
                    f"option label {option.get('label')!r}", option.get("label"), OPTION_LABEL, 1
                )
                found += _length(
                    f"option value {option.get('value')!r}", option.get("value"), OPTION_VALUE, 1
                )
                found += _length("option description", option.get("description"), OPTION_DESCRIPTION)
    return found
