"""The card layout: which cards and holders exist, mapped to the engine's integer indices."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from functools import reduce
from operator import or_
from typing import Any

from epigames.cards.errors import UnknownCardError
from epigames.cards.slots import rebuilt

#: A holder given by index or by name.
HolderRef = int | str

# `X | Y` in `isinstance` builds a union object on every call; a tuple of types does not.
_SEQUENCES = (tuple, list)


@dataclass(frozen=True, slots=True)
class Location:
    """A place cards can be besides the players' hands: a table, a deck, a discard pile.

    Everyone always knows how many cards lie at a location. At a *public* location (cards
    face up, e.g. the table) everyone also sees which: a game must announce every card
    that gets there (a public move does). At a hidden one (face down: a deck, a discard
    pile, cards put out of the game unseen) only the count is public, and the cards are
    known only as far as the moves that put them there were seen.

    Attributes:
        name: the holder name, unique among the layout's holders.
        public: whether its cards lie face up.
        label: how plain words name it (`the discard pile`); empty: `the` and its name.
    """

    name: str
    public: bool = False
    label: str = ""

    @property
    def words(self) -> str:
        """How plain words name it: its label, or `the` and its name (`the deck`)."""
        return self.label or f"the {self.name}"


#: The usual locations: cards face up on the table, the face-down deck and discard pile,
#: and cards put out of the game unseen.
TABLE = Location("table", public=True)
DECK = Location("deck")
DISCARD = Location("discard", label="the discard pile")
OUT = Location("out", label="the pile out of play")


@dataclass(frozen=True, slots=True)
class CardLayout:
    """All cards and holders of a game, with their engine indices.

    Cards are any hashable values (e.g. a game's frozen ``Card`` dataclass); inside the
    engine card ``cards[i]`` is the integer ``i`` and sets of cards are bitmasks. Holders
    are named (``"North"``, ``"table"``); holder ``holders[j]`` is the integer ``j``.

    Attributes:
        cards: the cards, in index order.
        holders: the holder names, in index order.
        players: indices of the holders that are agents (the rest are locations such as
            a table or a deck); used for Kripke pictures.
        public: indices of the locations whose cards lie face up (see `Location`);
            every other holder's cards are hidden from the other players.
        labels: how plain words name each holder (seats by name, piles as `the deck`);
            empty: by their names.
    """

    cards: tuple[Hashable, ...]
    holders: tuple[str, ...]
    players: frozenset[int]
    public: frozenset[int] = frozenset()
    labels: tuple[str, ...] = ()
    _card_index: dict[Hashable, int] = field(init=False, repr=False, compare=False, hash=False)
    _card_text: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)
    _holder_index: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)
    _card_bit: dict[Hashable, int] = field(init=False, repr=False, compare=False, hash=False)
    #: Card indices by `id` of the layout's own card objects, which games pass around: a
    #: card class's `__hash__` in Python costs more than the rest of a fact. The layout
    #: keeps those objects alive, so no other live object has one of their ids.
    ids: dict[int, int] = field(init=False, repr=False, compare=False, hash=False)
    _id_bit: dict[int, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        index = {card: i for i, card in enumerate(self.cards)}
        if len(index) != len(self.cards):
            raise UnknownCardError(f"duplicate card in layout: {list(self.cards)!r}")
        names = {name: j for j, name in enumerate(self.holders)}
        if len(names) != len(self.holders):
            raise UnknownCardError(f"duplicate holder name in layout: {list(self.holders)!r}")
        bad = [p for p in self.players if not 0 <= p < len(self.holders)]
        if bad:
            raise UnknownCardError(
                f"players {bad} are not holder indices 0..{len(self.holders) - 1}"
            )
        bad = sorted(self.public & self.players) or [
            p for p in self.public if not 0 <= p < len(self.holders)
        ]
        if bad:
            raise UnknownCardError(f"public locations {bad} must be holders that are not players")
        object.__setattr__(self, "_card_index", index)
        object.__setattr__(self, "_card_text", {str(card): i for i, card in enumerate(self.cards)})
        object.__setattr__(self, "_holder_index", names)
        object.__setattr__(self, "_card_bit", {card: 1 << i for card, i in index.items()})
        ids = {id(card): i for i, card in enumerate(self.cards)}
        object.__setattr__(self, "ids", ids)
        object.__setattr__(self, "_id_bit", {key: 1 << i for key, i in ids.items()})

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Built again on unpickling or copying: the `id` tables name this process's objects.
        return rebuilt(self)

    @classmethod
    def create(
        cls,
        cards: Iterable[Hashable],
        holders: Iterable[str],
        players: Iterable[int] | None = None,
    ) -> CardLayout:
        """Build a layout; every holder is a player unless ``players`` says otherwise."""
        names = tuple(holders)
        chosen = range(len(names)) if players is None else players
        return cls(tuple(cards), names, frozenset(chosen))

    @classmethod
    def with_locations(
        cls, cards: Iterable[Hashable], seats: Iterable[str], locations: Iterable[Location]
    ) -> CardLayout:
        """Build a layout of player seats followed by locations (`TABLE`, `DECK`, …).

        The seats get holder indices ``0..n-1`` and are the players; the locations follow
        in the order given.
        """
        names = tuple(seats)
        places = tuple(locations)
        n = len(names)
        public = frozenset(n + i for i, place in enumerate(places) if place.public)
        holders = (*names, *(p.name for p in places))
        labels = (*names, *(p.words for p in places))
        return cls(tuple(cards), holders, frozenset(range(n)), public, labels)

    @property
    def locations(self) -> tuple[int, ...]:
        """The indices of the holders that are not players, in order."""
        return tuple(h for h in range(len(self.holders)) if h not in self.players)

    @property
    def n_cards(self) -> int:
        """The number of cards."""
        return len(self.cards)

    @property
    def n_holders(self) -> int:
        """The number of holders."""
        return len(self.holders)

    def card_index(self, card: Hashable) -> int:
        """The index of a card object (or its text); `UnknownCardError` if not in the layout."""
        found = self.ids.get(id(card))
        if found is not None:
            return found
        try:
            return self._card_index[card]
        except (KeyError, TypeError):
            if isinstance(card, str) and card in self._card_text:
                return self._card_text[card]
            raise UnknownCardError(f"unknown card {card!r}; not in this layout") from None

    def card_indices(self, cards: Iterable[Hashable]) -> list[int]:
        """The indices of card objects, in order (`card_index` of each, in one pass)."""
        listed = cards if isinstance(cards, _SEQUENCES) else list(cards)
        try:
            return list(map(self.ids.__getitem__, map(id, listed)))
        except KeyError:
            pass
        index = self._card_index
        try:
            return [index[card] for card in listed]
        except (KeyError, TypeError):
            return [self.card_index(card) for card in listed]  # names the unknown card

    def parse_card(self, text: str) -> int:
        """The index of the card whose ``str()`` is ``text`` (or of the card ``text`` itself).

        Other spellings are read by the cards' own ``parse`` where their class has one,
        so ASCII names work too (``<8,4>`` or ``8,4`` for ``⟨8,4⟩``, ``JH`` for ``J♥``).
        """
        if text in self._card_index:
            return self._card_index[text]
        found = self._card_text.get(text)
        if found is not None:
            return found
        read = getattr(type(self.cards[0]), "parse", None) if self.cards else None
        if callable(read):
            try:
                return self._card_index[read(text)]
            except (ValueError, KeyError, TypeError):  # a game's InputError is a ValueError
                pass
        raise UnknownCardError(f"unknown card {text!r}; not in this layout")

    def holder_index(self, holder: HolderRef) -> int:
        """The index of a holder given by index or name."""
        if type(holder) is int and 0 <= holder < len(self.holders):
            return holder  # the common case first: the engine passes indices
        if isinstance(holder, int) and not isinstance(holder, bool):
            if 0 <= holder < len(self.holders):
                return holder
            raise UnknownCardError(
                f"unknown holder {holder!r}; expected an index 0..{len(self.holders) - 1}"
            )
        if not isinstance(holder, str):
            raise UnknownCardError(f"unknown holder {holder!r}; expected an index or a name")
        try:
            return self._holder_index[holder]
        except (KeyError, TypeError):
            raise UnknownCardError(
                f"unknown holder {holder!r}; choose one of: {', '.join(self.holders)}"
            ) from None

    def card_mask(self, cards: Iterable[Hashable]) -> int:
        """The bitmask of a set of card objects."""
        listed = cards if isinstance(cards, _SEQUENCES) else list(cards)
        try:
            # In C: every hand of every decision is turned into a mask.
            return reduce(or_, map(self._id_bit.__getitem__, map(id, listed)), 0)
        except KeyError:
            pass
        try:
            return reduce(or_, map(self._card_bit.__getitem__, listed), 0)
        except (KeyError, TypeError):
            mask = 0
            for card in listed:
                mask |= 1 << self.card_index(card)  # a card's text, or the error
            return mask

    def card_name(self, index: int) -> str:
        """A readable name of card ``index`` for messages."""
        return str(self.cards[index])
