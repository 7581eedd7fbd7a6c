"""Discard strategies: a spec (a built-in, a plug-in, a function or an agent) resolved to what
picks the two cards a hand gives to the crib, for the discard comparisons and the discarder."""
