"""A person's saved games on disk: the autosave, the shelf of finished games, the seeds."""
