"""The root of the errors the ``cribbage`` command line and game raise on purpose: catch
:class:`UIError` to catch them all (each keeps its built-in base: ``ValueError``, ...)."""

from __future__ import annotations


class UIError(Exception):
    """Root of every error of :mod:`ui` (saves, catalogs, histories, run configurations)."""
