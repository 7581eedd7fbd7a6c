"""``cribbage warmup [--what all|table|batch]``: compile the simulators now, once, so that no
later command, game or training run waits for it.

The compiled kernels (numba) are cached on disk (:mod:`cribbage_env.kernels.kernelcache` stamps them); the
first use compiles them, which takes a while on a small machine. ``table`` is what the game at the table
needs (the expert's play-outs, the review), ``batch`` the batched training env.
"""

from __future__ import annotations

import argparse
import sys
import time


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--what",
        choices=("all", "table", "batch"),
        default="all",
        help="which kernels: the table's (expert, review), the batched env's, or all (default)",
    )


def run(args: argparse.Namespace) -> int:
    t = time.perf_counter()
    if args.what in ("all", "table"):
        from ..table.warmup import warm_table

        warm_table()
    if args.what in ("all", "batch"):
        from cribbage_env.envs.batched import warm_up

        warm_up()
    print(f"kernels ready in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    return 0
