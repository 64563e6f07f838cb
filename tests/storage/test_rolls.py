"""/roll's storage: the roll log and its per-server statistics, saved rolls per player and server."""

from __future__ import annotations

import pytest

from storage.database import Database
from storage.rolls import SAVED_LIMIT, DieStats, RollStore, SavedRoll


@pytest.fixture
def store(database: Database) -> RollStore:
    return RollStore(database)


async def _log(store: RollStore, guild_id: int | None, tally: dict[int, tuple[int, int]], **extra) -> int:
    values = {
        "guild_id": guild_id,
        "channel_id": 7,
        "user_id": 100,
        "request": "2d6",
        "expression": "2d6",
        "label": None,
        "private": False,
        "totals": [7],
        "tally": tally,
    }
    values.update(extra)
    return await store.log(**values)


async def test_a_logged_roll_comes_back_for_roll_again(store: RollStore):
    roll_id = await _log(
        store, 1, {6: (2, 7)}, request="fireball", expression="8d6", label="boom", private=True, totals=[30]
    )
    logged = await store.get(roll_id)
    assert logged is not None
    assert (logged.request, logged.expression, logged.label, logged.private, logged.totals) == (
        "fireball",
        "8d6",
        "boom",
        True,
        [30],
    )
    assert await store.get(roll_id + 1) is None


async def test_stats_are_per_server_and_per_die_size(store: RollStore):
    await _log(store, 1, {6: (2, 7), 20: (1, 20)})
    await _log(store, 1, {6: (4, 10)})
    await _log(store, 1, {0: (4, -1)})  # Fate dice
    await _log(store, 2, {6: (100, 600)})  # another server
    await _log(store, None, {6: (1, 1)})  # a direct message belongs to no server
    stats = await store.stats(1)
    assert stats == [
        DieStats(sides=0, dice=4, rolls=1, face_sum=-1),
        DieStats(sides=6, dice=6, rolls=2, face_sum=17),
        DieStats(sides=20, dice=1, rolls=1, face_sum=20),
    ]
    assert stats[1].average == pytest.approx(17 / 6)
    assert await store.stats(3) == []


async def test_saved_rolls_per_player_and_per_server(store: RollStore):
    assert await store.save("user", 100, "fireball", "8d6") == "created"
    assert await store.save("user", 100, "fireball", "8d6+1") == "updated"
    assert await store.save("server", 1, "init", "d20+2") == "created"
    assert await store.save("server", 1, "fireball", "10d6") == "created"
    assert await store.saved("user", 100) == [SavedRoll("user", "fireball", "8d6+1")]
    assert await store.saved("user", 200) == []
    # A player's own name wins over the server's; another server's rolls are not theirs.
    assert await store.find("Fireball ", 100, 1) == SavedRoll("user", "fireball", "8d6+1")
    assert await store.find("fireball", 200, 1) == SavedRoll("server", "fireball", "10d6")
    assert await store.find("init", 100, 2) is None
    assert await store.find("init", 100, None) is None
    assert [saved.name for saved in await store.usable(100, 1)] == ["fireball", "init"]
    assert await store.delete("user", 100, "FIREBALL")
    assert not await store.delete("user", 100, "fireball")
    assert await store.find("fireball", 100, 1) == SavedRoll("server", "fireball", "10d6")


async def test_at_most_so_many_saved_rolls_each(store: RollStore):
    for index in range(SAVED_LIMIT):
        assert await store.save("user", 100, f"roll{index}", "d6") == "created"
    assert await store.save("user", 100, "onemore", "d6") == "full"
    assert await store.save("user", 100, "roll3", "d8") == "updated"  # overwriting is not one more
    assert await store.save("user", 200, "onemore", "d6") == "created"
