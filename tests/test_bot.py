"""bot.py: settings from the environment, and a clear exit without a token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import Settings, SettingsError

ROOT = Path(__file__).resolve().parent.parent


def test_without_a_token_the_bot_explains_and_exits_2():
    env = {**os.environ, "DISCORD_TOKEN": ""}  # set-but-empty: a developer's .env must not fill it in
    done = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "DISCORD_TOKEN is not set" in done.stderr
    assert "discord.com/developers/applications" in done.stderr
    assert "README" in done.stderr


def test_defaults():
    settings = Settings.from_env({"DISCORD_TOKEN": "abc"})
    assert settings.database_path == "sushibar.db"
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.turn_timeout == 300.0


def test_the_token_is_never_in_the_settings_repr():
    settings = Settings.from_env({"DISCORD_TOKEN": "very-secret-token", "DEV_GUILD_ID": "123"})
    assert "very-secret-token" not in repr(settings)
    assert settings.dev_guild_id == 123


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEV_GUILD_ID", "my-server"),
        ("LOG_LEVEL", "loud"),
        ("TURN_TIMEOUT_SECONDS", "soon"),
        ("TURN_TIMEOUT_SECONDS", "1"),
    ],
)
def test_bad_settings_are_named(name: str, value: str):
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({"DISCORD_TOKEN": "abc", name: value})


def test_a_refused_token_is_explained_without_a_traceback(monkeypatch, capsys):
    import discord

    import bot

    def refuse(self, token: str, **kwargs: object) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setattr(bot.SushiBar, "run", refuse)
    assert bot.main([]) == 2
    error = capsys.readouterr().err
    assert "Discord refused DISCORD_TOKEN" in error and "not-a-real-token" not in error


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
