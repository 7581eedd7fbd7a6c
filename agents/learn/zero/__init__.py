"""Learning from zero on the batched env: masked PPO and Deep Monte-Carlo whose rollouts live in
:class:`~cribbage_env.envs.batched.CribbageVectorEnv`'s arrays (thousands of games a step, no Python
loop per game), numpy inference while collecting, torch for the updates, random initial
weights and the env's observation only (:mod:`.config` records what the learner saw)."""
