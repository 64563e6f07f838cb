"""The games as pure rules engines: no discord, no asyncio, no I/O.

engine.py     the Game protocol, the typed view header, IllegalAction, the state-held Rng
codec.py      dump/load of states and actions: JSON codecs compiled per dataclass
registry.py   GAMES: the one list of games, read by the bot, the tests and the computers
<game>/       one package per game: game.py (its engine), computer.py (its brain), testkit.py
computer/     computer players for every game: levels, the search, choose()
replay.py     a finished game rebuilt from its log     dice_notation.py  /roll's notation
"""
