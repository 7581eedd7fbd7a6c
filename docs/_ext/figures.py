"""Figures the docs build draws from the project's own code and data (matplotlib, Agg):

- ``board.png``: the board of ``ui/table/board.py`` (every hole, number and skunk line) with the pegs of
  a real game (seed 7, first legal actions) at the end of its third deal;
- ``learning_curve.png``: ``agents.learn.ladder.plot_curve`` on the shipped agent's curve;
- ``ladder.png``: the strength ladder of ``cribbage_docs.LADDER`` from the results files.
"""

from __future__ import annotations

from pathlib import Path


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _pegs_after_deals(seed: int, deals: int) -> tuple[list[int], list[int]]:
    """Front and back peg of both players after ``deals`` deals of a seeded game (first legal
    actions): the back peg stands where the front one stood before the last score."""
    import cribbage_env as ce

    g = ce.new_game(seed=seed)
    front, back = [0, 0], [0, 0]
    while not g.is_over and g.deal_no < deals:
        g.apply(g.legal_actions()[0])
        for p in (0, 1):
            if g.scores[p] != front[p]:
                back[p], front[p] = front[p], g.scores[p]
    return front, back


def board_figure(path: Path) -> None:
    from ui.table.board import (
        STANDARD_BOARD,
        BoardRect,
        hole_position,
        number_positions,
        peg_holes,
        skunk_lines,
    )

    plt = _plt()
    rect = BoardRect(0, 0, 250, 520)
    fig, ax = plt.subplots(figsize=(3.2, 6.2))
    ax.add_patch(plt.Rectangle((0, 0), 250, 520, color="#b07a45", zorder=0))
    colours = ("#c0392b", "#2c6fbb")
    for player in (0, 1):
        pts = [hole_position(rect, player, h) for h in range(-1, STANDARD_BOARD.holes + 1)]
        ax.scatter([x for x, _ in pts], [y for _, y in pts], s=4, color="#3b2410")
    gx, gy = hole_position(rect, 0, STANDARD_BOARD.game_hole)
    ax.scatter([gx], [gy], s=30, color="#3b2410")
    for n, x, y in number_positions(rect):
        ax.text(x, y, str(n), fontsize=6, ha="right", va="center", color="#2b1a0a")
    for past, x0, x1, y in skunk_lines(rect):
        ax.plot([x0, x1], [y, y], color="#2b1a0a", lw=1.2)
        ax.text(x1 + 2, y, f"{past - 1}|{past}", fontsize=5, va="center")
    fronts, backs = _pegs_after_deals(7, 3)
    for player in (0, 1):
        for hole in peg_holes(fronts[player], backs[player]):
            x, y = hole_position(rect, player, hole)
            ax.scatter([x], [y], s=40, color=colours[player], edgecolors="white", zorder=3)
    ax.set_title(f"Pegs after three deals: {fronts[0]} – {fronts[1]}", fontsize=8)
    ax.set_xlim(-5, 255)
    ax.set_ylim(-5, 525)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def ladder_figure(path: Path) -> None:
    from cribbage_docs import LADDER, read_result

    plt = _plt()
    rows = [(f"{a} vs {o}", read_result(f)) for a, o, f in LADDER]
    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    ys = range(len(rows))
    rates = [100 * r["rate"] for _, r in rows]
    err = [
        [100 * (r["rate"] - r["ci"][0]) for _, r in rows],
        [100 * (r["ci"][1] - r["rate"]) for _, r in rows],
    ]
    ax.barh(list(ys), rates, xerr=err, color="#4C72B0", capsize=3)
    ax.set_yticks(list(ys), [label for label, _ in rows])
    ax.axvline(50, color="grey", lw=0.8, ls="--")
    for y, r in zip(ys, rates, strict=True):
        ax.text(r + 1.5, y, f"{r:.1f}%", va="center", fontsize=8)
    ax.set_xlim(0, 110)
    ax.set_xlabel("win rate over duplicate games (%, 95% interval)")
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def make_figures(folder: Path) -> None:
    import json

    from cribbage_docs import RESULTS

    from agents.learn.ladder import plot_curve

    folder.mkdir(parents=True, exist_ok=True)
    board_figure(folder / "board.png")
    ladder_figure(folder / "ladder.png")
    curve = json.loads((RESULTS / "neural_curve.json").read_text(encoding="utf-8"))
    plot_curve(curve, folder / "learning_curve.png")
