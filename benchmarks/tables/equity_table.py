"""Build the board-position equity tables from deal traces (see benchmarks/tables/equity_sim.py).

Reads every ``chunk_*.npz`` under ``--traces``, solves ``dealer[a, b]`` for the targets 121 and
61 by backward induction (:func:`cribbage_env.equity.solve`), and estimates the Monte-Carlo
error by batch means: the chunks are split into ``--batches`` groups, each solved on its own,
and the standard error of an entry is the spread of the group tables over sqrt(groups).

    python benchmarks/tables/equity_table.py --traces /work/eqdata/traces \
        --out cribbage_env/data/equity.npz

writes the tables (float32), their standard errors and the parameters; a JSON summary goes to
``--summary`` (default: next to ``--out`` with the suffix ``.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from cribbage_env.equity import TARGETS, solve, trace_counts


def load_traces(folder: Path) -> tuple[list[dict], list[tuple[np.ndarray, np.ndarray, np.ndarray]]]:
    params, chunks = [], []
    for path in sorted(folder.glob("chunk_*.npz")):
        if ".tmp" in path.name:
            continue
        with np.load(path, allow_pickle=False) as z:
            chunks.append((z["offsets"], z["role"], z["points"]))
            params.append(json.loads(str(z["params"])))
    if not chunks:
        sys.exit(f"no chunk_*.npz files under {folder}")
    return params, chunks


def join(chunks) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    offs, roles, pts, base = [np.zeros(1, dtype=np.int64)], [], [], 0
    for o, r, p in chunks:
        offs.append(o[1:] + base)
        base += int(o[-1])
        roles.append(r)
        pts.append(p)
    return np.concatenate(offs), np.concatenate(roles), np.concatenate(pts)


def check_counts(wd: np.ndarray, wp: np.ndarray, f: np.ndarray, t: int) -> None:
    """Every deal either ends the game for one side or moves the board on: the counts add up."""
    n = f.sum()
    cum = f.cumsum(axis=0).cumsum(axis=1)  # deals with D < nd and P < np: cum[nd-1, np-1]
    for nd in range(1, t + 1):
        for np_ in range(1, t + 1):
            total = wd[nd, np_] + wp[np_, nd] + cum[nd - 1, np_ - 1]
            if total != n:
                raise AssertionError(f"counts do not add up at need ({nd}, {np_}): {total} != {n}")


def build(chunks, target: int, batches: int) -> tuple[np.ndarray, np.ndarray]:
    counts = trace_counts(*join(chunks), target)
    check_counts(*counts, target)
    table = solve(*counts, target)
    groups = np.array_split(np.arange(len(chunks)), batches)
    tabs = [solve(*trace_counts(*join([chunks[i] for i in g]), target), target) for g in groups]
    se = np.std(tabs, axis=0, ddof=1) / np.sqrt(len(tabs))
    return table, se


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--traces", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True, help="the .npz to write")
    ap.add_argument("--summary", type=Path, default=None)
    ap.add_argument("--batches", type=int, default=20)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    params, chunks = load_traces(args.traces)
    deals = sum(len(c[0]) - 1 for c in chunks)
    agents = sorted({p["agent"] for p in params})
    out: dict[str, np.ndarray] = {}
    summary: dict = {
        "deals": deals,
        "chunks": len(chunks),
        "agents": agents,
        "root_seeds": sorted({p["root_seed"] for p in params}),
        "batches": args.batches,
    }
    for t in TARGETS:
        table, se = build(chunks, t, args.batches)
        out[f"dealer_{t}"] = table.astype(np.float32)
        out[f"se_{t}"] = se.astype(np.float32)
        summary[f"target_{t}"] = {
            "dealer_at_0_0": round(float(table[0, 0]), 5),
            "se_at_0_0": round(float(se[0, 0]), 5),
            "se_max": round(float(se.max()), 5),
            "se_mean": round(float(se.mean()), 5),
        }
    _, _, f = trace_counts(*join(chunks), 200)
    n = f.sum()
    summary["mean_dealer_points"] = round(float((f.sum(axis=1) * np.arange(201)).sum() / n), 3)
    summary["mean_pone_points"] = round(float((f.sum(axis=0) * np.arange(201)).sum() / n), 3)
    summary["seconds"] = round(time.perf_counter() - t0, 1)
    summary["command"] = (
        "python benchmarks/tables/equity_sim.py ... && python benchmarks/tables/equity_table.py "
        + " ".join(argv if argv is not None else sys.argv[1:])
    )
    summary["sim"] = {k: v for k, v in params[0].items() if k not in ("chunk", "first_seed")}
    out["params"] = np.array(json.dumps(summary))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **out)
    spath = args.summary or args.out.with_suffix(".json")
    spath.write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
