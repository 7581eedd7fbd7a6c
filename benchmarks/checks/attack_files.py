"""Attacks through the files people share: results databases, run folders, saves,
weights, caches, output paths. Each runs the real ``cribbage`` command in a child process on a
hostile file and records what happened: did code run, did anything get written outside its
place, was there a traceback, how did it exit, how long did it take.

Part of ``benchmarks/checks/attack_bench.py`` (``--only files``); alone:
    python benchmarks/checks/attack_files.py --out /tmp/attack_files.json
Prints the counts (and every attack's record to ``--out``); nothing tracked is rewritten.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAYLOAD = "os:system:command=touch PWNED"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "ARCADE_HEADLESS": "1"}
TRAIN = ["--shards", "1", "--games-per-shard", "1", "--epochs", "1", "--eval-games", "0",
         "--workers", "1", "--no-progress"]  # fmt: skip


def cribbage(cwd: Path, *args: str, timeout: float = 600) -> dict:
    t = time.monotonic()
    env = {**ENV, "CRIBBAGE_DATA_DIR": str(cwd / "data")}
    try:
        p = subprocess.run([sys.executable, "-m", "ui", *args], cwd=cwd, env=env,
                           capture_output=True, text=True, timeout=timeout)  # fmt: skip
        code, err = p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        code, err = None, "timeout"
    return {"exit": code, "seconds": round(time.monotonic() - t, 2), "traceback": "Traceback" in err,
            "message": err.strip().splitlines()[-1:] if err.strip() else []}  # fmt: skip


def _tampered_db(tmp: Path, agents: list[str]) -> Path:
    db = tmp / "r.sqlite"
    cribbage(tmp, "bench", "random", "random:", "--games", "4", "--block", "1", "--backend",
             "serial", "--db", str(db))  # fmt: skip
    with sqlite3.connect(db) as con:
        p = json.loads(con.execute("SELECT params FROM runs WHERE id = 1").fetchone()[0])
        p["agents"], p["pairings"] = agents, [agents]
        con.execute("UPDATE runs SET params = ?, status = 'failed' WHERE id = 1", (json.dumps(p),))
        con.execute("DELETE FROM games WHERE idx > 0")
    return db


def attack_database(tmp: Path) -> dict:
    out = {}
    for name, spec in (("db import path", PAYLOAD), ("db neural path", "neural:path=/etc/passwd")):
        case = tmp / name.replace(" ", "_")
        case.mkdir()
        db = _tampered_db(case, [spec, "random:"])
        r = cribbage(case, "bench", "--resume", "1", "--db", str(db), "--backend", "serial")
        out[name] = {**r, "code_ran": (case / "PWNED").exists(), "accepted": r["exit"] == 0}
    return out


def _config(run: Path, method: str = "dmc", **changes) -> None:
    sys.path.insert(0, str(ROOT))
    from dataclasses import asdict

    from agents.learn.dmc import DMCConfig

    cfg = {**asdict(DMCConfig(shards=1, games_per_shard=1, eval_games=0, workers=1)), **changes}
    run.mkdir(parents=True)
    (run / "config.json").write_text(json.dumps({"method": method, "command": "x", "config": cfg}))


def attack_run_folder(tmp: Path) -> dict:
    out = {}
    cases = {"config ladder": ("dmc", {"ladder": [PAYLOAD]}),
             "config opponents": ("dmc", {"opponents": [[PAYLOAD, 1]]}),
             "config teacher": ("bc", {"teacher": PAYLOAD}),
             "config workers 10**6": ("dmc", {"workers": 10**6}),
             "config shards 10**9": ("dmc", {"shards": 10**9})}  # fmt: skip
    for name, (method, changes) in cases.items():
        case = tmp / name.replace(" ", "_").replace("*", "")
        case.mkdir()
        _config(case / "run", method, **changes)
        r = cribbage(case, "train", "--method", method, "--run-dir", "run", "--resume", *TRAIN,
                     timeout=120)  # fmt: skip
        out[name] = {**r, "code_ran": (case / "PWNED").exists(), "accepted": r["exit"] == 0}
    case = tmp / "links"
    case.mkdir()
    base = cribbage(case, "train", "--method", "dmc", "--run-dir", "run", *TRAIN)
    outside = case / "outside.txt"
    outside.write_text("precious")
    run = case / "run"
    (run / "model.npz").unlink()
    (run / "model.npz").symlink_to(outside)
    (run / "gen1.npz").write_bytes(b"arbitrary bytes")
    r = cribbage(case, "train", "--method", "dmc", "--run-dir", "run", "--resume", *TRAIN)
    out["model.npz a link, gen1 garbage"] = {**r, "first_run_exit": base["exit"],
                                             "wrote_outside": outside.read_text() != "precious"}  # fmt: skip
    data = (run / "gen1.npz").read_bytes()
    (run / "gen1.npz").write_bytes(data[: len(data) // 2])
    (run / "model.npz").unlink()
    r = cribbage(case, "train", "--method", "dmc", "--run-dir", "run", "--resume", *TRAIN)
    out["truncated gen1"] = {**r, "final_model_checks": _loads(run / "model.npz")}
    out["resume nothing"] = cribbage(case, "train", "--method", "dmc", "--run-dir", "none",
                                     "--resume", *TRAIN)  # fmt: skip
    out["train --workers 10**6"] = cribbage(case, "train", "--method", "dmc", "--run-dir", "w",
                                            "--workers", str(10**6))  # fmt: skip
    return out


def _loads(path: Path) -> bool:
    sys.path.insert(0, str(ROOT))
    from agents.nets.mlp import WeightsError, load_nets

    try:
        load_nets(path)
    except WeightsError:
        return False
    return True


def _bomb(path: Path, n: int = 50_000_000) -> None:
    import numpy as np

    header = np.lib.format.header_data_from_array_1_0(np.zeros(1, np.float32))
    header["shape"] = (4, n // 4)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        with z.open("discard.w0.npy", "w", force_zip64=True) as f:
            np.lib.format.write_array_header_1_0(f, header)
            for _ in range(4 * n // (1 << 22)):
                f.write(bytes(1 << 22))


def attack_weights(tmp: Path) -> dict:
    import numpy as np

    out = {}
    _bomb(tmp / "bomb.npz")
    np.savez(tmp / "nan.npz", **{"discard.w0": np.full((2, 1), np.nan, np.float32)})
    for name, path in (("weights bomb", "bomb.npz"), ("NaN weights", "nan.npz")):
        r = cribbage(tmp, "bench", f"neural:path={path}", "random", "--games", "2", "--backend",
                     "serial", "--db", str(tmp / "w.sqlite"))  # fmt: skip
        out[name] = {**r, "accepted": r["exit"] == 0}
        r = cribbage(tmp, "train", "--method", "dmc", "--run-dir", f"run-{path}", "--warm-start",
                     path, *TRAIN)  # fmt: skip
        out[f"{name} as --warm-start"] = {**r, "accepted": r["exit"] == 0}
    return out


def attack_outputs(tmp: Path) -> dict:
    sys.path.insert(0, str(ROOT))
    from agents.tournament.play import play_game

    rec = tmp / "game.json"
    rec.write_text(json.dumps(play_game("greedy", "greedy", 3, agent_seed=0).to_record()))
    (tmp / "folder").mkdir()
    out = {}
    for name, target in (("review --plot FOLDER", "folder"), ("review --plot /dev/X.png",
                         "/dev/cribbage-attack.png"), ("review --plot x.txt", "x.txt")):  # fmt: skip
        before = sorted(p.name for p in tmp.iterdir())
        r = cribbage(tmp, "review", str(rec), "--samples", "1", "--plot", target)
        made = target.startswith("/") and Path(target).exists()
        out[name] = {**r, "wrote": sorted(p.name for p in tmp.iterdir()) != before or made}
    return out


def attack_all(tmp: Path) -> dict:
    log = {}
    for part in (attack_database, attack_run_folder, attack_weights, attack_outputs):
        d = tmp / part.__name__
        d.mkdir()
        log.update(part(d))
    return log


def counts(log: dict) -> dict:
    """How many attacks ran code, were accepted, wrote outside their place or printed a traceback."""
    return {
        "attacks": len(log),
        "code_ran": sum(bool(r.get("code_ran")) for r in log.values()),
        "accepted": sum(bool(r.get("accepted")) for r in log.values()),
        "wrote_outside": sum(bool(r.get("wrote_outside") or r.get("wrote")) for r in log.values()),
        "tracebacks": sum(bool(r.get("traceback")) for r in log.values()),
        "not_exit_2": sorted(
            k
            for k, r in log.items()
            if r.get("exit") not in (0, 2)
            or (r.get("exit") == 0 and "final_model_checks" not in r and "wrote_outside" not in r)
        ),  # fmt: skip
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=None, help="write every attack's record here")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="attack-files-") as d:
        log = attack_all(Path(d))
    summary = {"counts": counts(log), "attacks": log}
    if args.out is not None:
        args.out.write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary["counts"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
