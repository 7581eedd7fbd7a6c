"""Translations for every visible string of the game (RULES R11.8), gettext style.

Catalogs are plain ``.po`` files in ``ui/locale/<lang>.po`` (shipped as package data and read with
a small parser, so no compile step and no system gettext are needed). Languages are data: the
list of languages is the list of catalog files, and each names its language in its header
(``Language-Name: Español``), so adding a language is adding one catalog; every ``--lang``
option, the start screen and the completeness tests read :data:`LANGUAGES`. A message id is the English
text with ``{placeholders}``; code marks literal ids with :func:`N_` or looks them up with
:meth:`Catalog.tr`, which is what the catalog test scans for.

>>> Catalog("es").tr("See my hand — {name}", name="Ana")
'Ver mi mano — Ana'
>>> Catalog("fr").tr("{name} says Go", name="Ana")
'Ana dit Passe'

A count is said with :meth:`Catalog.ntr`: the catalog's plural rule (its header's
``Plural-Forms``, gettext's notation) picks the translation of the English singular or plural.

>>> [Catalog(lang).ntr("{n} bad move", "{n} bad moves", 0) for lang in ("en", "fr")]
['0 bad moves', '0 mauvais coup']

A number is written as its language writes it (the header's ``Decimal-Mark`` and
``Percent-Format``), by :meth:`Catalog.number` and :meth:`Catalog.percent`, the one place every
figure of the table goes through; a space before the per-cent sign is a non-breaking one, so the
sign never starts a line.

>>> [Catalog(lang).percent(0.635) for lang in ("en", "es", "fr")]
['63.5%', '63,5\xa0%', '63,5\xa0%']
"""

from __future__ import annotations

import locale
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..errors import UIError

LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_HEADER_NAME = re.compile(r'^msgstr "(?:[^"]*\\n)?Language-Name: ([^"\\]+)', re.MULTILINE)
_HEADER_PLURAL = re.compile(r'^msgstr "(?:[^"]*\\n)?Plural-Forms: ([^"\\]+)', re.MULTILINE)
_HEADER_DECIMAL = re.compile(r'^msgstr "(?:[^"]*\\n)?Decimal-Mark: ([^"\\]+)', re.MULTILINE)
_HEADER_PERCENT = re.compile(r'^msgstr "(?:[^"]*\\n)?Percent-Format: ([^"\\]+)', re.MULTILINE)
_HEADER_ELISION = re.compile(r'^msgstr "(?:[^"]*\\n)?Elision: ([^"\\]+)', re.MULTILINE)
_HEADER_ARTICLES = re.compile(r'^msgstr "(?:[^"]*\\n)?Articles: ([^"\\]+)', re.MULTILINE)
_HEADER_CONTRACTIONS = re.compile(r'^msgstr "(?:[^"]*\\n)?Contractions: ([^"\\]+)', re.MULTILINE)
VOWELS = frozenset("aeiouyàâéèêëîïôûAEIOUYÀÂÉÈÊËÎÏÔÛ")
NBSP = "\u00a0"
#: The plural rules a catalog may name (languages of two forms), as functions of the count:
#: True for the plural form. English and Spanish say "0 moves", French "0 coup".
PLURAL_RULES: dict[str, Callable[[int], bool]] = {
    "nplurals=2; plural=(n != 1);": lambda n: n != 1,
    "nplurals=2; plural=(n > 1);": lambda n: n > 1,
}


def catalog_names(locale_dir: Path = LOCALE_DIR) -> dict[str, str]:
    """Language code -> its own name, one per catalog file ``<code>.po`` (header
    ``Language-Name``; the code itself if the header has none), English first.

    >>> catalog_names()["es"]
    'Español'
    """
    names = {}
    for path in sorted(locale_dir.glob("*.po"), key=lambda p: (p.stem != "en", p.stem)):
        found = _HEADER_NAME.search(path.read_text(encoding="utf-8")[:2000])
        names[path.stem] = found.group(1).strip() if found else path.stem
    return names


#: The languages with a catalog, and each one's name in itself.
LANGUAGE_NAMES: dict[str, str] = catalog_names()
LANGUAGES: tuple[str, ...] = tuple(LANGUAGE_NAMES)


class CatalogError(UIError, ValueError):
    """A catalog file that cannot be parsed, or a language we have no catalog for."""


def N_(msgid: str) -> str:  # noqa: N802 (gettext convention)
    """Mark a literal as a message id without translating it (translated later by ``tr``)."""
    return msgid


def placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


@dataclass(frozen=True)
class Entry:
    msgid: str
    msgstr: str
    identical: bool  # flagged "#, identical": the translation is deliberately the same text


def _unquote(s: str, path: Path, lineno: int) -> str:
    s = s.strip()
    if len(s) < 2 or s[0] != '"' or s[-1] != '"':
        raise CatalogError(f"{path}:{lineno}: expected a quoted string, got {s!r}")
    body = s[1:-1]
    return body.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


def _flags(comment: str) -> set[str]:
    """The flags of a ``#,`` comment line (other comments have none)."""
    if not comment.startswith("#,"):
        return set()
    return {f.strip() for f in comment[2:].split(",")}


def parse_po(path: Path) -> dict[str, Entry]:
    """Read a ``.po`` file (msgid/msgstr pairs, continuation lines, ``#,`` flags)."""
    entries: dict[str, Entry] = {}
    msgid: str | None = None
    msgstr: str | None = None
    target = ""
    flags: set[str] = set()
    pending_flags: set[str] = set()

    def flush() -> None:
        nonlocal msgid, msgstr, flags
        if msgid is not None:
            if msgstr is None:
                raise CatalogError(f"{path}: msgid {msgid!r} has no msgstr")
            if msgid:  # the empty msgid is the header
                if msgid in entries:
                    raise CatalogError(f"{path}: msgid {msgid!r} appears twice")
                entries[msgid] = Entry(msgid, msgstr, "identical" in flags)
        msgid, msgstr, flags = None, None, set()

    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            pending_flags |= _flags(line)
        elif line.startswith("msgid "):
            flush()
            msgid, target = _unquote(line[6:], path, lineno), "id"
            flags, pending_flags = pending_flags, set()
        elif line.startswith("msgstr "):
            if msgid is None:
                raise CatalogError(f"{path}:{lineno}: msgstr without msgid")
            msgstr, target = _unquote(line[7:], path, lineno), "str"
        elif line.startswith('"'):
            text = _unquote(line, path, lineno)
            if target == "id" and msgid is not None:
                msgid += text
            elif target == "str" and msgstr is not None:
                msgstr += text
            else:
                raise CatalogError(f"{path}:{lineno}: continuation line outside an entry")
        else:
            raise CatalogError(f"{path}:{lineno}: cannot read {line!r}")
    flush()
    return entries


@cache
def load_entries(lang: str) -> dict[str, Entry]:
    if lang not in LANGUAGES:
        raise CatalogError(f"no catalog for language {lang!r}; available: {', '.join(LANGUAGES)}")
    return parse_po(LOCALE_DIR / f"{lang}.po")


@cache
def plural_rule(lang: str) -> Callable[[int], bool]:
    """The catalog's plural rule (its header's ``Plural-Forms``; English's if it names none)."""
    if lang not in LANGUAGES:
        raise CatalogError(f"no catalog for language {lang!r}; available: {', '.join(LANGUAGES)}")
    found = _HEADER_PLURAL.search((LOCALE_DIR / f"{lang}.po").read_text(encoding="utf-8")[:2000])
    rule = found.group(1).strip() if found else "nplurals=2; plural=(n != 1);"
    if rule not in PLURAL_RULES:
        raise CatalogError(f"{lang}.po: plural rule {rule!r} is not one of {list(PLURAL_RULES)}")
    return PLURAL_RULES[rule]


@dataclass(frozen=True)
class NumberFormat:
    """How a language writes a number: its decimal mark and where the per-cent sign goes
    (``{n}`` for the digits)."""

    decimal_mark: str = "."
    percent_format: str = "{n}%"


@cache
def number_format(lang: str) -> NumberFormat:
    """The catalog's number format (its header's ``Decimal-Mark`` and ``Percent-Format``;
    English's where it names none)."""
    if lang not in LANGUAGES:
        raise CatalogError(f"no catalog for language {lang!r}; available: {', '.join(LANGUAGES)}")
    header = (LOCALE_DIR / f"{lang}.po").read_text(encoding="utf-8")[:2000]
    mark, pattern = _HEADER_DECIMAL.search(header), _HEADER_PERCENT.search(header)
    fmt = NumberFormat(
        mark.group(1).strip() if mark else ".",
        pattern.group(1).strip().replace(" ", NBSP) if pattern else "{n}%",
    )
    if fmt.decimal_mark not in (".", ",") or placeholders(fmt.percent_format) != {"n"}:
        raise CatalogError(f"{lang}.po: bad number format {fmt}")
    return fmt


def format_number(x: float, fmt: NumberFormat, digits: int = 1, sign: bool = False) -> str:
    """``x`` rounded to ``digits`` decimals in ``fmt``, ``+`` shown with ``sign``; never "-0.0".

    >>> format_number(-0.04, NumberFormat(","), sign=True), format_number(8.94, NumberFormat(","))
    ('0,0', '8,9')
    """
    v = round(x, digits) + 0.0  # -0.0 + 0.0 is 0.0
    text = f"{v:+.{digits}f}" if sign and v else f"{v:.{digits}f}"
    return text.replace(".", fmt.decimal_mark)


@cache
def elisions(lang: str) -> tuple[tuple[str, str], ...]:
    """The catalog's elisions (its header's ``Elision: de=d'``): a word that a name put after
    it shortens when the name starts with a vowel ("Main d'Anne", not "de Anne")."""
    if lang not in LANGUAGES:
        raise CatalogError(f"no catalog for language {lang!r}; available: {', '.join(LANGUAGES)}")
    found = _HEADER_ELISION.search((LOCALE_DIR / f"{lang}.po").read_text(encoding="utf-8")[:2000])
    pairs = [p.split("=", 1) for p in found.group(1).split()] if found else []
    if any(len(p) != 2 or not all(p) for p in pairs):
        raise CatalogError(
            f"{lang}.po: elisions {found.group(1) if found else ''!r} are not word=short"
        )
    return tuple((a, b) for a, b in pairs)


def _header_pairs(lang: str, pattern: re.Pattern[str], what: str) -> tuple[tuple[str, str], ...]:
    """The ``word=form`` pairs of one header line of a catalog (none when it has no such line)."""
    if lang not in LANGUAGES:
        raise CatalogError(f"no catalog for language {lang!r}; available: {', '.join(LANGUAGES)}")
    found = pattern.search((LOCALE_DIR / f"{lang}.po").read_text(encoding="utf-8")[:2000])
    pairs = [p.split("=", 1) for p in found.group(1).split()] if found else []
    if any(len(p) != 2 or not all(p) for p in pairs):
        raise CatalogError(f"{lang}.po: {what} {found.group(1) if found else ''!r} are not a=b")
    return tuple((a, b.replace("_", " ")) for a, b in pairs)


@cache
def articles(lang: str) -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """The catalog's articles before a name after a preposition (header ``Articles:
    Ordenador=el``) and how a preposition and an article contract (``Contractions: de+el=del``):
    "la mano del ordenador", "au joueur 1", never "de Ordenador" or "à Joueur 1"."""
    arts = dict(_header_pairs(lang, _HEADER_ARTICLES, "articles"))
    contractions = {}
    for pair, short in _header_pairs(lang, _HEADER_CONTRACTIONS, "contractions"):
        prep, _, art = pair.partition("+")
        contractions[(prep, art)] = short
    return arts, contractions


def with_article(text: str, key: str, value: str, lang: str) -> str:
    """``text`` with ``prep {key}`` written with the article ``value``'s first word takes (its
    noun then in small letters), contracted where the language contracts.

    >>> with_article("Mano de {name}", "name", "Ordenador", "es")
    'Mano del ordenador'
    >>> with_article("Passez l'écran à {name}", "name", "Joueur 2", "fr")
    "Passez l'écran au joueur 2"
    """
    arts, contractions = articles(lang)
    noun = value.split(" ", 1)[0]
    art = arts.get(noun)
    if art is None:
        return text
    lowered = (value[:1].lower() + value[1:]).replace("{", "{{").replace("}", "}}")
    for prep in {p for p, _ in contractions}:
        joined = contractions.get((prep, art))
        if joined is None:
            joined = f"{prep} {art}" if art.endswith("'") else f"{prep} {art} "
        else:
            joined += " "
        said = (joined + lowered).replace("\\", "\\\\")  # a replacement: backslashes doubled
        text = re.sub(rf"(?<![\w']){prep} \{{{key}\}}", said, text)
    return text


class Catalog:
    """Look up and format messages for one language; unknown ids fall back to the English id.

    >>> Catalog("fr").tr("{name}'s hand", name="Ordinateur"), Catalog("fr").tr("{name}'s hand", name="Anne")
    ("Main de l'ordinateur", "Main d'Anne")
    """

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self._map = {k: (e.msgstr or k) for k, e in load_entries(lang).items()}
        self._plural = plural_rule(lang)
        self.numbers = number_format(lang)
        self._elisions = elisions(lang)
        self._articles = articles(lang)[0]

    def number(self, x: float, digits: int = 1, sign: bool = False) -> str:
        """``x`` as the language writes it: ``Catalog("fr").number(8.94)`` is ``'8,9'``."""
        return format_number(x, self.numbers, digits, sign)

    def percent(self, fraction: float, digits: int = 1, sign: bool = False) -> str:
        """``fraction`` in per cent with the language's sign: ``Catalog("fr").percent(-0.7981,
        sign=True)`` is ``'-79,8\xa0%'``."""
        return self.numbers.percent_format.format(n=self.number(100 * fraction, digits, sign))

    def tr(self, msgid: str, /, **kwargs: object) -> str:
        text = self._map.get(msgid, msgid)
        if not kwargs:
            return text
        if self._articles:
            for key in placeholders(text):
                text = with_article(text, key, str(kwargs.get(key, "")), self.lang)
        for word, short in self._elisions:
            for key in placeholders(text):
                if f"{word} {{{key}}}" in text and str(kwargs.get(key, ""))[:1] in VOWELS:
                    text = re.sub(rf"\b{word} \{{{key}\}}", f"{short}{{{key}}}", text)
        return text.format(**kwargs)

    def ntr(self, singular: str, plural: str, n: int, /, **kwargs: object) -> str:
        """``n`` of something: the translation of ``plural`` or ``singular`` as the language's
        plural rule says, with ``{n}`` replaced by ``n``."""
        return self.tr(plural if self._plural(n) else singular, n=n, **kwargs)


def system_language(env: Mapping[str, str] | None = None) -> str:
    """The player's language from LC_ALL / LC_MESSAGES / LANG or the locale, else English.

    >>> system_language({"LANG": "es_ES.UTF-8"}), system_language({"LANG": "C.UTF-8"})
    ('es', 'en')
    """
    env = os.environ if env is None else env
    candidates = [env.get(k, "") for k in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")]
    if env is os.environ:
        try:
            candidates.append(locale.getlocale()[0] or "")
        except ValueError:
            pass
    for value in candidates:
        code = value.split(":")[0][:2].lower()
        if code in LANGUAGES:
            return code
    return "en"
