"""The hint in words, for learners, beside its numbers: why the suggested move is good, said
from the engine's own scoring breakdown (:func:`~cribbage_env.rules.scoring.score_hand_breakdown`
and :func:`~cribbage_env.rules.pegging.score_play_breakdown`: one implementation of scoring).

A discard: what the four cards kept score among themselves ("Keeps 7 8 8 J: 2 fifteens and a
pair") and what the two cards give the crib ("no 5 to their crib"). A card in the play: what it scores ("fifteen for 2"), else the count it leaves and the card that
would answer it with 15 or 31.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import cribbage_env as ce
from cribbage_env.rules.cards import RANK, SUIT
from cribbage_env.rules.pegging import score_play_breakdown
from cribbage_env.rules.scoring import ScoreItem, ScoreKind, score_hand_breakdown

from .i18n import N_, Catalog
from .narration import Narrator


def kept_items(keep: Sequence[int]) -> list[ScoreItem]:
    """The combinations the four cards kept make among themselves, whatever the starter: the
    breakdown with a starter that can add nothing of its own to runs, pairs or the flush, the
    items holding the starter left out.

    >>> from cribbage_env.rules.cards import parse_cards
    >>> sorted(i.kind.value for i in kept_items(parse_cards("7H 8C 8D JS")))
    ['fifteen', 'fifteen', 'pair']
    """
    ranks = {RANK[c] for c in keep}
    near = {r + d for r in ranks for d in (-1, 0, 1)}
    suits = {SUIT[c] for c in keep}
    spare = [c for c in range(52) if c not in keep]
    quiet = [c for c in spare if RANK[c] not in near and (len(suits) > 1 or SUIT[c] not in suits)]
    starter = (quiet or spare)[0]
    return [i for i in score_hand_breakdown(keep, starter) if starter not in i.cards]


def _parts(items: Sequence[ScoreItem], cat: Catalog) -> str:
    """The items counted by kind in words: "2 fifteens, a pair and a run of 3"."""
    counts = Counter(i.kind for i in items)
    runs = sorted({len(i.cards) for i in items if i.kind is ScoreKind.RUN}, reverse=True)
    words = []
    if counts[ScoreKind.FIFTEEN]:
        words.append(cat.ntr("a fifteen", "{n} fifteens", counts[ScoreKind.FIFTEEN]))
    if counts[ScoreKind.PAIR]:
        words.append(cat.ntr("a pair", "{n} pairs", counts[ScoreKind.PAIR]))
    for n in runs:
        k = sum(1 for i in items if i.kind is ScoreKind.RUN and len(i.cards) == n)
        words.append(cat.ntr("a run of {len}", "{n} runs of {len}", k, len=n))
    if counts[ScoreKind.FLUSH]:
        words.append(cat.tr("a flush"))
    if not words:
        return cat.tr("nothing scores yet")
    if len(words) == 1:
        return words[0]
    return cat.tr("{items} and {last}", items=", ".join(words[:-1]), last=words[-1])


def _crib_gift(crib: Sequence[int], mine: bool, cat: Catalog) -> str:
    """What two discards give the crib (a pair, a fifteen, a 5, or no 5), and whose it is."""
    kinds = {i.kind for i in score_play_breakdown(list(crib))}  # two cards: a pair, or 15
    if ScoreKind.PAIR in kinds:
        what = "pair"
    elif ScoreKind.FIFTEEN in kinds:
        what = "fifteen"
    else:
        what = "five" if any(RANK[c] == 4 for c in crib) else "no five"
    return cat.tr(CRIB_GIFTS[what][0 if mine else 1])


#: What the crib gets, said for your crib and for the other's.
CRIB_GIFTS = {
    "pair": (N_("a pair to your crib"), N_("a pair to their crib")),
    "fifteen": (N_("a fifteen to your crib"), N_("a fifteen to their crib")),
    "five": (N_("a 5 to your crib"), N_("a 5 to their crib")),
    "no five": (N_("no 5 to your crib"), N_("no 5 to their crib")),
}


def discard_words(
    view: ce.PlayerView, crib: Sequence[int], nar: Narrator, *, with_crib: bool = True
) -> str:
    """Why a discard: the four kept and what they score, and (``with_crib``) what the crib
    gets."""
    keep = sorted((c for c in view.hand if c not in crib), key=lambda c: (RANK[c], SUIT[c]))
    cat = nar.cat
    kept = cat.tr(
        "Keeps {cards}: {parts}", cards=nar.cards(keep), parts=_parts(kept_items(keep), cat)
    )
    if not with_crib:
        return kept
    return cat.tr("{kept}; {crib}", kept=kept, crib=_crib_gift(crib, view.is_dealer, cat))


def play_words(view: ce.PlayerView, card: int, nar: Narrator) -> str:
    """Why a card in the play: what it scores, else the count it leaves and a ten's answer."""
    seq = list(view.sequence)
    items = score_play_breakdown([*seq, card])
    cat = nar.cat
    if items:
        return cat.tr("{card} scores {reasons}", card=nar.card(card), reasons=nar.reasons(items))
    count = view.count + min(RANK[card] + 1, 10)
    used = {*seq, card}
    replies = [next(c for c in range(r, 52, 13) if c not in used) for r in range(13)]
    answers = sorted(
        {min(RANK[c] + 1, 10) for c in replies
         if count + min(RANK[c] + 1, 10) <= 31
         and {i.kind for i in score_play_breakdown([*seq, card, c])}
         & {ScoreKind.FIFTEEN, ScoreKind.THIRTY_ONE}}
    )  # fmt: skip
    if answers:
        return cat.tr("{card} scores nothing and leaves {count}: a {value} would make it {total} "
                      "for 2", card=nar.card(card), count=count, value=answers[0],
                      total=count + answers[0])  # fmt: skip
    return cat.tr("{card} scores nothing and leaves {count}, which no card makes 15 or 31",
                  card=nar.card(card), count=count)  # fmt: skip


def hint_words(view: ce.PlayerView, action: int, nar: Narrator, *, short: bool = False) -> str:
    """The hint's move in words ("" for a move words add nothing to: a cut, a Go); ``short``
    leaves out what a discard gives the crib."""
    from cribbage_env.rules.actions import discard_cards, is_discard

    if is_discard(action):
        return discard_words(view, discard_cards(action), nar, with_crib=not short)
    if view.phase is ce.Phase.PLAY and 0 <= action < 52:
        return play_words(view, action, nar)
    return ""
