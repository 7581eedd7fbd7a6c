"""The players, from ``random`` to ``master``, and the search helpers they share."""
