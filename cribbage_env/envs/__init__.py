"""What the single, batched and AEC environments share: the episode core, rewards, registration."""
