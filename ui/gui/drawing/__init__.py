"""How a scene reaches the screen: the renderer, the card faces and the board painted once, and
the window that scales the 1280x800 virtual table to fit; a folder of its own so the screens'
folder keeps room for its views."""
