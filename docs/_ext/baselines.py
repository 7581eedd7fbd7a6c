"""The Baselines page and its figure, generated from the from-zero results files:
``zero_curves.json`` (curves), ``zero_throughput.json`` (speed) and ``zero_bench.json`` (the
shipped ``zero`` agent through the tournament runner), all in ``benchmarks/results/``."""

from __future__ import annotations

import json
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
OPPONENTS = ("random", "greedy", "expectimax")
LABELS = {
    "steps": "learner steps (millions)",
    "cpu_s": "training CPU seconds (one thread)",
    "wall_s": "training wall-clock seconds (on the shared machine)",
}


def _load(name: str) -> dict | None:
    path = RESULTS / name
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def _pct(row: dict) -> str:
    lo, hi = row["ci"]
    return f"{100 * row['win_rate']:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def _first(points: list[dict], opponent: str, level: float) -> str:
    for pt in points:
        if pt["results"][opponent]["win_rate"] >= level:
            return f"{pt['steps'] / 1e6:.1f}M steps, {pt['cpu_s']:.0f} CPU s ({pt['wall_s']:.0f} s wall)"
    return "not reached"


def _runs_table(curves: dict) -> list[str]:
    out = ["| run | steps | CPU s | wall s | vs random | vs greedy | vs expectimax | first >= 95% vs random (training evaluations) |",
           "|---|---:|---:|---:|---|---|---|---|"]  # fmt: skip
    for name, run in sorted(curves["runs"].items()):
        pts = run["points"]
        if not pts:
            continue
        last = pts[-1]
        res = " | ".join(_pct(last["results"][o]) for o in OPPONENTS)
        first = _first(run.get("training_points", []), "random", 0.95)
        out.append(f"| {name} ({run['method']}) | {last['steps']:,} | {last['cpu_s']:.0f} | "
                   f"{last['wall_s']:.0f} | {res} | {first} |")  # fmt: skip
    return out


def _best(curves: dict) -> list[str]:
    out = []
    for opp in OPPONENTS[1:]:
        best = max(((pt["results"][opp]["win_rate"], name, pt) for name, run in
                    curves["runs"].items() for pt in run["points"]), default=None,
                   key=lambda x: x[0])  # fmt: skip
        if best:
            _, name, pt = best
            out.append(f"- Best against `{opp}`: {_pct(pt['results'][opp])}% ({name}, "
                       f"{pt['steps']:,} steps, {pt['cpu_s']:.0f} CPU s)")  # fmt: skip
    return out


def _throughput(tp: dict) -> list[str]:
    r = tp["rows"]
    net = r["network_alone"]
    rows = [("batched env alone (free policy, the curves' opponent mix)", r["env_alone_steps_per_s"], None),
            ("network forward alone (numpy, collect batch, observation unpacked)", net["forward_samples_per_s"], None),
            ("network update alone (torch, forward + backward + Adam, one pass)", net["update_samples_per_s"], None),
            ("network's own cost per learner step (one forward + epochs x update)", net["network_bound_steps_per_s"], None),
            ("learner end to end, PPO (collect + update)", r["learner_ppo"]["steps_per_s"], r["learner_ppo"]["steps_per_wall_s"]),
            ("learner end to end, DMC (collect + update)", r["learner_dmc"]["steps_per_s"], r["learner_dmc"]["steps_per_wall_s"]),
            ("sb3-contrib MaskablePPO on the batched env", r["sb3_maskable_ppo"]["steps_per_s"], r["sb3_maskable_ppo"]["steps_per_wall_s"]),
            ("CleanRL-style example (its defaults)", r["cleanrl_example"]["steps_per_s"], r["cleanrl_example"]["steps_per_wall_s"])]  # fmt: skip
    out = ["| what | per CPU second | per wall-clock second |", "|---|---:|---:|"]
    out += [f"| {what} | {cpu:,.0f} | {'' if wall is None else f'{wall:,.0f}'} |"
            for what, cpu, wall in rows]  # fmt: skip
    ratio = r["learner_over_network_cost"]
    load = ", ".join(f"{x:.1f}" for x in tp["load_average_before"])
    out += ["", f"End to end against the network's own cost: PPO {ratio['ppo']:.2f}x, DMC "
            f"{ratio['dmc']:.2f}x (1.00: the network's cost alone; the rest is the env, unpacking "
            "observations, sampling and bookkeeping; DMC trains only on steps whose deal ended "
            "inside the rollout).",
            "", f"Command: `{tp['command']}`. Rates are per CPU second of one thread (what a "
            f"dedicated core does); the machine was shared (load average {load} on {tp['cpus']} "
            "cores when it ran), so wall-clock rates are far lower than on an idle machine."]  # fmt: skip
    return out


def _bench(bench: dict) -> list[str]:
    out = ["| opponent | games | win rate % [95%] | how |", "|---|---:|---|---|"]
    for row in bench["rows"]:
        out.append(f"| {row['opponent']} | {row['games']:,} | {_pct(row)} | {row['how']} |")
    return out + ["", f"Command: `{bench['command']}`"]


def baselines_page() -> str:
    from agents.learn.zero.config import PROVENANCE

    lines = ["From zero means: " + "; ".join(f"{k.replace('_', ' ')}: {v or 'none'}"
                                            for k, v in PROVENANCE.items()) + ".", ""]  # fmt: skip
    curves = _load("zero_curves.json")
    if curves:
        lines += ["## Learning curves", "", f"Evaluation: {curves['evaluation']}.",
                  f"Command: `{curves['command']}`.", "",
                  "The figure above: lines are the runs' evaluations while training (shaded: 95% "
                  "intervals), dots the duplicate evaluations of the table.", "",
                  *_runs_table(curves), "", *_best(curves), ""]  # fmt: skip
        for name, run in sorted(curves["runs"].items()):
            lines.append(f"- {name}: `{run['command']}`")
        lines.append("")
    tp = _load("zero_throughput.json")
    if tp:
        lines += ["## Throughput", "", *_throughput(tp), ""]
    bench = _load("zero_bench.json")
    if bench:
        lines += ["## The shipped `zero` agent", "", *_bench(bench), ""]
    return "\n".join(lines)


def baselines_figure(path: Path) -> None:
    curves = _load("zero_curves.json")
    if not curves:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(3, 3, figsize=(12, 9.5), sharey="col")
    colours = {"ppo-zero": "#2c6fbb", "dmc-zero": "#c0392b"}
    for name, run in sorted(curves["runs"].items()):
        pts, dup = run.get("training_points", []), run["points"]
        for row, key in enumerate(("steps", "cpu_s", "wall_s")):
            for col, opp in enumerate(OPPONENTS):
                ax = axes[row][col]
                scale = 1e6 if key == "steps" else 1
                x = [pt[key] / scale for pt in pts]
                y = [100 * pt["results"][opp]["win_rate"] for pt in pts]
                lo = [100 * pt["results"][opp]["ci"][0] for pt in pts]
                hi = [100 * pt["results"][opp]["ci"][1] for pt in pts]
                c = colours.get(run["method"], "#555555")
                ax.plot(x, y, color=c, lw=1.0, alpha=0.8, label=name)
                ax.fill_between(x, lo, hi, color=c, alpha=0.10)
                for pt in dup:
                    r = pt["results"][opp]
                    ax.errorbar([pt[key] / scale], [100 * r["win_rate"]], fmt="o", ms=3, color=c,
                                yerr=[[100 * (r["win_rate"] - r["ci"][0])],
                                      [100 * (r["ci"][1] - r["win_rate"])]])  # fmt: skip
                ax.set_title(f"vs {opp}")
                ax.set_xlabel(LABELS[key])
                ax.grid(alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_ylabel("win rate % (95% interval)")
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
