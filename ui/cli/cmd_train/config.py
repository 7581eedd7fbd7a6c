"""A run folder's ``config.json`` read back by ``cribbage train --resume``, checked like the command
line: every field by the argument types that check the flags (:mod:`ui.cli.args.argtypes`, the caps of
:data:`agents.tournament.limits.LIMITS`), every agent spec by :func:`agents.seats.trust.check_stored_specs` (built
only when a plain built-in, or named again on the command line), and the warm-start file only
when ``--warm-start`` names it again. Anything else is :class:`ConfigError` (one line, exit 2).
"""

from __future__ import annotations

import argparse
import math
from dataclasses import fields, replace
from pathlib import Path

from agents.seats.trust import check_stored_specs
from agents.store.files import UnreadableFile, parse_json, read_text
from cribbage_env import Rules, RulesError
from cribbage_env.envs.rewards import REWARDS

from ...errors import UIError
from ..args import argtypes

#: The largest config.json (a few KB in practice).
MAX_CONFIG_BYTES = 1 << 20
_NONNEG = argtypes.whole_number(0, "an integer >= 0")


class ConfigError(UIError, ValueError):
    """A saved configuration that cannot be resumed as it is."""


def _even(text: str) -> int:
    value = _NONNEG(text)
    if value % 2:
        raise argparse.ArgumentTypeError(f"expected an even integer >= 0, got {text!r}")
    return value


#: field -> the argparse type of its flag (integers are checked as the flag's text would be).
_INTS = {
    "seed": argtypes.seed,
    "generations": argtypes.limited("generations"),
    "shards": argtypes.limited("shards"),
    "games_per_shard": argtypes.limited("games_per_shard"),
    "epochs_bc": argtypes.limited("epochs"),
    "epochs_dmc": argtypes.limited("epochs"),
    "workers": argtypes.limited("workers"),
    "eval_games": _even,
    "timesteps": argtypes.positive_int,
    "eval_every": argtypes.positive_int,
    "snapshot_every": argtypes.positive_int,
    "n_steps": argtypes.positive_int,
    "max_illegal": _NONNEG,
    "epochs": argtypes.limited("epochs"),
    "num_envs": argtypes.whole_number(1, "an integer from 1 to 65536", 65536),
    "round_updates": argtypes.positive_int,
    "minibatch": argtypes.positive_int,
    "quick_games": _NONNEG,
}
#: float fields -> (low, high), both exclusive of non-finite values.
_FLOATS = {"eps": (0.0, 1.0), "rate_play": (0.0, 1.0), "lr": (1e-9, 1.0), "oracle": (0.0, 1.0),
           "gamma": (0.0, 1.0), "gae_lambda": (0.0, 1.0), "clip": (0.0, 10.0),
           "ent_coef": (0.0, 10.0), "vf_coef": (0.0, 100.0), "max_grad_norm": (1e-9, 1e6),
           "reward_scale": (1e-9, 1e6)}  # fmt: skip


def _int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name} must be an integer, got {value!r}")
    try:
        return _INTS[name](str(value))
    except argparse.ArgumentTypeError as exc:
        raise ConfigError(f"{name}: {exc}") from None


def _float(name: str, value: object) -> float:
    low, high = _FLOATS[name]
    number = isinstance(value, int | float) and not isinstance(value, bool)
    x = float(value) if isinstance(value, int | float) and number else math.nan
    if not math.isfinite(x) or not low <= x <= high:
        raise ConfigError(f"{name} must be a number from {low:g} to {high:g}, got {value!r}")
    return x


def _specs(name: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= 32:
        raise ConfigError(f"{name} must be a list of 1 to 32 agent specs, got {value!r:.80}")
    if not all(isinstance(s, str) and 0 < len(s) <= 500 for s in value):
        raise ConfigError(f"{name} must hold agent specs (text), got {value!r:.80}")
    return tuple(value)


def _opponents(value: object) -> tuple[tuple[str, float], ...]:
    out = []
    for item in value if isinstance(value, list) and 0 < len(value) <= 32 else [None]:
        ok = isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
        w = item[1] if ok else None  # type: ignore[index]
        if not ok or isinstance(w, bool) or not isinstance(w, int | float) or not 0 < w < math.inf:
            raise ConfigError(f"opponents must be [spec, weight > 0] pairs, got {item!r:.80}")
        out.append((item[0], float(w)))  # type: ignore[index]
    return tuple(out)


def _hidden(value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= 8:
        raise ConfigError(f"hidden must be a list of 1 to 8 layer sizes, got {value!r:.80}")
    for n in value:
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 4096:
            raise ConfigError(f"hidden layer sizes must be integers from 1 to 4096, got {n!r}")
    return tuple(value)


def _field(name: str, value: object, default: object) -> object:
    if name in _INTS:
        return _int(name, value)
    if name in _FLOATS:
        return _float(name, value)
    if name in ("ladder",):
        return _specs(name, value)
    if name == "opponents":
        return _opponents(value)
    if name == "hidden":
        return _hidden(value)
    if name == "rules":
        try:
            return Rules.named(value if isinstance(value, str) else "").spec
        except RulesError as exc:
            raise ConfigError(f"rules: {exc}") from None
    if name == "algo":
        if value not in ("ppo", "dmc"):
            raise ConfigError(f"algo must be ppo or dmc, got {value!r:.80}")
        return value
    if name == "returns":
        if value not in ("points", "equity"):
            raise ConfigError(f"returns must be points or equity, got {value!r:.80}")
        return value
    if name == "reward":
        if value not in REWARDS:
            raise ConfigError(f"reward must be one of {', '.join(REWARDS)}, got {value!r:.80}")
        return value
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{name} must be true or false, got {value!r:.80}")
        return value
    if isinstance(default, str):
        if not isinstance(value, str) or len(value) > 4096:
            raise ConfigError(f"{name} must be text, got {value!r:.80}")
        return value
    if value != default:  # "extra" and any future field: only its default is accepted
        raise ConfigError(f"{name} must be {default!r}, got {value!r:.80}")
    return default


def read_saved(path: Path) -> dict:
    """The header fields of a run folder's config.json, checked; ConfigError says what is wrong."""
    try:
        data = parse_json(read_text(path, limit=MAX_CONFIG_BYTES, what="run configuration"))
    except UnreadableFile as exc:
        raise ConfigError(f"{path}: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("config"), dict):
        raise ConfigError(f"{path} is not a cribbage train configuration")
    if not isinstance(data.get("method"), str) or not isinstance(data.get("command"), str):
        raise ConfigError(f"{path} is not a cribbage train configuration (method, command)")
    return data


def check_config(cls: type, data: dict, args: argparse.Namespace, where: Path):
    """``cls(**data)`` with every field checked, its specs trusted or named again in ``args``."""
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(f"{where}: unknown field {unknown[0]!r:.80}")
    defaults = cls()
    out = {}
    for name, value in data.items():
        try:
            out[name] = _field(name, value, getattr(defaults, name))
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    cfg = cls(**out)
    named = [*(args.ladder or ()), *(s for s, _ in args.opponent or ())]
    if getattr(args, "teacher", None):
        named.append(args.teacher)
    specs = [*cfg.ladder, *(s for s, _ in cfg.opponents if s not in ("self", "snapshots"))]
    if hasattr(cfg, "teacher"):
        specs.append(cfg.teacher)
    how = "name it again on the command line (--ladder, --opponent, --teacher) to resume"
    check_stored_specs(specs, named, str(where), how)
    warm = getattr(cfg, "warm_start", "")
    if warm and (args.warm_start is None or str(Path(args.warm_start).resolve()) != warm):
        raise ConfigError(
            f"{where} starts from the weights {warm!r:.200}: name them again with --warm-start"
        )
    return cfg


#: Options of the command line that default to None so that a resume knows which were typed;
#: the value a new run takes when one is left out.
DEFAULTS = {"seed": 0, "reward": "points", "returns": "points", "oracle": 0.0, "workers": 2}
#: Options that a resume may change and applies (how the run is carried out, not what it learns
#: or how it is measured); any other option typed again with another value is refused.
MAY_CHANGE = ("workers",)
#: flag (argparse dest) -> the configuration field it sets (``epochs`` depends on the method).
_FIELDS = {"opponent": "opponents"}


def _shown(value: object) -> str:
    if isinstance(value, tuple):
        return " ".join(f"{v[0]}@{v[1]:g}" if isinstance(v, tuple) else str(v) for v in value)
    return str(value)


def resume_changes(saved: object, typed: object, given: list[str], epochs_field: str):
    """(the configuration to resume, what was applied): ``saved`` with the options of
    :data:`MAY_CHANGE` typed again (``given`` names the flags typed) taken from ``typed``;
    ConfigError naming every other option typed with a value other than the run's."""
    refused: list[tuple[str, object, str]] = []
    applied: list[tuple[str, object, str]] = []
    for dest in given:
        name = epochs_field if dest == "epochs" else _FIELDS.get(dest, dest)
        if not hasattr(saved, name):
            continue
        was, now = getattr(saved, name), getattr(typed, name)
        if was == now:
            continue
        flag = "--" + dest.replace("_", "-")
        change = f"{flag} {_shown(now):.60} (the run's: {_shown(was):.60})"
        (applied if dest in MAY_CHANGE else refused).append((name, now, change))
    if refused:
        raise ConfigError(
            "--resume continues the run as it was started: "
            + ", ".join(c for _, _, c in refused)
            + "; leave "
            + ("it" if len(refused) == 1 else "them")
            + " out to resume, or start another --run-dir"
        )
    cfg = replace(saved, **{name: now for name, now, _ in applied})  # type: ignore[type-var]
    return cfg, [c for _, _, c in applied]
