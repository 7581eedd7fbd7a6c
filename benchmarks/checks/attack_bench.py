"""Attack `cribbage bench` the way a crash, a user or a full disk would, and count what breaks.

Every attack runs the real command in a child process on a small tournament (random vs random:,
pinned seeds) and compares what the results database holds with an uninterrupted reference run:

- **kill -9 at random moments** (``--kills N`` rounds): SIGKILL the bench parent at a random time,
  check that no fork server / worker / resource tracker survives it, that the database holds
  only whole blocks equal to the reference and that the run is not left ``running``; then
  ``--resume`` it, SIGKILL the resume at a random time too, and resume to the end: every game
  must equal the reference (0 lost, 0 different).
- **SIGTERM, Ctrl-C and two quick Ctrl-Cs**: seconds from the signal to exit, final status.
- **disk full**: the database stops growing mid-run (SQLite ``max_page_count``, and a file size
  limit, ``RLIMIT_FSIZE``): the run must end at once, cleanly (exit 1, no traceback), lose at
  most the one block that failed (kept in a recovery file), and ``--resume`` must finish it.
- **memory**: the parent's peak RSS for growing numbers of games (serial and pool backends).
- **absurd input**: ``--games 10**9``, ``--workers 10000``, ``--seed 2**63``, ``results 2**63``,
  hand-edited rows: exit 2 or 1 with a message, never a traceback, within seconds.
- **hostile files** (``--only files``, :mod:`attack_files`): a results database or a run folder
  that names code, a model that is a symlink, garbage and truncated stages, weights bombs and NaN
  weights, plots aimed at folders and devices: counts of code run, files accepted, writes
  outside their place and tracebacks (all must be 0).
- **hidden cards** (``hidden``): spies that walk the stack, the garbage collector or their
  generator, in-process and with ``--isolate``; an env opponent rebuilding the learner's cards;
  candidate worlds matched against the equity reward's ``win_chance`` (counts of successes).

Run (long, in the background):
    nice -n 10 python benchmarks/checks/attack_bench.py --kills 100 --out /tmp/attack_bench.json
    python benchmarks/checks/attack_bench.py --kills 3 --quick --out /tmp/attack_quick.json
Writes the findings to ``--out`` (rewritten after every attack, so a long run leaves its latest
figures) and prints a summary. Nothing tracked is rewritten unless ``--out`` names it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agents.tournament.procs import descendants, pid_alive  # noqa: E402

AGENTS = ["random", "random:"]
SEED, AGENT_SEED, BLOCK = 11, 4242, 5
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
}
#: a child that runs `cribbage` with optional sabotage of the results database first.
CHILD = r"""
import os, resource, signal, sys
pages, fsize = int(os.environ.get("ATTACK_MAX_PAGES", "0")), int(os.environ.get("ATTACK_FSIZE", "0"))
if pages:
    import sqlite3
    import agents.store.results_store as rs
    real = sqlite3.connect
    def connect(*a, **k):
        con = real(*a, **k)
        con.execute(f"PRAGMA max_page_count = {pages}")
        return con
    rs.sqlite3 = type(sys)("sqlite3_patched")
    rs.sqlite3.__dict__.update(sqlite3.__dict__)
    rs.sqlite3.connect = connect
if fsize:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
from ui.cli.cli import main
code = main(sys.argv[1:])
hwm = [l.split()[1] for l in open("/proc/self/status") if l.startswith("VmHWM")]  # peak RSS, kB
print("ATTACK_MAXRSS_KB", hwm[0] if hwm else -1, file=sys.stderr)
sys.exit(code)
"""


def bench_args(db: Path, games: int, workers: int, *extra: str) -> list[str]:
    return ["bench", *AGENTS, "--games", str(games), "--seed", str(SEED), "--agent-seed", str(AGENT_SEED),
            "--block", str(BLOCK), "--workers", str(workers), "--db", str(db), "--json", *extra]  # fmt: skip


def start(args: list[str], env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", CHILD, *args], cwd=ROOT, env={**ENV, **(env or {})},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # fmt: skip


def finish(proc: subprocess.Popen, timeout: float = 600) -> tuple[int | None, str, str]:
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return None, out, err
    return proc.returncode, out, err


def db_games(db: Path, run_id: int = 1) -> dict[tuple, tuple]:
    if not db.exists():
        return {}
    try:
        with sqlite3.connect(db, timeout=5) as con:
            rows = con.execute("SELECT pairing, idx, swapped, seed, winner, score0, score1, moves FROM games"
                               " WHERE run_id = ?", (run_id,)).fetchall()  # fmt: skip
    except sqlite3.Error:  # being created by the child
        return {}
    return {(r[0], r[1], r[2]): r[3:] for r in rows}


def run_status(db: Path, run_id: int = 1) -> str | None:
    from agents.store.db_errors import ResultsStoreError
    from agents.store.results_store import ResultsStore

    try:
        with ResultsStore(db, create=False) as store:  # opening reaps dead runs
            return store.run(run_id)["status"]
    except ResultsStoreError:
        return None


def whole_blocks(games: dict, total_pairs: int) -> bool:
    starts: dict[int, int] = {}
    for _, idx, _ in games:
        starts[idx // BLOCK] = starts.get(idx // BLOCK, 0) + 1
    return all(n == 2 * (min(BLOCK, total_pairs - s * BLOCK)) for s, n in starts.items())


def kill_after(proc: subprocess.Popen, delay: float) -> tuple[set[int], float]:
    time.sleep(delay)
    family = descendants(proc.pid)
    t = time.monotonic()
    try:
        os.kill(proc.pid, signal.SIGKILL)  # the parent only: as a crash would
    except ProcessLookupError:
        pass
    proc.communicate()
    return family, t


def orphans(family: set[int], since: float, grace: float = 10.0) -> tuple[int, float]:
    while time.monotonic() - since < grace:
        if not any(pid_alive(p) for p in family):
            return 0, time.monotonic() - since
        time.sleep(0.1)
    return sum(pid_alive(p) for p in family), grace


def attack_kills(args, tmp: Path, ref: dict, ref_seconds: float, log: dict) -> None:
    rng = random.Random(args.rng)
    f = log.setdefault("kills", {"rounds": 0, "kills": 0, "orphans": 0, "orphan_exit_s_max": 0.0,
                                 "stuck_running": 0, "partial_blocks": 0, "different_games": 0,
                                 "lost_games": 0, "tracebacks": 0, "resume_failures": 0,
                                 "killed_before_run_existed": 0})  # fmt: skip
    pairs = args.games // 2
    for i in range(args.kills):
        db = tmp / f"kill{i}.sqlite"
        proc = start(bench_args(db, args.games, args.workers))
        family, t = kill_after(proc, rng.uniform(0.2, ref_seconds * 1.1))
        f["kills"] += 1
        n, s = orphans(family, t)
        f["orphans"] += n
        f["orphan_exit_s_max"] = round(max(f["orphan_exit_s_max"], s), 2)
        status = run_status(db)
        if status is None:
            f["killed_before_run_existed"] += 1
            f["rounds"] += 1
            continue
        f["stuck_running"] += status == "running"
        got = db_games(db)
        f["partial_blocks"] += not whole_blocks(got, pairs)
        f["different_games"] += sum(got[k] != ref[k] for k in got)
        if status != "complete":  # resume, kill the resume at a random moment, resume again
            proc = start(
                [
                    "bench",
                    "--resume",
                    "1",
                    "--workers",
                    str(args.workers),
                    "--db",
                    str(db),
                    "--json",
                ]
            )
            family, t = kill_after(proc, rng.uniform(0.2, ref_seconds))
            f["kills"] += 1
            f["orphans"] += orphans(family, t)[0]
            f["stuck_running"] += run_status(db) == "running"
            if run_status(db) != "complete":
                code, _, err = finish(start(["bench", "--resume", "1", "--workers", str(args.workers),
                                             "--db", str(db), "--json"]))  # fmt: skip
                f["tracebacks"] += "Traceback" in err
                f["resume_failures"] += code != 0
        got = db_games(db)
        f["lost_games"] += sum(k not in got for k in ref)
        f["different_games"] += sum(got[k] != ref[k] for k in got if k in ref)
        f["rounds"] += 1
        db.unlink(missing_ok=True)
        if i % 5 == 4 or i == args.kills - 1:
            write(args.out, log)
            print(f"kill round {i + 1}/{args.kills}: {f}", flush=True)


def signal_exit(
    tmp: Path, sig: int, twice: bool, backend: str, args, early: float | None = None
) -> dict:
    """Seconds from the signal to exit; ``early``: signal that many seconds after the start
    (imports, pool start-up) instead of once games are being saved. A fresh database each time."""
    fd, path = tempfile.mkstemp(prefix="sig-", suffix=".sqlite", dir=tmp)
    os.close(fd)
    db = Path(path)
    db.unlink()
    extra = ["--backend", "serial", "--block", "500"] if backend == "serial" else []
    proc = start(bench_args(db, 200000, args.workers, *extra))
    if early is not None:
        time.sleep(early)
    else:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not db_games(db):
            time.sleep(0.2)
    t = time.monotonic()
    target = proc.pid
    (os.killpg if sig == signal.SIGINT else os.kill)(target, sig)
    if twice:
        time.sleep(0.05)
        (os.killpg if sig == signal.SIGINT else os.kill)(target, sig)
    code, _, err = finish(proc, 60)
    out = {"exit_s": round(time.monotonic() - t, 2), "code": code, "status": run_status(db),
           "traceback": "Traceback" in err}  # fmt: skip
    if early is not None:
        out["after_s"] = round(early, 2)
    db.unlink(missing_ok=True)
    return out


def attack_disk_full(args, tmp: Path, ref: dict, log: dict) -> None:
    out = log.setdefault("disk_full", [])
    for how, env in (
        ("max_page_count", {"ATTACK_MAX_PAGES": "60"}),
        ("RLIMIT_FSIZE", {"ATTACK_FSIZE": "160000"}),
    ):
        db = tmp / f"full-{how}.sqlite"
        code, stdout, err = finish(start(bench_args(db, args.games, args.workers), env))
        saved = db_games(db)
        try:
            summary = json.loads(stdout)
        except ValueError:
            summary = {}
        rec = (summary.get("run") or {}).get("recovery_file")
        rec_games = (
            len(json.loads(Path(rec).read_text())["games"]) if rec and Path(rec).exists() else 0
        )
        status = run_status(db)
        rcode, _, rerr = finish(start(["bench", "--resume", "1", "--workers", str(args.workers), "--db", str(db),
                                       "--json"]))  # fmt: skip
        after = db_games(db)
        out.append({
            "how": how, "exit": code, "traceback": "Traceback" in err, "message": messages(err),
            "saved_before_failure": len(saved), "games_played_reported": summary.get("games_played"),
            "recovery_file_games": rec_games, "status_after_failure": status,
            "reported_equals_saved": summary.get("games_played") == len(saved),
            "recovery_within_one_block": rec_games <= 2 * BLOCK,
            "resume_exit": rcode, "resume_traceback": "Traceback" in rerr,
            "lost_after_resume": sum(k not in after for k in ref),
            "different_after_resume": sum(after[k] != ref[k] for k in after if k in ref),
        })  # fmt: skip
        write(args.out, log)


def messages(err: str, n: int = 3) -> list[str]:
    return [line for line in err.strip().splitlines() if not line.startswith("ATTACK_MAXRSS_KB")][
        -n:
    ]


def maxrss(err: str) -> int | None:
    for line in err.splitlines():
        if line.startswith("ATTACK_MAXRSS_KB"):
            return int(line.split()[1])
    return None


def attack_memory(args, tmp: Path, log: dict) -> None:
    out = log.setdefault("memory", [])
    sizes = [1000, 4000, 16000] if not args.quick else [500, 2000]
    for backend, workers in (("serial", 1), ("pool", args.workers)):
        for n in sizes:
            db = tmp / f"mem-{backend}-{n}.sqlite"
            t = time.monotonic()
            code, _, err = finish(start(bench_args(db, n, workers, "--backend", backend)))
            out.append({"backend": backend, "games": n, "exit": code, "parent_maxrss_kb": maxrss(err),
                        "seconds": round(time.monotonic() - t, 1)})  # fmt: skip
            db.unlink(missing_ok=True)
            write(args.out, log)


def attack_input(tmp: Path, log: dict) -> None:
    db = tmp / "input.sqlite"
    cases = {
        "games 10**9": ["bench", *AGENTS, "--games", str(10**9), "--db", str(db)],
        "workers 10000": ["bench", *AGENTS, "--games", "2", "--workers", "10000", "--db", str(db)],
        "seed 2**63": ["bench", *AGENTS, "--games", "2", "--seed", str(2**63), "--db", str(db)],
        "results 2**63": ["results", str(2**63), "--db", str(db)],
    }
    out = log.setdefault("input", {})
    for name, cmd in cases.items():
        t = time.monotonic()
        code, _, err = finish(start(cmd), 60)
        out[name] = {"exit": code, "seconds": round(time.monotonic() - t, 2), "traceback": "Traceback" in err,
                     "message": messages(err, 1)}  # fmt: skip
    finish(start(bench_args(db, 4, 1)))
    with sqlite3.connect(db) as con:
        con.execute("UPDATE runs SET params = '{oops', summary = '[1]' WHERE id = 1")
        con.execute("UPDATE games SET moves = 'x' WHERE run_id = 1")
    for name, cmd in {"list damaged": ["results", "--db", str(db)], "show damaged": ["results", "1", "--db", str(db)],
                      "per-game damaged": ["results", "1", "--per-game", "--db", str(db)],
                      "resume damaged": ["bench", "--resume", "1", "--db", str(db)]}.items():  # fmt: skip
        code, _, err = finish(start(cmd), 60)
        out[name] = {
            "exit": code,
            "traceback": "Traceback" in err,
            "message": messages(err, 1),
        }
    write(log["_out"], log)


def attack_hidden_cards(log: dict, games: int = 20, episodes: int = 40) -> None:
    """Who can reach a hidden card. Counts, per attack, the games
    (episodes, decisions) in which the attacker reached the hidden cards: the spies of
    ``tests/cheater_agent.py`` in-process and isolated (``--isolate``), the env opponent that
    rebuilds the learner's six cards, and candidate-world matching against ``win_chance``."""
    sys.path.insert(0, str(ROOT / "tests"))
    import numpy as np
    from cheater_agent import EnvCheaterAgent
    from test_env_secrecy import _equity_play_decisions, _other_worlds

    from agents.tournament.play import play_game
    from agents.tournament.runner import run_plan
    from agents.tournament.tournament import AgentFailure, game_seeds, make_plan
    from cribbage_env import new_game
    from cribbage_env.envs.single import CribbageEnv
    from cribbage_env.equity import chance_now
    from cribbage_env.unseen.determinize import determinize

    out = log.setdefault("hidden_cards", {})
    for spy in ("FrameSpy", "GcSpy", "GeneratorSpy"):
        spec, found = f"cheater_agent:{spy}", 0
        for seed in game_seeds(9, games):
            try:
                play_game(spec, "random", seed, agent_seed=seed)
            except AgentFailure:
                found += 1
        iso = run_plan(make_plan([spec, "random"], games, 9, isolate=10.0), backend="serial")
        found_iso = sum("Cheated" in r.forfeit for r in iso.results)
        out[spy] = {"games": games, "found_in_process": found, "found_isolated": found_iso}
    cheater = EnvCheaterAgent()
    env, rng, truth = CribbageEnv(cheater, episode="deal"), np.random.default_rng(0), []
    for k in range(episodes):
        _, info = env.reset(seed=123 if k == 0 else None)
        done = False
        while not done:
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        truth.append(tuple(sorted(new_game(env.game.seed).view(env.seat).hand)))
    out["env_opponent_rebuilds_learner_hand"] = {
        "episodes": episodes, "found": sum(f == t for f, t in zip(cheater.found, truth, strict=True))}  # fmt: skip
    decisions = singled = 0
    for env, info, hand, disc in _equity_play_decisions(11, 12):
        view = env._ep.view(env.seat)
        worlds = [(hand, disc), *_other_worlds(view, rng, 12)]
        values = [chance_now(determinize(view, h, d), env.seat) for h, d in worlds]
        singled += [i for i, v in enumerate(values) if v == info["win_chance"]] == [0]
        decisions += 1
    out["equity_info_singles_out_hand"] = {"decisions": decisions, "found": singled}
    write(log["_out"], log)


def write(path: Path, log: dict) -> None:
    path.write_text(json.dumps({k: v for k, v in log.items() if k != "_out"}, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--kills", type=int, default=20, help="kill -9 rounds (each kills the run and a resume)"
    )
    ap.add_argument("--games", type=int, default=1000, help="games per attacked run (even)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rng", type=int, default=0, help="seed of the kill moments")
    ap.add_argument(
        "--quick", action="store_true", help="smaller memory sizes, fewer signal trials"
    )
    ap.add_argument("--out", type=Path, required=True, help="JSON findings (rewritten as it goes)")
    ap.add_argument(
        "--only",
        default="input,signals,disk,memory,kills,hidden,files",
        help="attacks to run, comma-separated",
    )
    args = ap.parse_args(argv)
    # Started in the background by a shell (`nohup ... &`), this process and so every child would
    # ignore SIGINT (POSIX), which would make the Ctrl-C attacks meaningless: restore it.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    only = set(args.only.split(","))
    log: dict = {"_out": args.out, "command": " ".join(sys.argv), "games": args.games, "workers": args.workers,
                 "cpus": os.cpu_count()}  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="attack-bench-") as d:
        tmp = Path(d)
        t = time.monotonic()
        code, _, err = finish(start(bench_args(tmp / "ref.sqlite", args.games, args.workers)))
        ref_seconds = time.monotonic() - t
        assert code == 0, err
        ref = db_games(tmp / "ref.sqlite")
        log["reference"] = {"games": len(ref), "seconds": round(ref_seconds, 2)}
        if "input" in only:
            attack_input(tmp, log)
        if "signals" in only:
            trials = 1 if args.quick else 3
            sig = log.setdefault("signals", {})
            for name, s, twice in (("sigterm", signal.SIGTERM, False), ("ctrl-c", signal.SIGINT, False),
                                   ("ctrl-c twice", signal.SIGINT, True)):  # fmt: skip
                for backend in ("serial", "pool"):
                    sig[f"{name} {backend}"] = [
                        signal_exit(tmp, s, twice, backend, args) for _ in range(trials)
                    ]
                    write(args.out, log)
            rng = random.Random(args.rng + 1)
            for backend in ("serial", "pool"):  # Ctrl-C at random moments of start-up
                sig[f"ctrl-c at start-up {backend}"] = [
                    signal_exit(tmp, signal.SIGINT, False, backend, args, rng.uniform(0.0, 3.0))
                    for _ in range(3 * trials)
                ]
                write(args.out, log)
        if "disk" in only:
            attack_disk_full(args, tmp, ref, log)
        if "memory" in only:
            attack_memory(args, tmp, log)
        if "kills" in only:
            attack_kills(args, tmp, ref, ref_seconds, log)
        if "hidden" in only:
            attack_hidden_cards(log)
        if "files" in only:
            from attack_files import attack_all, counts

            (tmp / "files").mkdir()
            files = attack_all(tmp / "files")
            log["files"] = {"counts": counts(files), "attacks": files}
            write(args.out, log)
    write(args.out, log)
    print(json.dumps({k: v for k, v in log.items() if k != "_out"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
