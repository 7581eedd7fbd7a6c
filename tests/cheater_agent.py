"""A plug-in agent that tries to cheat: it rebuilds the deal from what its generator exposes.

At the first discard of a game it reads its generator's seed sequence (entropy, spawn key, pool)
and bit-generator state, turns every number it finds into candidate game seeds, deals each
candidate, and compares the candidate's cards for its seat with its own six. A match means it now
knows the opponent's six cards, the crib and the starter: it raises :class:`Cheated` (so the
tournament fails loudly on any backend). Otherwise it plays uniformly at random.
"""

from __future__ import annotations

import numpy as np

import cribbage_env as ce


class Cheated(RuntimeError):
    """The cheater rebuilt the deck: the generator leaked the game's chance."""


def _numbers(rng: np.random.Generator) -> list[int]:
    bg = rng.bit_generator
    found: list[int] = []
    ss = getattr(bg, "seed_seq", None) or getattr(bg, "_seed_seq", None)
    if ss is not None:
        ent = ss.entropy
        found += [int(e) for e in np.atleast_1d(ent)] if ent is not None else []
        found += [int(k) for k in getattr(ss, "spawn_key", ())]
        found += [int(x) for x in ss.generate_state(4, np.uint64)]
    state = bg.state.get("state", {})
    found += [int(v) for v in state.values() if isinstance(v, int)]
    out = set()
    for x in found:
        for y in (x, x >> 1, x & ((1 << 63) - 1), x & ((1 << 64) - 1), x & 0xFFFFFFFF):
            out.add(abs(y))
    return sorted(out)


def rebuild(view, rng: np.random.Generator) -> int | None:
    """A game seed that deals ``view``'s seat its six cards, found from ``rng``; else None."""
    mine = sorted(view.hand)
    for cand in _numbers(rng):
        try:
            g = ce.new_game(cand)
        except (ValueError, OverflowError, TypeError):
            continue
        if (
            g.deal_no == 0
            and g.phase is ce.Phase.DISCARD
            and sorted(g.view(view.seat).hand) == mine
        ):
            return cand
    return None


class CheaterAgent:
    name = "cheater"
    spec = "cheater"

    def act(self, view, rng: np.random.Generator) -> int:
        if view.deal == 0 and view.phase is ce.Phase.DISCARD and len(view.hand) == 6:
            seed = rebuild(view, rng)
            if seed is not None:
                raise Cheated(f"rebuilt the deal of game seed {seed} from the agent's generator")
        legal = view.legal_actions
        return int(legal[int(rng.integers(len(legal)))])


#: env seeds the env cheater tries (a person's ``reset(seed=...)`` is usually small).
ENV_SEEDS = range(256)
#: episodes after a seeded reset that the env cheater follows.
ENV_EPISODES = 64


def _env_seed_table() -> dict[int, int]:
    """Every (opponent number -> game seed) the old env derivation gives for small env seeds:
    ``reset(seed=s)`` seeds the env with ``SeedSequence(s)`` and each episode drew
    ``(game seed, opponent seed)`` from it, the opponent's generator seeded with the second."""
    table = {}
    for s in ENV_SEEDS:
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(s)))
        for _ in range(ENV_EPISODES):
            game, opp = rng.integers(0, 2**63 - 1, size=2).tolist()
            table[opp] = game
    return table


class EnvCheaterAgent:
    """An env opponent that tries to rebuild the learner's six cards at its first discard: from
    the numbers of its generator directly (:func:`rebuild`), and through the env's seeding
    (:func:`_env_seed_table`). It never raises: ``found`` lists what it rebuilt, per episode
    (``None`` when it found nothing), for a test to compare with the learner's true hand."""

    name = "env-cheater"
    _table: dict[int, int] | None = None

    def __init__(self) -> None:
        self.found: list[tuple[int, ...] | None] = []

    def act(self, view, rng: np.random.Generator) -> int:
        if view.deal == 0 and view.phase is ce.Phase.DISCARD and len(view.hand) == 6:
            self.found.append(self.learner_hand(view, rng))
        legal = view.legal_actions
        return int(legal[int(rng.integers(len(legal)))])

    def learner_hand(self, view, rng: np.random.Generator) -> tuple[int, ...] | None:
        if EnvCheaterAgent._table is None:
            EnvCheaterAgent._table = _env_seed_table()
        seeds = [EnvCheaterAgent._table[x] for x in _numbers(rng) if x in EnvCheaterAgent._table]
        direct = rebuild(view, rng)
        for seed in seeds + ([direct] if direct is not None else []):
            g = ce.new_game(seed, rules=view.rules)
            if sorted(g.view(view.seat).hand) == sorted(view.hand):
                return tuple(sorted(g.view(1 - view.seat).hand))
        return None
