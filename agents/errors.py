"""The root of the errors the agents package raises on purpose (standard library only, so every
module can import it): catch :class:`AgentError` to catch them all. Each error also keeps the
built-in base it always had (``ValueError`` for bad input, ``RuntimeError`` for a run that
failed), so existing handlers still match."""

from __future__ import annotations


class AgentError(Exception):
    """Root of every error of :mod:`agents` (specs, tournaments, stores, backends, files)."""
