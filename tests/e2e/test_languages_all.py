"""A whole game of each of the five games through the bot in German, Spanish and Persian: no
English line reaches those players — not on the boards, and not in their DMs, panels and
ephemeral answers either, which speak each player's own language.

The server's language comes from `/settings language`, one player also chooses it with
`/language` (simcord's interactions always say `en-US`, so any answer that followed the
interaction's locale would show up here as English). The games are played by their own
components only — buttons, menus, DMs and panels, found by the action they carry — with the
table's own choice of move; Kaiten Sushi without the dexterity challenge, Sushi Dice with rigged
dice (`tests/e2e/rigged_dice.py`), so every game is short.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from cogs.kit.words.bidi import plain
from cogs.kit.words.catalogs import catalog
from rules.registry import GAMES
from tests.e2e.helpers import Player, Table, heading_of, play_a_move, play_to_the_end, text_of
from tests.e2e.languages import admin_sets_language, english_read, seat_everyone
from tests.e2e.rigged_dice import STEP, DiceScript, dice, duel_to_the_end, scripted_throws, slow_clocks
from tests.games import extensions as game_extensions
from tests.games import group, kit

__all__ = ["dice", "scripted_throws"]  # fixtures of the Sushi Dice tests: its rigged dice

SEED = 20240611
pytestmark = pytest.mark.seed(SEED)
NAMES = ["alice", "bob"]
LANGUAGES = ("de", "es", "fa")
# An engine identifier shown as a word ("sushi_roll", "wasabi_or_fetch") would be a code, not text.
CODE = re.compile(r"(?<![\w:<@#/`.-])[a-z]+(?:_[a-z]+)+(?![\w:>`(])")


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", *game_extensions(), "cogs.preferences.settings", "cogs.preferences.language")


# ---------------------------------------------------------------- the games


def _game_params() -> list[Any]:
    params = []
    for game in GAMES:
        for language in LANGUAGES:
            # A real-time game's clocks are slowed as in its own tests.
            marks = [pytest.mark.simcord(settle_timeout=STEP * 0.8)] if kit(game).real_time else []
            params.append(pytest.param(game, language, id=f"{game}-{language}", marks=marks))
    return params


@pytest.mark.parametrize(("game", "language"), _game_params())
async def test_a_whole_game_reads_in_the_players_language(
    simcord_env: Any, dice: DiceScript, game: str, language: str
) -> None:
    env = simcord_env
    testkit = kit(game)
    if testkit.real_time:
        slow_clocks(env)
    table = Table(env, group(game), NAMES)
    await env.bot.tree.sync()
    await admin_sets_language(table, language)
    table.did("alice", f"runs /language choose:{language}")
    chosen = await table.member("alice").slash(table.channel, "language", choose=language)
    assert chosen.ephemeral and text_of(chosen.response).startswith("🌐")
    await seat_everyone(table, language, **testkit.options)
    players = {seat: Player(table, name) for seat, name in enumerate(NAMES)}
    if testkit.real_time:
        await duel_to_the_end(table, players, dice)
        await env.advance_time(STEP * 20)  # the board's last refresh
    else:
        await play_to_the_end(table, players)
    record = await table.tables.store.last_table(table.channel.id)
    assert record is not None and record.status == "finished"
    results = plain(catalog(language)["results.title"]).split("{")[0].strip()
    assert results and results in table.public_text()
    assert english_read(env, language) == []
    assert codes_read(env) == []


def codes_read(env: Any) -> list[str]:
    """Engine identifiers ("wasabi_or_fetch") anywhere a player reads."""
    from tests.e2e import transcript

    names = {user_id: user.name for user_id, user in env.backend.users.items()}
    dm_channels = {
        channel: f"DM @{names.get(user, user)}" for user, channel in env.backend.dm_channels.items()
    }
    said = "\n".join(line.raw for line in transcript.lines(env, names, dm_channels))
    return sorted(set(CODE.findall(said)))


def _title_words(language: str, key: str) -> str:
    """A template's words before its first placeholder: what every message it makes begins with."""
    return catalog(language)[key].split("{")[0]


async def test_a_hand_by_dm_speaks_its_players_language_and_follows_a_change(simcord_env: Any) -> None:
    env = simcord_env
    table = Table(env, "sushigo", NAMES)
    await env.bot.tree.sync()
    await admin_sets_language(table, "de")
    table.did("bob", "runs /language choose:es")
    await table.member("bob").slash(table.channel, "language", choose="es")
    await seat_everyone(table, "de")

    def hand_title(name: str) -> str:
        dm = table.dm(name)
        assert dm is not None
        return heading_of(dm)

    key = "sushigo.private.title"
    assert hand_title("alice").startswith(_title_words("de", key))  # the table's language
    assert hand_title("bob").startswith(_title_words("es", key))  # his own
    table.did("bob", "runs /language choose:fa")
    await table.member("bob").slash(table.channel, "language", choose="fa")
    players = {seat: Player(table, name) for seat, name in enumerate(NAMES)}
    ctx = await table.live()
    await play_a_move(players, ctx)
    assert hand_title("bob").startswith(_title_words("fa", key))  # his new choice, at the next turn
    assert hand_title("alice").startswith(_title_words("de", key))
    assert english_read(env, "de") == []
