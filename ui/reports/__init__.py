"""Reports of runs and of a person's games: bench tables and plots, the player's statistics."""
