"""Learned agents: (state, action) features, a numpy MLP, and the training methods behind
``cribbage train`` (Deep Monte-Carlo with branching rollouts; MaskablePPO through the Gym env).

Inference needs numpy only; torch is imported by the trainers alone.
"""
