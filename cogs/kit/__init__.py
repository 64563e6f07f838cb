"""The shared kit: what every other package of the bot uses, using none of them (rules and storage only).

    messages.py   Board, one rendered message sent as a card; answers and edits by Discord's routes
    cards.py      a message as one Components V2 card, within its limits
    limits.py     Discord's message limits: input quoted short (`echo`), every message fitted
    pages.py      a long list as card pages, turned by restart-safe buttons
    errors.py     Refusal and the one answer to anything refused or failed
    adapter.py    every use of discord.py's private API, in one place (tests/cogs/test_adapter.py)
    services.py   the stores every cog is served by, built once by the bot
    drawing.py    pictures: the shipped fonts (fonts/), shaping and visual order, PNGs
    words/        every word: catalogs, `t()`, command mentions, the Translator, bidi, whose language
"""
