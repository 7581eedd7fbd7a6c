"""Catalogs: every visible string exists in Spanish, French and English (RULES R11.8)."""

from __future__ import annotations

import re

import pytest
from i18n_keys import message_ids

from ui.words.i18n import (
    LANGUAGES,
    Catalog,
    CatalogError,
    load_entries,
    parse_po,
    placeholders,
    system_language,
)

IDS = message_ids()


def test_the_code_marks_messages() -> None:
    assert len(IDS) > 80
    assert "See my hand — {name}" in IDS and "{name} says Go" in IDS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_has_every_key_and_no_stale_ones_R11_8(lang: str) -> None:
    entries = load_entries(lang)
    missing = sorted(set(IDS) - set(entries))
    assert not missing, f"{lang}.po misses {missing} (used in {[IDS[m] for m in missing]})"
    stale = sorted(set(entries) - set(IDS))
    assert not stale, f"{lang}.po has entries no code uses: {stale}"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_string_is_translated_R11_8(lang: str) -> None:
    for msgid, e in load_entries(lang).items():
        assert e.msgstr.strip(), f"{lang}: {msgid!r} has an empty translation"
        if e.msgstr == msgid:
            assert e.identical, (
                f"{lang}: {msgid!r} is left in English (flag '#, identical' if meant)"
            )
        assert placeholders(e.msgstr) == placeholders(msgid), f"{lang}: placeholders of {msgid!r}"


def test_english_catalog_is_the_identity() -> None:
    for msgid, e in load_entries("en").items():
        assert e.msgstr == msgid


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "es",
            {
                "See my hand — {name}": "Ver mi mano",
                "{name} says Go": "Paso",
                "dealer": "repartidor",
                "fifteen {total}": "quince",
                "a run of {n} is {total}": "escalera",
                "a flush of {n} is {total}": "color",
                "Crib: {name}": "Reserva",
            },
        ),
        (
            "fr",
            {
                "See my hand — {name}": "Voir ma main",
                "{name} says Go": "Passe",
                "dealer": "donneur",
                "fifteen {total}": "quinze",
                "a run of {n} is {total}": "suite",
                "a flush of {n} is {total}": "couleur",
                "Crib: {name}": "Réserve",
            },
        ),
    ],
)
def test_players_vocabulary(lang: str, words: dict[str, str]) -> None:
    cat = Catalog(lang)
    for msgid, word in words.items():
        assert word in cat.tr(msgid, name="X", total=2, n=3)


def test_bad_catalog_is_reported(tmp_path) -> None:
    p = tmp_path / "xx.po"
    p.write_text('msgid "a"\nmsgstr "b"\nmsgid "a"\nmsgstr "c"\n', encoding="utf-8")
    with pytest.raises(CatalogError, match="twice"):
        parse_po(p)
    p.write_text('msgid "a"\nnonsense\n', encoding="utf-8")
    with pytest.raises(CatalogError, match="cannot read"):
        parse_po(p)
    with pytest.raises(CatalogError, match="no catalog"):
        Catalog("xx")  # no such language (any real one may get a catalog)


def test_names_take_their_article_after_a_preposition() -> None:
    """Spanish and French put the article before "computer" and "player" after a preposition
    ("la reserva del ordenador", "la réserve de l'ordinateur", "au joueur 1"), never "de
    Ordenador", "d'Ordinateur" or "à Joueur 1"; "Vous" takes none, and a word starting with a
    vowel that is no name still elides "de"."""
    fr, es = Catalog("fr"), Catalog("es")
    computer = fr.tr("Computer")
    assert fr.tr("{name}'s crib", name=computer) == "Réserve de l'ordinateur"
    assert fr.tr("{name}'s hand", name=fr.tr("Player {n}", n=1)) == "Main du joueur 1"
    assert fr.tr("Pass the screen to {name}", name=fr.tr("Player {n}", n=2)).endswith("au joueur 2")
    assert fr.tr("Choose two cards for {name}'s crib", name=computer).endswith("de l'ordinateur")
    assert fr.tr("{name}'s hand", name="Anne") == "Main d'Anne"
    assert "de 50" in fr.tr(
        "{name}: from {start} to {end}, {change} points = luck {luck}, decisions: "
        "{name} {own}, {other} {theirs}, unexplained {rest}",
        name=computer, start="50 %", end="0 %", change="-50", luck="-1", own="0", other="Vous",
        theirs="0", rest="0",
    )  # fmt: skip
    assert es.tr("{name}'s crib", name=es.tr("Computer")) == "Reserva del ordenador"
    assert es.tr("Pass the screen to {name}", name=es.tr("Player {n}", n=1)).endswith(
        "al jugador 1"
    )
    for lang in LANGUAGES:  # no catalog writes a preposition before a bare computer or player
        cat = Catalog(lang)
        for msgid in IDS:
            if "{name}" not in msgid:
                continue
            names = (cat.tr("Computer"), cat.tr("Player {n}", n=1))
            for name in names:
                text = cat.tr(msgid, **dict.fromkeys(placeholders(msgid), "x") | {"name": name})
                assert not re.search(rf"(?<!\w)(de |a |à |d')(?={re.escape(name)})", text), text


def test_system_language_falls_back_to_english() -> None:
    assert system_language({"LANG": "fr_CA.UTF-8"}) == "fr"
    assert system_language({"LC_ALL": "es_AR.UTF-8", "LANG": "fr_FR"}) == "es"
    assert system_language({"LANG": "xx_XX.UTF-8"}) == "en"
    assert system_language({}) == "en"


def test_languages_are_the_catalog_files_each_naming_itself() -> None:
    """Adding a language is adding ``ui/locale/<code>.po``: the list is read from the files."""
    from ui.words.i18n import LANGUAGE_NAMES, LOCALE_DIR

    assert set(LANGUAGES) == {p.stem for p in LOCALE_DIR.glob("*.po")} and LANGUAGES[0] == "en"
    for lang in LANGUAGES:
        header = (LOCALE_DIR / f"{lang}.po").read_text(encoding="utf-8")[:500]
        assert f"Language: {lang}\\n" in header
        assert LANGUAGE_NAMES[lang] != lang, f"{lang}.po has no Language-Name in its header"


def test_a_new_catalog_file_is_a_new_language(tmp_path) -> None:
    from ui.words.i18n import LOCALE_DIR, catalog_names

    for p in LOCALE_DIR.glob("*.po"):
        (tmp_path / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    de = (LOCALE_DIR / "es.po").read_text(encoding="utf-8")
    de = de.replace("Language: es\\n", "Language: de\\n").replace("Español", "Deutsch")
    (tmp_path / "de.po").write_text(de, encoding="utf-8")
    assert catalog_names(tmp_path) == {"en": "English", "de": "Deutsch", "es": "Español",
                                       "fr": "Français"}  # fmt: skip


@pytest.mark.parametrize("command", ["play", "replay"])
def test_every_lang_option_offers_every_catalog(command: str) -> None:
    import argparse
    import importlib

    mod = importlib.import_module(f"ui.cli.cmd_{command}")
    p = argparse.ArgumentParser()
    mod.add_arguments(p)
    (action,) = [a for a in p._actions if "--lang" in a.option_strings]
    assert tuple(action.choices) == LANGUAGES


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_show_count_has_one_comma_between_items_and_none_inside(lang: str) -> None:
    """The show is said as items joined by commas ("fifteen 2, fifteen 4, a pair is 6"): an item
    of its own holding a comma ("pareja, 6") would read as two."""
    from cribbage_env.rules.scoring import COUNT_PHRASES

    cat = Catalog(lang)
    for phrase in COUNT_PHRASES.values():
        said = cat.tr(phrase, total=6, n=3, points=2)
        assert "," not in said and said.rstrip().endswith("6"), said
