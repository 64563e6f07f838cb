"""Which Discord messages show a table: its board and each seat's DM, remembered per table.

One shared object per table (never copied with a move), read once from storage and written
through at once by its own statement: a move saved meanwhile can neither lose nor revert it.
"""

from __future__ import annotations

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

    def forget(self, table_id: int) -> None:
        """The table has ended and its messages are closed: free the memory."""
        self._tables.pop(table_id, None)
