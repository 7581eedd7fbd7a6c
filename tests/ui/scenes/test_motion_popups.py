"""A score pop-up ("a pair for 2") waits for its card to land, and never lies over the starter."""

from __future__ import annotations

from ui.scenes.motion import POP, Popup, Transition
from ui.scenes.scene import CardItem, Rect, Scene, overlaps
from ui.scenes.table_layout import STARTER, pile_rects


def _play(card: int = 5) -> tuple[Scene, Scene, Rect]:
    """The person's card from the hand to the first place of the pile, the starter turned."""
    (dst,) = pile_rects(0, 1)[1]
    starter = CardItem(44, STARTER, key="c44")
    old = Scene(cards=[starter, CardItem(card, Rect(300, 40, 110, 150), key=f"c{card}")])
    new = Scene(cards=[starter, CardItem(card, dst, key=f"c{card}")])
    return old, new, dst


def _popups(t: Transition, at: float) -> list:
    return [lb for lb in t.frame(at).labels if lb.tag == "popup"]


def test_the_pop_up_appears_once_its_card_has_landed() -> None:
    old, new, dst = _play()
    pop = Popup("You: a pair for 2", dst.x, dst.y + dst.h + 16, anchor_x="left", card=5)
    t = Transition(old, new, (pop,))
    (flight,) = t.flights.values()
    landed = flight.delay + flight.duration
    assert landed > 0
    for k in range(8):  # while the card flies: no pop-up
        assert _popups(t, landed * k / 8) == []
    assert len(_popups(t, landed + 0.01)) == 1
    assert t.total >= landed + POP - 1e-9  # it lives its whole time after landing


def test_a_pop_up_without_a_card_shows_at_once() -> None:
    old, new, _ = _play()
    t = Transition(old, new, (Popup("Computer: his heels for 2", 600, 455),))
    assert len(_popups(t, 0.0)) == 1


def test_the_pop_up_lies_right_of_the_starter() -> None:
    old, new, dst = _play()
    pop = Popup("Ordinateur : trente et un pour 2", dst.x, dst.y + dst.h + 16, anchor_x="left",
                card=5)  # fmt: skip
    t = Transition(old, new, (pop,))
    for k in range(1, 9):
        for lb in _popups(t, t.total * k / 9):
            assert lb.anchor_x == "left" and lb.x >= STARTER.x + STARTER.w
            box = Rect(lb.x, lb.y - 16, len(lb.text) * lb.size * 0.66, 32)
            assert not overlaps(box, STARTER)
