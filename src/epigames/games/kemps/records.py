"""The values of a Kemps game, each kept once: the rules change them, the views read them.

The rules (`rules.KempsState`) write the true table, hands, piles and scores here as they
publish each event; there is no second copy for the seats. Every value a view shows is
replaced, never changed in place (tuples, frozensets, ints), so a view that keeps
references holds a snapshot. The deck and the discard pile are lists, changed in place:
their order is hidden, and a view keeps only their sizes.

Besides the values, `absorb(event)` keeps what the seats' knowledge is derived from: every
public announcement in order (folded into card knowledge by `tracker` when a view asks),
and in the team game what each seat was told by its partner's signals, updated by each
public announcement.
"""

from __future__ import annotations

from epigames.cards import Card, CardLayout
from epigames.games.events import Event
from epigames.games.kemps import events as ev
from epigames.games.kemps.actions import HAND_SIZE
from epigames.games.kemps.knowledge import HoldsAll, PublicTracker, signal_cases


class Records:
    """The game's values, true and public; see the module docstring.

    Attributes:
        hands: `hands[s]` = seat `s`'s cards, in hand order (a card taken from the table
            takes the place of the card put down); a view shows its own seat's alone.
        table: the table's cards, slot by slot (public).
        deck: the deck's cards, in the order chance draws from (hidden).
        drawn: the cards drawn so far of a deal under way (hidden until it is announced).
        discard: the discard pile's cards (public, but only its size is shown).
        out: the cards out of the game, in order (public).
        scores: Kemps counts (public).
        swaps: swaps made in the turn under way (public).
        put_down: cards put down in the turn under way, which may not be taken back.
        turns: turns ended (public; counted when the turn's end is announced).
        window: the seats a call window still asks, in order (team game; empty: none open).
        signals: `signals[s]` = the live facts seat `s` was told by signals (team game).
        announcements: every public announcement so far, in order (append-only).
        layout: the game's card layout.
        tracker: folds `announcements` into card knowledge when a view asks for it.
    """

    __slots__ = (
        "announcements",
        "deck",
        "discard",
        "drawn",
        "hands",
        "layout",
        "out",
        "put_down",
        "scores",
        "signals",
        "swaps",
        "table",
        "told",
        "tracker",
        "turns",
        "window",
    )

    def __init__(self, players: int, layout: CardLayout, deck: tuple[Card, ...]) -> None:
        self.announcements: list[Event] = []
        self.layout = layout
        self.tracker = PublicTracker(layout)
        self.hands: list[tuple[Card, ...]] = [()] * players
        self.table: tuple[Card, ...] = ()
        self.deck: list[Card] = list(deck)
        self.drawn: list[Card] = []
        self.discard: list[Card] = []
        self.out: tuple[Card, ...] = ()
        self.scores: tuple[int, ...] = (0,) * players
        self.swaps = 0
        self.put_down: frozenset[Card] = frozenset()
        self.turns = 0
        self.window: tuple[int, ...] = ()
        self.signals: list[tuple[HoldsAll, ...]] = [()] * players
        # Whether any seat holds a signal's fact: the 2023 game never does.
        self.told = False

    def copy(self) -> Records:
        """An independent copy (the immutable values are shared)."""
        other = Records.__new__(Records)
        for name in Records.__slots__:
            setattr(other, name, getattr(self, name))
        other.announcements = list(self.announcements)
        other.tracker = self.tracker.copy()
        other.hands = list(self.hands)
        other.deck, other.drawn = list(self.deck), list(self.drawn)
        other.discard = list(self.discard)
        other.signals = list(self.signals)
        return other

    @property
    def sizes(self) -> tuple[int, ...]:
        """Cards per seat (public)."""
        return tuple(map(len, self.hands))

    @property
    def deck_size(self) -> int:
        """Cards in the deck (public): those of a deal under way count until it is announced."""
        return len(self.deck) + len(self.drawn)

    def absorb(self, event: Event) -> None:
        """Keep what knowledge is derived from: a public announcement, or a signal's fact."""
        if event.public:
            self.announcements.append(event)
            if self.told:
                self.update_signals(event)
        elif type(event) is ev.Signalled:
            assert isinstance(event, ev.Signalled)
            layout = self.layout
            public = layout.card_mask((*self.table, *self.out))
            for seat in event.seats - {event.seat}:
                seen = public | layout.card_mask(self.hands[seat])
                told = HoldsAll(event.seat, signal_cases(layout, seen))
                self.signals[seat] = (*self.signals[seat], told)
            self.told = True

    def update_signals(self, event: Event) -> None:
        """The signals' facts after a public announcement (while some seat holds one)."""
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
        self.told = any(self.signals)


def one_rank(hand: tuple[Card, ...]) -> bool:
    """Whether a hand is four of a kind."""
    if len(hand) != HAND_SIZE:
        return False
    rank = hand[0].rank
    return hand[1].rank is rank and hand[2].rank is rank and hand[3].rank is rank
