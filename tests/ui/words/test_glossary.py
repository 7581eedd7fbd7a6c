"""The rule cards' vocabulary (ui/locale/glossary.json) in every catalogue and on the rules screen.

Each glossary term names the English message ids that use it; their Spanish and French
translations must use the card's word (or one of its listed forms), never a word the glossary
avoids, and no translation keeps an English word of the game.
"""

from __future__ import annotations

import json
import re
from functools import cache

import pytest

from ui.words.i18n import LOCALE_DIR, load_entries

LANGS = ("es", "fr")
RULES_DIR = LOCALE_DIR.parent / "rules"


@cache
def glossary() -> dict:
    return json.loads((LOCALE_DIR / "glossary.json").read_text(encoding="utf-8"))


def _terms() -> list[dict]:
    return glossary()["terms"]


def _text(s: str) -> str:
    """A translation without its placeholders (``{name}`` is no word of the language)."""
    return re.sub(r"\{\w+\}", " ", s)


def test_the_glossary_has_the_cards_terms() -> None:
    names = {t["term"] for t in _terms()}
    for term in ("crib", "starter", "dealer", "go", "pair", "three of a kind", "four of a kind",
                 "See my hand", "undo", "redo", "restart", "hint", "pass and play"):  # fmt: skip
        assert term in names
    by = {t["term"]: t for t in _terms()}
    assert by["crib"]["es"][0] == "reserva" and by["crib"]["fr"][0] == "réserve"
    assert by["starter"]["es"][0] == "carta inicial" and by["starter"]["fr"][0] == "carte de départ"
    assert by["go"]["es"][0] == "Paso" and by["go"]["fr"][0] == "passe"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("term", _terms(), ids=lambda t: t["term"])
def test_every_message_with_the_term_uses_the_cards_word(lang: str, term: dict) -> None:
    english = re.compile(term["en"], re.IGNORECASE)
    forms = [f.casefold() for f in term[lang]]
    used = 0
    for msgid, e in load_entries(lang).items():
        if not english.search(_text(msgid)):
            continue
        used += 1
        text = e.msgstr.casefold()
        assert any(f in text for f in forms), (
            f"{lang}: {msgid!r} -> {e.msgstr!r} does not say {term[lang][0]!r}"
        )
    assert used, f"no message says {term['term']!r}: the glossary term or its pattern is stale"


def _translations(lang: str) -> list[tuple[str, str]]:
    """Every text of the language: the catalogue's translations and the rules screen's lines."""
    texts = [(msgid, e.msgstr) for msgid, e in load_entries(lang).items()]
    rules = (RULES_DIR / f"{lang}.md").read_text(encoding="utf-8").splitlines()
    return texts + [(f"rules/{lang}.md", line) for line in rules if line.strip()]


@pytest.mark.parametrize("lang", LANGS)
def test_no_avoided_word_anywhere(lang: str) -> None:
    for term in _terms():
        for avoid in term["avoid"][lang]:
            bad = re.compile(avoid, re.IGNORECASE)
            for where, text in _translations(lang):
                assert not bad.search(_text(text)), f"{lang}: {where!r} says {avoid!r}: {text!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_word_left(lang: str) -> None:
    words = re.compile(r"\b(" + "|".join(glossary()["english"]) + r")\b", re.IGNORECASE)
    for where, text in _translations(lang):
        found = words.search(_text(text))
        assert not found, f"{lang}: {where!r} keeps the English {found.group(0)!r}: {text!r}"


def test_the_rules_screen_uses_the_cards_words() -> None:
    """The rules screen calls the crib, the starter and the pone what the table calls them."""
    for lang in LANGS:
        rules = (RULES_DIR / f"{lang}.md").read_text(encoding="utf-8").casefold()
        for name in ("crib", "starter", "pone", "four of a kind"):
            (term,) = [t for t in _terms() if t["term"] == name]
            assert term[lang][0].casefold() in rules, (lang, name)
