"""Dice Race at a Discord table (tests only): cog.py, render.py, dice.py, locales/ — the template of a
new game's cogs package."""
