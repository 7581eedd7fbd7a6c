"""Typed, validated agent parameters, declared once per agent.

An agent class lists its knobs in ``PARAMS`` (a tuple of :class:`Param`); the spec parser turns
the text of ``name:key=value`` into those types, refuses anything outside the allowed values
with a message that lists them, and ``cribbage agents NAME`` prints the same declaration. An
agent without ``PARAMS`` gets parameters read from its constructor's signature (types from the
annotations or the defaults), so a user's bot needs nothing extra.

>>> Param("sims", int, 60, "guesses per decision", low=1, high=5000).parse("200")
200
>>> Param("crib", bool, True, "use the crib table").parse("of")
Traceback (most recent call last):
...
agents.base.AgentSpecError: crib must be one of true, false, on, off, yes, no, 1, 0; got 'of'
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from .base import AgentSpecError


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


#: The default of a parameter that must be given (``maskable_ppo:path=...``).
REQUIRED = _Required()
TRUE_WORDS = ("true", "on", "yes", "1")
FALSE_WORDS = ("false", "off", "no", "0")
_BOOL_WORDS = ", ".join(w for pair in zip(TRUE_WORDS, FALSE_WORDS, strict=True) for w in pair)
#: Text longer than this is refused before conversion (a 5,000-digit integer is no knob).
MAX_TEXT = 1000


@dataclass(frozen=True)
class Param:
    """One knob of an agent: its type (int, float, bool or str), default, limits and help."""

    name: str
    kind: type = str
    default: object = REQUIRED
    help: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    metavar: str = "VALUE"  # what a required value looks like: path=model.zip

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def allowed(self) -> str:
        """The allowed values in words: ``an integer in 1..5000``, ``one of a, b``."""
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.kind is bool:
            return "one of " + _BOOL_WORDS
        what = {int: "an integer", float: "a finite number"}.get(self.kind, "text")
        if self.low is not None and self.high is not None:
            return f"{what} in {self.low:g}..{self.high:g}"
        if self.low is not None:
            return f"{what} >= {self.low:g}"
        if self.high is not None:
            return f"{what} <= {self.high:g}"
        return what

    def parse(self, text: object) -> object:
        """The value of ``text`` (a string from a spec, or already a value) or AgentSpecError."""
        value = self._convert(text)
        if self.kind in (int, float):
            num = cast(float, value)
            if (self.low is not None and num < self.low) or (
                self.high is not None and num > self.high
            ):
                raise self._error(text)
        return value

    def _convert(self, text: object) -> object:
        if not isinstance(text, str):
            if self.kind is float and isinstance(text, int) and not isinstance(text, bool):
                text = float(text)
            if isinstance(text, self.kind) and not (self.kind is int and isinstance(text, bool)):
                if self.kind is float and not math.isfinite(text):  # type: ignore[arg-type]
                    raise self._error(text)
                return text
            raise self._error(text)
        if len(text) > MAX_TEXT:
            raise self._error(text[:20] + "...")
        raw = text.strip()
        if self.kind is bool:
            low = raw.lower()
            if low in TRUE_WORDS or low in FALSE_WORDS:
                return low in TRUE_WORDS
            raise self._error(text)
        if self.kind is int:
            try:
                return int(raw)
            except ValueError:
                raise self._error(text) from None
        if self.kind is float:
            try:
                value = float(raw)
            except ValueError:
                raise self._error(text) from None
            if not math.isfinite(value):
                raise self._error(text)
            return value
        if self.choices and raw not in self.choices:
            raise self._error(text)
        return raw

    def _error(self, text: object) -> AgentSpecError:
        return AgentSpecError(f"{self.name} must be {self.allowed()}; got {text!r}")

    def describe(self) -> str:
        """``sims=60``, ``path=REQUIRED``: the parameter as a spec would give it."""
        if self.required:
            return f"{self.name}={self.metavar} (required)"
        d = self.default
        shown = str(d).lower() if isinstance(d, bool) else f"{d:g}" if isinstance(d, float) else d
        return f"{self.name}={shown}"


def params_of(target: Callable) -> tuple[tuple[Param, ...], bool]:
    """The declared ``PARAMS`` of a class or factory, else ones read from its signature; and
    whether it also takes any other keyword (``**kwargs``: extra values pass as strings)."""
    declared = getattr(target, "PARAMS", None)
    if declared is not None:
        return tuple(declared), False
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return (), True
    out, extra = [], False
    for p in sig.parameters.values():
        if p.kind is p.VAR_KEYWORD:
            extra = True
            continue
        if p.kind in (p.VAR_POSITIONAL, p.POSITIONAL_ONLY):
            continue
        default = REQUIRED if p.default is p.empty else p.default
        out.append(Param(p.name, _kind(p.annotation, default), default))
    return tuple(out), extra


def _kind(annotation: object, default: object) -> type:
    names = {"int": int, "float": float, "bool": bool, "str": str}
    if isinstance(annotation, str):
        annotation = names.get(annotation.strip(), None)
    if annotation in (int, float, bool, str):
        return annotation
    if isinstance(default, (bool, int, float, str)) and default is not None:
        return type(default)
    return str


def bind(
    params: Sequence[Param], given: Mapping[str, str], *, extra: bool = False, who: str = "agent"
) -> dict[str, object]:
    """Convert and check the ``key=value`` pairs of a spec against the declaration."""
    by_name = {p.name: p for p in params}
    out: dict[str, object] = {}
    for key, text in given.items():
        p = by_name.get(key)
        if p is None:
            if extra:
                out[key] = text
                continue
            known = ", ".join(by_name) or "none"
            raise AgentSpecError(f"{who} has no parameter {key!r}; its parameters: {known}")
        try:
            out[key] = p.parse(text)
        except AgentSpecError as exc:
            raise AgentSpecError(f"{who}: {exc}") from None
    missing = [p for p in params if p.required and p.name not in out]
    if missing:
        raise AgentSpecError(
            f"{who} needs "
            + ", ".join(
                f"{p.name}={p.metavar}" + (f" ({p.help})" if p.help else "") for p in missing
            )
            + f": {who}:"
            + ",".join(f"{p.name}={p.metavar}" for p in missing)
        )
    return out
