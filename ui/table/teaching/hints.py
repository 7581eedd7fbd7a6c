"""The hint: the review's judge (:func:`agents.coaching.judge.judge`) at the person's position (R11.2).

One judge for the table: the hint rates the options by winning chance exactly as the review
does, with the same generator for the position (:func:`agents.coaching.judge.position_rng`, drawn from
what the person sees, never the game seed), so following a hint is never flagged by the review.
The hint shows the best option; the table of options (every keep at a discard with its hand,
crib and pegging expectations, every card in the play) is shown on request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from cribbage_env.rules.actions import discard_cards, is_cut, is_discard

from ...words.narration import Narrator

if TYPE_CHECKING:
    import cribbage_env as ce
    from agents.coaching.judge import Option


@dataclass(frozen=True)
class HintView:
    """A hint as the table shows it: the suggested cards, the lines under the pile, and the
    table of every option (header, then one row per option, best first)."""

    action: int
    cards: tuple[int, ...]
    lines: tuple[str, ...]
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()


def hint_rng(view: ce.PlayerView) -> np.random.Generator:
    """The judge's generator at ``view`` (the review's, seed 0: the table's review)."""
    from agents.coaching.judge import position_rng

    return position_rng(view)


def hint_for(view: ce.PlayerView, rng: np.random.Generator) -> tuple[Option, ...]:
    """Every option of the person's decision rated by :func:`agents.coaching.judge.judge`, best first."""
    from agents.coaching.judge import judge

    return judge(view, rng)


def shown_percent(narrator: Narrator):
    """A winning chance as the table writes it: to a tenth of a percentage point, rounded once
    (as :func:`agents.coaching.judge.rate` and :func:`agents.coaching.chance.seat_chance` give it), so the hint,
    the indicator and the review print the same figure for one position."""
    return lambda x: narrator.cat.percent(round(x, 3))


def action_text(action: int, narrator: Narrator) -> str:
    """A decision as the table writes it: the cards, or "cut"."""
    if is_discard(action):
        return narrator.cards(discard_cards(action))
    if is_cut(action):
        return narrator.tr("cut")
    return narrator.card(action)


def _table(
    view: ce.PlayerView, opts: tuple[Option, ...], nar: Narrator
) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The header and rows of the options table (numbers as the language writes them)."""
    header: tuple[str, ...]
    num, pct = nar.cat.number, shown_percent(nar)
    if is_discard(opts[0].action):
        header = (nar.tr("To the crib"), nar.tr("Keep"), nar.tr("hand"), nar.tr("crib"),
                  nar.tr("pegging"), nar.tr("Winning chance"))  # fmt: skip
        rows = []
        for o in opts:
            crib = discard_cards(o.action)
            keep = [c for c in view.hand if c not in crib]
            assert o.hand is not None and o.crib is not None and o.pegging is not None
            rows.append((nar.cards(crib), nar.cards(keep), num(o.hand), num(o.crib, sign=True),
                         num(o.pegging, sign=True), pct(o.chance)))  # fmt: skip
        return header, tuple(rows)
    header = (nar.tr("Card"), nar.tr("points to the end of the deal"), nar.tr("Winning chance"))
    return header, tuple(
        (nar.card(o.action), num(o.points, sign=True), pct(o.chance)) for o in opts
    )


def hint_view(view: ce.PlayerView, rng: np.random.Generator, narrator: Narrator) -> HintView:
    """The best option for ``view`` with why, the runner-up, and the table of options."""
    opts = hint_for(view, rng)
    best = opts[0]
    cards = discard_cards(best.action) if is_discard(best.action) else (best.action,)
    tr, num, pct = narrator.tr, narrator.cat.number, shown_percent(narrator)
    what = action_text(best.action, narrator)
    lines = [f"→ {tr('Best: {cards}, winning chance {pct}', cards=what, pct=pct(best.chance))}"]
    if best.hand is not None and best.crib is not None and best.pegging is not None:
        lines.append(tr("hand {hand}, crib {crib}, pegging {peg}", hand=num(best.hand),
                        crib=num(best.crib, sign=True), peg=num(best.pegging, sign=True)))  # fmt: skip
    if len(opts) > 1:
        nxt = opts[1]
        lines.append(tr("Next: {cards}, {pct}", cards=action_text(nxt.action, narrator),
                        pct=pct(nxt.chance)))  # fmt: skip
    header, rows = _table(view, opts, narrator)
    return HintView(best.action, tuple(cards), tuple(lines), header, rows)
