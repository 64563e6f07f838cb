"""The Kaiten Sushi picture stays readable where the card shows it, the full width of the card: about
560 px wide on a desktop, 265 px on a phone. Every word is at least 11 px tall there, the picture is
landscape (the board message fits one screen), no word overlaps another or leaves the picture, and each
plate's numbers are its lines' points, its counters and its score.

It draws any player's name in any language: every character drawn has a glyph in the font that draws it
(read from the font's cmap, not from pixels), emoji are left out rather than boxed, a long name is cut
short with "…", and Persian is joined and ordered right to left."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest
from PIL import Image

from cogs.games.kaiten import picture as kaiten_render
from cogs.games.kaiten.picture import picture_words, render_png
from cogs.kit import drawing
from cogs.kit.drawing import FONT_CHAIN, FONTS
from cogs.kit.words.bidi import plain
from cogs.kit.words.catalogs import languages
from cogs.kit.words.text import latin_digits, number, t
from rules.kaiten.game import GAME
from rules.kaiten.view import KaitenView
from tests.cogs.pictures import (
    DESKTOP_WIDTH,
    PHONE_WIDTH,
    SMALLEST_SHOWN,
    Drawn,
    cmap,
    drawn_while,
    image_of,
    missing_glyphs,
    outside,
    overlapping,
    read,
    too_small,
)

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Zoë", "Jürgen", "Алёна", "مریم", "王小明"]
LANGUAGES = sorted(languages())
PRESENTATION_FORMS = (range(0xFB50, 0xFE00), range(0xFE70, 0xFF00))
BESIDES_PICTURE = 200
"""About what the board message takes on a desktop besides its picture: a few lines, 2 rows of buttons."""
LONG_NAMES = [
    "Wolfgang Amadeus Mozart Salzburg",
    "Александра Константиновна Иванов",
    "王小明" * 10 + "王小",
    "مریم محمدی زاده تهرانی اصفهانی ش",
]
"""Four names of 32 characters (the longest a Discord name can be), in four scripts."""


@cache
def table(players: int, moves: int = 0) -> KaitenView:
    """The table of a four-player (or `players`) game after `moves` actions of the engine's stand-in."""
    state = GAME.new(players, 7)
    for _ in range(moves):
        if GAME.is_over(state):
            break
        seat = min(GAME.to_move(state))
        GAME.apply(state, seat, GAME.computer_action(state, seat))
    return GAME.view(state, None)


@cache
def choosing_ginger() -> KaitenView:
    """The first table of that game where the player to move chooses which edges get their ginger, its
    reserve used up (as at the end of a game)."""
    state = GAME.new(4, 7)
    while (view := GAME.view(state, None))["phase"] != "ginger":
        seat = min(GAME.to_move(state))
        GAME.apply(state, seat, GAME.computer_action(state, seat))
    return {**view, "reserve": []}


def views() -> list[KaitenView]:
    """A game's first table, two later ones (one placing a sushi), a ginger choice, and its end."""
    placing = next(view for moves in range(40, 120) if (view := table(4, moves))["phase"] == "place")
    return [table(4), table(4, 40), placing, choosing_ginger(), table(4, 1000)]


def picture(view: KaitenView, names: Sequence[str], language: str) -> Image.Image:
    return image_of(render_png(view, names, picture_words(language), language))


def draw(
    monkeypatch: pytest.MonkeyPatch,
    names: Sequence[str],
    language: str,
    players: int | None = None,
    view: KaitenView | None = None,
) -> list[Drawn]:
    """Everything the picture hands to Pillow to write, with the font it writes it in."""
    kaiten_render._static_layer.cache_clear()  # its coordinates are written once: write them again here
    view = view or table(players or len(names))
    _, drawn = drawn_while(monkeypatch, lambda: render_png(view, names, picture_words(language), language))
    kaiten_render._static_layer.cache_clear()  # and not leave them recorded for the next test
    return drawn


# ---------------------------------------------------------------- readable where it is shown


def test_the_picture_is_landscape_so_the_board_fits_a_screen():
    """Shown at the card's width, the picture leaves the board message within one screen: at most
    520 px on a desktop with the text and the buttons, and just over a sixth of a phone's 844 px."""
    width, height = picture(table(4), LONG_NAMES, "fa").size
    assert (width, height) == (kaiten_render.WIDTH, kaiten_render.HEIGHT)
    assert width >= 2 * PHONE_WIDTH, "drawn at least at twice the size a phone shows it: crisp"
    assert BESIDES_PICTURE + DESKTOP_WIDTH * height / width <= 520
    assert DESKTOP_WIDTH * height / width <= 300
    assert PHONE_WIDTH * height / width <= 145
    for players in (2, 3):  # as tall with fewer players: the board message does not jump
        assert picture(table(players), NAMES[:players], "en").size == (width, height)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_word_is_smaller_than_11_px_on_a_phone(monkeypatch: pytest.MonkeyPatch, language: str):
    """Every text the picture writes, at every moment of a four-player game with 32-character names."""
    for view in views():
        drawn = draw(monkeypatch, LONG_NAMES, language, view=view)
        assert drawn
        assert too_small(drawn, kaiten_render.WIDTH) == []
        # On a desktop the picture is shown wider: larger still.
        assert min(item.size for item in drawn) * DESKTOP_WIDTH / kaiten_render.WIDTH >= SMALLEST_SHOWN
        # And the size said is the size drawn: the ink of a capital or a digit is most of it.
        digits = [item for item in drawn if item.text.isdigit() and item.text.isascii()]
        assert digits and all(item.box[3] - item.box[1] >= 0.7 * item.size for item in digits)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_word_overlaps_another_or_leaves_its_place(monkeypatch: pytest.MonkeyPatch, language: str):
    for view in views():
        drawn = draw(monkeypatch, LONG_NAMES, language, view=view)
        assert outside(drawn, (kaiten_render.WIDTH, kaiten_render.HEIGHT)) == []
        assert list(overlapping(drawn)) == []
        # What a plate writes stays within its box, the names cut short to leave room.
        for seat in range(4):
            px0, py0, px1, py1 = kaiten_render._panel_box(*kaiten_render._plate_origin(seat))
            for item in on_plate(drawn, seat):
                x0, y0, x1, y1 = item.box
                assert px0 <= x0 and x1 <= px1 and py0 <= y0 and y1 <= py1, item


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_long_name_is_cut_short_to_fit_its_plate(monkeypatch: pytest.MonkeyPatch, language: str):
    drawn = draw(monkeypatch, LONG_NAMES, language)
    cut = [item.text for item in drawn if item.text.endswith("…") or item.text.startswith("…")]
    assert len(cut) == 4, cut  # every name: the CJK one in two runs (its "…" in DejaVu Sans)
    assert LONG_NAMES[0].startswith(cut[0].removesuffix("…"))
    assert len(cut[0]) >= 8, "a name keeps enough letters to be told apart"


def test_the_picture_is_the_same_every_time_and_small():
    for view in views():
        first = render_png(view, LONG_NAMES, picture_words("fa"), "fa")
        kaiten_render._static_layer.cache_clear()
        assert render_png(view, LONG_NAMES, picture_words("fa"), "fa") == first
        assert len(first) < 48_000  # a full board and four plates: about 35 kB


def test_the_edges_waiting_for_ginger_stand_out_only_while_they_wait():
    def shows_due(view: KaitenView) -> bool:
        colours = picture(view, NAMES[:4], "en").convert("RGB").getcolors(1 << 20) or []
        return any(colour == kaiten_render.DUE for _, colour in colours)

    assert choosing_ginger()["ginger_due"]
    assert shows_due(choosing_ginger())
    assert not any(shows_due(view) for view in views() if not view["ginger_due"])


# ---------------------------------------------------------------- any name, any language


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_character_drawn_has_a_glyph_in_its_font(monkeypatch: pytest.MonkeyPatch, language: str):
    for names in (NAMES[:4], NAMES[1:]):  # the game seats four
        drawn = draw(monkeypatch, names, language)
        assert list(missing_glyphs(drawn)) == []
        texts = [item.text for item in drawn]
        for name in names:
            assert name in texts or any(read(text) == name for text in texts), f"{name} is drawn whole"
    assert list(missing_glyphs(draw(monkeypatch, LONG_NAMES, language, view=choosing_ginger()))) == []


def test_each_script_goes_to_a_font_that_has_it(monkeypatch: pytest.MonkeyPatch):
    drawn = draw(monkeypatch, ["Zoë − Jan", "Алёна", "王小明", "مریم"], "en")
    font = {item.text: Path(item.font).name for item in drawn}
    assert font["Zoë − Jan"] == font["Алёна"] == "DejaVuSans.ttf"
    assert font["王小明"] == "DroidSansFallback-CJK.ttf"
    cjk = cmap(str(FONTS / "DroidSansFallback-CJK.ttf"))
    assert all(ord(char) in cjk for char in "王小明とキム민준")  # kana and Hangul too


def test_emoji_are_left_out_never_boxed(monkeypatch: pytest.MonkeyPatch):
    names = ["Zoë 🍣", "🍣🍣", "👍🏽 Алёна", "🤖 王小明"]
    drawn = draw(monkeypatch, names, "en")
    texts = [item.text for item in drawn]
    assert {"Zoë", "Алёна", "王小明"} <= set(texts)
    assert t("kaiten.picture.seat", "en", seat=2) in texts  # nothing of the name left: "Player 2"
    assert not any(ord(char) >= 0x1F000 or 0xFE00 <= ord(char) <= 0xFE0F for text in texts for char in text)
    assert list(missing_glyphs(drawn)) == []


def test_persian_words_are_joined_and_read_right_to_left(monkeypatch: pytest.MonkeyPatch):
    drawn = draw(monkeypatch, ["مریم Li 42", "Zoë"], "fa", view={**table(2), "reserve": []})
    texts = [item.text for item in drawn]
    words = picture_words("fa")
    word = plain(f"{words['reserve']}: {words['empty']}")
    shaped = next(text for text in texts if read(text) == word)
    # Joined: the letters are the forms that connect (Arabic presentation forms), not the bare letters.
    assert all(any(ord(char) in forms for forms in PRESENTATION_FORMS) for char in shaped if char not in " :")
    assert shaped != word[::-1]
    # Mixed: the Persian name reads first from the right, the Latin words and the number keep their order.
    name = next(item for item in drawn if "Li" in item.text)
    assert name.text.startswith("Li 42 ")
    assert read(name.text.removeprefix("Li 42 ")) == "مریم"
    # In a right-to-left language a name stands on the right of its plate, where reading starts.
    x0, _, x1, _ = kaiten_render._panel_box(*kaiten_render._plate_origin(0))
    assert x1 - 12 <= name.box[2] <= x1 and name.box[0] > x0 + 12
    # The score and the counters in Persian digits.
    score = next(item.text for item in on_plate(drawn, 0) if item.fill == kaiten_render.SCORE_TEXT)
    assert score == number(table(2)["players"][0]["score"], "fa") == "۲"
    assert list(missing_glyphs(drawn)) == []


def test_a_latin_name_starts_on_the_left_of_its_plate(monkeypatch: pytest.MonkeyPatch):
    drawn = draw(monkeypatch, ["Zoë", "Jürgen"], "de")
    x0, _, x1, _ = kaiten_render._panel_box(*kaiten_render._plate_origin(0))
    name = next(item for item in drawn if item.text == "Zoë")
    assert x0 <= name.box[0] <= x0 + 12 and name.box[2] < (x0 + x1) / 2


def test_a_negative_score_keeps_its_minus_sign_in_persian():
    pieces = drawing.runs(number(-3, "fa"))
    assert len(pieces) == 1
    assert pieces[0][1] == "−۳"


# ---------------------------------------------------------------- each plate's numbers


def on_plate(drawn: list[Drawn], seat: int) -> list[Drawn]:
    """What seat's plate writes, in the order it is written."""
    x, y = kaiten_render._plate_origin(seat)
    width, height = kaiten_render.PLATE_BOX, kaiten_render.PLATE_HIGH
    return [item for item in drawn if x <= item.xy[0] < x + width and y <= item.xy[1] < y + height]


def numbers(items: list[Drawn]) -> list[int]:
    return [int(latin_digits(item.text).replace("−", "-")) for item in items]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_plate_writes_its_lines_points_its_counters_and_its_score(
    monkeypatch: pytest.MonkeyPatch, language: str
):
    """In yellow beside each full row and below each full column its points (a red 0 for a line a
    missing ginger spoils); after the discs the ginger, wasabi and soy in hand; in the bottom right
    corner, dark on yellow, the score. All in the language's digits."""
    lines_scored = 0
    for view in views():
        drawn = draw(monkeypatch, NAMES[:4], language, view=view)
        for player in view["players"]:
            written = on_plate(drawn, player["seat"])
            parts = player["score_parts"]
            full = [line["points"] for line in parts["lines"] if line["points"] and not line["spoiled"]]
            lines = [item for item in written if item.fill == kaiten_render.CURRENT]
            assert sorted(numbers(lines)) == sorted(full)
            spoiled = sum(line["spoiled"] and line["points"] is not None for line in parts["lines"])
            zeros = [item.text for item in written if item.fill == kaiten_render.MISSING]
            assert zeros == [number(0, language)] * spoiled
            (score,) = [item.text for item in written if item.fill == kaiten_render.SCORE_TEXT]
            assert score == number(player["score"], language)
            counters = [item for item in written if item.fill == kaiten_render.TEXT][1:]  # after the name
            assert [item.text for item in counters] == [
                number(player[key], language) for key in ("ginger", "wasabi", "soy")
            ]
            lines_scored += len(full)
    assert lines_scored >= 4


def test_no_picture_word_speaks_to_one_player():
    words = picture_words("en")
    assert not any(re.search(r"\b(you|your|choose)\b", word, re.IGNORECASE) for word in words.values())


def test_the_fonts_and_their_licences_are_installed_with_the_package():
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    shipped = [path for path in FONTS.iterdir() if path.is_file()]
    assert {path.name for path in shipped} >= {*FONT_CHAIN, "README.md"}
    assert any(path.name.startswith("LICENSE") for path in shipped)
    for path in shipped:
        relative = path.relative_to(ROOT / "cogs").as_posix()
        assert any(fnmatch.fnmatch(relative, pattern) for pattern in package_data["cogs"]), relative
