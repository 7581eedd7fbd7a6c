"""The rules of cribbage as plain Python: cards, scoring, the game state and engine, views.

Everything here is numpy at most; the compiled kernels, the analysis and the envs build on it.
"""
