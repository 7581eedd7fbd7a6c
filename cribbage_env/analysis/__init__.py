"""Analysis over the rules and kernels: the discard analyzer, a game's luck, a seat's winning chance."""
