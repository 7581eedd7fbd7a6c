"""Tournaments: plans, runners, backends (pool, Ray), isolated seats, results and summaries."""
