"""What the table says about a game, in the player's language: the one narration of events.

The game's message log and show count (:class:`~ui.table.controller.TableController`), ``cribbage
replay --text`` (:func:`game_text`) and :func:`cribbage_env.narrate` all say a game the same
way: one sentence per event, the pegging reasons ("fifteen for 2"), the count of a hand with its
running total (the phrases are :data:`cribbage_env.rules.scoring.COUNT_PHRASES`, the engine's English
and this module's message ids), the end of the game. Only public facts are said: the table
narrates a discard without its cards; the record's account (which sees everything) adds them.

>>> n = Narrator(Catalog("fr"), ("Ana", "Bo"))
>>> n.count(ce.score_hand_breakdown(ce.parse_cards("5H 5D 4C 6S"), ce.parse_cards("KD")[0]))[-3:]
['une paire fait 10', 'suite de 3 fait 13', 'suite de 3 fait 16']
>>> n.event(ce.Event(ce.EventKind.GO, 0, 1))
'Bo dit Passe'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import cribbage_env as ce
from cribbage_env.rules.cards import RANK, SUIT, SUIT_SYMBOLS
from cribbage_env.rules.core import EventKind, Phase
from cribbage_env.rules.scoring import ScoreItem, ScoreKind, count_lines

from .i18n import N_, Catalog

_RANK_IDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", N_("J"), N_("Q"), N_("K"))

#: What a pegging score is called (R5.2, R7, R8).
PLAY_REASONS: dict[ScoreKind, str] = {
    ScoreKind.FIFTEEN: N_("fifteen for 2"),
    ScoreKind.THIRTY_ONE: N_("thirty-one for 2"),
    ScoreKind.PAIR: N_("a pair for 2"),
    ScoreKind.PAIR_ROYAL: N_("three of a kind for 6"),
    ScoreKind.DOUBLE_PAIR_ROYAL: N_("four of a kind for 12"),
    ScoreKind.RUN: N_("a run of {n} for {n}"),
    ScoreKind.GO: N_("go for 1"),
    ScoreKind.LAST_CARD: N_("last card for 1"),
    ScoreKind.HIS_HEELS: N_("his heels for 2"),
}
_POINTS = N_("{points} points")


def card_label(card: int, cat: Catalog) -> str:
    """A card as players write it, with the rank letter of the language: ``5♥``, ``V♠`` (fr)."""
    rank = _RANK_IDS[RANK[card]]
    return cat.tr(rank) + SUIT_SYMBOLS[SUIT[card]]


class Narrator:
    """Sentences about one game: the players' names, the "you" form for ``you``, a catalog."""

    def __init__(self, cat: Catalog, names: Sequence[str], you: int | None = None) -> None:
        self.cat = cat
        self.names = tuple(names)
        self.you = you

    def tr(self, msgid: str, /, **kwargs: object) -> str:
        return self.cat.tr(msgid, **kwargs)

    def card(self, card: int) -> str:
        return card_label(card, self.cat)

    def cards(self, cards: Iterable[int]) -> str:
        return " ".join(self.card(c) for c in cards)

    def who(self, seat: int | None, you: str, other: str, **kwargs: object) -> str:
        """A sentence about ``seat``: the "you" form for the person playing the computer."""
        if seat is not None and seat == self.you:
            return self.tr(you, **kwargs)
        return self.tr(other, name=self.names[seat] if seat is not None else "", **kwargs)

    # ------------------------------------------------------------------------ scores
    def reasons(self, items: Iterable[ScoreItem]) -> str:
        """Pegging reasons: ``fifteen for 2, a pair for 2``."""
        return ", ".join(
            self.tr(PLAY_REASONS.get(r.kind, _POINTS), n=len(r.cards), points=r.points)
            for r in items
        )

    def count(self, items: Iterable[ScoreItem]) -> list[str]:
        """A show counted aloud with running totals: ``fifteen 2``, ``a pair is 4``, ..."""
        return count_lines(items, self.tr)

    def count_total(self, title: str, points: int) -> str:
        if points:
            return self.tr("{title}: {points} points", title=title, points=points)
        return self.tr("{title}: nineteen (nothing)", title=title)

    def show_title(self, player: int, what: str) -> str:
        if what == "crib":
            return self.who(player, N_("Your crib"), N_("{name}'s crib"))
        return self.who(player, N_("Your hand"), N_("{name}'s hand"))

    def game_over(self, winner: int, scores: Sequence[int], game_points: int) -> list[str]:
        """Who won, the final score, and a skunk (R10.2) if there was one."""
        lines = [
            self.who(winner, N_("You win!"), N_("{name} wins!")),
            self.tr("Final score: {a} – {b}", a=scores[0], b=scores[1]),
        ]
        if game_points == 2:
            lines.append(self.tr("Skunk! ({points} game points)", points=game_points))
        elif game_points == 3:
            lines.append(self.tr("Double skunk! ({points} game points)", points=game_points))
        return lines

    # ------------------------------------------------------------------------ events
    def event(self, e: ce.Event) -> str | None:
        """The public sentence for an event (None for shows and resets, said otherwise)."""
        k, p = e.kind, e.player
        if k is EventKind.CUT_FOR_DEAL:
            return self.who(
                p, N_("You cut {card}"), N_("{name} cuts {card}"), card=self.card(e.cards[0])
            )
        if k is EventKind.CUT_TIE:
            return self.tr("Tie: both cut the same rank. Cut again.")
        if k is EventKind.FIRST_DEALER:
            return self.who(
                p, N_("You cut lower and deal first"), N_("{name} cut lower and deals first")
            )
        if k is EventKind.DEAL:
            return self.who(p, N_("Deal {n}: you deal"), N_("Deal {n}: {name} deals"), n=e.deal + 1)
        if k is EventKind.DISCARD:
            return self.who(
                p, N_("You put two cards in the crib"), N_("{name} puts two cards in the crib")
            )
        if k is EventKind.STARTER:
            return self.tr("Starter: {card}", card=self.card(e.cards[0]))
        if k is EventKind.PLAY:
            text = self.who(
                p,
                N_("You play {card} ({count})"),
                N_("{name} plays {card} ({count})"),
                card=self.card(e.cards[-1]),
                count=e.count,
            )
            return text + " — " + self.reasons(e.reasons) if e.points else text
        if k is EventKind.GO:
            return self.who(p, N_("You say Go"), N_("{name} says Go"))
        if k is EventKind.SCORE:
            return self.tr(
                "{name}: {what}", name=self.names[_seat(p)], what=self.reasons(e.reasons)
            )
        if k is EventKind.GAME_OVER:
            return self.who(p, N_("You win!"), N_("{name} wins!"))
        return None


# ---------------------------------------------------------------------------- a record, as text
def game_text(
    g: ce.GameState,
    cat: Catalog,
    game_points: int,
    deal_notes: Callable[[ce.Event], list[str]] | None = None,
) -> str:
    """Deal-by-deal account of a whole game with every score explained (``replay --text``);
    ``deal_notes(event)`` adds lines under each deal's heading (the winning chances).

    Unlike the table it sees everything: each deal's hands and both discards."""
    n = Narrator(cat, (cat.tr("Player {n}", n=1), cat.tr("Player {n}", n=2)))
    out = [cat.tr("Game record: seed {seed}, {n} decisions", seed=g.seed, n=len(g.decisions))]
    for e in g.events:
        if e.kind is EventKind.GAME_OVER:
            final = (g.rules.counted(g.scores[0]), g.rules.counted(g.scores[1]))
            over = n.game_over(_seat(e.player), final, game_points)
            out += ["", over[0] + " " + over[1], *over[2:]]
        else:
            out.extend(_record_lines(n, e, g.rules, deal_notes))
    if not g.is_over:
        out += ["", cat.tr("Game not finished: {a} – {b}", a=g.scores[0], b=g.scores[1])]
    return "\n".join(out)


def _record_lines(n: Narrator, e: ce.Event, rules: ce.Rules, deal_notes=None) -> list[str]:
    """The lines of one event in the record's account (indented by what they belong to); the
    scores after it as they count (a winner's stops at the target)."""
    k, p = e.kind, e.player
    sc = f"[{rules.counted(e.scores[0])}–{rules.counted(e.scores[1])}]"
    if k is EventKind.DEAL:
        pone = 1 - _seat(p)
        return [
            "",
            n.event(e) or "",
            *(deal_notes(e) if deal_notes is not None else []),
            "  " + n.show_title(pone, "hand") + ": " + n.cards(e.cards[:6]),
            "  " + n.show_title(_seat(p), "hand") + ": " + n.cards(e.cards[6:]),
        ]
    if k is EventKind.DISCARD:
        return ["  " + (n.event(e) or "") + ": " + n.cards(e.cards)]
    if k is EventKind.STARTER:
        return ["  " + (n.event(e) or "")]
    if k is EventKind.PLAY:
        return ["    " + (n.event(e) or "") + (f" {sc}" if e.points else "")]
    if k is EventKind.GO:
        return ["    " + (n.event(e) or "")]
    if k is EventKind.SCORE:
        return ["    " + (n.event(e) or "") + f" {sc}"]
    if k is EventKind.SHOW:
        title = n.show_title(_seat(p), e.what)
        said = n.count(e.reasons)
        head = f"  {title}: {n.cards(e.cards[:4])} + {n.cards(e.cards[4:])}"
        return [head + (f" — {', '.join(said)}" if said else ""),
                f"    {n.count_total(title, e.points)} {sc}"]  # fmt: skip
    if k in (EventKind.CUT_FOR_DEAL, EventKind.CUT_TIE, EventKind.FIRST_DEALER):
        return [n.event(e) or ""]
    return []  # resets say nothing


def _seat(player: int | None) -> int:
    """The seat of an event that has one (deals, shows, scores, the game's end)."""
    assert player is not None
    return player


# ---------------------------------------------------------------------------- the table's prompt
def table_prompt(ctl) -> str:
    """The line that tells the person at ``ctl`` (a table controller) what happens now."""
    g = ctl.game
    if ctl.show.running:  # first: the winner is not announced before the count
        return ctl.tr("Counting the show")
    if g.is_over:
        return ctl.narrator.who(
            g.winner,
            N_("You win {a} to {b}"),
            N_("{name} wins {a} to {b}"),
            a=min(max(g.scores), g.rules.target),  # a winner's peg stops at the game hole
            b=min(g.scores),
        )
    p = g.current_player
    name = ctl.name(p)
    if ctl.needs_reveal:
        return ctl.tr("Pass the screen to {name}", name=name)
    if not ctl.is_human(p):
        return ctl.tr("{name} is thinking…", name=name)
    ph = g.phase
    if ph is Phase.CUT_FOR_DEAL:
        text = ctl.tr("Cut the deck for first deal: the lower card deals")
    elif ph is Phase.DEAL_CUT:
        text = ctl.narrator.who(
            g.dealer, N_("Cut the deck: you deal"), N_("Cut the deck: {name} deals")
        )
    elif ph is Phase.STARTER_CUT:
        text = ctl.tr("Cut the deck for the starter")
    elif ph is Phase.DISCARD:
        text = (
            ctl.tr("Choose two cards for your crib")
            if g.dealer == p
            else ctl.narrator.who(
                g.dealer,
                N_("Choose two cards for your crib"),
                N_("Choose two cards for {name}'s crib"),
            )
        )
    else:
        text = ctl.tr("Play a card (count {count})", count=g.count)
    if ctl.mode == "hotseat":
        return ctl.tr("{name}: {text}", name=name, text=text)
    return text
