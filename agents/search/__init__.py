"""The search helpers the players share: pegging points, the pegging search, the opponent's
hidden cards inferred from its play, and its model."""
