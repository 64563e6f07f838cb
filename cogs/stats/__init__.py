"""/leaderboard and /stats (leaderboard.py), their pictures (charts.py), and seasons (seasons.py)."""
