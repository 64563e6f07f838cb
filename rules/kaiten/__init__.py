"""Kaiten Sushi as a pure rules engine (no discord, no asyncio, no I/O).

game.py      GAME: the engine, behind the Game protocol (rules/engine.py)
board.py     geometry: the board, the pines, the plate's cells and edges
plate.py     a plate's score, where a sushi may go, the ginger choices
state.py     the actions, the state, and the questions every module asks of it
prospect.py  the placement model: default_action's and the computers' estimate of a plate
view.py      the typed view and how a state becomes one
computer.py  BRAIN: its computer players at three levels (rules/computer/brain.py)
testkit.py   TESTKIT: what the shared test suites need of this game
"""
