"""Over the rules, for the cards a seat cannot see: guesses at the hidden cards that fit a view,
as full engine states (determinize), and show scores of whole arrays of hands and starters at
once, with the exact distribution over every hand (batch).

Numpy at most, like the rules (which never import it); the kernels, the analysis and the
agents' searches build on it.
"""
