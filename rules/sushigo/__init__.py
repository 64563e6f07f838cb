"""Sushi Go! as a pure rules engine (no discord, no asyncio, no I/O).

game.py      GAME: the engine, behind the Game protocol (rules/engine.py)
state.py     the Pick action and the state
scoring.py   the cards and how they score
codec.py     the state's own dump/load, by hand for every click
computer.py  BRAIN: its computer players at three levels (rules/computer/brain.py)
endgame.py   hard's exact search of a round's last cards at two players
testkit.py   TESTKIT: what the shared test suites need of this game
"""
