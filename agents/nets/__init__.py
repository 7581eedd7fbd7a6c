"""The learned models' numpy side: features, the MLP, weight files and the oracle's inputs.

Play needs these without torch; training (:mod:`agents.learn`) writes what they read.
"""
