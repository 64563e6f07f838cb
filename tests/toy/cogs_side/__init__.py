"""Dice Race at a Discord table (tests only): cog.py, render.py, locales/."""
