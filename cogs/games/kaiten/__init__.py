"""Kaiten Sushi at a Discord table.

cog.py       the cog (the bot's extension): its hooks and slash commands, clicks -> actions
render.py    its boards, drawn from the engine's typed view
picture.py   the conveyor drawn as a PNG (Pillow: fonts, shaping, right-to-left words)
locales/     its words, one catalog per language
"""
