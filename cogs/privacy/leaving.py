"""A forgotten player leaves every table they sit at, as `/<game> leave` would: a lobby frees their seat,
a game goes on with a computer player in it (the last human gone, it is abandoned). Each is one move
of the table's, through the table machinery: saved against its version, the board redrawn, the channel
told, timers and pings set again. Only their seat no longer carries their id or name: a computer's id
of its own and the words "a former player", and the log's "leave" names nobody.
"""

from __future__ import annotations

import logging
from functools import partial

from cogs.kit.words.text import t
from cogs.tables.cache import Loaded
from cogs.tables.context import shown_name
from cogs.tables.lobby import Member, change
from cogs.tables.tables import Tables, computer_names
from rules.engine import IllegalAction
from storage.privacy import FORMER_PLAYER
from storage.tables import StaleVersion, TableRecord

log = logging.getLogger(__name__)


def former_player(locale: str | None) -> str:
    """The words a forgotten player is named by, in a table's language."""
    return t("privacy.former_player", locale)


async def leave_every_table(tables: Tables, user_id: int, channel_ids: list[int]) -> None:
    """Make the player's leaving of each open table in `channel_ids`; one that cannot be left this way
    (its game is not loaded, another process keeps moving it) is left to `PrivacyStore.forget`."""
    for channel_id in channel_ids:
        try:
            await tables.following.judged_fresh(channel_id, partial(_leave, tables, channel_id, user_id))
        except (IllegalAction, StaleVersion):
            log.info("a forgotten player's seat at channel %s is replaced by the store", channel_id)


async def _leave(tables: Tables, channel_id: int, user_id: int) -> None:
    async with tables.cache.lock(channel_id):
        before = await tables.cache.load(channel_id)
        if before is None or before.record.seat_of(user_id) is None:
            return
        cog = tables.games[before.record.game_id]
        record = before.record.copy()
        locale = record.extra.get("locale")
        words = former_player(locale)
        note = change(
            record, cog.game, "leave", Member(user_id, words), cog.group, computer_names(locale), tables.seeds
        )
        _replace(record, user_id, words)
        state = tables.cache.state_of(record)
        record.deadline = await tables.timers.deadline(record, cog, state)
        await tables.moves.save(
            record,
            expected_version=before.record.version,
            action={"type": "leave", "user": FORMER_PLAYER, **note.logged},
        )
        loaded = Loaded(record, state)
        tables.cache.remember(loaded)
        ctx = tables.cache.context_of(loaded)
        tables.publisher.request(channel_id)
    if note.key == "table.abandoned":
        told = ctx.t(note.key)
    else:
        key = "privacy.left.lobby" if record.status == "lobby" else "privacy.left.playing"
        told = ctx.t(key, name=shown_name(words))
    await tables.publisher.send(channel_id, content=told)
    tables.timers.arm(record)
    if record.status != "lobby":
        tables.pipeline.showing.sync_private(ctx)
        tables.pinger.note(ctx, cog)


def _replace(record: TableRecord, user_id: int, words: str) -> None:
    """The seat a game keeps for its leaver (a computer plays it) becomes a computer's of its own, named
    by `words`; the host, if it was them, another human (none: nobody's)."""
    index = record.seat_of(user_id)
    if index is not None:
        taken = {seat.user_id for seat in record.seats}
        number = next(n for n in range(1, len(record.seats) + 2) if -n not in taken)
        seat = record.seats[index]
        seat.user_id, seat.name, seat.computer, seat.timeouts = -number, f"🤖 {words}", True, 0
    if record.host_id == user_id:
        humans = [seat.user_id for seat in record.seats if seat.human]
        record.host_id = humans[0] if humans else FORMER_PLAYER
