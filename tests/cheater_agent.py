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
