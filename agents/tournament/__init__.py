"""Tournaments: plans, playing them, runners, backends (pool, Ray), results and summaries."""
