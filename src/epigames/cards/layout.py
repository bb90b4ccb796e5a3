"""The card layout: which cards and holders exist, mapped to the engine's integer indices."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

from epigames.cards.errors import UnknownCardError

#: A holder given by index or by name.
HolderRef = int | str


@dataclass(frozen=True, slots=True)
class CardLayout:
    """All cards and holders of a game, with their engine indices.

    Cards are any hashable values (e.g. a game's frozen ``Card`` dataclass); inside the
    engine card ``cards[i]`` is the integer ``i`` and sets of cards are bitmasks. Holders
    are named (``"North"``, ``"table"``); holder ``holders[j]`` is the integer ``j``.

    Attributes:
        cards: the cards, in index order.
        holders: the holder names, in index order.
        players: indices of the holders that are agents (the rest are places such as a
            table or a deck); used for Kripke pictures.
    """

    cards: tuple[Hashable, ...]
    holders: tuple[str, ...]
    players: frozenset[int]
    _card_index: dict[Hashable, int] = field(init=False, repr=False, compare=False, hash=False)
    _card_text: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)
    _holder_index: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)

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
        object.__setattr__(self, "_card_index", index)
        object.__setattr__(self, "_card_text", {str(card): i for i, card in enumerate(self.cards)})
        object.__setattr__(self, "_holder_index", names)

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

    @property
    def n_cards(self) -> int:
        """The number of cards."""
        return len(self.cards)

    @property
    def n_holders(self) -> int:
        """The number of holders."""
        return len(self.holders)

    def card_index(self, card: Hashable) -> int:
        """The index of a card object; raises `UnknownCardError` if it is not in the layout."""
        try:
            return self._card_index[card]
        except (KeyError, TypeError):
            raise UnknownCardError(f"unknown card {card!r}; not in this layout") from None

    def parse_card(self, text: str) -> int:
        """The index of the card whose ``str()`` is ``text`` (or of the card ``text`` itself)."""
        if text in self._card_index:
            return self._card_index[text]
        try:
            return self._card_text[text]
        except KeyError:
            raise UnknownCardError(f"unknown card {text!r}; not in this layout") from None

    def holder_index(self, holder: HolderRef) -> int:
        """The index of a holder given by index or name."""
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
        mask = 0
        for card in cards:
            mask |= 1 << self.card_index(card)
        return mask

    def card_name(self, index: int) -> str:
        """A readable name of card ``index`` for messages."""
        return str(self.cards[index])
