"""The game-over summary says every number with its unit and every count in the language's
plural form: rendered strings in English, Spanish and French."""

from __future__ import annotations

import pytest

from cribbage_env.analysis.outcome import OutcomeSplit, outcome_split
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

    def split(self, seat: int) -> OutcomeSplit:
        """Ana (seat 0) lost 32.9 points of winning chance by her decisions, Bo none; Bo won
        (or, unfinished, Bo's chance is 80%)."""
        end = (0.0 if seat == 0 else 1.0) if self.finished else (0.2 if seat == 0 else 0.8)
        lost = (0.329, 0.0) if seat == 0 else (0.0, 0.329)
        luck = -0.121 if seat == 0 else 0.121
        return outcome_split(0.5, end, luck, *lost)


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
        "Ana: from 50% to 0%, -50.0 points = luck -12.1, decisions: Ana -32.9, Bo 0.0, unexplained -5.0",
        "Bo: from 50% to 100%, +50.0 points = luck +12.1, decisions: Bo 0.0, Ana +32.9, unexplained +5.0",
    ],
    "es": [
        "Ana: de 50\u00a0% a 0\u00a0%, -50,0 puntos = suerte -12,1, decisiones: Ana -32,9, Bo 0,0, sin explicar -5,0",
        "Bo: de 50\u00a0% a 100\u00a0%, +50,0 puntos = suerte +12,1, decisiones: Bo 0,0, Ana +32,9, sin explicar +5,0",
    ],
    "fr": [
        "Ana : de 50\u00a0% à 0\u00a0%, -50,0 points = hasard -12,1, décisions : Ana -32,9, Bo 0,0, inexpliqué -5,0",
        "Bo : de 50\u00a0% à 100\u00a0%, +50,0 points = hasard +12,1, décisions : Bo 0,0, Ana +32,9, inexpliqué +5,0",
    ],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_luck_and_decisions_add_up_to_how_the_game_went(lang: str) -> None:
    """Each line: the change from the start to the end, equal to luck plus both players'
    decisions, in percentage points; a player with no mistakes reads 0.0 for their decisions."""
    cat = Catalog(lang)
    assert luck_parts(_Review(0, 0, 5), ("Ana", "Bo"), cat) == LUCK[lang]  # type: ignore[arg-type]
    unfinished = luck_parts(_Review(0, 0, 5, finished=False), ("Ana", "Bo"), cat)  # type: ignore[arg-type]
    pieces = cat.percent(0.2, digits=0), cat.number(-30, sign=True), cat.number(15.0, sign=True)
    assert all(piece in unfinished[0] for piece in pieces)
    for line in LUCK[lang] + unfinished:
        assert "of a win" not in line and "%," in line


def test_plural_rules_of_the_catalogs() -> None:
    """English and Spanish: one singular, "0 moves"; French: "0 coup, 1 coup, 2 coups"."""
    assert [plural_rule("en")(n) for n in (0, 1, 2)] == [True, False, True]
    assert [plural_rule("es")(n) for n in (0, 1, 2)] == [True, False, True]
    assert [plural_rule("fr")(n) for n in (0, 1, 2)] == [False, False, True]
    en = Catalog("en")
    assert en.percent(-0.000001, sign=True) == "0.0%" and en.percent(0.5, sign=True) == "+50.0%"
