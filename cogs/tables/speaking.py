"""The language a seat reads its DM or panel in: its player's `/language`, else the table's."""

from __future__ import annotations

import logging
from typing import Any

from cogs.kit.services import maybe_services
from cogs.kit.words.reader import chosen_language
from cogs.tables.context import TableContext
from storage.settings import PlayerSettings

log = logging.getLogger(__name__)


async def seat_locale(players: PlayerSettings, ctx: TableContext, seat: int) -> str | None:
    """The language of a seat's DM or panel: its player's choice, else the table's (which is the
    server's setting from the table's opening, else the server's Discord locale)."""
    try:
        return await chosen_language(players, ctx.record.seats[seat].user_id) or ctx.locale
    except Exception:  # a hand must still be shown when the settings cannot be read
        log.exception("could not read the language of seat %s at channel %s", seat, ctx.channel_id)
        return ctx.locale


async def for_seat(client: Any, ctx: TableContext, seat: int) -> TableContext:
    """The table worded for one seat's private board (`client`: the bot, or `interaction.client`)."""
    services = maybe_services(client)
    if services is None:
        return ctx
    return ctx.speaking(await seat_locale(services.player_settings, ctx, seat))
