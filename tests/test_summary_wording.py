"""The game-over summary says every number with its unit and every count in the language's
plural form (issue 29): rendered strings in English, Spanish and French."""

from __future__ import annotations

import pytest

from ui.scenes.summary_scene import error_line, luck_parts
from ui.words.i18n import LANGUAGES, Catalog, plural_rule


class _Review:
    """What the summary reads of a review: the seat's decisions and luck."""

    def __init__(self, blunders: int, bad: int, decisions: int, finished: bool = True) -> None:
        self.counts = (blunders, bad, decisions)
        self.finished = finished

    def seat_summary(self, seat: int) -> dict:
        blunders, bad, decisions = self.counts
        return {"blunder": blunders, "bad": bad, "decisions": decisions, "error_rate": 0.00312}

    def luck_summary(self, seat: int) -> dict:
        luck = -0.798 if seat == 0 else 0.798
        return {
            "luck": luck,
            "skill_lost": 0.329 if seat == 0 else 0.0,
            "adjusted_result": (1.0 - 0.0 - luck if seat == 0 else 0.0 - luck)
            if self.finished
            else None,
        }


# The tail each language puts after the counts (the same error rate, 0.31%, in every case,
# written as the language writes numbers).
TAIL = {
    "en": "0.31% winning chance lost per decision on average",
    "es": "0,31\u00a0% de probabilidad de ganar perdida por decisión, de media",
    "fr": "0,31\u00a0% de chance de gagner perdue par décision, en moyenne",
}
ERRORS = {
    ("en", 1, 0, 1): "Ana: 1 blunder and 0 bad moves in 1 decision; " + TAIL["en"],
    ("en", 2, 1, 23): "Ana: 2 blunders and 1 bad move in 23 decisions; " + TAIL["en"],
    ("es", 1, 0, 1): "Ana: 1 error grave y 0 malas jugadas en 1 decisión; " + TAIL["es"],
    ("es", 2, 1, 23): "Ana: 2 errores graves y 1 mala jugada en 23 decisiones; " + TAIL["es"],
    ("fr", 1, 0, 1): "Ana : 1 gaffe et 0 mauvais coup en 1 décision ; " + TAIL["fr"],
    ("fr", 2, 1, 23): "Ana : 2 gaffes et 1 mauvais coup en 23 décisions ; " + TAIL["fr"],
}


@pytest.mark.parametrize(("lang", "blunders", "bad", "decisions"), list(ERRORS))
def test_the_error_line_counts_in_words(lang: str, blunders: int, bad: int, decisions: int):
    line = error_line(_Review(blunders, bad, decisions), 0, "Ana", Catalog(lang))  # type: ignore[arg-type]
    assert line == ERRORS[lang, blunders, bad, decisions]


LUCK = {
    "en": [
        "Ana: luck -79.8%, mistakes -32.9%; 180% of a win without the luck",
        "Bo: luck +79.8%, mistakes 0.0%; -80% of a win without the luck",
    ],
    "es": [  # decimal comma, a non-breaking space before the per-cent sign
        "Ana: suerte -79,8\u00a0%, errores -32,9\u00a0%; 180\u00a0% de una victoria sin la suerte",
        "Bo: suerte +79,8\u00a0%, errores 0,0\u00a0%; -80\u00a0% de una victoria sin la suerte",
    ],
    "fr": [
        "Ana : chance -79,8\u00a0%, erreurs -32,9\u00a0% ; 180\u00a0% d'une victoire sans la chance",
        "Bo : chance +79,8\u00a0%, erreurs 0,0\u00a0% ; -80\u00a0% d'une victoire sans la chance",
    ],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_luck_and_mistakes_are_in_per_cent_of_winning_chance(lang: str) -> None:
    cat = Catalog(lang)
    assert luck_parts(_Review(0, 0, 5), ("Ana", "Bo"), cat) == LUCK[lang]  # type: ignore[arg-type]
    unfinished = luck_parts(_Review(0, 0, 5, finished=False), ("Ana", "Bo"), cat)  # type: ignore[arg-type]
    assert unfinished == [t.split(";")[0].rstrip() for t in LUCK[lang]]


def test_plural_rules_of_the_catalogs() -> None:
    """English and Spanish: one singular, "0 moves"; French: "0 coup, 1 coup, 2 coups"."""
    assert [plural_rule("en")(n) for n in (0, 1, 2)] == [True, False, True]
    assert [plural_rule("es")(n) for n in (0, 1, 2)] == [True, False, True]
    assert [plural_rule("fr")(n) for n in (0, 1, 2)] == [False, False, True]
    en = Catalog("en")
    assert en.percent(-0.000001, sign=True) == "0.0%" and en.percent(0.5, sign=True) == "+50.0%"
