"""Agents a user might bring as objects (importable, so pool workers can unpickle them)."""

from __future__ import annotations


class FirstLegal:
    """Always the first legal action: deterministic, stateless."""

    name = "first-legal"

    def act(self, view, rng) -> int:
        return int(view.legal_actions[0])


class RandomLegal:
    """Uniform over legal actions with the generator it is handed."""

    name = "random-legal"

    def act(self, view, rng) -> int:
        legal = view.legal_actions
        return int(legal[int(rng.integers(len(legal)))])


def make_random_legal() -> RandomLegal:
    return RandomLegal()
