"""The whole command tree as Discord receives it (every extension the bot loads)."""

from __future__ import annotations

import discord


async def test_free_text_options_are_bounded_so_no_reply_can_outgrow_discord(simcord_env):
    """Every string option without choices declares a max_length, so Discord itself refuses a
    2,100-character value before it reaches the bot (or is echoed into a refusal)."""
    unbounded, bounded = [], []
    for command in simcord_env.bot.tree.walk_commands():
        for parameter in getattr(command, "parameters", []):
            if parameter.type == discord.AppCommandOptionType.string and not parameter.choices:
                if parameter.max_value is None or parameter.max_value > 200:
                    unbounded.append(f"/{command.qualified_name} {parameter.name}")
                else:
                    bounded.append(f"/{command.qualified_name} {parameter.name}")
    assert unbounded == []
    assert {"/sushigo pick card", "/leaderboard game", "/settings option value", "/roll expression"} <= set(
        bounded
    )
