"""The hint in words: what the kept cards score among themselves (checked against a count by
brute force), what the crib gets, and what a card in the play scores or leaves."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

import cribbage_env as ce
from cribbage_env.rules.actions import discard_cards
from cribbage_env.rules.cards import RANK, SUIT
from cribbage_env.rules.scoring import ScoreKind
from ui.words.hint_words import CRIB_GIFTS, hint_words, kept_items
from ui.words.i18n import LANGUAGES, Catalog
from ui.words.narration import Narrator


def _value(c: int) -> int:
    return min(RANK[c] + 1, 10)


def _brute(keep: list[int]) -> tuple[int, int, int, bool]:
    """Fifteens, pairs, the longest run (0: none) and a flush among four cards."""
    fifteens = sum(
        1 for k in range(2, 5) for combo in combinations(keep, k) if sum(map(_value, combo)) == 15
    )
    pairs = sum(1 for a, b in combinations(keep, 2) if RANK[a] == RANK[b])
    run = 0
    for k in (4, 3):
        for combo in combinations(keep, k):
            rs = sorted(RANK[c] for c in combo)
            if len(set(rs)) == k and rs[-1] - rs[0] == k - 1:
                run = max(run, k)
    return fifteens, pairs, run, len({SUIT[c] for c in keep}) == 1


def test_kept_cards_score_as_a_brute_force_count_says() -> None:
    rng = np.random.default_rng(0)
    for _ in range(400):
        keep = [int(c) for c in rng.choice(52, 4, replace=False)]
        items = kept_items(keep)
        fifteens, pairs, run, flush = _brute(keep)
        kinds = [i.kind for i in items]
        assert kinds.count(ScoreKind.FIFTEEN) == fifteens, keep
        assert kinds.count(ScoreKind.PAIR) == pairs, keep
        runs = [len(i.cards) for i in items if i.kind is ScoreKind.RUN]
        assert (max(runs) if runs else 0) == run, keep
        assert (ScoreKind.FLUSH in kinds) == flush, keep


@pytest.mark.parametrize("lang", LANGUAGES)
def test_words_for_a_discard_and_for_plays(lang: str) -> None:
    cat = Catalog(lang)
    nar = Narrator(cat, ("You", "Computer"), you=0)
    game = ce.new_game(3, interactive_cuts=False)
    while game.phase is not ce.Phase.DISCARD:
        game.apply(game.legal_actions()[0])
    view = game.view(game.to_act)
    for action in game.legal_actions()[:20]:
        text = hint_words(view, action, nar)
        assert text and "{" not in text
    pair_words = cat.tr(CRIB_GIFTS["pair"][0 if view.is_dealer else 1])
    for a in game.legal_actions():
        cards = discard_cards(a)
        text = hint_words(view, a, nar)
        if RANK[cards[0]] == RANK[cards[1]]:
            assert text.endswith(pair_words), text
    while game.phase is not ce.Phase.PLAY:
        game.apply(game.legal_actions()[0])
    view = game.view(game.to_act)
    for card in game.legal_actions():
        text = hint_words(view, card, nar)
        assert nar.card(card) in text
