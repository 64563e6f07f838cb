"""The bot's own small HTTP server, opt-in (HTTP_PORT): `/healthz` for a supervisor and `/metrics` for
Prometheus. aiohttp's server (aiohttp comes with discord.py), on the bot's own event loop.

- `/healthz`: 200 and `{"status": "ok", ...}` while every shard of this process is connected to the
  gateway and the database answers a `SELECT 1` (within `DATABASE_WAIT`); else 503 and
  `{"status": "unhealthy", "problems": [...]}` naming each, and 503 `stopping` once the bot stops.
- `/metrics`: every figure of `cogs.kit.metrics`, in Prometheus's text format.
"""

from __future__ import annotations

import asyncio
import json
import math
import urllib.error
import urllib.request
from typing import Any

import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from cogs.kit.metrics import Metrics
from storage.database import Database

DATABASE_WAIT = 2.0  # seconds the database has to answer before it counts as unhealthy
ASK_WITHIN = 5.0  # seconds `python bot.py --health` waits for the answer


class PortProblem(RuntimeError):
    """The health server cannot listen where it was told (the message says where and why)."""


def gateway_problems(bot: discord.Client) -> list[str]:
    """Why the bot is not connected to Discord's gateway, shard by shard; empty when it is."""
    if bot.is_closed():
        return ["the bot is closed"]
    if not bot.is_ready():
        return ["the gateway is not ready (connecting or reconnecting)"]
    if isinstance(bot, discord.AutoShardedClient):
        return [
            f"shard {shard_id} is disconnected" for shard_id, shard in bot.shards.items() if shard.is_closed()
        ]
    # One connection: discord.py's `ws` (None before the first connection), open or not.
    socket: Any = getattr(bot, "ws", None)
    if socket is None or not getattr(socket, "open", False):
        return ["the gateway is disconnected"]
    return []


async def database_problems(database: Database) -> list[str]:
    try:
        await asyncio.wait_for(database.fetch_one("SELECT 1"), DATABASE_WAIT)
    except TimeoutError:
        return [f"the database did not answer within {DATABASE_WAIT:g} s"]
    except Exception as error:  # closed, unreachable, locked: the reason, not the traceback
        return [f"the database does not answer ({type(error).__name__}: {error})"[:200]]
    return []


class HealthServer:
    """Listens on `host`:`port` for as long as the bot runs."""

    def __init__(
        self, bot: discord.Client, database: Database, metrics: Metrics, host: str, port: int
    ) -> None:
        self.bot = bot
        self.database = database
        self.metrics = metrics
        self.host = host
        self.port = port
        self.stopping = False  # the bot is stopping: unhealthy from now on, whatever else holds
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.exposition)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)

    async def start(self) -> None:
        """Listen, or raise PortProblem (the port is taken, or the host is no address of this machine)."""
        await self._runner.setup()
        # SO_REUSEADDR (aiohttp's default): a restart may bind over its last run's closed connections,
        # while a port another program listens on is still refused.
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except OSError as error:
            await self._runner.cleanup()
            raise PortProblem(
                f"HTTP_PORT {self.port} on HTTP_HOST {self.host} cannot be listened on "
                f"({error.strerror or error}): is another program using it? Choose another port."
            ) from error

    async def stop(self) -> None:
        await self._runner.cleanup()

    async def healthz(self, _request: web.Request) -> web.Response:
        problems = ["the bot is stopping"] if self.stopping else []
        problems += gateway_problems(self.bot)
        problems += await database_problems(self.database)
        if problems:
            return _json({"status": "unhealthy", "problems": problems}, 503)
        latency = self.bot.latency
        body: dict[str, Any] = {"status": "ok", "guilds": len(self.bot.guilds)}
        body["latency_ms"] = round(latency * 1000, 1) if math.isfinite(latency) else None
        return _json(body, 200)

    async def exposition(self, _request: web.Request) -> web.Response:
        return web.Response(body=self.metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST})


def _json(body: dict[str, Any], status: int) -> web.Response:
    return web.Response(text=json.dumps(body), status=status, content_type="application/json")


def ask_health(host: str, port: int | None) -> tuple[bool, str]:
    """`python bot.py --health`: whether the running bot's /healthz says it is healthy, and what it
    said (or why it said nothing), in one line."""
    if port is None:
        return False, "HTTP_PORT is not set, so the bot serves no /healthz (see .env.example)"
    asked = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)  # "every address"
    url = f"http://[{asked}]:{port}/healthz" if ":" in asked else f"http://{asked}:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=ASK_WITHIN) as response:
            return response.status == 200, response.read().decode(errors="replace").strip()
    except urllib.error.HTTPError as error:  # 503: the body names the problems
        return False, error.read().decode(errors="replace").strip() or f"{url}: {error.code}"
    except (OSError, ValueError) as error:
        reason = getattr(error, "reason", None) or error
        return False, f"no answer from {url}: {reason}"
