"""Sushizock im Gockelwok at a Discord table.

cog.py       the cog (the bot's extension): its hooks and slash commands, clicks -> actions
render.py    its boards, drawn from the engine's typed view
locales/     its words, one catalog per language
"""
