"""Computer players, the same for every game (each game's own brain is `rules/<game>/computer.py`).

brain.py    the levels, a real-time game's pace, the Brain protocol and TurnBrain's level logic
search.py   hard's determinized Monte Carlo, through a game's Searchable hooks
play.py     choose(game, state, seat, level, seed): the one entry point, brains from the registry
"""
