"""Sushi Bar: settings, logging, the bot, and running it.

python bot.py          run the bot (DISCORD_TOKEN required)
python bot.py --health ask the running bot's /healthz (HTTP_PORT): status 0 when healthy, 1 otherwise
python bot.py --sync   sync slash commands (globally, or to DEV_GUILD_ID's server only), then exit
python bot.py backup PATH [--force]   a consistent copy of the SQLite database, even while it runs
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import math
import os
import stat
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord.ext import commands
from dotenv import load_dotenv

from cogs import feature_extensions
from cogs.kit import adapter, lifecycle
from cogs.kit.errors import answer_failure
from cogs.kit.health import HealthServer, PortProblem, ask_health
from cogs.kit.metrics import Metrics, gauge
from cogs.kit.services import Seeds, Services, new_seed
from cogs.kit.version import version
from cogs.kit.words.mentions import SLASH_COMMANDS
from cogs.kit.words.translator import CatalogTranslator
from cogs.preferences.settings import MAX_TIMEOUT, MIN_TIMEOUT
from cogs.tables.tables import loaded_tables
from cogs.tables.ui import TableButton, TableSelect
from rules.registry import REGISTERED
from storage import backup
from storage.backend import connect, is_postgres_url
from storage.database import Database, DatabaseProblem

log = logging.getLogger("sushibar")

# Every registered game's cog is its cogs package's cog.py; rules.registry is the only list of games.
GAME_EXTENSIONS = tuple(entry.extension for entry in REGISTERED.values())
EXTENSIONS = ("cogs.tables", *GAME_EXTENSIONS, *feature_extensions())

MISSING_TOKEN = """\
Sushi Bar cannot start: DISCORD_TOKEN is not set.

Create an application at https://discord.com/developers/applications, add a bot
to it, copy its token (Bot -> Reset Token) and put it in a .env file next to
bot.py as DISCORD_TOKEN=... (see .env.example), or export it in your shell.
README.md, section "Set up the Discord application", walks through every step.
"""


NO_COMMANDS = (
    "Discord has no slash commands registered for this bot, so nobody can use it yet. "
    "Run `python bot.py --sync` once (global commands can take up to an hour to appear "
    "everywhere), or set DEV_GUILD_ID to a test server's id for instant commands there."
)


class SettingsError(ValueError):
    """A setting is present but unusable; the message names it."""


@dataclass(frozen=True)
class Settings:
    token: str = field(repr=False)  # never printed, never logged
    database_path: str = "sushibar.db"
    database_url: str = field(default="", repr=False)  # PostgreSQL when set; may hold a password
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    turn_timeout: float = 300.0
    # Sharding (SHARD_COUNT, SHARD_IDS): None runs one unsharded connection, as a bot under 2,500
    # servers does; set, this process runs `shard_ids` (all when None) of `shard_count` shards.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # HTTP_PORT, HTTP_HOST: /healthz and /metrics (cogs/kit/health.py); None: no server, no metrics.
    http_port: int | None = None
    http_host: str = "127.0.0.1"
    # PRIVACY_URL, TERMS_URL, SUPPORT_URL: what /about links ("" = not shown); SERVER_DATA_GRACE_DAYS:
    # days a server's data is kept after the bot is removed from it (cogs/privacy/servers.py).
    privacy_url: str = ""
    terms_url: str = ""
    support_url: str = ""
    server_data_grace_days: float = 30.0

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def shards_run(self) -> int:
        """How many shards this process runs (its database pool is sized from it)."""
        if self.shard_ids is not None:
            return len(self.shard_ids)
        return self.shard_count or 1

    @property
    def database(self) -> str:
        """What the bot opens: DATABASE_URL (PostgreSQL) when set, else DATABASE_PATH (SQLite)."""
        return self.database_url or self.database_path

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Settings:
        def number(name: str, default: float, minimum: float, maximum: float) -> float:
            raw = env.get(name, "").strip()
            if not raw:
                return default
            try:
                value = float(raw)
            except ValueError as error:
                raise SettingsError(f"{name} must be a number, got {raw!r}") from error
            # float() also takes "nan", "inf" and "1e999" (= inf): nan compares false with every
            # bound, so it is refused by name before the range check.
            if not math.isfinite(value) or not minimum <= value <= maximum:
                raise SettingsError(f"{name} must be a number from {minimum:g} to {maximum:g}, got {raw!r}")
            return value

        guild = env.get("DEV_GUILD_ID", "").strip()
        # isdigit() alone accepts "²" and "١٢", which int() then refuses or misreads.
        if guild and not (guild.isascii() and guild.isdigit() and 0 < int(guild) < 2**64):
            raise SettingsError(f"DEV_GUILD_ID must be a server id (digits), got {guild!r}")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, got {level!r}")
        url = env.get("DATABASE_URL", "").strip()
        if url and not is_postgres_url(url):  # the value itself may hold a password: never echoed
            raise SettingsError(
                "DATABASE_URL must be a PostgreSQL URL, postgresql://user:password@host:5432/database "
                "(leave it empty to use DATABASE_PATH and SQLite)"
            )
        shard_count, shard_ids = _shards(env.get("SHARD_COUNT", ""), env.get("SHARD_IDS", ""))
        port = env.get("HTTP_PORT", "").strip()
        if port and not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
            raise SettingsError(f"HTTP_PORT must be a port number from 1 to 65535, got {port!r}")
        if shard_ids is not None and len(shard_ids) < (shard_count or 0) and not url:
            raise SettingsError(
                "SHARD_IDS runs only some of the shards, so other processes run the rest; they "
                "must share one PostgreSQL database: set DATABASE_URL (SQLite serves one process)"
            )
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip(),
            database_url=url,
            # "~" expanded here, so the path checked is the path SQLite opens (it would not expand it).
            database_path=os.path.expanduser(env.get("DATABASE_PATH", "").strip() or "sushibar.db"),
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            turn_timeout=number("TURN_TIMEOUT_SECONDS", 300.0, MIN_TIMEOUT, MAX_TIMEOUT),
            shard_count=shard_count,
            shard_ids=shard_ids,
            http_port=int(port) if port else None,
            http_host=env.get("HTTP_HOST", "").strip() or "127.0.0.1",
            privacy_url=_link(env, "PRIVACY_URL"),
            terms_url=_link(env, "TERMS_URL"),
            support_url=_link(env, "SUPPORT_URL"),
            server_data_grace_days=number("SERVER_DATA_GRACE_DAYS", 30.0, 0, 3650),
        )


def _link(env: Mapping[str, str], name: str) -> str:
    """A web address /about links (a page the operator publishes), or "" when unset."""
    value = env.get(name, "").strip()
    if value and not (value.startswith(("https://", "http://")) and len(value) <= 512 and " " not in value):
        raise SettingsError(f"{name} must be a web address starting with https://, got {value[:80]!r}")
    return value


MAX_SHARDS = 10_000  # far beyond any bot: Discord asks for one shard per 1,000–2,500 servers


def _shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS ("0,1"): how many shards the bot has, and which this process runs."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT (how many shards the bot has in all)")
        return None, None
    if not (count_text.isascii() and count_text.isdigit() and 1 <= int(count_text) <= MAX_SHARDS):
        raise SettingsError(f"SHARD_COUNT must be a whole number from 1 to {MAX_SHARDS}, got {count_text!r}")
    count = int(count_text)
    if not ids_text:
        return count, None
    parts = [part.strip() for part in ids_text.split(",")]
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise SettingsError(
            f"SHARD_IDS must be shard numbers separated by commas (e.g. 0,1), got {ids_text!r}"
        )
    ids = tuple(int(part) for part in parts)
    if len(set(ids)) != len(ids) or any(shard >= count for shard in ids):
        raise SettingsError(
            f"SHARD_IDS must name different shards from 0 to {count - 1} (SHARD_COUNT is {count}), "
            f"got {ids_text!r}"
        )
    return count, tuple(sorted(ids))


class SushiBar(commands.Bot):
    """The bot: owns the database and loads every cog in `setup_hook`. One connection to Discord;
    `ShardedSushiBar` is the same bot over several shards."""

    def __init__(
        self,
        settings: Settings,
        *,
        extensions: Sequence[str] = EXTENSIONS,
        sync: bool = False,
        database: Database | None = None,
        seeds: Seeds = new_seed,
    ) -> None:
        """`seeds`: where new games' seeds come from (a test deals fixed games with its own)."""
        # Everything is slash commands and buttons: of the gateway's events the bot needs only its
        # servers, channels and threads. With messages' events on, every board edit would come back as
        # a MESSAGE_UPDATE that discord.py builds into a Message nobody reads.
        intents = discord.Intents.none()
        intents.guilds = True
        # The bot never joins a voice channel, so discord.py's warnings at start-up that the voice
        # libraries (PyNaCl, davey) are missing would only worry an admin over nothing.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        shards: dict[str, Any] = {}
        if isinstance(self, discord.AutoShardedClient):
            ids = list(settings.shard_ids) if settings.shard_ids is not None else None
            shards = {"shard_count": settings.shard_count, "shard_ids": ids}
        # Figures only when something serves them (HTTP_PORT): an unwatched bot counts nothing.
        self.metrics = Metrics() if settings.http_port is not None else None
        if self.metrics is not None:
            self.metrics.read(self._readings)
            # Discord's requests counted and interactions' answers timed (aiohttp's trace).
            shards["http_trace"] = self.metrics.http_trace()
        self._stopping: asyncio.Future[None] | None = None
        self._gateway_shut = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # Nobody is pinged unless a message says whom (turn pings, results): a player named
            # "@everyone" stays text.
            allowed_mentions=discord.AllowedMentions.none(),
            **shards,
        )
        adapter.throttle_ratelimit_sweep(self)  # discord.py's sweep is quadratic in channels in play
        self.settings = settings
        self.extensions_to_load = tuple(extensions)
        self.sync_on_start = sync
        self.seeds = seeds
        self.database: Database
        self.services: Services
        if database is not None:  # `python bot.py` opens it before contacting Discord
            self.database = database

    async def setup_hook(self) -> None:
        if not hasattr(self, "database"):
            self.database = await connect(self.settings.database, shards=self.settings.shards_run)
        self.services = Services.open(self.database, self.seeds)
        await self.tree.set_translator(CatalogTranslator())
        self.tree.on_error = answer_failure  # the one answer to every refused or failed slash command
        for extension in self.extensions_to_load:
            await self.load_extension(extension)
        # Buttons and selects decode their meaning from custom_id: old boards keep working after a restart.
        self.add_dynamic_items(TableButton, TableSelect)
        registered: list[discord.app_commands.AppCommand] | None
        if self.settings.dev_guild_id is not None:  # with or without --sync: that server only
            registered = await self._sync_development_server(self.settings.dev_guild_id)
        elif self.sync_on_start:
            registered = await self.tree.sync()
        else:
            registered = await self._registered_commands()
            if registered == []:
                log.warning(NO_COMMANDS)
        # Texts name commands by mention (drawn in each reader's client language) once their ids
        # are known: the sync's or the fetch's answer carries them, so this costs no request.
        SLASH_COMMANDS.learn(self.tree.get_commands(), registered)
        tables = loaded_tables(self)
        if self.metrics is not None and tables is not None:
            for game_id in tables.games:  # every game's count shows from the start, at 0
                self.metrics.games_finished.labels(game_id)

    async def _sync_development_server(self, guild_id: int) -> list[discord.app_commands.AppCommand]:
        """DEV_GUILD_ID: the commands live in that one server, synced there (instantly). Discord shows
        a server its own commands and the global ones, so the global set an earlier `--sync` left
        would show every command twice there: it is removed."""
        guild = discord.Object(guild_id)
        self.tree.copy_global_to(guild=guild)
        registered = await self.tree.sync(guild=guild)
        log.info("slash commands synced to development server %s", guild_id)
        try:
            stale = await self.tree.fetch_commands()
            if stale:
                assert self.application_id is not None  # known once logged in, before setup_hook
                await self.http.bulk_upsert_global_commands(self.application_id, payload=[])
                log.info(
                    "removed %d global slash commands, which would show twice in the development server",
                    len(stale),
                )
        except discord.HTTPException as error:  # not worth refusing to start: the next start tries again
            log.warning("could not remove the global slash commands (%s): they may show twice", error)
        return registered

    async def _registered_commands(self) -> list[discord.app_commands.AppCommand] | None:
        """The global commands Discord has for the bot; None (texts keep commands as text) when
        Discord does not say, which is no reason not to start."""
        try:
            return await self.tree.fetch_commands()
        except discord.HTTPException as error:
            log.warning("could not fetch the slash commands (%s): texts name them without links", error)
            return None

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if self.metrics is not None:
            if event_name == "interaction":
                self.metrics.received(args[0])
            elif event_name == "app_command_completion":
                self.metrics.outcome(args[0], "applied")
        super().dispatch(event_name, *args, **kwargs)

    def _readings(self) -> list[Any]:
        """The figures read at a scrape: open tables in memory by game, each shard's gateway latency."""
        tables = loaded_tables(self)
        games = dict.fromkeys(tables.games, 0) if tables is not None else {}
        for loaded in tables.cache.loaded.values() if tables is not None else ():
            if loaded.record.status in ("lobby", "playing"):
                games[loaded.record.game_id] = games.get(loaded.record.game_id, 0) + 1
        latencies = getattr(self, "latencies", None) or [(0, self.latency)]
        return [
            gauge("sushibar_tables_open", "Open tables (lobby or playing) in memory, by game", "game", games),
            gauge(
                "sushibar_gateway_latency_seconds",
                "Gateway heartbeat latency, by shard (+Inf before the first heartbeat)",
                "shard",
                {str(shard): latency for shard, latency in latencies},
            ),
        ]

    def is_closed(self) -> bool:
        # Stopping, the gateway is closed first (`lifecycle`): discord.py must not connect it again.
        return self._gateway_shut or super().is_closed()

    async def stop(self) -> None:
        """A clean stop (SIGTERM, SIGINT): no new clicks, the taken ones served, the tables drained,
        then closed (cogs/kit/lifecycle.py says in which order); at most `lifecycle.STOP_WITHIN` s."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        loop = asyncio.get_running_loop()
        began = loop.time()
        try:
            self._gateway_shut = True
            await lifecycle.close_gateway(self)
            left = lambda: lifecycle.STOP_WITHIN - (loop.time() - began)  # noqa: E731
            done = await lifecycle.handlers_done(left() - 2.0)  # some time kept for the tables
            tables = loaded_tables(self)
            if tables is not None:
                done = await tables.pipeline.drain(left()) and done
            log.info("stopped in %.1f s%s", loop.time() - began, "" if done else " (some work cut short)")
        finally:
            await self._close()

    async def close(self) -> None:
        if self._stopping is not None:  # a clean stop is under way: it closes everything at its end
            await asyncio.shield(self._stopping)
            return
        await self._close()

    async def _close(self) -> None:
        await super().close()
        if hasattr(self, "database"):
            await self.database.close()


class ShardedSushiBar(SushiBar, commands.AutoShardedBot):
    """Sushi Bar over `SHARD_IDS` of `SHARD_COUNT` shards (AutoShardedBot). Other processes may run
    the other shards: they share one PostgreSQL database, which serialises every move
    (cogs/tables/cluster.py says which process does what)."""


def create_bot(
    settings: Settings,
    *,
    extensions: Sequence[str] = EXTENSIONS,
    sync: bool = False,
    database: Database | None = None,
    seeds: Seeds = new_seed,
) -> SushiBar:
    """The one factory for the bot: production, `--sync` and the tests all use it (a test hands it
    `seeds`, a fixed source of new games' seeds, and deals the same games every run)."""
    kind = ShardedSushiBar if settings.sharded else SushiBar
    return kind(settings, extensions=extensions, sync=sync, database=database, seeds=seeds)


DOTENV = Path(__file__).with_name(".env")


def read_settings(dotenv: Path) -> Settings:
    """The environment, completed by a .env file that never overrides what is already set."""
    load_dotenv(dotenv, override=False)
    return Settings.from_env(os.environ)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Sushi Bar: five sushi tabletop games on Discord")
    parser.add_argument(
        "--health",
        action="store_true",
        help="ask the running bot's /healthz (HTTP_HOST, HTTP_PORT); status 0 when healthy, 1 otherwise",
    )
    parser.add_argument(
        "--sync",
        action="store_true",
        help="sync slash commands globally (with DEV_GUILD_ID: to that server only) and exit",
    )
    subcommands = parser.add_subparsers(dest="command", title="commands")
    backup_command = subcommands.add_parser(
        "backup", help="write a consistent copy of the SQLite database to PATH, even while the bot runs"
    )
    backup_command.add_argument("path", type=Path, help="the new file (its folder must exist)")
    backup_command.add_argument("--force", action="store_true", help="replace PATH if it exists")
    args = parser.parse_args(argv)

    try:
        settings = read_settings(DOTENV)
    except SettingsError as error:
        print(f"Sushi Bar cannot start: {error}. See .env.example.", file=sys.stderr)
        return 2
    if args.command == "backup":  # needs no token: it only reads the database
        return backup.run(settings.database_path, settings.database_url, args.path, force=args.force)
    if args.health:  # needs no token: it asks the running bot
        healthy, said = ask_health(settings.http_host, settings.http_port)
        print(said, file=sys.stdout if healthy else sys.stderr)
        return 0 if healthy else 1
    if not settings.token:
        print(MISSING_TOKEN, file=sys.stderr)
        return 2
    problem = None if settings.database_url else database_path_problem(settings.database_path)
    if problem is not None:
        print(f"Sushi Bar cannot start: {problem}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    try:
        asyncio.run(_serve(settings, sync=args.sync))
    except (DatabaseProblem, PortProblem) as problem:
        print(f"Sushi Bar cannot start: {problem}", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print(
            "Sushi Bar cannot start: Discord refused DISCORD_TOKEN. Reset the token and try again.",
            file=sys.stderr,
        )
        return 2
    except aiohttp.ClientConnectorError as error:
        # Not a setting to fix but an outage to wait out: status 1, so a supervisor retries.
        print(
            f"Sushi Bar cannot start: Discord cannot be reached ({error}). Check the network.",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        return 0  # Ctrl+C before the bot's own handler was set: nothing to serve yet
    if args.sync:
        print(synced_message(settings))
    return 0


def synced_message(settings: Settings) -> str:
    """What `--sync` tells the admin it did."""
    if settings.dev_guild_id is not None:
        return (
            f"Slash commands synced to the development server {settings.dev_guild_id} (DEV_GUILD_ID) only, "
            "where they show at once; any global ones were removed. Unset DEV_GUILD_ID to sync globally."
        )
    return "Slash commands synced globally; Discord may take a while to show them everywhere."


COLLECTOR_THRESHOLDS = (700, 10, 100)
"""Python's default (700, 10, 10) but a full collection ten times rarer. A busy bot promotes the
state of every table it serves to the oldest generation within seconds, so by default a full
collection came every few seconds under load and stopped the event loop for 70-90 ms each time
(the p99 of a click at 100 clicks/s, bench/load_process.py); the young generations still collect
every cycle they can."""


def tune_collector(bot: commands.Bot) -> None:
    """Garbage collection for a long-running process: `COLLECTOR_THRESHOLDS`, and once the bot is
    first ready, what start-up made (modules, texts, Discord's caches of servers and channels) is
    frozen out of every later collection, which scans only what came after (`gc.freeze`). For the
    process that serves (bot.py, the load bench): a test process runs many bots and never freezes."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    frozen = False

    async def freeze_start_up() -> None:
        nonlocal frozen
        if not frozen:
            frozen = True
            gc.collect()  # garbage of start-up goes, rather than being kept frozen
            gc.freeze()

    bot.add_listener(freeze_start_up, "on_ready")


async def _serve(settings: Settings, *, sync: bool) -> None:
    """Open the database, then run the bot (or only log in and sync); close both on any way out.

    The database is opened before Discord is contacted, so a bad file is reported at once and
    without a network (a PostgreSQL server that cannot be reached is named the same way);
    `finally` closes it on every path, since an open aiosqlite connection's thread would keep the
    process alive after the error. HTTP_PORT's server listens before Discord is contacted too (a
    port taken stops the start); SIGTERM and SIGINT stop the bot cleanly (`SushiBar.stop`).
    """
    database = await connect(settings.database, shards=settings.shards_run)
    health: HealthServer | None = None
    try:
        where = "PostgreSQL (DATABASE_URL)" if settings.database_url else settings.database_path
        schema = await database.schema_version()
        log.info("Sushi Bar %s starting, database %s at schema version %d", version(), where, schema)
        async with create_bot(settings, sync=sync, database=database) as bot:
            tune_collector(bot)
            if sync:
                await bot.login(settings.token)  # login runs setup_hook, which syncs when told to
                return
            if bot.metrics is not None and settings.http_port is not None:
                health = HealthServer(bot, database, bot.metrics, settings.http_host, settings.http_port)
                await health.start()
            lifecycle.on_stop_signals(bot.stop)
            await bot.start(settings.token)
    finally:
        if health is not None:
            await health.stop()
        await database.close()  # closing twice is harmless; the bot closes it too


# At DEBUG, discord.py writes every gateway payload (interaction tokens: 15-minute credentials
# to answer as the bot; member names, nicknames, avatars) and every request URL
# (/interactions/<id>/<token>/callback, /webhooks/<app>/<token>), and aiosqlite writes every
# statement with its parameters (players' names, whole game states with hidden hands). Redacting
# would mean knowing every payload's shape, so these loggers are held at INFO whatever LOG_LEVEL
# says: their warnings (rate limits, reconnects) stay, their dumps never reach a handler.
# LOG_LEVEL=DEBUG still shows the bot's own debug lines and the rest of discord.py's.
PAYLOAD_LOGGERS = ("discord.gateway", "discord.http", "discord.webhook", "aiosqlite")


def configure_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)-8s %(name)s: %(message)s")
    quiet_payload_loggers(level)


def quiet_payload_loggers(level: str) -> None:
    """Hold the payload loggers at INFO, or at `level` when that is higher (WARNING stays WARNING)."""
    floor = max(logging.INFO, logging.getLevelNamesMapping()[level])
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(floor)


def database_path_problem(path: str) -> str | None:
    """Why DATABASE_PATH cannot hold the database, in one paragraph; None when it can.

    What the file holds is `storage.backend.connect`'s to judge; this is about the place.
    """
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        example = target / "sushibar.db"
        return f"DATABASE_PATH ({path}) names a folder. Name a file in it instead, e.g. {example}."
    if not folder.is_dir():
        return (
            f"DATABASE_PATH ({path}) is in a folder that does not exist ({folder}). "
            "Create the folder or choose another path (see .env.example)."
        )
    if target.exists() and not stat.S_ISREG(target.stat().st_mode):
        return f"DATABASE_PATH ({path}) is not an ordinary file (a device or a pipe). Name a file instead."
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        return f"DATABASE_PATH ({path}) cannot be written by this user. Choose a writable place."
    # Permissions tell only part of it (root may "write" anywhere; /proc and /sys take no new
    # files): try it. A file made here is removed again; SQLite makes its own.
    attempt = "opening it for writing" if target.exists() else "creating a file there"
    try:
        if target.exists():
            os.close(os.open(target, os.O_RDWR))
        else:
            os.close(os.open(target, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644))
            target.unlink()
    except OSError as error:
        return (
            f"DATABASE_PATH ({path}) cannot hold a database: {attempt} fails ({error.strerror}). "
            "Name a file in a writable folder on an ordinary disk (see .env.example)."
        )
    return None


if __name__ == "__main__":
    sys.exit(main())
