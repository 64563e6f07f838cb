"""What the picture tests share: every text a picture hands to Pillow, recorded with its font, colour and
ink; the PNG opened; a drawn text read back; and the checks every picture must pass (readable on a phone,
nothing over another word or outside the picture, a glyph for every character)."""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, TypeVar

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

from cogs.kit.drawing import runs
from cogs.tables.context import TableContext
from storage.settings import PICTURES_KEY

DESKTOP_WIDTH, PHONE_WIDTH = 560, 265
"""How wide the card shows a picture: a 1280 x 900 desktop window, a 390 x 844 phone."""
SMALLEST_SHOWN = 11
"""No word smaller than this many pixels where it is shown, on a phone as on a desktop."""

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Drawn:
    text: str  # as handed to Pillow: shaped, in visual order
    font: str  # the font file's path
    size: int  # the font's size in pixels
    fill: Any  # its colour
    box: Box  # its ink, in the picture
    xy: tuple[float, float]  # where it is written, at its anchor
    word: int = 0  # which draw_text call wrote it (when counted): a word in two fonts is two runs


@dataclass(frozen=True)
class Word:
    text: str  # its runs, as drawn (shaped, in visual order)
    fill: Any
    box: Box


class Inked(Protocol):
    """A Drawn or a Word: a text and its ink (read-only properties, which frozen dataclasses match)."""

    @property
    def text(self) -> str: ...
    @property
    def box(self) -> Box: ...


InkedT = TypeVar("InkedT", bound=Inked)
ContextT = TypeVar("ContextT", bound=TableContext[Any, Any, Any])


def image_of(data: bytes) -> Image.Image:
    """The PNG a picture is, opened and read."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()
    return image


def drawn_while(
    monkeypatch: pytest.MonkeyPatch, render: Callable[[], bytes], *, words_in: ModuleType | None = None
) -> tuple[Image.Image, list[Drawn]]:
    """The picture `render` draws and every text it hands to Pillow on the way. With `words_in` (the
    module that calls cogs.kit.drawing.draw_text), each piece also says which call wrote it. Clearing the
    picture's caches, so that it draws here, is the caller's."""
    drawn: list[Drawn] = []
    words = [0]
    original_text = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        font = kwargs["font"]
        assert isinstance(font, ImageFont.FreeTypeFont), "every word is written in a shipped font"
        x0, y0, x1, y1 = font.getbbox(str(text), anchor=kwargs.get("anchor"))
        box = (xy[0] + x0, xy[1] + y0, xy[0] + x1, xy[1] + y1)
        at = (float(xy[0]), float(xy[1]))
        drawn.append(Drawn(str(text), str(font.path), int(font.size), kwargs.get("fill"), box, at, words[0]))
        original_text(self, xy, text, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(ImageDraw.ImageDraw, "text", text)
        if words_in is not None:
            original_word = words_in.draw_text

            def word(*args: Any, **kwargs: Any) -> None:
                words[0] += 1
                original_word(*args, **kwargs)

            patch.setattr(words_in, "draw_text", word)
        data = render()
    return image_of(data), drawn


def words_of(drawn: list[Drawn]) -> list[Word]:
    """The pieces joined into the words they were written as (recorded with `words_in`)."""
    joined: dict[int, list[Drawn]] = {}
    for item in drawn:
        joined.setdefault(item.word, []).append(item)
    return [
        Word(
            "".join(piece.text for piece in pieces),
            pieces[0].fill,
            (
                min(piece.box[0] for piece in pieces),
                min(piece.box[1] for piece in pieces),
                max(piece.box[2] for piece in pieces),
                max(piece.box[3] for piece in pieces),
            ),
        )
        for pieces in joined.values()
    ]


# ---------------------------------------------------------------- a text drawn, read back


def shown(text: str) -> str:
    """`text` as a picture draws it: shaped, in visual order, what no font has left out."""
    return "".join(run for _, run in runs(text))


def read(text: str) -> str:
    """A drawn text read back: right-to-left letters (drawn joined, in visual order) in reading order,
    presentation forms to letters, "…" kept; digits and Latin letters as they are."""
    if any(unicodedata.bidirectional(char) in ("R", "AL") for char in text):
        return "…".join(unicodedata.normalize("NFKC", part) for part in text.split("…"))[::-1]
    return text


def visible(text: str) -> str:
    """A catalog's text as drawn: without the marks and joiners that steer it and draw nothing."""
    return "".join(char for char in text if unicodedata.category(char) != "Cf")


# ---------------------------------------------------------------- what every picture must pass


def too_small(drawn: Iterable[Drawn], width: int) -> list[str]:
    """The texts smaller than SMALLEST_SHOWN px where a phone shows a picture `width` px wide."""
    smallest = SMALLEST_SHOWN * width / PHONE_WIDTH
    return [item.text for item in drawn if item.size < smallest]


def overlapping(items: Sequence[Inked]) -> Iterator[tuple[str, str]]:
    """The pairs of words (Drawn or Word) whose ink overlaps, 1 px of kerning allowed."""
    for index, first in enumerate(items):
        x0, y0, x1, y1 = first.box
        for other in items[index + 1 :]:
            a0, b0, a1, b1 = other.box
            if x0 < a1 - 1 and a0 < x1 - 1 and y0 < b1 - 1 and b0 < y1 - 1:
                yield first.text, other.text


def outside(items: Iterable[InkedT], size: tuple[int, int]) -> list[InkedT]:
    """The words (Drawn or Word) whose ink leaves a picture of `size`."""
    width, height = size
    return [
        item
        for item in items
        if not (item.box[0] >= 0 and item.box[1] >= 0 and item.box[2] <= width and item.box[3] <= height)
    ]


@cache
def cmap(path: str) -> dict[int, str]:
    return TTFont(path, lazy=True).getBestCmap() or {}


def missing_glyphs(drawn: Iterable[Drawn]) -> Iterator[str]:
    """Each character drawn in a font that has no glyph for it."""
    for item in drawn:
        for char in item.text:
            glyph = cmap(item.font).get(ord(char))
            if glyph is None or glyph == ".notdef":
                yield f"{char!r} (U+{ord(char):04X}) in {item.text!r}, {Path(item.font).name}"


def pictured(ctx: ContextT) -> ContextT:
    """The table `ctx`, as one that chose pictures."""
    ctx.record.extra[PICTURES_KEY] = True
    return ctx
