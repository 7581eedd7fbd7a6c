"""A field is one edit: a state's copy and a view's wire format follow the dataclass fields.

:meth:`State.clone` copies field by field from the annotations, and ``view_to_data`` /
``view_from_data`` write one entry a field, so these tests check every field by name against
the state and the view themselves (not against a list of fields kept here).
"""

from __future__ import annotations

import json
from dataclasses import fields

import numpy as np
import pytest

import cribbage_env as ce
from cribbage_env.rules.state import State
from cribbage_env.rules.views import PlayerView, view_from_data, view_to_data
from tests.random_games import random_game


@pytest.mark.parametrize("stop", [0, 7, 15, None])
def test_a_clone_copies_every_field_and_shares_no_list(stop: int | None) -> None:
    g = random_game(4, np.random.default_rng(stop), stop=stop, rules="short")
    h = g.clone()
    for name in State.__slots__:
        a, b = getattr(g, name), getattr(h, name)
        assert a == b, name
        if isinstance(a, list):
            assert a is not b, f"{name} is shared by the clone"
            for row_a, row_b in zip(a, b, strict=True):
                assert not isinstance(row_a, list) or row_a is not row_b, name
    assert h == g


def test_every_slot_is_an_annotated_field() -> None:
    assert set(State.__slots__) == set(State.__annotations__)


def test_a_view_goes_over_the_wire_field_by_field() -> None:
    rng = np.random.default_rng(9)
    g = ce.new_game(11, rules="short")
    seen = 0
    while not g.is_over:
        for seat in (0, 1):
            view = g.view(seat)
            data = json.loads(json.dumps(view_to_data(view)))  # what a seat process receives
            assert set(data) == {f.name for f in fields(PlayerView)}
            back = view_from_data(data)
            assert back == view and back.rules.target == 61
            assert type(back.phase) is ce.Phase and isinstance(back.played, tuple)
            seen += 1
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    assert seen > 50
