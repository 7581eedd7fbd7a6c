"""A tournament run kept in a results store: its blocks saved as they arrive, an interrupted run
read back to be resumed, and a finished run checked against itself."""
