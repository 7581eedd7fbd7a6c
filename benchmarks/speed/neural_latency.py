"""Decision latency of the ``neural`` agent with torch made unimportable (numpy inference only).

Plays ``--games`` games of ``neural`` (``--spec``) against ``expectimax`` in one process where
``import torch`` fails, timing ``act`` per phase (wall clock and thread CPU time), and prints the
median and p99 in ms. Writes JSON only to ``--out`` if given::

    python benchmarks/speed/neural_latency.py --games 200
    python benchmarks/speed/neural_latency.py --games 200 --out benchmarks/results/neural_latency.json
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


class _NoTorch:
    """A meta-path finder that refuses torch, as on a machine without it."""

    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ImportError("torch is blocked for this benchmark")
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--spec", default="neural")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--out", default="")
    args = parser.parse_args(argv)
    sys.meta_path.insert(0, _NoTorch())
    sys.modules.pop("torch", None)
    from master_latency import latency_figures, time_decisions

    from agents import make_agent
    from agents.store.atomic import atomic_write_json

    neural, other = make_agent(args.spec), make_agent("expectimax")
    assert "torch" not in sys.modules
    times = time_decisions(neural, other, args.games, args.seed, forced=True)
    out = {"spec": args.spec, "games": args.games, "torch_loaded": "torch" in sys.modules}
    for phase, r in latency_figures(times, digits=4).items():
        out[phase] = r
        print(
            f"{phase:>8}: {r['decisions']} decisions, median {r['median_ms']:.3f} ms, "
            f"p99 {r['p99_ms']:.3f} ms wall (CPU median {r['cpu_median_ms']:.3f} ms)"
        )
    print(f"torch loaded: {out['torch_loaded']}")
    if args.out:
        atomic_write_json(Path(args.out), out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
