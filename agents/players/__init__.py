"""The players, from ``random`` to ``master`` (the search helpers they share: :mod:`agents.search`)."""
