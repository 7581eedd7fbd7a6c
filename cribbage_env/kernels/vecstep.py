"""The batched env's step in compiled code, one pass over the batch: for each game the learner's
pick, the opponent's replies, deals and the show (:mod:`cribbage_env.kernels.veckernel`), the step's
results, the same-step reset of an ended game (its last observation kept; the next episode
seeded as :class:`~cribbage_env.envs.single.CribbageEnv` seeds it, :mod:`cribbage_env.kernels.vecseed`, its
opponent's generator :mod:`cribbage_env.kernels.vecagent`'s) and the game's new observation and mask
(:mod:`cribbage_env.kernels.vecobs`), written while the game's state is in cache. No Python runs per game:
one kernel call a step (:func:`run`).

Games are independent (each has its own generators), so :func:`run_parallel` (``prange`` over
slices of the batch) gives exactly the serial results; tests compare them.
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit, prange

from . import simkernel as K
from . import veckernel as V
from . import vecobs
from .kernelcache import inner
from .simrng import borrow_words
from .vecagent import opponent_generator
from .vecseed import first_dealer, seed_below_2_63

# cfg: the env's options the kernels read, as ints (CribbageVectorEnv._cfg); rewards, skunks and
# the observation's form are applied outside the kernels.
C_SEAT, C_DEAL, C_OPPONENT, C_TARGET = range(4)
CFG_SIZE = 4
ALTERNATE = 2  # C_SEAT: 0, 1, or alternate by episode
#: per-game results of a step: learner's score, opponent's, margin (and before the step), won,
#: seat, winner (-1: none yet), both scores by seat; the env's reward modes read them
#: (:mod:`cribbage_env.envs.rewards`)
F_MINE, F_THEIRS, F_MARGIN, F_WON, F_SEAT, F_PREV, F_WINNER, F_SCORES = range(8)
FIN = 10


@inner
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


@inner
def _next_episode(st, g, cfg, agent, tabs, keep, crib, ev, totals, legal, buf, opp):
    """The game's next episode, run to the learner's first decision."""
    new_game(st, g, cfg)
    opponent_generator(agent, st[V.GAME_SEED], 1 - st[V.SEAT], g[V.OPP_RNG : V.OPP_RNG + 6])
    V.run_opponent(st, g, ev, tabs, keep, crib, totals, legal, buf, opp[0], opp[1])


@inner
def _learner_step(st, card, g, tabs, keep, crib, cfg, fin, i, ev, totals, legal, buf, opp):
    """The learner's legal ``card`` and what follows up to its next decision; whether the
    episode ended. ``fin[i]`` is the game's row of results."""
    if V.learner_move(st, card, ev, tabs):
        V.run_opponent(st, g, ev, tabs, keep, crib, totals, legal, buf, opp[0], opp[1])
    s = st[V.SEAT]
    mine = st[K.SCORES + s]
    theirs = st[K.SCORES + 1 - s]
    margin = mine - theirs
    fin[i, F_PREV] = st[V.MARGIN]
    st[V.MARGIN] = margin
    fin[i, F_MINE] = mine
    fin[i, F_THEIRS] = theirs
    fin[i, F_MARGIN] = margin
    win = st[K.WINNER] == s if cfg[C_DEAL] == 0 else margin > 0
    fin[i, F_WON] = 1 if win else 0
    fin[i, F_SEAT] = s
    fin[i, F_WINNER] = st[K.WINNER]
    fin[i, F_SCORES] = st[K.SCORES]
    fin[i, F_SCORES + 1] = st[K.SCORES + 1]
    return V.is_terminal(st)


@njit(cache=True, inline="always")
def _view(a):
    """``a`` without a reference count (:func:`cribbage_env.kernels.simkernel.borrow`, any dtype); the
    caller keeps ``a`` alive."""
    return carray(K.address_as_pointer(a.ctypes.data), a.shape, a.dtype)


@njit(cache=True)
def run(lo, hi, reset, states, actions, rngs, tabs, keep, crib, cfg, agent, opp, out, fin, views):
    """Games ``lo..hi-1`` (all of them: ``0, n``), serially: a new episode each (``reset``) or
    one learner step each (an illegal
    pick changes nothing: it is flagged in ``out`` = (terminated, illegal)), then the
    observation. ``views``: (obs, packed, mask, the ones of each row: :func:`vecobs.write`)
    and the ended episodes' (final_obs, ..., no list);
    ``opp``: (greedy, expectimax), None unless the opponent is that policy
    (:func:`cribbage_env.kernels.veckernel.run_opponent`)."""
    # Every array the per-game helpers take is viewed without a reference count: a helper
    # counts its array arguments in and out (atomically), most of the step's time otherwise.
    terminated, illegal = _view(out[0]), _view(out[1])
    obs, packed, mask, prev = _view(views[0]), _view(views[1]), _view(views[2]), _view(views[3])
    fobs, fpacked, fmask, noprev = (
        _view(views[4]),
        _view(views[5]),
        _view(views[6]),
        _view(views[7]),
    )
    states, rngs, actions = _view(states), _view(rngs), _view(actions)
    fin, keep, crib, cfg, agent = _view(fin), _view(keep), _view(crib), _view(cfg), _view(agent)
    scratch = np.zeros(4 + 16 + 15 + vecobs.MAX_ONES + 4, dtype=np.int64)
    legal = K.borrow(scratch[:4])
    buf = K.borrow(scratch[4:20])
    totals = K.borrow(scratch[20:35].reshape(1, 15))
    ones = K.borrow(scratch[35 : 35 + vecobs.MAX_ONES])
    counts = K.borrow(scratch[35 + vecobs.MAX_ONES :])
    no_events = np.zeros((0, 3), dtype=np.int64)
    ev = K.borrow(no_events)
    t = K.borrow_tables(tabs)
    for i in range(lo, hi):
        st = K.borrow(states[i])
        g = borrow_words(rngs[i])
        terminated[i] = False
        illegal[i] = False
        if reset:
            _next_episode(st, g, cfg, agent, t, keep, crib, ev, totals, legal, buf, opp)
        elif not V.learner_legal(st, actions[i]):
            illegal[i] = True
        elif _learner_step(
            st, actions[i], g, t, keep, crib, cfg, fin, i, ev, totals, legal, buf, opp
        ):
            terminated[i] = True
            vecobs.write(st, i, fobs, fpacked, fmask, ones, counts, noprev, np.bool_(True))
            _next_episode(st, g, cfg, agent, t, keep, crib, ev, totals, legal, buf, opp)
        vecobs.write(st, i, obs, packed, mask, ones, counts, prev, reset)
    return scratch.size + no_events.size  # the borrowed arrays' owners live until here


@njit(cache=True, parallel=True)
def run_parallel(
    reset, states, actions, rngs, tabs, keep, crib, cfg, agent, opp, out, fin, views, k
):
    """:func:`run` over ``k`` slices of the batch on the available threads (a kernel of its own:
    the serial one is not compiled twice over)."""
    n = states.shape[0]
    for c in prange(k):
        lo = n * c // k
        hi = n * (c + 1) // k
        run(
            lo, hi, reset, states, actions, rngs, tabs, keep, crib, cfg, agent, opp, out, fin, views
        )
