"""discord.py's private parts the bot reads (cogs/kit/adapter.py), checked against the installed
discord.py on its own objects: an upgrade that moves one fails here, naming it, instead of a click
failing in production."""

from __future__ import annotations

import inspect
from typing import Any

import aiohttp
import discord
import pytest
from discord.webhook.async_ import AsyncWebhookAdapter, async_context, interaction_message_response_params

from cogs.kit.adapter import (
    Click,
    answer_with_update,
    clicked_message,
    give_back_clicks,
    routed_components,
    take_clicks,
    throttle_ratelimit_sweep,
)
from cogs.tables.ui import TableButton, TableSelect

UPGRADED = f"discord.py {discord.__version__} changed {{}}: cogs/kit/adapter.py must follow it ({{}})"


def require(holds: bool, attribute: str, needed_for: str) -> None:
    if not holds:
        pytest.fail(UPGRADED.format(attribute, needed_for), pytrace=False)


def client() -> discord.Client:
    return discord.Client(intents=discord.Intents.none())


def press(custom_id: str = "x") -> Any:
    """A component press as the gateway delivers it."""
    return {
        "id": "11",
        "application_id": "12",
        "type": 3,
        "token": "token",
        "version": 1,
        "attachment_size_limit": 8 << 20,
        "channel": {"id": "13", "type": 1},
        "user": {"id": "14", "username": "alice", "discriminator": "0", "avatar": None},
        "data": {"custom_id": custom_id, "component_type": 2},
    }


def interaction(of: discord.Client) -> discord.Interaction:
    """A component interaction as discord.py's own constructor makes it."""
    return discord.Interaction(data=press(), state=of._connection)


async def test_an_interaction_keeps_the_session_discord_py_answers_it_with() -> None:
    require("_session" in discord.Interaction.__slots__, "Interaction._session", "the session an answer uses")
    bot = client()
    async with aiohttp.ClientSession() as session:
        bot.http._HTTPClient__session = session  # type: ignore[attr-defined]  # what login sets
        made = interaction(bot)
        require(made._session is session, "Interaction._session", "the client's aiohttp session")
    answers = inspect.getsource(discord.InteractionResponse)
    require("session=parent._session" in answers, "Interaction._session", "discord.py's own answers use it")


async def test_a_response_type_set_by_hand_makes_the_response_done() -> None:
    require(
        "_response_type" in discord.InteractionResponse.__slots__,
        "InteractionResponse._response_type",
        "an answer sent without discord.py marks the response done",
    )
    response = interaction(client()).response
    require(not response.is_done(), "InteractionResponse.is_done", "a new response is not done")
    response._response_type = discord.InteractionResponseType.message_update
    require(
        response.is_done() and response.type is discord.InteractionResponseType.message_update,
        "InteractionResponse._response_type",
        "is_done() and type read it",
    )


async def test_an_answer_already_given_is_refused_as_discord_py_refuses_it() -> None:
    made = interaction(client())
    made.response._response_type = discord.InteractionResponseType.deferred_message_update
    with pytest.raises(discord.InteractionResponded):
        await answer_with_update(made, content="late")


def test_the_webhook_request_takes_what_the_adapter_sends() -> None:
    require(
        isinstance(async_context.get(), AsyncWebhookAdapter),
        "discord.webhook.async_.async_context",
        "the adapter that sends interaction callbacks",
    )
    parameters = inspect.signature(AsyncWebhookAdapter.request).parameters
    wanted = {"route", "session", "proxy", "proxy_auth", "payload", "files", "multipart"}
    require(
        wanted <= parameters.keys(),
        f"AsyncWebhookAdapter.request{tuple(sorted(wanted - parameters.keys()))}",
        "the callback request's arguments",
    )
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        content="hello",
        previous_allowed_mentions=discord.AllowedMentions.none(),
    )
    require(
        params.payload["type"] == 7 and params.payload["data"]["content"] == "hello",
        "discord.webhook.async_.interaction_message_response_params",
        "the message update's payload",
    )
    require(
        not params.files and hasattr(params, "multipart"),
        "interaction_message_response_params(...).files / .multipart",
        "a message update with files goes as a multipart body",
    )


async def test_routed_components_reads_a_real_clients_view_store() -> None:
    bot = client()
    bot.add_dynamic_items(TableButton, TableSelect)
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Mine", custom_id="persistent:mine"))
    bot.add_view(view)
    routed = routed_components(bot)
    require(
        routed is not None,
        "Client._connection._view_store._dynamic_items / ._views",
        "which custom_ids have a handler",
    )
    assert routed is not None
    dynamic, views = routed
    require(
        set(dynamic.values()) == {TableButton, TableSelect}
        and all(
            pattern.fullmatch("sb:sushigo:1:2:a:x")
            for pattern, kind in dynamic.items()
            if kind is TableButton
        ),
        "ViewStore._dynamic_items",
        "each DynamicItem by its compiled template",
    )
    require(
        (discord.ComponentType.button.value, "persistent:mine") in views.get(None, {}),
        "ViewStore._views",
        "a persistent view's items by (component type, custom_id) under None (any message)",
    )


def test_routed_components_is_none_for_what_is_no_client() -> None:
    assert routed_components(object()) is None  # type: ignore[arg-type]


def game_of_table_id(custom: str) -> str | None:
    """A claim as the tables make one: the game a `sb:` custom_id names, None for another's."""
    return custom.split(":")[1] if custom.startswith("sb:") else None


async def test_a_wanted_press_reaches_its_taker_from_the_gateway_parser_without_its_message() -> None:
    bot = client()
    parsers = getattr(bot._connection, "parsers", None)
    require(
        isinstance(parsers, dict) and "INTERACTION_CREATE" in parsers,
        "ConnectionState.parsers['INTERACTION_CREATE']",
        "the gateway's way into discord.py, where a press is taken",
    )
    announced: list[discord.Interaction] = []
    bot.dispatch = lambda event, *args, **kwargs: announced.append(args[0])  # type: ignore[method-assign]
    bot._connection.dispatch = bot.dispatch
    taken: list[tuple[Click, str]] = []
    assert take_clicks(bot, game_of_table_id, lambda click, game: taken.append((click, game)))
    payload = press("sb:sushigo:13:2:t:join")
    payload["message"] = {"id": "15", "flags": 64}  # never read into a Message: a stub shows it
    bot._connection.parsers["INTERACTION_CREATE"](payload)
    assert len(taken) == 1 and announced == [taken[0][0]]
    click, game = taken[0]
    assert game == "sushigo"  # what the claim read from the custom_id, read once
    assert click.message is None and clicked_message(click) == (15, True)
    assert click.token == "token" and click.user.id == 14 and click.channel_id == 13
    give_back_clicks(bot)
    assert not hasattr(bot._connection.parsers["INTERACTION_CREATE"], "discord_py_parser")


async def test_a_press_the_bot_does_not_want_goes_on_to_discord_py() -> None:
    bot = client()
    seen: list[Any] = []
    bot._connection.parsers["INTERACTION_CREATE"] = seen.append  # as discord.py's own parser
    taken: list[tuple[Click, str]] = []
    assert take_clicks(bot, game_of_table_id, lambda click, game: taken.append((click, game)))
    other: Any = {"type": 3, "data": {"custom_id": "roll:again", "component_type": 2}}
    command: Any = {"type": 2, "data": {"name": "roll"}}
    bot._connection.parsers["INTERACTION_CREATE"](other)
    bot._connection.parsers["INTERACTION_CREATE"](command)
    assert seen == [other, command] and taken == []


def test_clicks_cannot_be_taken_from_what_is_no_client() -> None:
    assert take_clicks(object(), game_of_table_id, lambda click, game: None) is False  # type: ignore[arg-type]


async def test_the_ratelimit_sweep_discord_py_runs_at_every_new_bucket_is_throttled() -> None:
    bot = client()
    sweeps: list[int] = []
    require(
        callable(getattr(bot.http, "_try_clear_expired_ratelimits", None))
        and "_try_clear_expired_ratelimits()" in inspect.getsource(discord.http.HTTPClient.get_ratelimit),
        "HTTPClient._try_clear_expired_ratelimits",
        "the sweep of expired rate-limit buckets at every new bucket",
    )
    bot.http._try_clear_expired_ratelimits = lambda: sweeps.append(1)  # type: ignore[method-assign]
    assert throttle_ratelimit_sweep(bot, every=3600)
    for channel in range(300):  # 300 new buckets: one sweep, not 300
        bot.http.get_ratelimit(f"channel {channel}")
    assert sweeps == [1]


def test_no_sweep_to_throttle_on_what_is_no_client() -> None:
    assert throttle_ratelimit_sweep(object()) is False  # type: ignore[arg-type]
