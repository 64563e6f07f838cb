"""The whole command tree as Discord receives it (every extension the bot loads)."""

from __future__ import annotations

import discord

from cogs.kit.words.bidi import plain
from cogs.kit.words.catalogs import catalog, languages
from tests.e2e.helpers import Table, text_of


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


async def test_a_command_answers_with_what_it_did(simcord_env):
    """`/sushigo start` says what happened: the game that started and who plays it, computers with
    their level (the boards of the game then name them plainly)."""
    await simcord_env.bot.tree.sync()
    table = Table(simcord_env, "sushigo", ["alice"])
    await table.open(computers=1)
    started = await table.slash("alice", "start")
    alice = f"<@{table.players['alice'].id}>"
    assert started.ephemeral
    assert (
        plain(started.response.content)
        == f"▶️ The Sushi Go! game has started: {alice} and 🤖 Temaki (normal)."
    )
    assert "(normal)" not in text_of(table.board)


def test_no_answer_is_a_bare_done():
    """No catalog holds a confirmation that says nothing of what was done, in any language."""
    bare = {"done", "done.", "ok", "ok.", "erledigt.", "hecho.", "انجام شد."}
    for language in languages().values():
        said = [key for key, words in catalog(language).items() if words.strip().casefold() in bare]
        assert said == [], language


async def test_a_table_option_is_set_and_shown_in_the_admins_words(simcord_env):
    """/settings option takes the option and value as the admin reads them (or the engine's words),
    answers with the option's label and value in the admin's language, and refuses a value it does not
    know with the list of those it does."""
    table = Table(simcord_env, "kaiten", ["alice"])
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("admin"), roles=[admins])
    await admin.slash(table.channel, "settings language", choose="de")
    chosen = await admin.slash(
        table.channel, "settings option", game="kaiten", option="geschick", value="Aus"
    )
    assert chosen.ephemeral
    assert plain(chosen.response.content) == "Neue Tische für Kaiten Sushi starten mit Geschick: **aus**."
    wrong = await admin.slash(
        table.channel, "settings option", game="kaiten", option="dexterity", value="weich"
    )
    assert wrong.ephemeral
    assert plain(wrong.response.content) == "Geschick kann normal, locker, streng oder aus sein."
    shown = await admin.slash(table.channel, "settings show")
    assert "Kaiten Sushi · Geschick: **aus**" in text_of(shown.response)
    assert "dexterity" not in text_of(shown.response) and "off" not in text_of(shown.response)
