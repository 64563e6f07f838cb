"""bot.py itself, pointed at bench/standin.py's Discord stand-in: `python tests/standin_bot.py PORT [ARGS]`
runs `bot.main(ARGS)` (settings from the environment, as an admin runs it) with discord.py's HTTP API
and gateway at 127.0.0.1:PORT. For the tests that need the real process: signals, exit status, timing."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, Python puts tests/ first on the path, where tests/rules would hide rules/.
sys.path[:] = [str(ROOT), *(entry for entry in sys.path if Path(entry or ".").resolve() != ROOT / "tests")]

import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402

if __name__ == "__main__":
    port = int(sys.argv[1])
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    import bot

    sys.exit(bot.main(sys.argv[2:]))
