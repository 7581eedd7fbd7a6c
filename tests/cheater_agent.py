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


# ------------------------------------------------------------------ cheaters that read the engine
# An agent in the engine's process can reach the true GameState through the
# interpreter. The spies raise :class:`Cheated` when they find it (so a run shows it: in-process
# the tournament fails, isolated the seat forfeits with "raised Cheated"); the peekers play
# expectimax and, when they find it, choose their discard knowing the starter (a real edge).


def _mine(o: object, view) -> bool:
    return (
        isinstance(o, ce.GameState)
        and o.deal_no == view.deal
        and o.phase is view.phase
        and sorted(o.hands[view.seat]) == sorted(view.hand)
    )


def state_from_frames(view):
    """The true state, from the locals of the frames that called ``act``."""
    import sys

    f = sys._getframe(1)
    while f is not None:
        for v in list(f.f_locals.values()):
            if _mine(v, view):
                return v
        f = f.f_back
    return None


def state_from_gc(view):
    """The true state, from every object the garbage collector tracks."""
    import gc

    for o in gc.get_objects():
        if _mine(o, view):
            return o
    return None


def state_from_generator(view, rng):
    """The true deal, rebuilt from the generator (:func:`rebuild`), when the generator leaks."""
    seed = rebuild(view, rng)
    return None if seed is None else ce.new_game(seed)


#: How each cheater looks for the true state: the first word of its name.
FINDERS = {
    "frame": lambda view, rng: state_from_frames(view),
    "gc": lambda view, rng: state_from_gc(view),
    "generator": state_from_generator,
}


class _Finder:
    name = ""

    def find(self, view, rng):
        """The true state by the finder of the cheater's name, or None."""
        return FINDERS[self.name.split("-")[0]](view, rng)


class _Spy(_Finder):
    """Plays uniformly at random; raises :class:`Cheated` when its finder reaches the state."""

    name = "spy"

    def act(self, view, rng: np.random.Generator) -> int:
        if view.phase is ce.Phase.DISCARD and view.deal == 0 and len(view.hand) == 6:
            state = self.find(view, rng)
            if state is not None:
                opp = sorted(state.hands[1 - view.seat])
                raise Cheated(f"{self.name} saw the opponent's hand {ce.cards_str(opp)}")
        legal = view.legal_actions
        return int(legal[int(rng.integers(len(legal)))])


#: one spy per finder: FrameSpy, GcSpy, GeneratorSpy (FramePeeker...)
FrameSpy, GcSpy, GeneratorSpy = (
    type(f"{k.title()}Spy", (_Spy,), {"name": f"{k}-spy"}) for k in FINDERS
)


def best_discard_knowing_starter(state, seat: int) -> int:
    """The discard that scores most with the true starter: kept hand plus (minus, as pone) the
    two cards' part of the crib."""
    from cribbage_env.rules.scoring import score_hand

    best, best_v = None, -1e9
    for a in state.legal_actions():
        s = state.clone()
        s.apply(a, seat)
        while s.phase is ce.Phase.DISCARD:  # the other's discard does not move the starter
            s.apply(s.legal_actions()[0])
        if s.starter is None:
            return int(a)
        kept, disc = s.kept[seat], s.discards[seat]
        crib = score_hand_pair(disc, s.starter)
        v = score_hand(kept, s.starter) + (crib if s.dealer == seat else -crib)
        if v > best_v:
            best, best_v = a, v
    return int(best)


def score_hand_pair(cards, starter: int) -> int:
    """Points two crib cards make with the starter alone (fifteens and pairs)."""
    from cribbage_env.rules.cards import RANK, VALUE

    trio = [*cards, starter]
    pts = sum(2 for i in range(3) for j in range(i + 1, 3) if RANK[trio[i]] == RANK[trio[j]])
    pts += sum(
        2 for i in range(3) for j in range(i + 1, 3) if VALUE[trio[i]] + VALUE[trio[j]] == 15
    )
    pts += 2 if sum(VALUE[c] for c in trio) == 15 else 0
    return pts


class _Peeker(_Finder):
    """Expectimax that, at a discard, looks for the true state and uses the starter."""

    name = "peeker"

    def __init__(self) -> None:
        from agents.registry import make_agent

        self.honest = make_agent("expectimax")
        self.found = 0

    def act(self, view, rng: np.random.Generator) -> int:
        if view.phase is ce.Phase.DISCARD and view.my_turn:
            state = self.find(view, rng)
            if state is not None and state.phase is ce.Phase.DISCARD:
                self.found += 1
                return best_discard_knowing_starter(state, view.seat)
        return int(self.honest.act(view, rng))


#: one peeker per finder: FrameSpy, GcSpy, GeneratorSpy (FramePeeker...)
FramePeeker, GcPeeker, GeneratorPeeker = (
    type(f"{k.title()}Peeker", (_Peeker,), {"name": f"{k}-peeker"}) for k in FINDERS
)


class _BadInPlay:
    """Plays its first legal action, and misbehaves at its first decision of the play."""

    name = ""

    def act(self, view, rng: np.random.Generator) -> int:
        if view.phase is ce.Phase.PLAY:
            return MISBEHAVIOURS[self.name](view)
        return int(view.legal_actions[0])


def _crash(view) -> int:
    """Dies: no exception, the process exits."""
    import os

    os._exit(3)


def _hang(view) -> int:
    """Thinks forever."""
    import time

    while True:
        time.sleep(1)


def _raise(view) -> int:
    raise ValueError("out of ideas")


#: What each bad agent does in the play, by name.
MISBEHAVIOURS = {
    "crasher": _crash,
    "hanger": _hang,
    "illegal": lambda view: next(c for c in range(52) if c not in view.legal_actions),  # not held
    "raiser": _raise,
}


#: one agent per misbehaviour: Crasher, Hanger, Illegal, Raiser
Crasher, Hanger, Illegal, Raiser = (
    type(n.title(), (_BadInPlay,), {"name": n}) for n in MISBEHAVIOURS
)


class Chatty:
    """Prints to standard output at every decision (must not break the protocol)."""

    name = "chatty"

    def act(self, view, rng: np.random.Generator) -> int:
        print("thinking...", view)
        return int(view.legal_actions[int(rng.integers(len(view.legal_actions)))])


# A fair arena: attacks on the sealed seat. The replayer knows how a plan derives its deals from
# the root seed; the others attack the machine (processes, memory, time, the terminal).


class SeedReplayer:
    """Greedy, but at each discard it looks for its six cards among the deals of the first
    ``games`` games of root seeds ``roots`` (the public derivation ``SeedSequence(root,
    spawn_key=(i,))``). Found, it knows the starter and keeps the four that score most with it.
    ``loud=1`` raises :class:`Cheated` when it finds a deal (a test sees it at once)."""

    name = "seed_replayer"

    def __init__(self, games: int = 400, roots: str = "0-1-987654321", loud: int = 0) -> None:
        from agents.players.greedy import GreedyAgent
        from agents.tournament.tournament import game_seeds

        self.honest = GreedyAgent()
        self.seeds = [s for r in roots.split("-") for s in game_seeds(int(r), games)]
        self.loud, self.found = bool(loud), 0
        self._chance: dict[int, object] = {}

    def _starter(self, view) -> int | None:
        from cribbage_env.rules.chance import Chance

        mine = sorted(view.hand)
        start = 0 if view.seat != view.dealer else 1
        for s in self.seeds:
            c = self._chance.get(s)
            if c is None:
                c = self._chance[s] = Chance(s)
            deck = c.deck(view.deal)  # type: ignore[attr-defined]
            if sorted(deck[start:12:2]) == mine:
                return int(deck[12])
        return None

    def act(self, view, rng: np.random.Generator) -> int:
        if view.phase is not ce.Phase.DISCARD:
            return self.honest.act(view, rng)
        starter = self._starter(view)
        if starter is None:
            return self.honest.act(view, rng)
        self.found += 1
        if self.loud:
            raise Cheated(f"replayed the deal: the starter is {starter}")
        from cribbage_env.rules.actions import discard_action
        from cribbage_env.rules.scoring import score_hand

        best, pick = -99, view.legal_actions[0]
        hand = list(view.hand)
        for i in range(6):
            for j in range(i + 1, 6):
                keep = [c for k, c in enumerate(hand) if k not in (i, j)]
                v = score_hand(keep, starter)
                if v > best:
                    best, pick = v, discard_action(hand[i], hand[j])
        return pick


class Forker:
    """Random, but at its first decision starts a detached child (a new session and a double
    fork) that writes its process id to ``/tmp/forker-pids`` and lives for a minute."""

    name = "forker"

    def __init__(self) -> None:
        self.forked = False

    def act(self, view, rng: np.random.Generator) -> int:
        import os

        if not self.forked:
            self.forked = True
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    import sys
                    import time

                    print(f"child {os.getpid()}", file=sys.stderr, flush=True)
                    time.sleep(60)
                os._exit(0)
            os.wait()
        return int(view.legal_actions[int(rng.integers(len(view.legal_actions)))])


class ForkBomb:
    """Starts children that sleep, up to ``most`` (300: enough to pass any seat's limit, few
    enough not to harm the machine when unsealed), at its first decision; a failed fork
    raises (the seat's forfeit) with how many it started."""

    name = "fork_bomb"

    def __init__(self, most: int = 300) -> None:
        self.most = most

    def act(self, view, rng: np.random.Generator) -> int:
        import os
        import time

        n = 0
        try:
            while n < self.most:
                if os.fork() == 0:
                    time.sleep(60)
                    os._exit(0)
                n += 1
        except OSError as exc:
            raise RuntimeError(f"fork failed after {n} children: {exc}") from None
        return int(view.legal_actions[0])


class Hog:
    """Asks for 4 GiB of memory at its first decision and touches it."""

    name = "hog"

    def act(self, view, rng: np.random.Generator) -> int:
        block = bytearray(4 << 30)
        block[:: 1 << 12] = b"x" * len(block[:: 1 << 12])
        return int(view.legal_actions[0])


class Spammer:
    """Writes to its standard error, its terminal and standard output at every decision."""

    name = "spammer"

    def act(self, view, rng: np.random.Generator) -> int:
        import os
        import sys

        print("SPAM on stdout", flush=True)
        print("SPAM on stderr", file=sys.stderr, flush=True)
        try:
            with open("/dev/tty", "w") as tty:
                tty.write("SPAM on the terminal\n")
        except OSError:
            pass
        os.write(2, b"SPAM raw\n")
        return int(view.legal_actions[int(rng.integers(len(view.legal_actions)))])


class Snoop:
    """Random, but first looks for ``needle`` (the run's seed) in every command line and
    environment under ``/proc``, and for any SQLite file with content in ``folder``; raises
    :class:`Cheated` naming where it found one."""

    name = "snoop"

    def __init__(self, needle: str = "987654321", folder: str = "") -> None:
        self.needle, self.folder, self.looked = needle.encode(), folder, False

    def _where(self) -> str | None:
        import glob
        import os

        for path in glob.glob("/proc/[0-9]*/cmdline") + glob.glob("/proc/[0-9]*/environ"):
            try:
                if self.needle in open(path, "rb").read():
                    return path
            except OSError:
                continue
        if self.needle in repr(dict(os.environ)).encode():
            return "its environment"
        for path in glob.glob(os.path.join(self.folder, "*.sqlite*")) if self.folder else ():
            try:
                if b"SQLite" in open(path, "rb").read(16):
                    return path
            except OSError:
                continue
        return None

    def act(self, view, rng: np.random.Generator) -> int:
        if not self.looked:
            self.looked = True
            where = self._where()
            if where is not None:
                raise Cheated(f"found the seed or the results in {where}")
        return int(view.legal_actions[int(rng.integers(len(view.legal_actions)))])


class StartPeek:
    """Looks, when it is built (a seat's start-up, the start-up check's included), for a
    SQLite file with content in ``folder`` and its subfolders; raises :class:`Cheated` naming
    it, so the seat does not start."""

    name = "start_peek"

    def __init__(self, folder: str = "") -> None:
        import glob
        import os

        for path in glob.glob(os.path.join(folder, "**", "*.sqlite*"), recursive=True):
            try:
                if open(path, "rb").read(16).startswith(b"SQLite"):
                    raise Cheated(f"read the results in {path}")
            except OSError:
                continue

    def act(self, view, rng: np.random.Generator) -> int:
        return int(view.legal_actions[0])


class EnvSeedReplayer:
    """A Gym opponent that knows how ``reset(seed=s)`` deals: at its first discard it deals
    the episodes of seeds 0..63 and, finding its own six cards, records the learner's hand in
    ``found`` (None when it found nothing). ``secret_deals`` stands for a sealed seat."""

    name = "env_seed_replayer"

    def __init__(self, secret_deals: bool = False) -> None:
        self.secret_deals = secret_deals
        self.found: list[tuple[int, ...] | None] = []

    def act(self, view, rng: np.random.Generator) -> int:
        if view.deal == 0 and view.phase is ce.Phase.DISCARD and len(view.hand) == 6:
            self.found.append(self._learner(view))
        return int(view.legal_actions[0])

    @staticmethod
    def _learner(view) -> tuple[int, ...] | None:
        from gymnasium.utils import seeding

        from cribbage_env.envs.episode import episode_seed

        for s in range(64):
            gen, _ = seeding.np_random(s)
            for _ in range(4):
                g = ce.new_game(episode_seed(gen), rules=view.rules)
                if sorted(g.view(view.seat).hand) == sorted(view.hand):
                    return tuple(sorted(g.view(1 - view.seat).hand))
        return None


class Starver:
    """Random, but at its first decision starts ``children`` processes that spin for the
    seat's life: it tries to make its neighbour time out by taking the machine's CPU."""

    name = "starver"

    def __init__(self, children: int = 12) -> None:
        self.children, self.started = children, False

    def act(self, view, rng: np.random.Generator) -> int:
        import os

        if not self.started:
            self.started = True
            for _ in range(self.children):
                if os.fork() == 0:
                    while True:
                        pass
        return int(view.legal_actions[int(rng.integers(len(view.legal_actions)))])
