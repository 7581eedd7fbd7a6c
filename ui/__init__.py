"""The cribbage command line and the Arcade game."""
