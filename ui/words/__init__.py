"""The table's words: the message catalogues and the narration of scores in the player's language."""
