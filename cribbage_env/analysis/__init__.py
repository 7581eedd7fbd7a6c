"""Analysis over the rules and kernels: the discard analyzer, a game's luck and its result's
split, a seat's winning chance."""
