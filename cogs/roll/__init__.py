"""/roll, /r and /rolls: dice notation rolled and shown (cog.py, render.py), with its words."""
