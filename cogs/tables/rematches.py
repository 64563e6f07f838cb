"""One rematch per finished table (issue 47), whoever presses Rematch and however often, in any process
of a cluster: the claim is the finished table's row in the database (`TableStore.claim_rematch`).

The first press claims it, opens the rematch and records it; every later press is told where the
rematch is, or that it was called off (cancelled, or abandoned): a finished game gets one rematch, so
Rematch on its results never opens a second table — a new game is `/<game> new`. A press while another
process is still opening it waits a moment for its thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from cogs.kit.errors import Refusal
from cogs.tables.context import TableContext, now
from storage.tables import TableRecord, TableStore

CLAIM_EXPIRES = 60.0  # seconds: a claimed rematch not opened by then (its opener died) may be claimed again
WAIT = 1.5  # seconds a later press waits for a rematch another process is opening (Discord allows 3)
STEP = 0.25


@asynccontextmanager
async def claim(store: TableStore, finished: TableRecord) -> AsyncIterator[Callable[[TableContext], None]]:
    """The block opens the rematch of `finished` and calls what it is given with it, if no press claimed
    the rematch before; else raises the Refusal that says where the rematch is."""
    table_id = finished.id or 0
    claimed = now()
    if not await store.claim_rematch(table_id, claimed, claimed - CLAIM_EXPIRES):
        raise await _taken(store, table_id)
    opened: list[int] = []
    try:
        yield lambda ctx: opened.append(ctx.record.id or 0)
    finally:
        if opened:
            await store.rematch_opened(table_id, claimed, opened[0])
        else:  # nothing was opened: the next press may try
            await store.release_rematch(table_id, claimed)


async def _taken(store: TableStore, table_id: int) -> Refusal:
    rematch_id = await store.rematch_of(table_id)
    waited = 0.0
    while rematch_id == 0 and waited < WAIT:  # being opened (by another process: this one holds the lock)
        await asyncio.sleep(STEP)
        waited += STEP
        rematch_id = await store.rematch_of(table_id)
    rematch = await store.get(rematch_id) if rematch_id else None
    if rematch is None:
        return Refusal("table.rematch_opening")
    where = f"<#{rematch.channel_id}>"
    if rematch.status in ("cancelled", "abandoned"):
        return Refusal("table.rematch_called_off", thread=where)
    return Refusal("table.rematch_exists", thread=where)
