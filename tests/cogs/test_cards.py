"""A message's parts as one Components V2 card, within the card's limits for any input."""

from __future__ import annotations

import gc
from typing import Any

import discord

from cogs.kit import cards, limits
from cogs.kit.messages import TABLE_ROW, Board
from cogs.kit.words import bidi
from cogs.tables.ui import TableButton


def button(word: str, row: int | None = None) -> TableButton:
    return TableButton("sushigo", 1, 2, f"t:{word}", label=word, row=row)


def payload(board: Board) -> dict[str, Any]:
    view = board.card()
    return {"flags": limits.COMPONENTS_V2, "components": view.to_components()}


def texts(board: Board) -> list[str]:
    return cards.texts(board.card().parts())


def test_a_board_is_one_card_in_its_colour_heading_first_controls_inside() -> None:
    embed = discord.Embed(title="Sushi Go! — round 1", description="alice picks", colour=discord.Colour.red())
    embed.add_field(name="Seats", value="1. alice\n2. bob")
    embed.add_field(name="Options", value="Rounds: 3")
    embed.set_footer(text="3 cards in each hand")
    board = Board(content="⏳ bob", embed=embed, items=[button("pick", 0), button("rules", TABLE_ROW)])
    (container,) = board.card().to_components()
    assert container["type"] == 17 and container["accent_color"] == discord.Colour.red().value
    kinds = [part["type"] for part in container["components"]]
    assert kinds == [10, 14, 10, 10, 1]  # heading and text, a line, the fields, small print, one row
    head, fields, small = texts(board)
    assert head == "### Sushi Go! — round 1\n⏳ bob\nalice picks"
    # A field after a list gets a blank line: else markdown indents its name into the list.
    assert fields == "**Seats**\n1. alice\n2. bob\n\n**Options**\nRounds: 3"
    assert small == "-# 3 cards in each hand"
    assert not limits.problems(payload(board))


def test_the_table_row_joins_the_game_row_when_both_fit_and_unplaced_buttons_fill_the_lowest_rows() -> None:
    board = Board(items=[button("hand", TABLE_ROW), button("rules", TABLE_ROW), button("a"), button("b")])
    rows = [
        [item["label"] for item in part["components"]]
        for part in board.card().to_components()[0]["components"]
        if part["type"] == 1
    ]
    assert rows == [["a", "b", "hand", "rules"]]
    lobby = Board(
        items=[*(button(f"r0.{n}", 0) for n in range(4)), *(button(f"r1.{n}", 1) for n in range(3))]
    )
    sizes = [
        len(part["components"]) for part in lobby.card().to_components()[0]["components"] if part["type"] == 1
    ]
    assert sizes == [4, 3]  # seven buttons do not fit one row: the rows stay as drawn


def test_a_section_puts_its_button_beside_its_line() -> None:
    board = Board(content="Plates", sections=[("🍣 Combo plate 2 — 3 points", button("ring 2"))])
    section = board.card().to_components()[0]["components"][-1]
    assert section["type"] == 9
    assert section["components"][0]["content"] == "🍣 Combo plate 2 — 3 points"
    assert section["accessory"]["label"] == "ring 2"


def test_any_input_fits_the_card_limits_and_keeps_every_control() -> None:
    long = "Ｗ" * 32
    embed = discord.Embed(title=long * 8, description=(long + "\n") * 200)
    for index in range(25):
        embed.add_field(name=f"{long} {index}", value=(long + " ") * 30)
    items = [button(f"{row}.{n}", row) for row in range(5) for n in range(5)]
    sections = [(long * 10, button(f"s{n}")) for n in range(6)]
    board = Board(content=long * 60, embed=embed, items=items, sections=sections)
    sent = payload(board)
    assert not limits.problems(sent), limits.problems(sent)
    ids = [c.get("custom_id") for c in limits.walk(sent["components"]) if c.get("type") == 2]
    assert all(f"sb:sushigo:1:2:t:{row}.{n}" in ids for row in range(5) for n in range(5))


def test_a_right_to_left_card_reads_right_to_left_in_every_text() -> None:
    rtl = bidi.rtl_line("جاها")
    embed = discord.Embed(title=bidi.rtl_line("سوشی گو!"))
    embed.add_field(name=rtl, value=bidi.rtl_line("۱. آلیس"))
    board = Board(embed=embed)
    for text in texts(board):
        for line in text.split("\n"):
            assert bidi.is_wrapped(line), repr(line)
    assert texts(board)[1].startswith(f"{bidi.RLM}{bidi.RLI}**")  # bold inside its own marks


def test_the_card_counts_components_as_discord_does() -> None:
    board = Board(content="a", embed=discord.Embed(title="t"), sections=[("b", button("x"))])
    board.items = [button("y", 0), button("z", 0)]
    parts = board.card().parts()
    assert [part["type"] for part in parts] == [10, 14, 9, 1]
    assert cards.count(parts[:-1], parts[-1:]) == 1 + 1 + 1 + 3 + 3


def test_a_card_is_the_json_discord_reads_and_keeps_no_view() -> None:
    """Built as JSON: nothing of it links back to a view, so it is freed at once (no cycle to collect),
    and a button sent in it is found again by its custom_id, not by a stored view."""
    board = Board(content="a", items=[button("y", 0)], sections=[("b", button("x"))])
    card = board.card()
    assert card.children == [] and not card.is_dispatchable() and card.has_components_v2()
    assert card.to_components() is card.to_components()  # drawn once: fingerprinted, then sent
    gc.collect()
    gc.disable()
    try:
        collected = gc.collect()
        Board(content="a", items=[button("y", 0)], sections=[("b", button("x"))]).card()
        assert gc.collect() == collected == 0
    finally:
        gc.enable()
