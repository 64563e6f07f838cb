"""The deploy files say what docs/OPERATIONS.md says they do: the image installs the bot as README does,
compose.yaml runs it on its volume (PostgreSQL behind a profile, waited for), the systemd unit
stops retrying a setting to fix. No image is built here (no base image can be pulled); the unit is
checked by `systemd-analyze verify` where systemd is installed."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from cogs.kit.version import version

ROOT = Path(__file__).resolve().parents[1]
BOT_STOPS_WITHIN = 10  # seconds: the bot's own clean stop after SIGTERM


def _readme_install() -> str:
    """README's run command up to the first start of the bot: the install it asks for."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    run = re.search(r"```sh\n(python3 -m venv .*bot\.py)\n```", readme)
    assert run is not None, "README's run command"
    steps = run.group(1).split(" && ")
    return " && ".join(steps[: next(i for i, step in enumerate(steps) if "bot.py" in step)])


def _dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) of each Dockerfile line, continuations joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), " ".join(line.split()[1:])) for line in lines]


def _instructions(name: str) -> list[str]:
    return [arguments for instruction, arguments in _dockerfile() if instruction == name]


def test_the_image_installs_the_bot_as_readme_does():
    assert _readme_install() == "python3 -m venv .venv && .venv/bin/pip install -e ."
    assert _instructions("RUN").count(_readme_install()) == 1


def test_the_image_runs_as_its_own_user_on_a_data_volume_and_asks_the_bot_for_its_health():
    (base,) = _instructions("FROM")
    assert re.fullmatch(r"python:(\d+\.\d+)-slim(-\w+)?", base), base
    python = tuple(int(part) for part in base.split(":")[1].split("-")[0].split("."))
    required = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert python >= tuple(int(part) for part in required.removeprefix(">=").split("."))
    (user,) = _instructions("USER")
    assert user not in ("root", "0")
    assert _instructions("VOLUME") == ['["/data"]']
    environment = " ".join(_instructions("ENV"))
    assert "DATABASE_PATH=/data/sushibar.db" in environment and "HTTP_PORT=8080" in environment
    assert _instructions("STOPSIGNAL") == ["SIGTERM"]
    (health,) = _instructions("HEALTHCHECK")
    assert health.endswith('CMD ["python", "bot.py", "--health"]')
    assert _instructions("CMD") == ['["python", "bot.py"]']
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert {".env", ".git", ".venv", "*.db", "*.db-wal"} <= set(ignored)  # no token, no database inside


def _compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def _seconds(duration: str) -> float:
    match = re.fullmatch(r"(\d+)(s|m)", duration)
    assert match, duration
    return int(match.group(1)) * (60 if match.group(2) == "m" else 1)


def test_compose_runs_the_bot_on_its_volume_and_postgres_behind_a_profile():
    compose = _compose()
    bot, postgres = compose["services"]["bot"], compose["services"]["postgres"]
    assert bot["build"] == "." and "profiles" not in bot  # `docker compose up` runs it
    assert "data:/data" in bot["volumes"] and "data" in compose["volumes"]
    assert bot["environment"]["DATABASE_PATH"] == "/data/sushibar.db"
    assert bot["env_file"] == ".env"
    # Never restarted forever: Docker cannot spare status 2 alone, so the retries are counted.
    assert re.fullmatch(r"on-failure:\d+", bot["restart"]), bot["restart"]
    assert _seconds(bot["stop_grace_period"]) > BOT_STOPS_WITHIN
    assert bot["healthcheck"]["test"] == ["CMD", "python", "bot.py", "--health"]
    assert bot["depends_on"]["postgres"] == {"condition": "service_healthy", "required": False}
    assert postgres["profiles"] == ["postgres"]
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert any(volume.endswith(":/var/lib/postgresql/data") for volume in postgres["volumes"])


def _unit(name: str) -> dict[str, list[str]]:
    """Each key of a systemd unit file with its values, in order (a key may repeat)."""
    found: dict[str, list[str]] = {}
    for line in (ROOT / "deploy" / name).read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def test_the_service_unit_runs_as_its_own_user_and_does_not_retry_a_setting_to_fix():
    unit = _unit("sushibar.service")
    assert unit["User"] == ["sushibar"] and unit["EnvironmentFile"] == ["/etc/sushibar/sushibar.env"]
    assert unit["Restart"] == ["on-failure"] and unit["RestartPreventExitStatus"] == ["2"]
    assert unit["KillSignal"] == ["SIGTERM"]
    assert _seconds(unit["TimeoutStopSec"][0]) > BOT_STOPS_WITHIN
    assert unit["ExecStart"] == ["/opt/sushibar/.venv/bin/python bot.py"]
    backup = _unit("sushibar-backup.service")
    assert "bot.py backup --force" in backup["ExecStart"][0] and backup["User"] == ["sushibar"]
    assert _unit("sushibar-backup.timer")["Persistent"] == ["true"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_verifies_the_units(tmp_path: Path):
    """In a scratch root holding the system's units, the paths the units name and the units: clean."""
    units = Path("/usr/lib/systemd/system")
    shutil.copytree(units, tmp_path / "usr/lib/systemd/system", symlinks=True)
    for program in ("/opt/sushibar/.venv/bin/python", "/bin/sh", "/usr/bin/find"):
        (tmp_path / program.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / program.lstrip("/")).write_text("#!/bin/sh\n")
        (tmp_path / program.lstrip("/")).chmod(0o755)
    names = ["sushibar.service", "sushibar-backup.service", "sushibar-backup.timer"]
    (tmp_path / "etc/systemd/system").mkdir(parents=True)
    for name in names:
        shutil.copy(ROOT / "deploy" / name, tmp_path / "etc/systemd/system" / name)
    command = ["systemd-analyze", "verify", f"--root={tmp_path}", *names]
    verified = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert (verified.returncode, verified.stdout + verified.stderr) == (0, "")


def test_the_running_version_is_the_project_version_and_the_changelog_describes_it():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert version() == declared  # `pip install -e .` after a pull brings the metadata up to date
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[?(\d+\.\d+\.\d+)\]?", changelog, flags=re.MULTILINE)
    assert releases and releases[0] == declared


def test_the_project_has_a_licence():
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "Copyright (c) 2026 Sushi Bar developers" in licence
