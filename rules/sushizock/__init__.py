"""Sushizock im Gockelwok as a pure rules engine (no discord, no asyncio, no I/O).

game.py      GAME: the engine, behind the Game protocol (rules/engine.py)
computer.py  BRAIN: its computer players at three levels (rules/computer/brain.py)
values.py    the one tile model (what a tile is worth to a seat), for the stand-in and the computers
greedy.py    the rule of thumb: the engine's stand-in (`default_action`), easy's play, normal's dice
turn.py      a turn's dice by exact expectation, for any worth of its ends (hard; normal one throw ahead)
solver.py    hard's value of a whole position, two turns deep at two players
testkit.py   TESTKIT: what the shared test suites need of this game
"""
