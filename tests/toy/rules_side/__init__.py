"""Dice Race, a toy game's rules package (tests only): game.py, computer.py, testkit.py, dice.py —
the template of a new game's rules package."""
