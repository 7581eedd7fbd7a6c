"""Which agent specs read back from a file may be built without the person's word.

A spec runs code when it names an import path or a plug-in, and reads a file when a parameter
is a path. Specs typed on the command line are the person's own choice; specs read from a file
someone may have edited (a results database, a run folder's ``config.json``, a saved game) are
built only when they are built-in agents or levels with plain values and no ``path``, or when the
person names the same spec again. Saves, ``bench --resume`` and ``train --resume`` all ask
:func:`trusted_spec`; :func:`check_stored_specs` is the refusal they share.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from ..base import AgentSpecError

#: Built-in agents that neither import code of their own choosing nor read files (without path=).
SAFE_AGENTS = ("random", "novice", "greedy", "expectimax", "expert")
_PLAIN_VALUE = re.compile(r"[A-Za-z0-9_.+-]{0,40}\Z")
#: Parameters that name a file: never plain, whatever the agent.
_FILE_KEYS = ("path",)


class UntrustedSpec(AgentSpecError):
    """A spec read from a file that would run code or read a file, not named by the person."""


def trusted_spec(spec: object) -> bool:
    """May an agent spec read from a file be built without asking (built-in, plain values)?

    >>> trusted_spec("greedy"), trusted_spec("expert:sims=200"), trusted_spec("hard")
    (True, True, True)
    >>> trusted_spec("maskable_ppo:path=/tmp/m.zip"), trusted_spec("my_bot:Bot")
    (False, False)
    >>> trusted_spec("neural"), trusted_spec("neural:path=model.npz")
    (True, False)
    """
    from ..registry import LEVELS

    if not isinstance(spec, str) or len(spec) > 200:
        return False
    name, _, rest = spec.strip().partition(":")
    if name.lower() not in SAFE_AGENTS and name.lower() not in LEVELS:
        return False
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier() or key.lower() in _FILE_KEYS:
            return False
        if not _PLAIN_VALUE.match(value.strip()):
            return False
    return True


def check_stored_specs(
    specs: Iterable[object], named: Collection[str], where: str, how: str
) -> None:
    """Raise :class:`UntrustedSpec` for the first spec from ``where`` (a file) that is neither
    trusted nor in ``named`` (the specs on the command line); ``how`` says how to name it.

    >>> check_stored_specs(["greedy", "m:Bot"], ["m:Bot"], "run 3", "")
    >>> check_stored_specs(["os:system"], [], "run 3", "name it again")
    Traceback (most recent call last):
    ...
    agents.seats.trust.UntrustedSpec: run 3 names the agent 'os:system', which would run code or read a file: name it again
    """
    for spec in specs:
        if not trusted_spec(spec) and spec not in named:
            raise UntrustedSpec(
                f"{where} names the agent {str(spec)[:200]!r}, which would run code or read a "
                f"file: {how}"
            )
