"""The Kaiten Sushi picture draws any player's name in any language: every character drawn has a glyph
in the font that draws it (read from the font's cmap, not from pixels), emoji are left out rather
than boxed, and Persian is joined and ordered right to left."""

from __future__ import annotations

import fnmatch
import io
import re
import tomllib
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

from cogs.bidi import plain
from cogs.i18n import latin_digits, number, plural, t
from cogs.kaiten import picture as kaiten_render
from cogs.kaiten.picture import FONT_CHAIN, FONTS, picture_words, render_png
from rules.kaiten.game import GAME
from rules.kaiten.view import KaitenView

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Zoë", "Jürgen", "Алёна", "مریم", "王小明"]
LANGUAGES = ["en", "de", "es", "fa"]
PRESENTATION_FORMS = (range(0xFB50, 0xFE00), range(0xFE70, 0xFF00))


@dataclass(frozen=True)
class Drawn:
    text: str
    font: str  # the font file's path
    xy: tuple[float, float] = (0.0, 0.0)  # where it is written (its baseline's left end)
    fill: Any = None  # its colour


@cache
def cmap(path: str) -> dict[int, str]:
    return TTFont(path, lazy=True).getBestCmap() or {}


def table(players: int, moves: int = 0) -> KaitenView:
    """The table of a four-player (or `players`) game after `moves` actions of the engine's stand-in."""
    state = GAME.new(players, 7)
    for _ in range(moves):
        if GAME.is_over(state):
            break
        seat = min(GAME.to_move(state))
        GAME.apply(state, seat, GAME.computer_action(state, seat))
    return GAME.view(state, None)


def draw(
    monkeypatch: pytest.MonkeyPatch,
    names: Sequence[str],
    language: str,
    players: int | None = None,
    view: KaitenView | None = None,
) -> list[Drawn]:
    """Everything the picture hands to Pillow to write, with the font it writes it in."""
    drawn: list[Drawn] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        font = kwargs["font"]
        assert isinstance(font, ImageFont.FreeTypeFont), "every word is written in a shipped font"
        drawn.append(Drawn(str(text), str(font.path), tuple(xy), kwargs.get("fill")))
        original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    kaiten_render._static_layer.cache_clear()  # its coordinates are written once: write them again here
    png = render_png(view or table(players or len(names)), names, picture_words(language), language)
    assert Image.open(io.BytesIO(png)).format == "PNG"
    return drawn


def logical(text: str) -> str:
    """A drawn right-to-left text read back: presentation forms to letters, in reading order."""
    return unicodedata.normalize("NFKC", text)[::-1]


def missing_glyphs(drawn: list[Drawn]) -> Iterator[str]:
    for item in drawn:
        for char in item.text:
            glyph = cmap(item.font).get(ord(char))
            if glyph is None or glyph == ".notdef":
                yield f"{char!r} (U+{ord(char):04X}) in {item.text!r}, {Path(item.font).name}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_character_drawn_has_a_glyph_in_its_font(monkeypatch: pytest.MonkeyPatch, language: str):
    for names in (NAMES[:4], NAMES[1:]):  # the game seats four
        drawn = draw(monkeypatch, names, language)
        assert list(missing_glyphs(drawn)) == []
        texts = [item.text for item in drawn]
        for name in names:
            assert name in texts or any(logical(text) == name for text in texts), f"{name} is drawn whole"


def test_each_script_goes_to_a_font_that_has_it(monkeypatch: pytest.MonkeyPatch):
    drawn = draw(monkeypatch, ["Zoë − Jürgen", "Алёна", "王小明", "مریم"], "en")
    font = {item.text: Path(item.font).name for item in drawn}
    assert font["Zoë − Jürgen"] == font["Алёна"] == "DejaVuSans.ttf"
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


def test_a_long_name_is_cut_short_to_fit_its_plate(monkeypatch: pytest.MonkeyPatch):
    long = "Wolfgang Amadeus Mozart of Salzburg"
    drawn = draw(monkeypatch, [long, "王" * 30], "de")
    names = [item.text for item in drawn if item.text.endswith("…")]
    assert len(names) == 2
    assert long.startswith(names[0].removesuffix("…"))


def test_persian_labels_are_joined_and_read_right_to_left(monkeypatch: pytest.MonkeyPatch):
    drawn = draw(monkeypatch, ["مریم Smith 42", "Zoë"], "fa")
    texts = [item.text for item in drawn]
    for key in ("kaiten.picture.reserve", "kaiten.picture.rice"):
        word = plain(t(key, "fa"))
        shaped = next(text for text in texts if logical(text) == word)
        # Joined: the letters are the forms that connect (Arabic presentation forms), not the bare letters.
        assert all(
            any(ord(char) in forms for forms in PRESENTATION_FORMS) for char in shaped.replace(" ", "")
        )
        assert shaped != word[::-1]
    # Mixed: the Persian name reads first from the right, the Latin words and the number keep their order.
    name = next(text for text in texts if "Smith" in text)
    assert name.startswith("Smith 42 ")
    assert logical(name.removeprefix("Smith 42 ")) == "مریم"
    # A score: "۲ امتیاز", in Persian digits, the number on the right where reading starts.
    score = number(table(2)["players"][0]["score"], "fa")
    word = plain(plural("kaiten.picture.points", 2, "fa")).removeprefix(number(2, "fa")).strip()
    assert any(
        text.endswith(f" {score}") and logical(text.removesuffix(f" {score}")) == word for text in texts
    )
    assert list(missing_glyphs(drawn)) == []


def on_plate(drawn: list[Drawn], seat: int, colour: tuple[int, int, int]) -> list[str]:
    """What seat's plate writes in `colour`, in the order it is written."""
    x, y = kaiten_render._plate_origin(seat)
    return [
        item.text
        for item in drawn
        if item.fill == colour
        and x <= item.xy[0] < x + kaiten_render.PLATE_BOX_W
        and y <= item.xy[1] < y + kaiten_render.PLATE_BOX_H
    ]


def plate_numbers(drawn: list[Drawn], seat: int) -> tuple[str, list[int]]:
    """On seat's plate: its score as drawn, and every other number written in the score's colour."""
    score, *numbers = on_plate(drawn, seat, kaiten_render.CURRENT)  # the score comes first, top right
    return score, [int(latin_digits(text).replace("−", "-")) for text in numbers]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("moves", [0, 40, 90])
def test_the_yellow_numbers_of_a_plate_add_up_to_its_score(
    monkeypatch: pytest.MonkeyPatch, language: str, moves: int
):
    """ "alice — 2 pts" on an empty plate: the +2 after her wasabi says why. Each full row and column,
    the wasabi, the soy and the rarer rice write their points on the plate, in the score's colour."""
    view = table(4, moves)
    drawn = draw(monkeypatch, NAMES[:4], language, view=view)
    lines_scored = 0
    for player in view["players"]:
        score, numbers = plate_numbers(drawn, player["seat"])
        assert number(abs(player["score"]), language) in score  # in the language's digits
        assert sum(numbers) == player["score"], (player["seat"], numbers)
        parts = player["score_parts"]
        full = [line["points"] for line in parts["lines"] if line["points"] and not line["spoiled"]]
        counters = [points for points in (parts["wasabi"], parts["soy"], parts["rice"]) if points]
        assert sorted(numbers) == sorted([*full, *counters])
        # A line a missing ginger spoils shows its 0 in red.
        spoiled = sum(line["spoiled"] and line["points"] is not None for line in parts["lines"])
        zero = number(0, language)
        assert on_plate(drawn, player["seat"], kaiten_render.MISSING).count(zero) == spoiled
        lines_scored += len(full)
    if moves == 0:  # an empty plate: only the unused wasabi counts
        assert all(plate_numbers(drawn, seat)[1] == [2] for seat in range(4))
    if moves == 90:
        assert lines_scored >= 4


def test_no_picture_word_speaks_to_one_player():
    words = picture_words("en")
    assert not any(re.search(r"\b(you|your|choose)\b", word, re.IGNORECASE) for word in words.values())


def test_a_negative_score_keeps_its_minus_sign_in_persian():
    pieces = kaiten_render.runs(kaiten_render.counted("points", -3, "fa"))
    assert len(pieces) == 1
    assert pieces[0][1].endswith(" −۳")


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [("en", "1 ginger", "2 ginger"), ("es", "1 jengibre", "2 jengibres"), ("fa", "۱ زنجبیل", "۲ زنجبیل")],
)
def test_the_counters_of_a_plate_are_worded_by_number(language: str, one: str, two: str):
    assert plain(kaiten_render.counted("ginger", 1, language)) == one
    assert plain(kaiten_render.counted("ginger", 2, language)) == two


def test_the_fonts_and_their_licences_are_installed_with_the_package():
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    shipped = [path for path in FONTS.iterdir() if path.is_file()]
    assert {path.name for path in shipped} >= {*FONT_CHAIN, "README.md"}
    assert any(path.name.startswith("LICENSE") for path in shipped)
    for path in shipped:
        relative = path.relative_to(ROOT / "cogs").as_posix()
        assert any(fnmatch.fnmatch(relative, pattern) for pattern in package_data["cogs"]), relative
