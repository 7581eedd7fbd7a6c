"""The batched env's step in compiled code: the learner's pick, the opponent, rewards, episode
ends (:func:`step`), same-step resets (new games seeded as :class:`~cribbage_env.env.CribbageEnv`
seeds them, :mod:`cribbage_env.vecseed`; :func:`reset`) and the observations, written in place
into the caller's buffers (:func:`encode`). No Python runs per game: three kernel calls a step.

Games are independent (each has its own generators), so :func:`step_parallel` (``prange``
over the two halves of the batch) gives exactly the serial results; tests compare them.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from . import simkernel as K
from . import veckernel as V
from .encoding import OBS_SIZE
from .simrng import borrow_words
from .vecseed import first_dealer, seed_below_2_63

# cfg: the env's options the kernels read, as ints (CribbageVectorEnv._cfg); rewards, skunks and
# the observation's form are applied outside the kernels.
C_SEAT, C_DEAL, C_OPPONENT, C_TARGET = range(4)
CFG_SIZE = 4
ALTERNATE = 2  # C_SEAT: 0, 1, or alternate by episode
#: Binary part of the observation (everything before count, scores and cards left).
BITS = V._REAL
PACKED_BYTES = (BITS + 7) // 8
COMPACT_SIZE = PACKED_BYTES + 4
#: per-game results of a step: learner's score, opponent's, margin (and before the step), won,
#: seat, winner (-1: none yet); the env's reward modes read them (:mod:`cribbage_env.rewards`)
F_MINE, F_THEIRS, F_MARGIN, F_WON, F_SEAT, F_PREV, F_WINNER = range(7)
FIN = 7


@njit(cache=True)
def new_game(st, rngs, cfg):
    """The next episode of this game's generator: ``episode_seed`` then ``new_game(seed)`` (the
    opponent's generator is set by the caller)."""
    k = st[V.EPISODES]
    seat = k % 2 if cfg[C_SEAT] == ALTERNATE else cfg[C_SEAT]
    game_seed = seed_below_2_63(rngs[V.ENV_RNG : V.ENV_RNG + 6])
    dealer = first_dealer(game_seed, rngs[V.DECK_RNG : V.DECK_RNG + 6])
    st[:] = -1
    st[K.SCORES] = 0
    st[K.SCORES + 1] = 0
    st[K.TARGET] = cfg[C_TARGET]
    st[K.NEVENTS] = 0
    st[K.DEALER] = 1 - dealer  # start_deal passes the deal: deal 0 goes to the cut's dealer
    st[K.DONE] = 1
    st[V.PHASE] = V.DISCARD_PHASE
    st[V.SEAT] = seat
    st[V.MARGIN] = 0
    st[V.OPPONENT] = cfg[C_OPPONENT]
    st[V.FIRST_DEALER] = dealer
    st[V.DEAL_EPISODE] = cfg[C_DEAL]
    st[V.GAME_SEED] = game_seed
    st[V.EPISODES] = k + 1


@njit(cache=True)
def write_obs(st, obs, packed, mask, i, row):
    """Game ``i``'s observation into ``obs[i]`` (standard) or ``packed[i]`` (compact: the
    530 binary values bit-packed as ``np.packbits`` packs them, then count, both scores capped
    at the target and the opponent's cards left as bytes), its mask into ``mask[i]``."""
    if packed.shape[0] == 0:
        V.encode(st, obs[i], mask[i])
        return
    V.encode(st, row, mask[i])
    out = packed[i]
    for b in range(PACKED_BYTES):
        byte = 0
        for j in range(8):
            k = 8 * b + j
            if k < BITS and row[k] != 0.0:
                byte |= 128 >> j
        out[b] = byte
    s = st[V.SEAT]
    target = st[K.TARGET]
    over_deal = st[V.DEAL_EPISODE] == 1 and st[K.DONE] == 1 and st[V.PHASE] != V.OVER_PHASE
    out[PACKED_BYTES] = 0 if over_deal else st[K.COUNT]
    out[PACKED_BYTES + 1] = min(st[K.SCORES + s], target)
    out[PACKED_BYTES + 2] = min(st[K.SCORES + 1 - s], target)
    out[PACKED_BYTES + 3] = int(round(row[V._REAL + 3] * 6.0))


@njit(cache=True)
def _step_rows(lo, hi, states, actions, rngs, tabs, keep, crib, cfg, penalty, out, fin):
    """Step games ``lo..hi-1`` to the learner's next decision or the episode's end; ``out`` is
    (rewards, terminated, illegal); an illegal pick's reward is the penalty, the others' come
    from ``fin`` (the env's reward mode). Ended games are reset (and every observation written) by
    :func:`reset` and :func:`encode`: one call site per big kernel keeps compiling short."""
    rewards, terminated, illegal = out
    ev = np.zeros((0, 3), dtype=np.int64)
    legal = np.zeros(4, dtype=np.int64)
    buf = np.zeros(16, dtype=np.int64)
    totals = np.zeros((1, 15), dtype=np.int64)
    t = K.borrow_tables(tabs)
    for i in range(lo, hi):
        st = K.borrow(states[i])
        card = actions[i]
        terminated[i] = False
        if not V.learner_legal(st, card):
            illegal[i] = True
            rewards[i] = penalty
            continue
        illegal[i] = False
        if V.learner_move(st, card, ev, t):
            V.run_opponent(st, borrow_words(rngs[i]), ev, t, keep, crib, totals, legal, buf)
        s = st[V.SEAT]
        mine = st[K.SCORES + s]
        theirs = st[K.SCORES + 1 - s]
        margin = mine - theirs
        done = V.is_terminal(st)
        fin[i, F_PREV] = st[V.MARGIN]
        st[V.MARGIN] = margin
        terminated[i] = done
        fin[i, F_MINE] = mine
        fin[i, F_THEIRS] = theirs
        fin[i, F_MARGIN] = margin
        win = st[K.WINNER] == s if cfg[C_DEAL] == 0 else margin > 0
        fin[i, F_WON] = 1 if win else 0
        fin[i, F_SEAT] = s
        fin[i, F_WINNER] = st[K.WINNER]


@njit(cache=True)
def step(states, actions, rngs, tabs, keep, crib, cfg, penalty, out, fin):
    """Every game one learner step (serial)."""
    _step_rows(0, states.shape[0], states, actions, rngs, tabs, keep, crib, cfg, penalty, out, fin)


@njit(cache=True, parallel=True)
def step_parallel(states, actions, rngs, tabs, keep, crib, cfg, penalty, out, fin, chunks):
    """:func:`step` over ``chunks`` slices of the batch on the available threads."""
    n = states.shape[0]
    for c in prange(chunks):
        lo = n * c // chunks
        hi = n * (c + 1) // chunks
        _step_rows(lo, hi, states, actions, rngs, tabs, keep, crib, cfg, penalty, out, fin)


@njit(cache=True)
def encode(states, which, obs, packed, mask):
    """The observation and mask of each game ``i`` in ``which`` into row ``i`` of the buffers."""
    row = np.zeros(OBS_SIZE, dtype=np.float32)
    for j in range(which.shape[0]):
        i = which[j]
        write_obs(K.borrow(states[i]), obs, packed, mask, i, row)


@njit(cache=True)
def start(states, which, rngs, cfg):
    """Start the next episode of games ``which`` (their opponents' generators come next)."""
    for j in range(which.shape[0]):
        i = which[j]
        new_game(K.borrow(states[i]), borrow_words(rngs[i]), cfg)


@njit(cache=True)
def resume(states, which, rngs, tabs, keep, crib):
    """Run games ``which`` to the learner's first decision."""
    ev = np.zeros((0, 3), dtype=np.int64)
    legal = np.zeros(4, dtype=np.int64)
    buf = np.zeros(16, dtype=np.int64)
    totals = np.zeros((1, 15), dtype=np.int64)
    t = K.borrow_tables(tabs)
    for j in range(which.shape[0]):
        i = which[j]
        st = K.borrow(states[i])
        V.run_opponent(st, borrow_words(rngs[i]), ev, t, keep, crib, totals, legal, buf)
