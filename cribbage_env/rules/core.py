"""The bottom layer: the rules as a value, phases, event kinds and the errors (standard library only).

Every other module of the package builds on this one and it imports none of them, so the rule
parameters, the names of the game's phases and events and the error types are defined once.

>>> STANDARD.target, SHORT.target
(121, 61)
>>> Rules(target=61) == SHORT, (SHORT.skunk, SHORT.double_skunk)
(True, (31, 1))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any


class CribbageError(Exception):
    """Root of every error this package raises on purpose (catch it to catch them all)."""


class EnvError(CribbageError, ValueError):
    """An environment asked for with bad arguments or used out of order (``step`` before
    ``reset``, an opponent that breaks the rules)."""


class IllegalActionError(CribbageError, ValueError):
    """An action that is not legal now; the message lists what is allowed."""


class RecordError(CribbageError, ValueError):
    """A game record that is malformed or does not replay to what it claims."""


class RulesError(CribbageError, ValueError):
    """Rule parameters that do not make a game (or a variant name nobody defined)."""


class PositionError(CribbageError, ValueError):
    """Cards, scores or turns that no game could reach (a set-up or guessed position)."""


class Phase(str, Enum):
    """Where the game is. Only DISCARD, PLAY and the cut phases ask a player for a decision."""

    CUT_FOR_DEAL = "cut for deal"  # R2 (decision only with interactive cuts)
    DEAL_CUT = "deal cut"  # R3.1 pone cuts before the deal (interactive cuts only)
    DISCARD = "discard"  # R4
    STARTER_CUT = "starter cut"  # R5.1 (interactive cuts only)
    PLAY = "play"  # R6-R8
    GAME_OVER = "game over"  # R10


class EventKind(str, Enum):
    CUT_FOR_DEAL = "cut for deal"  # player, cards=(card,)
    CUT_TIE = "cut tie"  # both cut the same rank: recut (R2.2)
    FIRST_DEALER = "first dealer"  # player
    DEAL = "deal"  # player = dealer, cards = both hands (pone's six then dealer's six)
    DISCARD = "discard"  # player, cards = the two discards
    STARTER = "starter"  # cards = (starter,)
    PLAY = "play"  # player, cards = sequence since reset ending with the card laid, points
    GO = "go"  # player says go (cannot play)
    RESET = "reset"  # count back to zero
    SCORE = "score"  # go / last card / his heels points; reasons say which
    SHOW = "show"  # player, cards = 4 cards + starter, points; crib flag in `what`
    GAME_OVER = "game over"  # player = winner


@dataclass(frozen=True)
class Rules:
    """The rule parameters of a game: who wins and how many game points a win is worth.

    ``target``: the score that wins (R10; 121 standard, 61 in the short game). ``skunk``: a loser
    under this line gives 2 game points, ``double_skunk``: under this one 3. Game points are not on
    the rules cards, so the lines follow the usual convention unless given (or given as ``-1``):
    :data:`SKUNK_BELOW` and :data:`DOUBLE_SKUNK_BELOW` points under the target, never below 0
    (91 and 61 for 121; 31 and 1 for 61, where only a loser with no points is double-skunked).
    Carried by the state, every view and (when not standard) every record, so nothing imports a
    constant.

    >>> STANDARD.game_points((121, 95)), STANDARD.game_points((121, 80)), STANDARD.game_points((50, 121))
    (1, 2, 3)
    >>> SHORT.game_points((61, 40)), SHORT.game_points((20, 61)), SHORT.game_points((0, 61))
    (1, 2, 3)
    >>> r = Rules(target=91); (r.skunk, r.double_skunk), Rules(target=91, skunk=20).double_skunk
    ((61, 31), 20)
    """

    target: int = 121
    skunk: int = -1  # -1: SKUNK_BELOW under the target
    double_skunk: int = -1  # -1: DOUBLE_SKUNK_BELOW under the target

    def __post_init__(self) -> None:
        for f in fields(self):
            v, kind = getattr(self, f.name), type(f.default)  # a field's type is its default's
            if type(v) is not kind:  # bool is an int subclass: compare types exactly
                raise RulesError(f"rule {f.name} must be {kind.__name__}, got {v!r}")
        if not 2 <= self.target <= 100_000:
            raise RulesError(f"target must be 2..100000, got {self.target}")
        for name, line in _derived_lines(self.target).items():
            if getattr(self, name) == -1:  # a frozen value completes itself once, here
                if name == "double_skunk":  # a given skunk line also bounds the derived double
                    line = min(line, self.skunk)
                object.__setattr__(self, name, line)
        if not 0 <= self.double_skunk <= self.skunk <= self.target:
            raise RulesError(
                "skunk lines must satisfy 0 <= double_skunk <= skunk <= target, got "
                f"double_skunk={self.double_skunk} skunk={self.skunk} target={self.target}"
            )

    @property
    def is_standard(self) -> bool:
        return self == STANDARD

    def game_points(self, scores: Sequence[int]) -> int:
        """Game points for the winner: 1, 2 if the loser is under the skunk line, 3 under double."""
        loser = min(scores)
        return 3 if loser < self.double_skunk else 2 if loser < self.skunk else 1

    def counted(self, score: int) -> int:
        """The part of a score that counts: all of it up to the target, nothing past it.

        The game ends the moment a player reaches the target (R10.1) and nothing after that point
        is scored (R10.2); the engine keeps every point the cards made, but a winner's final score
        is the target (the peg stops in the game hole) and the points of the last scoring past it
        count in no total. Every total shown (table, command line, review) and every split of one
        into parts reads scores through here, so the parts add up to the final score.

        >>> STANDARD.counted(132), STANDARD.counted(95), SHORT.counted(62)
        (121, 95, 61)
        """
        return min(score, self.target)

    def counted_points(self, points: int, score_after: int) -> int:
        """The points of one scoring that count (see :meth:`counted`): the 4 of a run laid at
        119 are 2, those laid past the target none.

        >>> STANDARD.counted_points(4, 123), STANDARD.counted_points(4, 100)
        (2, 4)
        """
        return self.counted(score_after) - self.counted(score_after - points)

    def to_json(self) -> dict[str, int | bool]:
        """Only the rules that differ from the standard game, and skunk lines only when they are
        not the ones the target gives, so adding a rule (at its standard value) changes no record
        already written.

        >>> Rules(target=91).to_json(), STANDARD.to_json(), Rules(target=91, skunk=91).to_json()
        ({'target': 91}, {}, {'target': 91, 'skunk': 91})
        """
        usual = {f.name: f.default for f in fields(self)} | _derived_lines(self.target)
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != usual[f.name]
        }

    @property
    def spec(self) -> str:
        """The text :meth:`named` reads back: a variant's name, else the fields that differ.

        >>> SHORT.spec, Rules(target=91).spec
        ('short', 'target=91')
        """
        name = next((k for k, v in VARIANTS.items() if v == self), None)
        return name or ",".join(f"{k}={str(v).lower()}" for k, v in self.to_json().items())

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        """Rules from a record's ``rules`` object; missing keys keep their standard values."""
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be an object, got {data!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known, key=str)
        if unknown:
            raise RulesError(f"unknown rule parameter(s) {unknown}; known: {sorted(known)}")
        return cls(**data)

    @classmethod
    def named(cls, name: str | Rules | None) -> Rules:
        """Rules from a variant name or rule fields; a Rules value passes through.

        Text is a name from :data:`VARIANTS` or ``field=value`` pairs, comma-separated, over the
        standard rules (the parser behind every ``--rules`` and agent spec).

        >>> Rules.named("short") is SHORT, Rules.named("target=91").target
        (True, 91)
        >>> Rules.named("target=61,skunk=31,double_skunk=1") == SHORT
        True
        """
        if name is None:
            return STANDARD
        if isinstance(name, Rules):
            return name
        if not isinstance(name, str):
            raise RulesError(f"rules must be a variant name or fields, got {name!r}")
        if name.strip() in VARIANTS:
            return VARIANTS[name.strip()]
        if "=" not in name:
            raise RulesError(
                f"unknown rules variant {name!r}; known: {', '.join(VARIANTS)} "
                "(or rule fields such as target=91)"
            )
        return cls.from_json(dict(_field(cls, part) for part in name.split(",")))


def _field(cls: type[Rules], text: str) -> tuple[str, int | bool]:
    """One ``name=value`` rule field, its value read as the field's type."""
    key, _, raw = (part.strip() for part in text.partition("="))
    kinds = {f.name: type(f.default) for f in fields(cls)}
    if key not in kinds:
        raise RulesError(f"unknown rule {key!r}; known: {', '.join(kinds)}")
    if kinds[key] is bool:
        if raw.lower() not in ("true", "false"):
            raise RulesError(f"rule {key} is true or false, got {raw!r}")
        return key, raw.lower() == "true"
    try:
        value = int(raw)
    except ValueError:
        raise RulesError(f"rule {key} is a whole number, got {raw!r}") from None
    if value < 0:  # -1 is the value's own "derive it", never typed: leaving it out says that
        raise RulesError(
            f"rule {key} is a whole number >= 0, got {raw!r}"
            + (" (leave it out to derive it from the target)" if key != "target" else "")
        )
    return key, value


#: How far under the target the skunk and double-skunk lines are when a game does not give them.
SKUNK_BELOW, DOUBLE_SKUNK_BELOW = 30, 60


def _derived_lines(target: int) -> dict[str, int]:
    """The skunk lines a target gives (see :class:`Rules`)."""
    return {
        "skunk": max(target - SKUNK_BELOW, 0),
        "double_skunk": max(target - DOUBLE_SKUNK_BELOW, 0),
    }


#: The standard game to 121 (RULES R10): skunk under 91, double skunk under 61.
STANDARD = Rules()
#: The short game to 61: skunk under 31, double skunk only at 0 points (lines from the target).
SHORT = Rules(target=61)
#: Variants by name, for env ids, CLI options and agent specs.
VARIANTS: dict[str, Rules] = {"standard": STANDARD, "short": SHORT}


@dataclass(frozen=True)
class RuleSupport:
    """The rule fields one consumer of :class:`Rules` implements (the engine, the kernels, the
    searches, the envs, the equity table, the table), declared beside it with
    :func:`implements`. Any other field at a value other than the usual one (:meth:`Rules.to_json`
    lists those) is refused, in one line, rather than ignored.

    >>> kernel = RuleSupport("a kernel", frozenset({"target"}))
    >>> kernel.check(Rules(target=91)).target
    91
    >>> kernel.check(Rules(skunk=100))
    Traceback (most recent call last):
    ...
    cribbage_env.rules.core.RulesError: a kernel does not implement the rule skunk=100 (it implements target)
    """

    consumer: str
    fields: frozenset[str]

    def check(self, rules: Rules) -> Rules:
        """``rules`` if this consumer implements every field it sets, else RulesError."""
        missing = [f"{k}={v}" for k, v in rules.to_json().items() if k not in self.fields]
        if missing:
            raise RulesError(
                f"{self.consumer} does not implement the rule{'s' * (len(missing) > 1)} "
                f"{', '.join(missing)} (it implements {', '.join(sorted(self.fields))})"
            )
        return rules


#: Every declaration made (consumer -> its support): what the guard test reads.
SUPPORTS: dict[str, RuleSupport] = {}


def implements(consumer: str, *names: str) -> RuleSupport:
    """Declare that ``consumer`` implements the rule fields ``names`` (each a field of
    :class:`Rules`: a name that is none is refused at import)."""
    known = {f.name for f in fields(Rules)}
    unknown = sorted(set(names) - known)
    if unknown:
        raise RulesError(
            f"{consumer} declares unknown rule fields {unknown}; known: {sorted(known)}"
        )
    support = RuleSupport(consumer, frozenset(names))
    SUPPORTS[consumer] = support
    return support
