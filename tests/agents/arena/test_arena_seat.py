"""A sealed seat's start-up and limits: the compiled kernels it may read, the processes it may
start, and where the deals of an isolated table come from.

Like ``test_arena.py``, every attack is shown to fail sealed; the cache tests also show that a
seat writes only to its own copy, never to the cache the host loads from.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

import cribbage_env as ce
from agents.arena import sandbox, seat_caches
from agents.arena.seat import SealedSeat

ROOT = Path(__file__).resolve().parents[3]


def _sealed_python(code: str, limits: sandbox.Limits, caches=()) -> subprocess.CompletedProcess:
    """``python -c code`` in the sandbox with ``limits``, the project importable, numba's cache
    folder and the caches to copy set as a seat's are."""
    env = {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p and os.path.isdir(p)),
           "NUMBA_CACHE_DIR": sandbox.SEAT_NUMBA_CACHE, seat_caches.SEAT_CACHES: json.dumps(caches)}  # fmt: skip
    argv = sandbox.wrap([sys.executable, "-c", code], limits, env)
    return subprocess.run(argv, capture_output=True, text=True, timeout=120,
                          preexec_fn=sandbox.rlimits(limits))  # fmt: skip


# ------------------------------------------------------------------------------ kernel cache
_COPY = "from agents.arena.seat_caches import copy_seat_caches as c; n = c();"


def test_a_seat_copies_the_hosts_cache_and_writes_only_to_its_copy(tmp_path: Path,
                                                                   monkeypatch) -> None:  # fmt: skip
    """The host's folder is read-only in the seat; the copy in the seat's /tmp is its own."""
    cache = tmp_path / "pkg" / "__pycache__"
    cache.mkdir(parents=True)
    (tmp_path / "pkg" / "k.py").write_text("")
    (cache / "k.f-1.py311.nbi").write_bytes(b"index")
    (cache / "k.f-1.py311.1.nbc").write_bytes(b"code")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    found = seat_caches.kernel_caches([str(tmp_path)])
    seat_dir = found[0][1]
    assert found == ((str(cache), seat_dir),) and seat_dir.startswith(sandbox.SEAT_NUMBA_CACHE)
    limits = sandbox.Limits(ro=(*sandbox.python_folders(), str(tmp_path)))
    code = (f"{_COPY} import os; d = {seat_dir!r}; print(n, open(d + '/k.f-1.py311.nbi').read());"
            "open(d + '/k.f-1.py311.nbi', 'w').write('poison'); open(d + '/new', 'w');"
            f"open({str(cache)!r} + '/new', 'w')")  # fmt: skip
    out = _sealed_python(code, limits, found)
    assert out.stdout.split() == ["2", "index"], out.stderr  # copied, then read
    assert "Read-only file system" in out.stderr  # the host's folder it may not write
    assert (cache / "k.f-1.py311.nbi").read_bytes() == b"index"  # the host's file is untouched
    assert sorted(os.listdir(cache)) == ["k.f-1.py311.1.nbc", "k.f-1.py311.nbi"]


def test_a_sealed_python_seat_loads_the_warm_kernels() -> None:
    """Numba caches beside the sources (or under ``NUMBA_CACHE_DIR``) only where it may write:
    a read-only cache makes every sealed seat compile the kernels again (tens of seconds). The
    seat copies the host's into its own scratch, where its numba looks."""
    from cribbage_env.kernels import simkernel

    simkernel.holds(np.zeros(simkernel.SIZE, np.int32), 0)  # compiled or loaded: now cached
    found = seat_caches.kernel_caches(sandbox.project_packages())
    ro = (*SealedSeat("greedy").sealed.ro, *(h for h, _ in found))  # type: ignore[union-attr]
    code = (f"{_COPY} from cribbage_env.kernels import simkernel as s, kernelcache as k;"
            "print(s.holds._cache._cache_path); print(k.compiled([s.holds]))")  # fmt: skip
    out = _sealed_python(code, sandbox.Limits(ro=ro), found)
    assert out.returncode == 0, out.stderr
    where, loaded = out.stdout.split()
    assert where in {seat for _, seat in found} and loaded == "True", out.stdout + out.stderr


def test_a_cache_under_numba_cache_dir_is_found_and_given_to_the_seat(tmp_path: Path,
                                                                      monkeypatch) -> None:  # fmt: skip
    """Numba names a source folder's cache ``<name>_<sha1 of its path>`` under the folder."""
    import hashlib

    source = tmp_path / "src" / "pkg"
    source.mkdir(parents=True)
    (source / "k.py").write_text("")
    name = f"pkg_{hashlib.sha1(str(source).encode()).hexdigest()}"
    cache = tmp_path / "cache" / name
    cache.mkdir(parents=True)
    (cache / "k.f-1.py311.nbi").write_bytes(b"index")
    (source / "__pycache__").mkdir()  # a stale cache beside the sources: not numba's now
    (source / "__pycache__" / "k.f-1.py311.nbi").write_bytes(b"stale")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    found = seat_caches.kernel_caches([str(tmp_path / "src")])
    assert found == ((str(cache), f"{sandbox.SEAT_NUMBA_CACHE}/{name}"),)


def test_a_sealed_python_seat_reads_the_caches_and_the_host_writes_nothing(tmp_path,
                                                                          monkeypatch) -> None:  # fmt: skip

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # anything the host made is here
    seat = SealedSeat("greedy")
    try:
        g = ce.new_game(1)
        seat.act(g.view(g.to_act), np.random.default_rng(0))
        found = seat_caches.kernel_caches(sandbox.project_packages())
        assert found and set(h for h, _ in found) <= set(seat.sealed.ro)  # type: ignore[union-attr]
        assert json.loads(seat.env[seat_caches.SEAT_CACHES]) == [list(p) for p in found]
        assert seat.env["NUMBA_CACHE_DIR"] == sandbox.SEAT_NUMBA_CACHE
    finally:
        seat.close()
    assert list(tmp_path.iterdir()) == []  # no copy of anything; greedy's empty log removed


def test_a_seats_scratch_is_bounded() -> None:
    """The seat's /tmp is memory the address-space limit does not count: it has a size."""
    code = "open('/tmp/big', 'wb').write(bytes(8 << 20))"
    out = _sealed_python(code, sandbox.Limits(ro=sandbox.python_folders(), scratch_mb=4))
    assert out.returncode != 0 and "No space left on device" in out.stderr


@pytest.mark.parametrize("spec", ["cmd:/bin/true"])
def test_a_command_bot_gets_no_cache(spec: str) -> None:
    seat = SealedSeat(spec)
    argv, _ = seat._argv()
    assert "--bind" not in argv


# ------------------------------------------------------------------------------ processes


def _children_of(marker: str, *, anywhere: bool = False) -> int:
    """How many of this test process's descendants (``anywhere``: of all processes) have
    ``marker`` in their command line; other test workers' seats are not descendants."""
    parent, cmdline = {}, {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
                parent[int(d.name)] = int(stat[stat.rindex(")") + 2 :].split()[1])
                cmdline[int(d.name)] = (d / "cmdline").read_bytes()
            except (OSError, ValueError, IndexError):
                pass

    def mine(pid: int) -> bool:
        while pid > 1:
            pid = parent.get(pid, 0)
            if pid == os.getpid():
                return True
        return False

    return sum(marker.encode() in cmd and (anywhere or mine(pid)) for pid, cmd in cmdline.items())


#: The fork bomb's seat, played in a process of its own: whatever the bomb does to the machine's
#: process table, the test's worker is not its parent and waits on it with a time limit.
_FORK_BOMB = """
import numpy as np, cribbage_env as ce
from agents.arena.client import SeatForfeit
from agents.arena.seat import SealedSeat, SeatLimits
seat = SealedSeat("cheater_agent:ForkBomb", 20.0, limits=SeatLimits(procs=64))
g = ce.new_game(1)
try:
    seat.act(g.view(g.to_act), np.random.default_rng(0))
    print("no forfeit")
except SeatForfeit as exc:
    print("forfeit:", exc)
finally:
    seat.close()
"""


def test_a_fork_bomb_stops_at_the_seats_process_limit() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}
    proc = subprocess.Popen([sys.executable, "-c", _FORK_BOMB], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)  # fmt: skip
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        try:  # the bomb's host and anything of its session left: never the worker's
            os.killpg(proc.pid, 9)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
    found = re.search(r"fork failed after (\d+) children", out)
    assert found and int(found.group(1)) < 64, out + err
    time.sleep(0.5)
    assert _children_of("cheater_agent:ForkBomb", anywhere=True) == 0


@pytest.mark.integration
def test_a_fork_bomb_forfeits_and_the_run_completes(tmp_path: Path) -> None:
    from agents.arena.seat import SeatLimits
    from agents.bench import run_tournament

    out = run_tournament(["cheater_agent:ForkBomb", "random"], 2, seed=1, agent_seed=1,
                         backend="serial", isolate=5.0, keep_results=True,
                         seat_limits=SeatLimits(procs=64))  # fmt: skip
    assert out.status == "complete" and out.games_played == 2
    assert all("ForkBomb" in r.forfeit and "fork failed" in r.forfeit for r in out.results)


def test_without_a_pids_group_the_seats_user_gets_rlimit_nproc(monkeypatch) -> None:
    """The kernel counts RLIMIT_NPROC per user: the seat's user (``nobody`` for a root host,
    which root's own processes do not count against) gets what it runs now plus the limit."""
    n = sandbox.nproc_limit(64)
    uid = sandbox.seat_uid()

    def owned(d: Path) -> bool:
        try:
            return d.name.isdigit() and d.stat().st_uid == uid
        except OSError:  # gone meanwhile
            return False

    mine = sum(owned(d) for d in Path("/proc").iterdir())
    assert abs(n - 64 - mine) <= 8  # processes of that user come and go meanwhile
    assert uid != 0


# ------------------------------------------------------------------------------ the table


def _play_args(**kw):
    import argparse

    from ui.cli import cmd_play

    parser = argparse.ArgumentParser()
    cmd_play.add_arguments(parser)
    args = parser.parse_args([])
    vars(args).update(kw)
    return args


def test_an_isolated_table_deals_from_a_secret_not_the_seed() -> None:
    """``cribbage play --isolate --seed 5``: a seat that knows the seed (or guesses a small one)
    must not know the deal; the table's engine seed derives from it and a secret key."""
    from agents.tournament.tournament import game_seeds
    from ui.cli import cmd_play

    seeds = []
    for isolate in (True, True, False):
        ctl = cmd_play.first_table(_play_args(opponent="random", seed=5, isolate=isolate),
                                   None, opponent="random", watch=None, lang="en")  # fmt: skip
        assert ctl is not None
        seeds.append(ctl.seed)
    assert seeds[2] == 5  # in-process: the person's seed is the deal, as before
    assert seeds[0] != seeds[1] and {5, game_seeds(5, 1)[0]}.isdisjoint(seeds[:2])
    assert all(0 <= s < 2**63 for s in seeds)


def test_the_start_screens_new_game_keeps_the_seat_sealed(window) -> None:
    """``cribbage play --isolate`` opens on the start screen when the opponent is a level: the
    game its New game deals (and the next one after it) seats the computer sealed and deals
    from a secret, like a table the command opens itself."""
    window.settings.isolate, window.options.level = 5.0, "easy"
    try:
        for start in (lambda: window.new_game(seed=5), window.next_game):
            start()
            ctl = window.ctl
            assert isinstance(ctl.seats[1].agent, SealedSeat) and ctl.seed != 5
            ctl.seats[1].agent.close()
        window.store.save(ctl)
        window.continue_saved()  # a saved game resumed under --isolate: sealed as well
        assert window.ctl.seed == ctl.seed and isinstance(window.ctl.seats[1].agent, SealedSeat)
        window.ctl.seats[1].agent.close()
        window.settings.isolate = None
        window.new_game(seed=5)
        assert window.ctl.seed == 5 and not isinstance(window.ctl.seats[1].agent, SealedSeat)
    finally:
        window.settings.isolate = None
        window.show_menu()


def test_a_sealed_seat_cannot_read_the_persons_saves(tmp_path: Path, monkeypatch) -> None:
    """The saves (whose seed is the deal) live in the person's data folder; a seat that may
    read the folder around it (here: the bot's own folder) finds it empty."""
    data = tmp_path / "share"
    (data / "cribbage-env").mkdir(parents=True)
    (data / "cribbage-env" / "autosave.json").write_text('{"seed": "SECRET"}')
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    bot = tmp_path / "peek.py"
    bot.write_text(
        "import json, sys\n"
        "print(json.dumps({'bot': 'peek', 'protocol': 1}), flush=True)\n"
        "for line in sys.stdin:\n"
        "    try:\n"
        f"        found = 'SECRET' in open({str(data / 'cribbage-env' / 'autosave.json')!r}).read()\n"
        "    except OSError:\n"
        "        found = False\n"
        "    msg = json.loads(line)\n"
        "    out = {'error': 'read the save'} if found else {'action': msg['legal'][0]}\n"
        "    print(json.dumps(out), flush=True)\n"
    )
    from agents.arena.client import SeatForfeit

    g = ce.new_game(1)
    for hidden in (True, False):  # the control: not hidden, the bot finds the save
        if not hidden:
            monkeypatch.setattr(sandbox, "person_folders", lambda: ())
        seat = SealedSeat(f"cmd:{sys.executable} {bot}")
        assert seat.sealed is not None and str(tmp_path) in seat.sealed.ro  # the bot's folder
        try:
            if hidden:
                assert seat.act(g.view(g.to_act), np.random.default_rng(0)) == g.legal_actions()[0]
            else:
                with pytest.raises(SeatForfeit, match="read the save"):
                    seat.act(g.view(g.to_act), np.random.default_rng(0))
        finally:
            seat.close()


def test_an_isolated_table_refuses_a_data_folder_the_seat_reads(tmp_path: Path, monkeypatch,
                                                                 capsys) -> None:  # fmt: skip
    from ui.cli.cli import main

    monkeypatch.syspath_prepend(str(tmp_path))
    code = main(["play", "--isolate", "--opponent", "random", "--data-dir",
                 str(tmp_path / "saves")])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "a sealed seat reads" in err and "Traceback" not in err, err


# ------------------------------------------------------------------------------ warm kernels


def test_the_host_warms_the_kernels_of_built_in_agents_only(monkeypatch) -> None:
    """Seats load the host's compiled kernels (a private copy); the host compiles them first
    for our own agents, never by importing a spec that names other code."""
    from agents.seats import isolate

    warmed: list[str] = []
    monkeypatch.setattr(isolate, "_warm_one", warmed.append)
    monkeypatch.setattr(isolate, "_WARM", set())
    monkeypatch.setattr(isolate, "check_isolated", lambda spec, t, hidden=(): None)
    isolate.check_isolation(["expert:sims=50", "cheater_agent:Hog", "cmd:/bin/true",
                             "sealed:greedy", "hard"], 5.0)  # fmt: skip
    assert warmed == ["expert:sims=50", "hard"]


# ------------------------------------------------------------------------------ the batched env


def test_the_batched_envs_sync_fallback_plays_sealed_opponents_and_closes_them() -> None:
    import gymnasium as gym

    import cribbage_env  # noqa: F401  (registers the ids)
    from cribbage_env.envs.vector import make_vec

    with pytest.raises(Exception, match="vectorization_mode='sync'"):
        gym.make_vec("cribbage/Cribbage-v0", num_envs=2, opponent="sealed:greedy",
                     vectorization_mode="vector_entry_point")  # fmt: skip
    before = _children_of("cheater_agent:Chatty")
    vec = make_vec(2, opponent="sealed:cheater_agent:Chatty")
    try:
        obs, info = vec.reset(seed=3)
        rng = np.random.default_rng(0)
        for _ in range(40):
            actions = [int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]]
            obs, _, _, _, info = vec.step(np.array(actions))
        assert _children_of("cheater_agent:Chatty") >= before + 2  # a seat per game of the batch
    finally:
        vec.close()
    time.sleep(0.5)
    assert _children_of("cheater_agent:Chatty") == before  # closing the env closes its seats


def test_groups_left_by_a_dead_host_are_swept() -> None:
    """A pool worker killed before closing its seats leaves their (empty) groups; the next
    host removes the groups of hosts that are gone."""
    from agents.arena import cgroups as pids

    parent = pids.parents().get("pids")
    if parent is None:
        pytest.skip("no writable pids cgroup here")
    stale = os.path.join(parent, "cribbage-seat-999999999-0")  # above any pid_max
    os.makedirs(stale, exist_ok=True)
    pids.sweep(parent)
    assert not os.path.exists(stale)
