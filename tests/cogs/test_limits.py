"""cogs/kit/limits.py: quoting input and fitting messages within Discord's limits, for any text."""

from __future__ import annotations

import discord
from hypothesis import given
from hypothesis import strategies as st

from cogs.kit import limits

texts = st.text(max_size=8000)


@given(texts, st.integers(1, 5000))
def test_a_clipped_text_fits_and_keeps_its_start(text: str, limit: int) -> None:
    clipped = limits.clip(text, limit)
    assert len(clipped) <= limit
    assert clipped == text if len(text) <= limit else clipped.endswith(limits.CUT)


@given(texts)
def test_an_echo_is_short_one_line_and_pings_nobody(text: str) -> None:
    shown = limits.echo(text)
    assert len(shown) <= 2 * limits.ECHO + 20  # escapes add at most a backslash a character
    assert "\n" not in shown and "@everyone" not in shown and "@here" not in shown
    assert not any("\ud800" <= char <= "\udfff" for char in shown)
    assert "<@1" not in shown


def test_an_echo_draws_no_markdown() -> None:
    assert (
        limits.echo("**bold** _x_ <@123456789012345678>")
        == "\\*\\*bold\\*\\* \\_x\\_ <@\u200b123456789012345678>"
    )


@given(
    title=texts,
    description=texts,
    fields=st.lists(st.tuples(st.text(max_size=400), st.text(max_size=1500)), max_size=30),
    footer=texts,
)
def test_a_fitted_embed_is_one_discord_accepts(
    title: str, description: str, fields: list[tuple[str, str]], footer: str
) -> None:
    embed = discord.Embed(title=title, description=description)
    for name, value in fields:
        embed.add_field(name=name, value=value)
    embed.set_footer(text=footer)
    limits.fit_embed(embed)
    assert limits.problems({"embeds": [embed.to_dict()]}) == []


def test_problems_name_every_limit_broken() -> None:
    payload = {
        "type": 4,
        "data": {
            "content": "x" * 2001,
            "components": [
                {"type": 1, "components": [{"type": 2, "label": "y" * 81, "custom_id": "z" * 101}]}
            ],
            "choices": [{"name": "n", "value": "v"}] * 26,
        },
    }
    found = limits.problems(payload)
    assert len(found) == 4, found
    assert limits.problems({"type": 8, "data": {"choices": [{"name": "n", "value": "v"}]}}) == []
