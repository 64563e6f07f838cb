"""HTTP_PORT's server on a bot playing on simcord: /healthz says whether the gateway and the database
are there (200, else 503 and why), /metrics counts what the bot did in Prometheus's format; the
settings refuse a port that is no port, and a taken port stops the start with status 2."""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

import bot as bot_module
from bot import Settings, SettingsError, create_bot
from cogs.kit.health import HealthServer, PortProblem, ask_health
from cogs.kit.metrics import route_of
from storage.backend import connect
from tests.e2e.helpers import Table, selects
from tests.games import extensions as game_extensions
from tests.seeds import TableSeeds

pytestmark = pytest.mark.seed(7)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", *game_extensions())


@pytest.fixture
async def simcord_bot(
    database_path: Path, extensions: tuple[str, ...], seeds: TableSeeds
) -> AsyncIterator[Any]:
    settings = Settings(token="simcord", database_path=str(database_path), http_port=free_port())
    bot = create_bot(settings, extensions=extensions, sync=True, seeds=seeds)
    yield bot
    await bot.database.close()  # simcord detaches a bot without closing it


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as answer:
        return answer.status, await answer.text()


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample of the exposition (0 when it is not there)."""
    wanted = ",".join(f'{key}="{value}"' for key, value in labels.items())
    for line in text.splitlines():
        head, _, value = line.rpartition(" ")
        if head == (f"{name}{{{wanted}}}" if labels else name):
            return float(value)
    return 0.0


async def serving(bot: Any, database: Any = None) -> HealthServer:
    port = bot.settings.http_port
    server = HealthServer(bot, database or bot.database, bot.metrics, "127.0.0.1", port)
    await server.start()
    return server


async def test_healthz_is_200_while_connected_and_503_once_the_database_is_closed(simcord_env: Any) -> None:
    env = simcord_env
    # A connection of its own to the bot's file, closed below (the bot's own stays for the checks
    # every e2e test ends with).
    database = await connect(env.bot.settings.database_path)
    server = await serving(env.bot, database)
    try:
        status, body = await get(server.port, "/healthz")
        assert status == 200, body
        assert json.loads(body)["status"] == "ok"
        assert await _in_thread(ask_health, "127.0.0.1", server.port) == (True, body)
        await database.close()
        status, body = await get(server.port, "/healthz")
        assert status == 503
        problems = json.loads(body)["problems"]
        assert len(problems) == 1 and problems[0].startswith("the database does not answer"), problems
        healthy, said = await _in_thread(ask_health, "127.0.0.1", server.port)
        assert not healthy and "database" in said
    finally:
        await server.stop()
    healthy, said = ask_health("127.0.0.1", server.port)  # nobody listens any more
    assert not healthy and said.startswith("no answer from http://127.0.0.1:")


async def test_healthz_is_503_before_the_gateway_is_ready(tmp_path: Path) -> None:
    database = await connect(str(tmp_path / "fresh.db"))
    settings = Settings(token="x", database_path=str(tmp_path / "fresh.db"), http_port=free_port())
    fresh = create_bot(settings, database=database)
    server = HealthServer(fresh, database, fresh.metrics, "127.0.0.1", free_port())  # type: ignore[arg-type]
    await server.start()
    try:
        status, body = await get(server.port, "/healthz")
        assert status == 503
        assert json.loads(body) == {
            "status": "unhealthy",
            "problems": ["the gateway is not ready (connecting or reconnecting)"],
        }
    finally:
        await server.stop()
        await database.close()


async def test_metrics_count_an_applied_and_a_refused_interaction(simcord_env: Any) -> None:
    env = simcord_env
    await env.bot.tree.sync()
    server = await serving(env.bot)
    try:
        table = Table(env, "sushigo", ["alice", "bob"])
        await table.seat_everyone()
        _, before = await get(server.port, "/metrics")
        dm = table.dm("alice")
        menu = selects(dm)[0]
        table.did("alice", f"picks “{menu.options[0].label}” in their DM")
        picked = await table.players["alice"].user.select(
            dm, [menu.options[0].value], custom_id=menu.custom_id
        )
        assert picked.acknowledged and not picked.ephemeral
        table.did("alice", "runs /sushigo join at the table she sits at")
        joined = await table.member("alice").slash(table.channel, "sushigo join")
        assert joined.ephemeral  # refused: the game has started
        status, after = await get(server.port, "/metrics")
    finally:
        await server.stop()
    assert status == 200
    counted = "sushibar_interactions_total"
    applied = {"kind": "select", "outcome": "applied"}
    refused = {"kind": "slash", "outcome": "refused"}
    assert sample(after, counted, **applied) == sample(before, counted, **applied) + 1
    assert sample(after, counted, **refused) == sample(before, counted, **refused) + 1
    assert sample(after, "sushibar_tables_open", game="sushigo") == 1
    assert sample(after, "sushibar_database_write_seconds_count") >= 1  # the pick's commit, at least
    assert "# TYPE sushibar_answer_seconds histogram" in after
    assert "# TYPE sushibar_discord_requests_total counter" in after
    assert 'sushibar_gateway_latency_seconds{shard="0"}' in after


def test_routes_leave_ids_and_tokens_out() -> None:
    assert route_of("/api/v10/channels/123/messages/456") == "/channels/{id}/messages/{id}"
    assert (
        route_of("/api/v10/interactions/99/aW50ZXJhY3Rpb24/callback") == "/interactions/{id}/{token}/callback"
    )
    assert (
        route_of("/api/v10/webhooks/1/tok.en/messages/@original")
        == "/webhooks/{id}/{token}/messages/@original"
    )


@pytest.mark.parametrize("port", ["0", "65536", "80a", "-1", "http", "٨٠"])
def test_a_port_that_is_no_port_is_refused_by_name(port: str) -> None:
    with pytest.raises(SettingsError, match=f"HTTP_PORT must be a port number from 1 to 65535, got {port!r}"):
        Settings.from_env({"DISCORD_TOKEN": "x", "HTTP_PORT": port})


def test_without_a_port_there_is_no_server_and_no_metrics() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "x"})
    assert settings.http_port is None and create_bot(settings).metrics is None
    assert ask_health(settings.http_host, None)[0] is False
    assert Settings.from_env({"HTTP_PORT": " 9090 ", "HTTP_HOST": "0.0.0.0"}).http_port == 9090


async def test_a_taken_port_is_one_line_and_status_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        database = await connect(str(tmp_path / "port.db"))
        try:
            fresh = create_bot(Settings(token="x", http_port=port), database=database)
            server = HealthServer(fresh, database, fresh.metrics, "127.0.0.1", port)  # type: ignore[arg-type]
            with pytest.raises(
                PortProblem, match=f"HTTP_PORT {port} on HTTP_HOST 127.0.0.1 cannot be listened"
            ):
                await server.start()
        finally:
            await database.close()
        # The whole start: settings read, then `_serve` stops before Discord is contacted.
        for name, value in {
            "DISCORD_TOKEN": "not.a.token",
            "DATABASE_PATH": str(tmp_path / "start.db"),
            "HTTP_PORT": str(port),
            "DATABASE_URL": "",
        }.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setattr(bot_module, "DOTENV", tmp_path / "no.env")
        monkeypatch.setattr(bot_module, "configure_logging", lambda level: None)
        status = await _in_thread(bot_module.main, [])
    assert status == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and said[0].startswith(f"Sushi Bar cannot start: HTTP_PORT {port} on HTTP_HOST"), (
        said
    )


async def _in_thread(function: Any, *args: Any) -> Any:
    """`main` runs its own event loop (asyncio.run), so not on the test's."""
    import asyncio

    return await asyncio.to_thread(function, *args)
