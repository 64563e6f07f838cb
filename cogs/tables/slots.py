"""Which Discord messages show a table: its board and each seat's DM, remembered per table; and its
live turn ping.

One shared object per table (never copied with a move), read once from storage and written
through at once by its own statement: a move saved meanwhile can neither lose nor revert it. The
ping rows are never cached: another process may post the next ping, so each use asks storage.
"""

from __future__ import annotations

from collections.abc import Iterable

from storage.tables import TableStore

BOARD = "board"


def dm_slot(seat: int) -> str:
    return f"dm:{seat}"


class MessageSlots:
    def __init__(self, store: TableStore) -> None:
        self.store = store
        self._tables: dict[int, dict[str, int | None]] = {}

    async def _of(self, table_id: int) -> dict[str, int | None]:
        slots = self._tables.get(table_id)
        if slots is None:
            slots = self._tables[table_id] = await self.store.messages(table_id)
        return slots

    async def get(self, table_id: int, slot: str) -> int | None:
        return (await self._of(table_id)).get(slot)

    async def has(self, table_id: int, slot: str) -> bool:
        return slot in await self._of(table_id)

    async def set(self, table_id: int, slot: str, message_id: int | None) -> None:
        (await self._of(table_id))[slot] = message_id
        await self.store.set_message(table_id, slot, message_id)

    async def claim_pings(
        self, table_id: int, seats: Iterable[int], version: int, *, invitation: bool = False
    ) -> list[int]:
        """The seats to ping now: those nobody has pinged since they last moved (then marked); an
        invitation is pinged once per version."""
        return await self.store.claim_pings(table_id, seats, version, invitation=invitation)

    async def keep_ping(self, table_id: int, message_id: int) -> list[int]:
        """A new live ping; the older ones it replaces, to delete (maybe another process's)."""
        return await self.store.keep_ping(table_id, message_id)

    async def drop_pings(self, table_id: int) -> list[int]:
        """The table is over: its live pings, to delete."""
        return await self.store.drop_pings(table_id)

    def forget(self, table_id: int) -> None:
        """The table has ended and its messages are closed: free the memory."""
        self._tables.pop(table_id, None)
