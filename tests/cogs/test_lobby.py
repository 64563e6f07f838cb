"""The lobby's pure decisions about computer players: who may seat them, how many, and who is left."""

from __future__ import annotations

import pytest

from cogs.kit.errors import Refusal
from cogs.kit.words.text import t
from cogs.tables.lobby import Member, change
from rules.registry import GAMES
from storage.tables import Seat, TableRecord

GAME = GAMES["sushigo"]  # 2 to 5 players
NAMES = ["Temaki", "Onigiri", "Uramaki"]
HOST = Member(1, "alice")
GUEST = Member(2, "bob")


def lobby(level: str = "hard") -> TableRecord:
    return TableRecord(
        1, 10, GAME.id, HOST.user_id, seats=[Seat(1, "alice")], extra={"computer_level": level}
    )


def refused(record: TableRecord, what: str, member: Member = HOST) -> str:
    with pytest.raises(Refusal) as refusal:
        change(record, GAME, what, member, "sushigo", NAMES)  # type: ignore[arg-type]
    return refusal.value.code


def test_the_host_adds_computers_at_the_tables_level_each_with_its_own_id_and_name():
    record = lobby()
    notes = [change(record, GAME, "add_computer", HOST, "sushigo", NAMES) for _ in range(2)]
    assert [(s.user_id, s.name, s.computer, s.level) for s in record.seats[1:]] == [
        (-1, "🤖 Temaki", True, "hard"),
        (-2, "🤖 Onigiri", True, "hard"),
    ]
    assert not any(seat.human for seat in record.seats[1:])
    assert notes[0].key == "computers.added" and notes[0].params == {"name": "🤖 Temaki"}
    assert notes[1].logged == {"computer": -2}


def test_remove_takes_the_last_added_and_its_number_comes_back():
    record = lobby()
    for _ in range(2):
        change(record, GAME, "add_computer", HOST, "sushigo", NAMES)
    change(record, GAME, "join", GUEST, "sushigo")
    note = change(record, GAME, "remove_computer", HOST, "sushigo", NAMES)
    assert note.params == {"name": "🤖 Onigiri"}
    assert [seat.user_id for seat in record.seats] == [1, -1, 2]
    change(record, GAME, "add_computer", HOST, "sushigo", NAMES)
    assert record.seats[-1].user_id == -2 and record.seats[-1].name == "🤖 Onigiri"


def test_refusals_host_only_full_none_to_remove_already_started():
    record = lobby()
    change(record, GAME, "join", GUEST, "sushigo")
    assert refused(record, "add_computer", GUEST) == "computers.host_only"
    assert refused(record, "remove_computer", GUEST) == "computers.host_only"
    assert refused(record, "remove_computer") == "computers.none_to_remove"
    for _ in range(GAME.max_players - 2):
        change(record, GAME, "add_computer", HOST, "sushigo", NAMES)
    assert refused(record, "add_computer") == "table.full"
    change(record, GAME, "start", HOST, "sushigo")
    assert record.status == "playing"
    assert refused(record, "add_computer") == "table.already_started"
    assert refused(record, "remove_computer") == "table.already_started"


def test_solo_play_one_human_and_computers_starts():
    record = lobby("easy")
    assert refused(record, "start") == "table.too_few"
    change(record, GAME, "add_computer", HOST, "sushigo", NAMES)
    change(record, GAME, "start", HOST, "sushigo")
    assert record.status == "playing" and record.state is not None


def test_the_host_leaving_hands_the_table_to_a_human_and_computers_alone_keep_none():
    record = lobby()
    change(record, GAME, "add_computer", HOST, "sushigo", NAMES)
    change(record, GAME, "join", GUEST, "sushigo")
    change(record, GAME, "leave", HOST, "sushigo")
    assert record.host_id == GUEST.user_id and record.status == "lobby"
    change(record, GAME, "leave", GUEST, "sushigo")
    assert record.status == "cancelled"


def test_the_last_human_leaving_a_game_with_computers_abandons_it():
    record = lobby()
    change(record, GAME, "add_computer", HOST, "sushigo", NAMES)
    change(record, GAME, "start", HOST, "sushigo")
    note = change(record, GAME, "leave", HOST, "sushigo")
    assert note.key == "table.abandoned" and record.status == "abandoned"


def test_every_lobby_move_answers_its_caller_with_what_it_did():
    """Each move has an answer of its own ("You joined …", "The game has started: …"), never "Done."."""
    record = lobby()
    answers = {
        "join": change(record, GAME, "join", GUEST, "sushigo").answer,
        "add_computer": change(record, GAME, "add_computer", HOST, "sushigo", NAMES).answer,
        "remove_computer": change(record, GAME, "remove_computer", HOST, "sushigo", NAMES).answer,
        "start": change(record, GAME, "start", HOST, "sushigo").answer,
        "leave": change(record, GAME, "leave", GUEST, "sushigo").answer,
        "back": change(record, GAME, "join", GUEST, "sushigo").answer,
        "cancel": change(record, GAME, "cancel", HOST, "sushigo").answer,
    }
    assert answers == {
        "join": "lobby.answer.joined",
        "add_computer": "lobby.answer.computer_added",
        "remove_computer": "lobby.answer.computer_removed",
        "start": "lobby.answer.started",
        "leave": "lobby.answer.left_playing",
        "back": "lobby.answer.back",
        "cancel": "lobby.answer.cancelled",
    }
    for language in ("en", "de", "es", "fa"):
        for key in answers.values():
            words = t(key, language, game="Sushi Go!", players="alice, bob", name="bob", group="sushigo")
            assert words != key and "{" not in words
    assert t("lobby.answer.started", "en", game="Sushi Go!", players="alice and bob") == (
        "▶️ The Sushi Go! game has started: alice and bob."
    )
