"""`tom`'s team play: what the opponents can know of a four of a kind, from the card engine.

In the team game an opponent never sees a signal (`docs/kemps.md`); what it can know of a
four of a kind is what the public log and its own hand tell it. `tom` asks the card engine
(`KempsKnowledge`) three questions:

- *May I complete in view?* A four of a kind `tom` ends its turn with is first open to the
  opponents the call window asks before its partner (`first_callers`): the partner calls
  "Kemps!" on the signal as soon as it is asked. So before the swap that completes it,
  `tom` asks how likely those opponents would then find its four cards of the rank
  (`seen_chance`: the public facts after the swaps, and the opponent's own hand, which
  holds none of the rank then). Above `STOP_AT`, and against an opponent that has called
  Stop Kemps in this game, it leaves the last card on the table (`Exposure.hides`).
- *When to signal?* As soon as its four cards are one rank: nobody but the partner sees the
  signal, so signalling never tells an opponent anything, and waiting only gives the
  opponents more call windows. What `tom` decided is when to complete in view (above);
  the signal's thought says what the first callers can know of it.
- *When to call Stop Kemps?* When the exact chance that an opponent holds all four cards
  of a rank, from what `tom` knows (its hand, the public log, its partner's signal), is
  above `STOP_AT` (`stop_call`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from epigames.cards import Card, Holds
from epigames.cards.public import iter_bits
from epigames.games.kemps.actions import Call
from epigames.games.kemps.events import Swapped
from epigames.games.kemps.knowledge import KempsKnowledge, PublicKemps, rank_masks
from epigames.games.kemps.views import KempsView
from epigames.games.strategy import Decision, Thought

if TYPE_CHECKING:
    from epigames.games.kemps.rules import KempsGame

#: The chance of a four of a kind above which a Stop Kemps call pays: a right call scores 1
#: and takes the opponents' point away (their partner would call Kemps! on the signal), a
#: wrong one costs 1, so calling gains when 2p > 1 - p.
STOP_AT = Fraction(1, 3)
#: Below `STOP_AT` as a float, for the bound from the marginals (rounding kept on the safe
#: side: a bound this close is checked exactly).
_BOUND = float(STOP_AT) - 1e-9


def first_callers(game: KempsGame, seat: int) -> tuple[int, ...]:
    """The opponents the call window after `seat`'s turn asks before `seat`'s partner.

    Only they can call Stop Kemps on a four of a kind `seat` ends its turn with and
    signals: the partner, asked next, calls Kemps! and closes the window.
    """
    n, partner, team = game.players, game.partner(seat), game.team_of(seat)
    found = []
    other = (seat + 1) % n
    while other != partner:
        if game.team_of(other) != team:
            found.append(other)
        other = (other + 1) % n
    return tuple(found)


def after_swaps(
    public: PublicKemps, seat: int, players: int, swaps: Sequence[tuple[int, Card, Card]]
) -> PublicKemps:
    """The public facts after `seat` makes `swaps` (`(slot, taken, put)`), applied as the
    game's own swap events."""
    for slot, taken, put in swaps:
        public = public.apply(Swapped(seat, slot, taken, put, players))
    return public


def seen_chance(public: PublicKemps, observer: int, seat: int, cards: Sequence[Card]) -> Fraction:
    """The chance that `observer` gives `seat` holding all of `cards`: the card engine's
    exact probability from the public facts and what `observer`'s own hand tells it when
    `seat` holds them (none of them is in it)."""
    layout = public.public.layout
    lacks = tuple((layout.card_index(c), observer) for c in cards)
    knowledge = KempsKnowledge(public.public, None, 0, seen_lacks=lacks, not_all=public.not_all)
    return knowledge.probability_holds_all(seat, cards)


def rank_cards(view: KempsView, card: Card) -> list[Card]:
    """The four cards of `card`'s rank, in deck order."""
    return [c for c in view.knowledge.layout.cards if isinstance(c, Card) and c.rank is card.rank]


@dataclass(frozen=True, slots=True)
class _CardList:
    """Cards as a thought names them (`6♥, 6♠`), put into words when the thought is read."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return ", ".join(str(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class Exposure:
    """What the first caller who could tell most would know of a four of a kind.

    Attributes:
        observer: that opponent (a first caller, `first_callers`).
        chance: the chance it gives the four of a kind (`seen_chance`).
        stops: whether it has called Stop Kemps in this game (it acts on what it knows).
    """

    observer: int
    chance: Fraction
    stops: bool

    @property
    def hides(self) -> bool:
        """Whether to keep the four of a kind out of view: an opponent that calls Stop
        Kemps would find it likely enough to call."""
        return self.stops and self.chance > STOP_AT


def exposure(
    view: KempsView,
    public: PublicKemps,
    cards: Sequence[Card],
    stoppers: set[int],
) -> Exposure | None:
    """How well the first callers would know that `view`'s seat holds `cards` (four of a
    rank) under the public facts `public`; None when no opponent is asked before the partner."""
    seat = view.seat
    callers = first_callers(view.kemps_game, seat)
    if not callers:
        return None
    chances = [(seen_chance(public, o, seat, cards), o) for o in callers]
    chance, observer = max(chances, key=lambda pair: pair[0])
    return Exposure(observer, chance, observer in stoppers)


def signal_thought(view: KempsView, stoppers: set[int]) -> Thought:
    """The signal's thought: what the first callers can know of the four of a kind."""
    game = view.kemps_game
    rank = view.hand[0].rank.text
    partner = game.seat_names[game.partner(view.seat)]
    seen = exposure(view, view.public, rank_cards(view, view.hand[0]), stoppers)
    if seen is None:
        return Thought("My four cards are {}s: I signal to {}.", args=(rank, partner))
    name = game.seat_names[seen.observer]
    if seen.chance > STOP_AT:
        text = (
            "My four cards are {}s; {}, first to call, gives that {:.2f} and may call "
            "Stop Kemps, but cannot see the signal, and waiting shows more: I signal to {}."
        )
    else:
        text = "My four cards are {}s; {}, first to call, gives that {:.2f}: I signal to {}."
    return Thought(text, args=(rank, name, float(seen.chance), partner))


def stop_call(view: KempsView, shown: Sequence[set[Card]]) -> Decision | None:
    """Stop Kemps against the opponent most likely to hold four of a kind, when that chance
    (exact, from the seat's knowledge) is above `STOP_AT`; None otherwise.

    Every rank an opponent may hold all of is weighed; the marginals bound the chance
    first (it is at most the least likely of the four cards), so most ranks need no count.
    `shown[s]` is what seat `s` took in view and still holds, named in the thought.
    """
    game = view.kemps_game
    knowledge = view.knowledge
    layout = knowledge.layout
    matrix = knowledge.marginals()
    best: tuple[Fraction, int, list[Card]] | None = None
    for seat in range(game.players):
        if game.team_of(seat) == game.team_of(view.seat):
            continue
        for mask in rank_masks(layout):
            indices = list(iter_bits(mask))
            if min(float(matrix[i, seat]) for i in indices) <= _BOUND:
                continue
            cards = [c for c in (layout.cards[i] for i in indices) if isinstance(c, Card)]
            chance = knowledge.probability_holds_all(seat, cards)
            # Of equal chances the first seat and rank (deck order) win, in any process.
            if best is None or chance > best[0]:
                best = (chance, seat, cards)
    if best is None or best[0] <= STOP_AT:
        return None
    chance, seat, cards = best
    name, rank = game.seat_names[seat], cards[0].rank.text
    took = [c for c in cards if c in shown[seat]]
    concluded = tuple(Holds(seat, c) for c in took)
    if took:
        text = (
            "I know {} holds {} (it took them): the chance that its four cards are all {}s "
            "is {:.2f}, above 1/3: Stop Kemps!"
        )
        args: tuple[object, ...] = (name, _CardList(tuple(took)), rank, float(chance))
    else:
        text = "From what I know, {} holds four {}s with chance {:.2f}, above 1/3: Stop Kemps!"
        args = (name, rank, float(chance))
    return Decision(Call(seat, True), Thought(text, concluded, args))


__all__ = [
    "STOP_AT",
    "Exposure",
    "after_swaps",
    "exposure",
    "first_callers",
    "rank_cards",
    "seen_chance",
    "signal_thought",
    "stop_call",
]
