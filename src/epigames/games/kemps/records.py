"""What the seats of a Kemps game have observed, kept up to date event by event.

`Records.absorb(event)` reads nothing but the event. The public part (the table, counts,
scores, the cards out of the game, this turn's swaps) follows the public announcements;
`hands[s]` is seat `s`'s own record of its hand, in hand order (a card taken from the
table takes the place of the card put down), following its private `Dealt` observations
and its own public moves. In the team game `window` is the call window under way (the
seats still to ask) and `signals[s]` what seat `s` was told by its partner's signals.
"""

from __future__ import annotations

from epigames.cards import Card, CardLayout
from epigames.games.events import Event
from epigames.games.kemps import events as ev
from epigames.games.kemps.knowledge import HoldsAll, PublicTracker, signal_cases


class Records:
    """Observation-derived records of every seat; all fields hold immutable values.

    Attributes:
        hands: `hands[s]` = the cards seat `s` knows it holds, in hand order.
        table: the table's cards, slot by slot (public).
        sizes: public hand sizes.
        deck: public number of cards in the deck.
        discard: public number of cards in the discard pile.
        out: the cards out of the game, in order (public).
        scores: public Kemps counts.
        swaps: swaps made in the turn under way (public).
        put_down: cards put down in the turn under way, which may not be taken back.
        turns: turns completed (public).
        announcements: every public announcement so far, in order (append-only).
        layout: the game's card layout.
        tracker: folds `announcements` into card knowledge when a view asks for it.
        window: the seats a call window still asks, in order (team game; empty: none open).
        signals: `signals[s]` = the live facts seat `s` was told by signals (team game).
    """

    __slots__ = (
        "announcements",
        "deck",
        "discard",
        "hands",
        "layout",
        "out",
        "put_down",
        "scores",
        "signals",
        "sizes",
        "swaps",
        "table",
        "tracker",
        "turns",
        "window",
    )

    def __init__(self, players: int, layout: CardLayout) -> None:
        self.announcements: list[Event] = []
        self.layout = layout
        self.tracker = PublicTracker(layout)
        self.hands: list[tuple[Card, ...]] = [()] * players
        self.table: tuple[Card, ...] = ()
        self.sizes: tuple[int, ...] = (0,) * players
        self.deck = len(layout.cards)
        self.discard = 0
        self.out: tuple[Card, ...] = ()
        self.scores: tuple[int, ...] = (0,) * players
        self.swaps = 0
        self.put_down: frozenset[Card] = frozenset()
        self.turns = 0
        self.window: tuple[int, ...] = ()
        self.signals: list[tuple[HoldsAll, ...]] = [()] * players

    def copy(self) -> Records:
        """An independent copy (the values are shared: they never change)."""
        other = Records.__new__(Records)
        for name in Records.__slots__:
            setattr(other, name, getattr(self, name))
        other.announcements = list(self.announcements)
        other.tracker = self.tracker.copy()
        other.hands = list(self.hands)
        other.signals = list(self.signals)
        return other

    def absorb(self, event: Event) -> None:
        """Update the records with one event (public or private)."""
        if event.public:
            self.announcements.append(event)
            if any(self.signals):
                self._update_signals(event)
        kind = type(event)
        if kind is ev.Swapped:
            assert isinstance(event, ev.Swapped)
            table = list(self.table)
            table[event.slot] = event.put
            self.table = tuple(table)
            hand = list(self.hands[event.seat])
            if event.put in hand:  # the seat's own record (others keep an empty one)
                hand[hand.index(event.put)] = event.taken
                self.hands[event.seat] = tuple(hand)
            self.swaps += 1
            self.put_down = self.put_down | {event.put}
        elif kind is ev.TurnEnded:
            self._end_turn()
        elif kind is ev.TeamTurnEnded:
            assert isinstance(event, ev.TeamTurnEnded)
            self._end_turn()
            n = len(self.sizes)
            # Every seat may call, starting after the one that moved (docs/turns.md).
            self.window = tuple((event.seat + step) % n for step in range(1, n + 1))
        elif kind is ev.Passed:
            self.window = self.window[1:]
        elif kind is ev.Called:
            assert isinstance(event, ev.Called)
            self.window = ()
            self.scores = event.scores
            if event.right:
                self.hands[event.target] = ()
                self.sizes = _replace(self.sizes, event.target, 0)
                self.out = (*self.out, *event.cards)
                self._reshuffle(event.reshuffled)
        elif kind is ev.Signalled:
            assert isinstance(event, ev.Signalled)
            layout = self.layout
            public = layout.card_mask((*self.table, *self.out))
            for seat in event.seats - {event.seat}:
                seen = public | layout.card_mask(self.hands[seat])
                told = HoldsAll(event.seat, signal_cases(layout, seen))
                self.signals[seat] = (*self.signals[seat], told)
        elif kind is ev.Kemps:
            assert isinstance(event, ev.Kemps)
            self.hands[event.seat] = ()
            self.sizes = _replace(self.sizes, event.seat, 0)
            self.out = (*self.out, *event.cards)
            self.scores = _replace(self.scores, event.seat, event.score)
            self._reshuffle(event.reshuffled)
            self._end_turn()
        elif kind is ev.NewHand:
            assert isinstance(event, ev.NewHand)
            self.deck -= event.n
            self.sizes = _replace(self.sizes, event.seat, event.n)
        elif kind is ev.Dealt:
            assert isinstance(event, ev.Dealt)
            self.hands[event.seat] = tuple(event.cards)
        elif kind is ev.TableCleared:
            assert isinstance(event, ev.TableCleared)
            self.discard += len(event.cards)
            self.table = ()
            self._reshuffle(event.reshuffled)
        elif kind is ev.TableDealt:
            assert isinstance(event, ev.TableDealt)
            self.table = event.cards
            self.deck -= len(event.cards)
        elif kind is ev.GameDealt:
            assert isinstance(event, ev.GameDealt)
            self.table = event.table
            self.sizes = event.hand_sizes
            self.deck = event.deck_size

    def _update_signals(self, event: Event) -> None:
        layout = self.layout
        for seat, told in enumerate(self.signals):
            kept = []
            for fact in told:
                live: HoldsAll | None = fact
                for public in event.facts:
                    if live is None:
                        break
                    live = live.after(layout, public)
                if live is not None:
                    kept.append(live)
            self.signals[seat] = tuple(kept)

    def _end_turn(self) -> None:
        self.swaps = 0
        self.put_down = frozenset()
        self.turns += 1

    def _reshuffle(self, reshuffled: bool) -> None:
        if reshuffled:
            self.deck += self.discard
            self.discard = 0


def _replace(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])
