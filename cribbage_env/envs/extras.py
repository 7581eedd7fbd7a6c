"""The one message for an optional extra that is not installed.

Modules behind an extra (:mod:`cribbage_env.envs.aec`, :mod:`cribbage_env.openspiel`,
:mod:`cribbage_env.envs.sb3vec`) re-raise the bare ``No module named 'pettingzoo'`` as this, which
names the extra to install; it is still a ``ModuleNotFoundError`` with the same ``name``.

>>> str(missing_extra(ModuleNotFoundError("x", name="pettingzoo"), "cribbage_env.envs.aec", "pettingzoo"))
"cribbage_env.envs.aec needs pettingzoo, which is not installed: pip install 'cribbage-env[pettingzoo]'"
"""

from __future__ import annotations


def missing_extra(exc: ModuleNotFoundError, what: str, extra: str) -> ModuleNotFoundError:
    """``exc`` said in one line that names ``extra`` (raise it ``from None``)."""
    return ModuleNotFoundError(
        f"{what} needs {(exc.name or extra).split('.')[0]}, which is not installed: "
        f"pip install 'cribbage-env[{extra}]'",
        name=exc.name,
    )
