"""What the bot needs of discord.py that discord.py does not offer publicly, in one place.

Each function names the private part it reads; `tests/cogs/test_adapter.py` checks every one against
the installed discord.py, so an upgrade that moves one fails there, loudly, instead of a click
failing in production.

- `answer_with_update`: answers a component interaction by editing its message without asking for
  the message back (discord.py's `response.edit_message` always asks, then builds a Message and
  stores a view): `Interaction._session`, `InteractionResponse._response_type`,
  `discord.webhook.async_.async_context` and `interaction_message_response_params`.
- `routed_components`: which custom_ids discord.py routes to a handler (its view store's
  `_dynamic_items` and `_views`), for the answer to a press no handler claims.
- `shows_component`: whether discord.py calls a DynamicItem for a press: it does so only when the message
  the interaction carries still shows the pressed component (`ViewStore.schedule_dynamic_item_call`
  rebuilds that message's view and looks the component up), and drops the press silently otherwise.
- `take_clicks`: the bot's own component presses go straight from the gateway to their handler
  (`ConnectionState.parsers`, the table discord.py's gateway and simcord both read events through, and
  `Interaction(data=, state=)`), as a `Click`: an Interaction made without the clicked message, so that
  neither a `Message` of the card nor a view of it is built for a press.
- `throttle_ratelimit_sweep`: `HTTPClient._try_clear_expired_ratelimits`, which discord.py calls at
  every new rate-limit bucket (one per route and channel) and which scans them all once there are 256:
  quadratic for a bot with thousands of channels in play.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from typing import Any, TypeVar

import discord
import discord.http
from discord.webhook.async_ import async_context, interaction_message_response_params


async def answer_with_update(interaction: discord.Interaction, **edit: Any) -> None:
    """Answer `interaction` with a message update (`edit`: `Message.edit`'s content, embed, view,
    attachments), asking Discord for nothing back. Raises as `response.edit_message` does."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        **edit,
        previous_allowed_mentions=interaction.client.allowed_mentions,
    )
    route = discord.http.Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = interaction.client.http
    body: dict[str, Any] = {"payload": params.payload}
    if params.files:  # as discord.py sends them: a multipart body
        body = {"files": params.files, "multipart": params.multipart}
    await async_context.get().request(
        route,
        session=interaction._session,  # the session discord.py answers every interaction with
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        **body,
    )
    response._response_type = discord.InteractionResponseType.message_update  # is_done() from now on


RoutedComponents = tuple[dict[re.Pattern[str], Any], dict[Any, dict[tuple[int, str], Any]]]
"""A view store's dynamic item templates, and its stored views' items by message id (None: any)."""


def routed_components(client: discord.Client) -> RoutedComponents | None:
    """The client's view store as discord.py 2.7 keeps it; None when it cannot be read."""
    store = getattr(getattr(client, "_connection", None), "_view_store", None)
    dynamic = getattr(store, "_dynamic_items", None)
    views = getattr(store, "_views", None)
    if not isinstance(dynamic, dict) or not isinstance(views, dict):
        return None
    return dynamic, views


def shows_component(message: discord.Message | None, kind: int, custom_id: str) -> bool:
    """Whether `message`, as an interaction carries it, shows a component of type `kind` with `custom_id`,
    judged as discord.py 2.7 judges it before calling a DynamicItem (an edit that crossed the press may
    have taken the component away: Discord sends the message as it is when the interaction is made)."""
    if message is None:
        return False
    kind_of_view = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    try:
        view = kind_of_view.from_message(message, timeout=None)
    except Exception:  # a message discord.py cannot read back: its own lookup fails the same way
        return False
    return any(
        item.type.value == kind and getattr(item, "custom_id", None) == custom_id
        for item in view.walk_children()
    )


Claim = TypeVar("Claim")
"""What the bot reads from a custom_id it takes (the table route's match)."""

EPHEMERAL = 1 << 6
"""The flag of an ephemeral message (Discord's MessageFlags)."""


class Click(discord.Interaction):
    """A press on one of the bot's own components, made from the gateway payload without the clicked
    message (`message` is None): only its id and whether it is ephemeral are kept, all a press needs."""

    __slots__ = ("clicked_ephemeral", "clicked_id")

    def __init__(self, *, data: Any, state: Any) -> None:
        payload: Any = dict(data)
        clicked = payload.pop("message", None) or {}
        super().__init__(data=payload, state=state)
        self.clicked_id: int | None = int(clicked["id"]) if "id" in clicked else None
        self.clicked_ephemeral = bool(int(clicked.get("flags", 0)) & EPHEMERAL)


def clicked_message(interaction: discord.Interaction) -> tuple[int | None, bool]:
    """(id, ephemeral) of the message whose component was pressed; (None, False) for no press."""
    if isinstance(interaction, Click):
        return interaction.clicked_id, interaction.clicked_ephemeral
    message = interaction.message
    return (message.id, message.flags.ephemeral) if message is not None else (None, False)


def take_clicks(
    client: discord.Client, claim: Callable[[str], Claim | None], take: Callable[[Click, Claim], None]
) -> bool:
    """Component presses whose custom_id the bot `claim`s reach `take` as a `Click`, with what the claim
    read from the custom_id, announced as every interaction is (`on_interaction`); every other
    interaction goes on to discord.py as before. Returns False (discord.py routes everything) when the
    client's gateway parsers cannot be read."""
    state = getattr(client, "_connection", None)
    parsers = getattr(state, "parsers", None)
    if state is None or not isinstance(parsers, dict) or parsers.get("INTERACTION_CREATE") is None:
        return False
    original = parsers["INTERACTION_CREATE"]
    original = getattr(original, "discord_py_parser", original)  # taken again after a reload

    def parse(data: Any) -> None:
        inner = data.get("data") or {}
        claimed = (
            claim(str(inner.get("custom_id", "")))
            if data.get("type") == discord.InteractionType.component.value
            else None
        )
        if claimed is None:
            original(data)
            return
        click = Click(data=data, state=state)
        state.dispatch("interaction", click)
        take(click, claimed)

    parse.discord_py_parser = original  # type: ignore[attr-defined]
    parsers["INTERACTION_CREATE"] = parse
    return True


def give_back_clicks(client: discord.Client) -> None:
    """Undo `take_clicks`: discord.py routes every interaction again."""
    parsers = getattr(getattr(client, "_connection", None), "parsers", None)
    if isinstance(parsers, dict):
        taken = parsers.get("INTERACTION_CREATE")
        parsers["INTERACTION_CREATE"] = getattr(taken, "discord_py_parser", taken)


RATELIMIT_SWEEP_EVERY = 60.0
"""Seconds between two sweeps of expired rate-limit buckets (discord.py: at every new bucket)."""


def throttle_ratelimit_sweep(client: discord.Client, every: float = RATELIMIT_SWEEP_EVERY) -> bool:
    """Expired rate-limit buckets are swept at most once every `every` seconds instead of at every new
    bucket: with thousands of channels each new one scanned thousands (at 10,000 tables, 30 s of CPU
    in a restart's recovery, bench/scale.py). The buckets kept meanwhile are a few bytes each. False
    when the client's HTTP client has no such sweep (then nothing changes)."""
    http = getattr(client, "http", None)
    sweep = getattr(http, "_try_clear_expired_ratelimits", None)
    if not callable(sweep):
        return False
    last = -math.inf

    def throttled() -> None:
        nonlocal last
        moment = time.monotonic()
        if moment - last >= every:
            last = moment
            sweep()

    http._try_clear_expired_ratelimits = throttled  # type: ignore[union-attr]
    return True
