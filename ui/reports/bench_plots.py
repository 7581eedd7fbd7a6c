"""PNG charts of a tournament (matplotlib, Agg backend: no display needed).

``win_rates.png``: agent A's win rate per pairing with its 95% Wilson interval;
``points_per_deal.png``: pegging / hand / crib points per deal for each agent as dealer and pone;
``sample_game.png``: both scores through the first game of the first pairing, deal by deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cribbage_env as ce
from agents.tournament.game_result import GameResult


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_win_rates(summary: dict, path: Path) -> Path:
    plt = _plt()
    pairings = [p for p in summary["pairings"] if p["games"]]
    labels = [f"{p['agents'][0]}\nvs {p['agents'][1]}" for p in pairings]
    rates = [100 * p["win_rate"] for p in pairings]
    lo = [100 * (p["win_rate"] - p["win_rate_ci"][0]) for p in pairings]
    hi = [100 * (p["win_rate_ci"][1] - p["win_rate"]) for p in pairings]
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.9 * len(pairings)))
    y = list(range(len(pairings)))[::-1]
    ax.barh(y, rates, color="#4C72B0", height=0.55)
    ax.errorbar(rates, y, xerr=[lo, hi], fmt="none", ecolor="black", capsize=6, lw=1.5)
    for yi, r, p in zip(y, rates, pairings, strict=True):
        label = (
            f"{r:.1f}%  [{100 * p['win_rate_ci'][0]:.1f}, {100 * p['win_rate_ci'][1]:.1f}]"
            f"  n={p['games']}"
        )
        if r >= 45:  # inside the bar, clear of the error bar at its end
            ax.text(1.5, yi, label, va="center", ha="left", fontsize=9, color="white")
        else:
            ax.text(100 * p["win_rate_ci"][1] + 1.5, yi, label, va="center", fontsize=9)
    ax.axvline(50, color="grey", ls="--", lw=1)
    ax.set_yticks(y, labels, fontsize=9)
    ax.set_xlim(0, 100)
    ax.set_xlabel("win rate of the first-named agent (%), bars = 95% Wilson interval")
    ax.set_title("Win rate per pairing")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_points_per_deal(summary: dict, path: Path) -> Path:
    plt = _plt()
    rows = []
    for agent, roles in summary["agents"].items():
        for role in ("dealer", "pone"):
            r = roles[role]
            if r["deals"]:
                rows.append((f"{agent}\n{role}", r["pegging"], r["hand"], r["crib"]))
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(rows) + 2), 5))
    x = range(len(rows))
    peg = [r[1] for r in rows]
    hand = [r[2] for r in rows]
    crib = [r[3] for r in rows]
    ax.bar(x, peg, label="pegging (incl. go, last card, his heels)", color="#55A868")
    ax.bar(x, hand, bottom=peg, label="hand", color="#4C72B0")
    ax.bar(
        x,
        crib,
        bottom=[a + b for a, b in zip(peg, hand, strict=True)],
        label="crib",
        color="#C44E52",
    )
    for xi, a, b, c in zip(x, peg, hand, crib, strict=True):
        ax.text(xi, a + b + c + 0.15, f"{a + b + c:.2f}", ha="center", fontsize=9)
    ax.set_xticks(list(x), [r[0] for r in rows], fontsize=9)
    ax.set_ylabel("points per deal")
    ax.set_title("Points per deal by agent and role")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=3, fontsize=9, frameon=False)
    ax.set_ylim(
        0, max((a + b + c for a, b, c in zip(peg, hand, crib, strict=True)), default=1) * 1.15
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def score_lines(rules: ce.Rules) -> list[tuple[int, str]]:
    """The lines a score plot marks: the target and the skunk lines of ``rules`` (a line at 0
    marks nothing).

    >>> score_lines(ce.Rules(target=91))
    [(91, 'target 91'), (61, 'skunk line 61'), (31, 'double skunk 31')]
    """
    lines = (
        (rules.target, "target"),
        (rules.skunk, "skunk line"),
        (rules.double_skunk, "double skunk"),
    )
    return [(level, f"{lab} {level}") for level, lab in lines if level > 0]


def plot_sample_game(summary: dict, game: GameResult, path: Path) -> Path:
    """Scores after every scoring event of one game, replayed from its seed and decisions."""
    plt = _plt()
    rules = ce.Rules.from_json(summary["params"].get("rules", {}))
    g = ce.replay(game.seed, game.moves, rules=rules)
    pairing = summary["pairings"][game.pairing]["agents"]
    names = (pairing[1], pairing[0]) if game.swapped else (pairing[0], pairing[1])
    xs, s0, s1, deal_starts = [0], [0], [0], []
    step = 0
    for e in g.events:
        if e.kind is ce.EventKind.DEAL:
            deal_starts.append(step)
        if e.points:
            step += 1
            xs.append(step)
            s0.append(e.scores[0])
            s1.append(e.scores[1])
    fig, ax = plt.subplots(figsize=(9, 4.8))
    ax.step(xs, s0, where="post", label=f"seat 0: {names[0]}", color="#4C72B0", lw=2)
    ax.step(xs, s1, where="post", label=f"seat 1: {names[1]}", color="#C44E52", lw=2)
    for d in deal_starts:
        ax.axvline(d, color="grey", lw=0.6, alpha=0.5)
    top = ax.secondary_xaxis("top")
    top.set_xticks(deal_starts, [str(k + 1) for k in range(len(deal_starts))], fontsize=7)
    top.set_xlabel("deal", fontsize=8)
    for level, lab in score_lines(rules):
        top_line = level == rules.target
        ax.axhline(level, color="black" if top_line else "grey", ls="-" if top_line else ":", lw=1)
        ax.text(0.5, level + 1.5, lab, fontsize=8, ha="left", color="dimgrey")
    ax.set_ylim(0, rules.target * 131 // 121)
    ax.set_xlim(0, xs[-1] + 1)
    ax.set_xlabel("scoring events (grey lines: start of each deal)")
    ax.set_ylabel("score")
    winner = names[game.winner]
    ax.set_title(
        f"Sample game (seed {game.seed}): {winner} wins {max(game.scores)}-{min(game.scores)}",
        fontsize=10,
    )
    ax.legend(loc="upper left", bbox_to_anchor=(0.0, 0.9), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def write_plots(summary: dict, results: Sequence[GameResult], folder: Path) -> list[Path]:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = [
        plot_win_rates(summary, folder / "win_rates.png"),
        plot_points_per_deal(summary, folder / "points_per_deal.png"),
    ]
    if results:
        out.append(plot_sample_game(summary, results[0], folder / "sample_game.png"))
    return out
