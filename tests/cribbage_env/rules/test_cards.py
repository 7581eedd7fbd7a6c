"""Cards (R1): ids, values, rank order, parsing and formatting."""

from __future__ import annotations

import pytest

import cribbage_env as ce
from cribbage_env.rules.cards import RANK, SUIT, VALUE, Card


def test_r1_1_deck_has_52_distinct_cards_that_round_trip_through_strings() -> None:
    names = [ce.card_str(c) for c in range(52)]
    assert len(set(names)) == 52
    assert [ce.parse_card(n) for n in names] == list(range(52))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("AC", 1),
        ("2D", 2),
        ("5H", 5),
        ("9S", 9),
        ("TC", 10),
        ("10D", 10),
        ("JH", 10),
        ("QS", 10),
        ("KC", 10),
    ],
)
def test_r1_2_counting_values(text: str, value: int) -> None:
    assert VALUE[ce.parse_card(text)] == value


def test_r1_3_rank_order_ace_low_king_high() -> None:
    order = [RANK[ce.parse_card(r + "S")] for r in "A23456789TJQK"]
    assert order == list(range(13))


def test_card_id_is_13_suit_plus_rank_in_suit_order_c_d_h_s() -> None:
    assert ce.parse_card("AC") == 0
    assert ce.parse_card("KC") == 12
    assert ce.parse_card("AD") == 13
    assert ce.parse_card("5H") == 2 * 13 + 4
    assert ce.parse_card("KS") == 51
    assert all(SUIT[c] == c // 13 for c in range(52))


@pytest.mark.parametrize("text", ["10h", "10H", "TH", "th", " Th "])
def test_parse_accepts_t_or_10_in_any_case(text: str) -> None:
    assert ce.parse_card(text) == ce.parse_card("TH")


def test_parse_cards_accepts_spaces_commas_and_iterables() -> None:
    assert ce.parse_cards("5H 5D, 5C,JS") == [30, 17, 4, 49]
    assert ce.parse_cards(["5h", "10d"]) == [30, 22]
    assert ce.cards_str(ce.parse_cards("5H 5D 5C JS")) == "5H 5D 5C JS"


@pytest.mark.parametrize("bad", ["1X", "5Z", "ZZ", "11H", "H5", "", "5", "5HH", "0S"])
def test_malformed_card_raises_value_error_naming_the_token(bad: str) -> None:
    with pytest.raises(ce.CardParseError) as err:
        ce.parse_card(bad)
    assert isinstance(err.value, ValueError)
    assert repr(bad) in str(err.value)


def test_malformed_card_in_a_list_names_that_token() -> None:
    with pytest.raises(ce.CardParseError, match="'QX'"):
        ce.parse_cards("5H 5D QX JS")


@pytest.mark.parametrize("bad", [5, None, 5.0])
def test_parse_card_refuses_non_strings(bad: object) -> None:
    with pytest.raises(ce.CardParseError):
        ce.parse_card(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 52, 100])
def test_card_str_refuses_ids_outside_the_deck(bad: int) -> None:
    with pytest.raises(ValueError):
        ce.card_str(bad)


def test_card_value_object() -> None:
    c = Card.parse("QS")
    assert int(c) == 50 and str(c) == "QS" and c.rank == 11 and c.suit == 3 and c.value == 10
    with pytest.raises(ValueError):
        Card(52)


def test_actions_round_trip_through_strings() -> None:
    for a in [0, 51, ce.discard_action(3, 40), ce.discard_action(40, 3), 3017]:
        assert ce.parse_action(ce.action_str(a)) == a
    assert ce.discard_action(30, 17) == ce.discard_action(17, 30)
    with pytest.raises(ValueError):
        ce.discard_action(5, 5)
    with pytest.raises(ce.CardParseError, match="'XX'"):
        ce.parse_action("5H XX")
