"""Register the environments with Gymnasium at package import, and with PettingZoo from ``aec``.

Gymnasium 1.x has no plugin auto-discovery, so ``import cribbage_env`` registers the ids; the form
``gym.make("cribbage_env:cribbage/Cribbage-v0")`` imports the package first and so always works.
Entry points are strings: nothing heavy is imported until an env is made. PettingZoo is optional
and slow to import, so its ids are registered when :mod:`cribbage_env.envs.aec` is imported.

Rule variants are constructor arguments pinned per id (``CribbageShort-v0``: the game to 61).
"""

from __future__ import annotations

GYM_IDS: dict[str, dict[str, str]] = {
    "cribbage/Cribbage-v0": {"episode": "game"},
    "cribbage/CribbageDeal-v0": {"episode": "deal"},
    "cribbage/CribbageShort-v0": {"episode": "game", "rules": "short"},
}
#: PettingZoo ids (``pettingzoo.make("aec", id)``, PettingZoo >= 1.26 has a registry).
AEC_IDS: dict[str, dict[str, str]] = dict(GYM_IDS)


def register_gymnasium() -> None:
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:  # pragma: no cover - gymnasium is a core dependency
        return
    for env_id, kwargs in GYM_IDS.items():
        if env_id not in registry:
            # vector_entry_point: gym.make_vec(..., vectorization_mode="vector_entry_point")
            # steps all games in one compiled batch (cribbage_env.envs.batched).
            register(
                id=env_id,
                entry_point="cribbage_env.envs.single:CribbageEnv",
                kwargs=kwargs,
                vector_entry_point="cribbage_env.envs.batched:CribbageVectorEnv",
            )


def register_pettingzoo() -> bool:
    """Register the AEC ids if PettingZoo is installed and has ``register``; True if it did."""
    try:
        import pettingzoo
    except ImportError:
        return False
    register = getattr(pettingzoo, "register", None)
    registry = getattr(pettingzoo, "aec_registry", None)
    if register is None or registry is None:
        return False
    for env_id, kwargs in AEC_IDS.items():
        if env_id not in registry:
            register("aec", env_id, entry_point="cribbage_env.envs.aec:env", kwargs=kwargs)
    return True
