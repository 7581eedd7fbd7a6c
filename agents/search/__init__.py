"""The search helpers the players share: pegging points, the pegging search, play-outs of a deal
after a discard, the opponent's hidden cards inferred from its play, and its model."""
