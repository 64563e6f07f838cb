"""Rock the Bock as a pure rules engine (no discord, no asyncio, no I/O).

game.py      GAME: the engine, behind the Game protocol (rules/engine.py)
computer.py  BRAIN: its computer players at three levels (rules/computer/brain.py)
testkit.py   TESTKIT: what the shared test suites need of this game
"""
