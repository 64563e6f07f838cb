"""bot.py: settings from the environment, clear exits, and what reaches the log.

`python bot.py` itself, in every bad environment, is tests/test_environment.py.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest

from bot import Settings, SettingsError, create_bot

ROOT = Path(__file__).resolve().parent.parent


def test_without_a_token_the_bot_explains_where_to_get_one(monkeypatch, capsys):
    # (tests/test_environment.py runs `python bot.py` without one: status 2, no traceback.)
    import bot

    monkeypatch.setenv("DISCORD_TOKEN", "")  # set-but-empty: a developer's .env must not fill it in
    assert bot.main([]) == 2
    error = capsys.readouterr().err
    assert "DISCORD_TOKEN is not set" in error
    assert "discord.com/developers/applications" in error and "README" in error


def test_defaults():
    settings = Settings.from_env({"DISCORD_TOKEN": "abc"})
    assert settings.database_path == "sushibar.db"
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.turn_timeout == 300.0


def test_a_database_in_the_home_folder_is_opened_there():
    settings = Settings.from_env({"DISCORD_TOKEN": "abc", "DATABASE_PATH": "~/sushibar.db"})
    assert settings.database_path == str(Path.home() / "sushibar.db")


def test_the_token_is_never_in_the_settings_repr():
    settings = Settings.from_env({"DISCORD_TOKEN": "very-secret-token", "DEV_GUILD_ID": "123"})
    assert "very-secret-token" not in repr(settings)
    assert settings.dev_guild_id == 123


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEV_GUILD_ID", "my-server"),
        ("DEV_GUILD_ID", "²"),  # isdigit() says yes, int() says no
        ("DEV_GUILD_ID", "١٢٣"),  # Arabic-Indic digits: int() would read 123
        ("DEV_GUILD_ID", "0"),
        ("DEV_GUILD_ID", str(2**64)),
        ("LOG_LEVEL", "loud"),
        ("TURN_TIMEOUT_SECONDS", "soon"),
        ("TURN_TIMEOUT_SECONDS", "nan"),  # every comparison with nan is false: it passed a minimum
        ("TURN_TIMEOUT_SECONDS", "NaN"),
        ("TURN_TIMEOUT_SECONDS", "inf"),
        ("TURN_TIMEOUT_SECONDS", "-inf"),
        ("TURN_TIMEOUT_SECONDS", "1e999"),  # float() reads it as inf
        ("TURN_TIMEOUT_SECONDS", "1"),
        ("TURN_TIMEOUT_SECONDS", "9.99"),
        ("TURN_TIMEOUT_SECONDS", "-30"),
        ("TURN_TIMEOUT_SECONDS", "86401"),
        ("SHARD_COUNT", "0"),
        ("SHARD_COUNT", "two"),
        ("SHARD_COUNT", "²"),
        ("SHARD_IDS", "0"),  # without SHARD_COUNT
    ],
)
def test_bad_settings_are_named(name: str, value: str):
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({"DISCORD_TOKEN": "abc", name: value})


@pytest.mark.parametrize("ids", ["2", "0,0", "0;1", "-1", "a", "0,"])
def test_shard_ids_must_be_different_shards_of_the_count(ids: str):
    url = "postgresql://bot@db/sushibar"
    with pytest.raises(SettingsError, match="SHARD_IDS"):
        Settings.from_env({"SHARD_COUNT": "2", "SHARD_IDS": ids, "DATABASE_URL": url})


def test_shards_make_an_auto_sharded_bot_and_no_shards_a_plain_one():
    url = "postgresql://bot@db/sushibar"
    settings = Settings.from_env({"SHARD_COUNT": "4", "SHARD_IDS": " 3, 1", "DATABASE_URL": url})
    assert (settings.shard_count, settings.shard_ids) == (4, (1, 3))
    sharded = create_bot(settings)
    assert isinstance(sharded, discord.AutoShardedClient)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [1, 3])
    every = Settings.from_env({"SHARD_COUNT": "2"})  # every shard here: SQLite is fine
    assert every.shard_ids is None and create_bot(every).shard_count == 2
    plain = create_bot(Settings.from_env({}))
    assert not isinstance(plain, discord.AutoShardedClient)


def test_some_shards_in_this_process_need_a_shared_database():
    with pytest.raises(SettingsError, match="DATABASE_URL"):
        Settings.from_env({"SHARD_COUNT": "2", "SHARD_IDS": "1"})


@pytest.mark.parametrize(("value", "seconds"), [("10", 10.0), ("86400", 86400.0), (" 90.5 ", 90.5)])
def test_the_time_out_bounds_are_the_documented_ones(value: str, seconds: float):
    # .env.example and README say 10 to 86400, as /settings timeout does.
    assert Settings.from_env({"DISCORD_TOKEN": "abc", "TURN_TIMEOUT_SECONDS": value}).turn_timeout == seconds
    readme_row = next(
        line for line in (ROOT / "README.md").read_text().splitlines() if "`TURN_TIMEOUT" in line
    )
    assert "from 10 to 86400" in readme_row
    assert "from 10 to 86400" in " ".join((ROOT / ".env.example").read_text().replace("#", "").split())


def _aiosqlite_threads() -> set[threading.Thread]:
    return {thread for thread in threading.enumerate() if "_connection_worker_thread" in thread.name}


@pytest.mark.parametrize(
    ("failure", "status", "words"),
    [
        (discord.LoginFailure("Improper token has been passed."), 2, "Discord refused DISCORD_TOKEN"),
        (
            aiohttp.ClientConnectorError(
                SimpleNamespace(host="discord.com", port=443, ssl=True),  # type: ignore[arg-type]
                OSError(-2, "Name or service not known"),
            ),
            1,  # an outage, not a setting: a supervisor should retry
            "Discord cannot be reached",
        ),
    ],
)
def test_a_failed_login_is_explained_without_a_traceback_and_closes_the_database(
    monkeypatch, capsys, tmp_path, failure: Exception, status: int, words: str
):
    import bot

    async def refuse(self, token: str, **kwargs: object) -> None:
        assert await self.database.user_version() > 0  # the database was opened (and migrated) first
        raise failure

    before = _aiosqlite_threads()
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "sushibar.db"))
    monkeypatch.setattr(bot.SushiBar, "start", refuse)
    assert bot.main([]) == status
    error = capsys.readouterr().err
    assert words in error and "not-a-real-token" not in error and "Traceback" not in error
    for thread in _aiosqlite_threads() - before:  # a connection left open would keep it running
        thread.join(timeout=10)
        assert not thread.is_alive()


def test_a_dotenv_file_fills_in_but_never_overrides(tmp_path, monkeypatch):
    from bot import read_settings

    dotenv = tmp_path / ".env"
    dotenv.write_text("DISCORD_TOKEN=from-file\nLOG_LEVEL=DEBUG\nTURN_TIMEOUT_SECONDS=60\n")
    for name in ("DISCORD_TOKEN", "TURN_TIMEOUT_SECONDS"):  # set first, so teardown removes what .env adds
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    monkeypatch.setenv("LOG_LEVEL", "WARNING")
    settings = read_settings(dotenv)
    assert settings.token == "from-file" and settings.turn_timeout == 60.0
    assert settings.log_level == "WARNING"  # the environment wins


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/dev/null", "not an ordinary file"),
        ("/proc/sushibar.db", "creating a file there fails"),  # root may write anywhere, but not there
        ("/sys/sushibar.db", "creating a file there fails"),
    ],
)
def test_a_place_that_cannot_hold_a_database_is_named(path: str, words: str):
    # (tests/test_environment.py runs `python bot.py` with a missing folder, a folder and /proc.)
    from bot import database_path_problem

    problem = database_path_problem(path)
    assert problem is not None and path in problem and words in problem


def test_a_good_place_is_left_as_it_was(tmp_path):
    from bot import database_path_problem

    assert database_path_problem(str(tmp_path / "sushibar.db")) is None
    assert list(tmp_path.iterdir()) == []  # the probe file is gone again


# ---------------------------------------------------------------- what reaches the log


@pytest.fixture
def payload_loggers_restored():
    from bot import PAYLOAD_LOGGERS

    levels = {name: logging.getLogger(name).level for name in PAYLOAD_LOGGERS}
    yield
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def _transport_logs_as_discord_py_does(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """simcord hands payloads to discord.py's parsers and routes past its transport, so the lines
    discord.py's real websocket and HTTP code log at DEBUG are never written. Write them, with
    their loggers and formats (gateway.py received_message, http.py request, webhook/async_.py
    request), for every event and request of the run; return them as they would read."""
    from discord import gateway, http
    from discord.webhook import async_ as webhook
    from simcord.gateway import FakeGateway
    from simcord.http.client import FakeHTTPClient, FakeWebhookAdapter

    said: list[str] = []

    def log(logger: logging.Logger, message: str, *args: object) -> None:
        said.append(message % args)
        logger.debug(message, *args)

    feed, request, hook = FakeGateway.feed, FakeHTTPClient.request, FakeWebhookAdapter.request

    def fed(self: Any, event: str, payload: Any) -> None:
        log(gateway._log, "For Shard ID %s: WebSocket Event: %s", 0, {"t": event, "op": 0, "d": payload})
        feed(self, event, payload)

    async def requested(self: Any, route: Any, **kwargs: Any) -> Any:
        answer = await request(self, route, **kwargs)
        log(http._log, "%s %s with %s has returned %s", route.method, route.url, kwargs.get("json"), 200)
        return answer

    async def hooked(self: Any, route: Any, session: Any, **kwargs: Any) -> Any:
        answer = await hook(self, route, session, **kwargs)
        text = "Webhook ID %s with %s %s has returned status code %s"
        log(webhook._log, text, route.webhook_id, route.method, route.url, 200)
        return answer

    monkeypatch.setattr(FakeGateway, "feed", fed)
    monkeypatch.setattr(FakeHTTPClient, "request", requested)
    monkeypatch.setattr(FakeWebhookAdapter, "request", hooked)
    return said


async def test_a_debug_log_holds_no_interaction_token_nor_member_data(
    simcord_env, caplog, monkeypatch, payload_loggers_restored
):
    from bot import quiet_payload_loggers
    from tests.e2e.helpers import Table

    said = _transport_logs_as_discord_py_does(monkeypatch)
    caplog.set_level(logging.DEBUG)  # the root logger, as LOG_LEVEL=DEBUG sets it
    quiet_payload_loggers("DEBUG")  # what main() does next
    table = Table(simcord_env, "sushigo", ["alice_nakamura", "bob_tanaka"])
    await table.seat_everyone()  # a slash command, clicks, DMs with hands: tokens and names fly
    await table.slash("bob_tanaka", "hand")

    tokens = [record.token for record in simcord_env.backend.interactions.values()]
    secrets = [*tokens, "alice_nakamura", "bob_tanaka"]
    assert len(tokens) >= 4 and all(token.startswith("simcord_interaction_") for token in tokens)
    for secret in secrets:  # discord.py's transport does write them at DEBUG ...
        assert any(secret in line for line in said), secret
    # simcord's own loggers are the test's, not the bot's: they are not in production.
    ours = [record for record in caplog.records if not record.name.startswith("simcord")]
    assert any(record.levelno == logging.DEBUG for record in ours)  # the run did log at DEBUG
    logged = "\n".join(record.getMessage() for record in ours)
    for secret in secrets:  # ... and none of it reaches a handler
        assert secret not in logged, secret


@pytest.mark.parametrize("who", ["bob", "alice"])  # bob joins; alice, seated already, is refused
async def test_a_late_answer_logs_one_line_and_tries_no_second_answer(
    simcord_env, caplog, monkeypatch, who: str
):
    """Discord refuses an answer after its 3-second window (10062): the bot notes it in one line,
    without a traceback, and does not try again with a follow-up that would fail the same way —
    whether the answer was a move's (a board edit) or a refusal's (an ephemeral line)."""
    from tests.e2e.helpers import Table

    table = Table(simcord_env, "sushigo", ["alice", "bob"])
    await table.open()
    tried: list[str] = []  # what reached Discord's interaction routes: answers and follow-ups
    adapter = type(discord.webhook.async_.async_context.get())  # discord.py's, or the simulator's
    original = adapter.request

    async def slow(self: Any, route: discord.http.Route, *args: Any, **kwargs: Any) -> Any:
        if route.path.endswith("/callback"):
            tried.append("answer")
            simcord_env.backend.advance_clock(4.0)  # the bot took 4 s: the window has closed
        else:
            tried.append(f"{route.method} {route.path}")
        return await original(self, route, *args, **kwargs)

    monkeypatch.setattr(adapter, "request", slow)
    caplog.set_level(logging.DEBUG)
    await table.click(who, "Join")
    monkeypatch.undo()

    assert tried == ["answer"], tried  # no second, failing answer
    problems = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert len(problems) == 1, [record.getMessage() for record in problems]
    assert "10062" in problems[0].getMessage() and problems[0].exc_info is None
    assert "\n" not in problems[0].getMessage()


# ---------------------------------------------------------------- start-up: commands and warnings


@pytest.mark.parametrize("sync", [False, True], ids=["start", "--sync"])
async def test_a_development_server_shows_every_command_once(simcord_env, database_path: Path, sync: bool):
    """README's first run syncs globally; DEV_GUILD_ID set afterwards (in `.env`) must not show that
    server every command twice — once as its own, once as a global one."""
    from dataclasses import replace

    from tests.conftest import _settings

    backend = simcord_env.backend
    names = {command.name for command in simcord_env.bot.tree.get_commands()}
    assert {name for name, _ in backend.commands[None]} == names  # the global sync of README's first run
    admin = simcord_env.create_user("admin")
    guild = simcord_env.create_guild("Development", owner=admin)  # sees /settings too
    channel = guild.create_text_channel("sushi")
    elsewhere = simcord_env.create_guild("Elsewhere").create_text_channel("sushi")

    bot = create_bot(replace(_settings(database_path), dev_guild_id=guild.id), sync=sync)
    try:
        await simcord_env.restart_bot(bot)
        visible = [
            command["name"] for command in backend.visible_commands(user_id=admin.id, channel_id=channel.id)
        ]
        assert sorted(visible) == sorted(names)  # each once
        assert {name for name, _ in backend.commands[guild.id]} == names
        assert not backend.commands.get(None)  # no global command left to show twice
        assert backend.visible_commands(user_id=admin.id, channel_id=elsewhere.id) == []
    finally:
        await bot.database.close()


def test_sync_says_where_the_commands_went():
    from bot import synced_message

    assert "globally" in synced_message(Settings.from_env({}))
    development = synced_message(Settings.from_env({"DEV_GUILD_ID": "123"}))
    assert "123" in development and "DEV_GUILD_ID" in development and "globally" in development


def test_starting_the_bot_logs_no_warning_about_voice_libraries(monkeypatch, caplog):
    """The bot uses no voice, so "PyNaCl is not installed, voice will NOT be supported" (and the same
    for davey) would only worry an admin. discord.py warns once per process, from Client.__init__."""
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)  # a fresh process without PyNaCl
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    with caplog.at_level(logging.WARNING):
        discord.Client(intents=discord.Intents.none())
    assert sum("voice will NOT be supported" in record.getMessage() for record in caplog.records) == 2
    caplog.clear()  # the flags are the ones discord.py reads: now the bot, in a fresh process again
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    with caplog.at_level(logging.WARNING):
        create_bot(Settings.from_env({}))
    assert [record.getMessage() for record in caplog.records if "voice" in record.getMessage()] == []


def test_every_setting_is_in_env_example_and_readme():
    read: set[str] = set()

    class Reading(dict[str, str]):
        def get(self, key: str, default: Any = None) -> Any:
            read.add(key)
            return super().get(key, default)

    Settings.from_env(Reading())
    assert {"DISCORD_TOKEN", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS"} <= read
    example = (ROOT / ".env.example").read_text().splitlines()
    readme = (ROOT / "README.md").read_text()
    for name in read:
        assert any(line.startswith(f"{name}=") for line in example), name
        assert f"| `{name}` |" in readme, name


async def test_the_serving_process_collects_rarely_and_freezes_start_up_once(monkeypatch):
    import gc

    import bot as bot_module

    frozen: list[int] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(1))  # the real one would keep the test's garbage
    thresholds = gc.get_threshold()
    sushi_bar = create_bot(Settings(token="abc"))
    try:
        bot_module.tune_collector(sushi_bar)
        assert gc.get_threshold() == bot_module.COLLECTOR_THRESHOLDS
        (listener,) = sushi_bar.extra_events["on_ready"]
        await listener()
        await listener()  # a reconnection is ready again: what it made is not start-up's
        assert frozen == [1]
    finally:
        gc.set_threshold(*thresholds)
