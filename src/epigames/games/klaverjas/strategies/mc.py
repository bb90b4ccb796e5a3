"""`mc`: a determinized Monte-Carlo player (perfect-information Monte Carlo, PIMC).

For each decision it draws deals of the unseen cards from the seat's exact knowledge
(`view.knowledge.sample_world`: uniform over the deals consistent with its hand and
everything played so far), and for every legal card plays each sampled deal out to its
end with a fast rollout policy that sees all hands. The card with the best mean score
difference (our team's deal score minus theirs, nat and pit included) is played; the
same sampled deals serve every card, so the comparison is between cards, not between
deals. Trump is chosen the same way: each suit is played out from the first lead on the
same sampled deals (in bidding it passes when no suit scores above zero).

The sampled deals do not all count alike: a deal counts `SURPRISE` times less for each
card the other players played in this deal that the rollout policy, in their place and
on that deal's hands, would not have played. Deals that explain the play so far weigh
more (a cheap model of the other players; uniform sampling alone ignores what their
choices tell).

The rollouts run in `rollout` (the card play over bitmasks: a hand is one integer and
"higher in the suit" is a mask), compiled by numba where it is installed; `Sim` holds a
setting's table. Its legal cards are those of `play.legal_cards` in every setting, its
roem that of `play.roem` and its deal scores those of the rules (the tests compare
them); it never touches the real state. The rollout policy is `rollout.pick`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from epigames.cards import Card, Suit
from epigames.games.core import View
from epigames.games.klaverjas.actions import Bid
from epigames.games.klaverjas.play import PLAYERS, card_points, klaverjas_deck, strength, team_of
from epigames.games.klaverjas.strategies.tactics import hand_score
from epigames.games.klaverjas.views import KlaverjasView
from epigames.games.strategy import Decision, Strategy, Thought, register_strategy

if TYPE_CHECKING:
    from epigames.games.klaverjas.strategies import rollout

#: The work of one decision of `mc`, in units of a compiled rollout's card play. With
#: the rollouts compiled (`rollout`), drawing a deal from the card engine costs most:
#: `SAMPLE_COST` plus `CARD_COST` per card still to play; a rollout costs one unit per
#: card it plays. So a decision among `k` choices with `n` cards still to play in the
#: deal samples `BUDGET // (SAMPLE_COST + n * (CARD_COST + k))` deals, kept between
#: `MIN_SAMPLES` and `MAX_SAMPLES`: the time per decision stays about even over the deal,
#: where a fixed number of deals would make the first tricks' decisions the slowest by far
#: (the first lead samples 669 deals, a choice of two with two tricks left 2,000). A
#: trump choice counts each suit as a choice. Measured times are in docs/klaverjas.md.
BUDGET = 600_000
SAMPLE_COST = 160
CARD_COST = 15
MIN_SAMPLES = 8
MAX_SAMPLES = 2_000
#: How much less a sampled deal counts for each card of this deal the others played that
#: the rollout policy would not have played in their place (see `MonteCarlo.weights`):
#: against `tactics`, the weights predict who holds what better than uniform deals do
#: (docs/klaverjas.md: Brier score 0.634 with all deals alike, 0.616 with 0.3).
SURPRISE = 0.3
#: The weight of an unsurprising sampled deal (see `MonteCarlo.weights`).
WEIGHT_UNIT = 1 << 20

_SUITS = tuple(Suit)
_SUIT_MASKS = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)


class Sim:
    """Card play over bitmasks, for one deck, trump and rule set: `rollout`'s table and
    its functions as methods.

    A card is a bit, `8 * suit + strength - 1` (suits in `Suit` order, `strength` under
    this trump), so within a suit a higher bit is a higher card. A hand is an int. The
    trick and the deal's account are as in `rollout`.

    Attributes:
        bit_of: each card's bit.
        deck_bits: the bits of `play.klaverjas_deck` in its order (the order of the card
            engine's layout, so of `sample_world`).
        pts: card points per bit.
        table: the setting as `rollout` reads it (a numpy array when it is compiled).

    `rollout` is imported where it is used, not with this module: it imports numba (half
    a second and tens of megabytes), which a process that registers `mc` and never builds
    a simulator should not pay for.
    """

    __slots__ = ("bit_of", "deck_bits", "pts", "strength", "t", "table")

    def __init__(
        self, ranks: int, trump: Suit, rules: str, undertrump: str, four_kind: bool
    ) -> None:
        from epigames.games.klaverjas.strategies import rollout  # see `Sim`

        deck = klaverjas_deck(ranks)
        self.t = _SUITS.index(trump)
        self.bit_of = {c: 8 * _SUITS.index(c.suit) + strength(c, trump) - 1 for c in deck}
        self.deck_bits = tuple(self.bit_of[c] for c in deck)
        self.pts = [0] * 32
        rank_of = [-1] * 32
        for c, b in self.bit_of.items():
            self.pts[b] = card_points((c,), trump)
            # The roem order: 7 is 0 … A is 7 in every suit.
            rank_of[b] = c.rank.value - 7
        table = [0] * rollout.TABLE_SIZE
        for b in range(32):
            table[rollout.ABOVE + b] = _SUIT_MASKS[b >> 3] & ~((2 << b) - 1)
            table[rollout.PTS + b] = self.pts[b]
        # `cheap` takes the lowest card of the first of these masks that meets the legal
        # cards: fewest points first, a plain card before a trump, then the lowest.
        keys: dict[int, int] = {}
        for b in self.deck_bits:
            k = self.pts[b] * 64 + (32 if b >> 3 == self.t else 0) + (b & 7)
            keys[k] = keys.get(k, 0) | 1 << b
        for i, k in enumerate(sorted(keys)):
            table[rollout.CHEAP + i] = keys[k]
        table[rollout.CHEAP_COUNT] = len(keys)
        # Sequence roem per suit, for each of the 256 patterns of the suit's eight bits.
        for s in range(4):
            for p in range(256):
                ranks_held = [rank_of[8 * s + i] for i in range(8) if p >> i & 1]
                best = run = 0
                for r in range(8):
                    run = run + 1 if r in ranks_held else 0
                    best = max(best, run)
                table[rollout.RUNS + 256 * s + p] = 50 if best >= 4 else 20 if best == 3 else 0
        kq = sum(
            1 << b
            for c, b in self.bit_of.items()
            if c.suit is trump and c.rank.name in ("KING", "QUEEN")
        )
        # Stuk needs both cards; a deck without one of them (ranks < 8) gets a mask no
        # trick can cover.
        table[rollout.STUK] = kq if kq.bit_count() == 2 else 1 << 32
        # Four of a kind: the trick of one rank's four cards. Four jacks 200; four tens,
        # queens, kings or aces 100.
        fours = 0
        if four_kind:
            for rank in sorted(set(rank_of) - {-1}):
                bonus = 200 if rank == 4 else 100 if rank >= 3 else 0
                cards = [b for b in range(32) if rank_of[b] == rank]
                if bonus and len(cards) == PLAYERS:
                    table[rollout.FOUR + 2 * fours] = sum(1 << b for b in cards)
                    table[rollout.FOUR + 2 * fours + 1] = bonus
                    fours += 1
        table[rollout.FOUR_COUNT] = fours
        table[rollout.TRUMP] = self.t
        table[rollout.TRUMP_MASK] = _SUIT_MASKS[self.t]
        table[rollout.AMSTERDAM] = int(rules == "amsterdam")
        table[rollout.UNDERTRUMP] = rollout.UNDERTRUMP_CODES[undertrump]
        self.table = rollout.ints(table)
        # What each card adds to a hand's strength per suit as trump (`hand_score`, the
        # tactics' trump policy), by bit: how `mc` judges a named trump.
        adds = [0] * (4 * 32)
        for c, b in self.bit_of.items():
            for u, suit in enumerate(_SUITS):
                adds[4 * b + u] = hand_score((c,), suit)
        self.strength = rollout.ints(adds)

    def mask(self, cards: Sequence[Card]) -> int:
        """The bitmask of some cards."""
        m = 0
        for c in cards:
            m |= 1 << self.bit_of[c]
        return m

    def legal(self, hand: int, seat: int, n: int, led: int, wbit: int, wseat: int) -> int:
        """The cards of `hand` that `seat` may play to the trick (as `play.legal_cards`)."""
        from epigames.games.klaverjas.strategies import rollout  # see `Sim`

        return int(rollout.legal(self.table, hand, seat, n, led, wbit, wseat))

    def trick_roem(self, tmask: int) -> int:
        """The roem of a complete trick (as `play.roem`)."""
        from epigames.games.klaverjas.strategies import rollout  # see `Sim`

        return int(rollout.trick_roem(self.table, tmask))

    @staticmethod
    def score(acc: Sequence[int], playing: int, team: int) -> int:
        """`team`'s deal score minus the other's, from a finished deal's `acc` (as
        `play.score_deal`)."""
        from epigames.games.klaverjas.strategies import rollout  # see `Sim`

        return int(rollout.score(rollout.ints(acc), playing, team))


@functools.cache
def sim_for(ranks: int, trump: Suit, rules: str, undertrump: str, four_kind: bool) -> Sim:
    """The simulator of one setting and trump (shared: building it costs some milliseconds)."""
    return Sim(ranks, trump, rules, undertrump, four_kind)


class Deal:
    """One deal on `Sim`, over deck indices (`play.klaverjas_deck` order), card by card:
    how the tests compare the simulator with the rules.

    Attributes:
        hands: each seat's cards (deck indices).
        turn: the seat to play.
        acc: the deal so far per team (see `Sim`).
    """

    def __init__(
        self, ranks: int, trump: Suit, rules: str, undertrump: str, four_kind: bool, playing: int
    ) -> None:
        self.sim = sim_for(ranks, trump, rules, undertrump, four_kind)
        self.playing = playing
        self.hands: list[list[int]] = [[] for _ in range(PLAYERS)]
        self.turn = 0
        self.acc = [0] * 6
        self._bits = self.sim.deck_bits
        self._trick = (0, 0, 0, 0, 0, 0)  # n, led, wbit, wseat, tmask, tpts

    def next_seat(self) -> int:
        """Whose turn it is."""
        return self.turn

    def legal(self, seat: int) -> list[int]:
        """The cards `seat` may play next (as `play.legal_cards`)."""
        hand = sum(1 << self._bits[i] for i in self.hands[seat])
        n, led, wbit, wseat, _, _ = self._trick
        m = self.sim.legal(hand, seat, n, led, wbit, wseat)
        return sorted(i for i in self.hands[seat] if m >> self._bits[i] & 1)

    def play(self, seat: int, card: int) -> None:
        """`seat` plays `card`; a fourth card closes the trick and scores it."""
        assert seat == self.turn
        self.hands[seat].remove(card)
        sim, bit = self.sim, self._bits[card]
        n, led, wbit, wseat, tmask, tpts = self._trick
        if n == 0:
            led, wbit, wseat = bit >> 3, bit, seat
        elif (bit >> 3 == wbit >> 3 and bit > wbit) or (bit >> 3 == sim.t and wbit >> 3 != sim.t):
            wbit, wseat = bit, seat
        n, tmask, tpts = n + 1, tmask | 1 << bit, tpts + sim.pts[bit]
        self._trick = (n, led, wbit, wseat, tmask, tpts)
        self.turn = (seat + 1) % PLAYERS
        if n == PLAYERS:
            team = wseat % 2
            self.acc[team] += tpts + (0 if any(self.hands) else 10)
            self.acc[2 + team] += sim.trick_roem(tmask)
            self.acc[4 + team] += 1
            self._trick = (0, 0, 0, 0, 0, 0)
            self.turn = wseat

    def score(self, team: int) -> int:
        """The deal's score of `team` minus the other's (call at the end of the deal)."""
        return Sim.score(self.acc, self.playing, team)


class MonteCarlo(Strategy):
    """PIMC: sampled deals from exact knowledge, each legal card played out on every one.

    The work per decision is set by the class attributes (see `BUDGET`).
    """

    name = "mc"
    budget = BUDGET
    sample_cost = SAMPLE_COST
    card_cost = CARD_COST
    min_samples = MIN_SAMPLES
    max_samples = MAX_SAMPLES
    surprise: float | None = SURPRISE

    def samples(self, choices: int, left: int) -> int:
        """Deals to sample for a decision among `choices` with `left` cards still to play."""
        cost = self.sample_cost + left * (self.card_cost + choices)
        return max(self.min_samples, min(self.max_samples, self.budget // cost))

    def _sim(self, view: KlaverjasView, trump: Suit) -> Sim:
        game = view.game
        return sim_for(
            getattr(game, "ranks", 8),
            trump,
            getattr(game, "rules", "amsterdam"),
            getattr(game, "undertrump", "forbid"),
            getattr(game, "four_kind", True),
        )

    def _worlds(self, view: KlaverjasView, samples: int) -> rollout.Rows:
        """`samples` deals drawn from the seat's knowledge (a holder per deck card).

        Each deal goes into its row at once: a thousand deals kept as tuples until the end
        would outlive the young generation and bring on full garbage collections.
        """
        from epigames.games.klaverjas.strategies import rollout  # see `Sim`

        knowledge = view.knowledge
        if knowledge.worlds_count() == 1:
            # Every holder is known: the one consistent deal is all there is to play out.
            samples = 1
        rng = self.rng
        worlds = rollout.zeros(samples, knowledge.layout.n_cards)
        for s in range(samples):
            worlds[s] = knowledge.sample_world(rng)
        return worlds

    @staticmethod
    def _hands(sim: Sim, worlds: rollout.Rows) -> rollout.Rows:
        """Each sampled deal's four hands, as `rollout` takes them."""
        from epigames.games.klaverjas.strategies import rollout  # see `Sim`

        hands = rollout.zeros(len(worlds), PLAYERS)
        rollout.world_hands(rollout.ints(sim.deck_bits), worlds, hands)
        return hands

    def choose(self, view: View) -> Decision:
        """The card (or trump call) with the best mean score difference over sampled deals."""
        assert isinstance(view, KlaverjasView)
        if view.trump is None:
            return self._choose_trump(view)
        legal = [c for c in view.legal_actions if isinstance(c, Card)]
        if len(legal) == 1:
            card = legal[0]
            only = "I play {}: it is my only legal card."
            return Decision(card, Thought(only, args=(card,)))
        means, count = self.card_values(view, legal)
        order = sorted(range(len(legal)), key=lambda i: -means[i])
        best, second = legal[order[0]], legal[order[1]]
        text = (
            "I play {}: over {} sampled deals (weighed by how well they explain the play so "
            "far) it scores {:+.1f} for us on average, the best of {} cards (next {} {:+.1f})."
        )
        args = (best, count, means[order[0]], len(legal), second, means[order[1]])
        return Decision(best, Thought(text, args=args))

    def card_values(
        self, view: KlaverjasView, legal: Sequence[Card], samples: int | None = None
    ) -> tuple[list[float], int]:
        """Each card's mean score difference for our team over sampled deals (played out
        to the end of the deal), and the number of deals (`samples` if given)."""
        trump, trick, playing = view.trump, view.trick, view.playing_team
        assert trump is not None and trick is not None and playing is not None
        sim = self._sim(view, trump)
        table = view.table
        acc0 = [*table.points, *table.roem, *table.tricks]
        n = led = wbit = wseat = tmask = tpts = 0
        for play in trick.plays:
            bit = sim.bit_of[play.card]
            if n == 0:
                led, wbit, wseat = bit >> 3, bit, play.seat
            elif (bit >> 3 == wbit >> 3 and bit > wbit) or (
                bit >> 3 == sim.t and wbit >> 3 != sim.t
            ):
                wbit, wseat = bit, play.seat
            tmask |= 1 << bit
            tpts += sim.pts[bit]
            n += 1
        seat = view.seat
        if samples is None:
            samples = self.samples(len(legal), PLAYERS * len(view.hand) - n)
        worlds = self._worlds(view, samples)
        hands = self._hands(sim, worlds)
        weights = self.weights(sim, hands, view)
        from epigames.games.klaverjas.strategies import rollout  # see `Sim`

        totals = rollout.ints([0] * len(legal))
        rollout.card_totals(
            sim.table,
            hands,
            rollout.ints([sim.bit_of[c] for c in legal]),
            seat,
            rollout.ints([n, led, wbit, wseat, tmask, tpts]),
            rollout.ints(acc0),
            playing,
            weights,
            totals,
        )
        weight = sum(int(w) for w in weights)
        return [int(total) / weight for total in totals], len(worlds)

    def weights(self, sim: Sim, hands: rollout.Rows, view: KlaverjasView) -> rollout.Ints:
        """How much each sampled deal counts: `surprise ** k` (in units of `WEIGHT_UNIT`)
        for a deal in which the rollout policy, in the other players' places, would have
        played `k` of their cards of this deal otherwise; all alike without `surprise`."""
        from epigames.games.klaverjas.strategies import rollout  # see `Sim`

        if self.surprise is None:
            return rollout.ints([1] * len(hands))
        plays = [x for play in view.deal_plays for x in (play.seat, sim.bit_of[play.card])]
        chooser = view.trump_chooser
        chooser = -1 if chooser is None or chooser == view.seat else chooser
        counts = rollout.ints([0] * len(hands))
        rollout.surprises(
            sim.table, hands, rollout.ints(plays), view.seat, chooser, sim.strength, counts
        )
        scale = [round(WEIGHT_UNIT * self.surprise**k) for k in range(4 * 8)]
        weights = [scale[min(int(k), len(scale) - 1)] for k in counts]
        # Every deal surprising beyond the scale: count them alike rather than not at all.
        return rollout.ints(weights if any(weights) else [1] * len(hands))

    def trump_values(
        self, view: KlaverjasView, suits: Sequence[Suit], samples: int | None = None
    ) -> tuple[list[float], int]:
        """Each suit's mean score difference as trump for our team (the playing team),
        over sampled deals played out from the first lead, and the number of deals."""
        team = team_of(view.seat)
        eldest = view.table.eldest
        if samples is None:
            samples = self.samples(len(suits), PLAYERS * len(view.hand))
        # The same deals for every suit: who holds which card does not depend on trump.
        worlds = self._worlds(view, samples)
        means = []
        for suit in suits:
            sim = self._sim(view, suit)
            hands = self._hands(sim, worlds)
            from epigames.games.klaverjas.strategies import rollout  # see `Sim`

            total = rollout.deal_total(sim.table, hands, eldest, team, rollout.ints([0] * 6))
            means.append(int(total) / len(worlds))
        return means, len(worlds)

    def _choose_trump(self, view: KlaverjasView) -> Decision:
        legal = [b for b in view.legal_actions if isinstance(b, Bid)]
        calls = [b for b in legal if b.suit is not None]
        means, count = self.trump_values(view, [b.suit for b in calls if b.suit is not None])
        mean, _, best = max((m, -i, b) for i, (m, b) in enumerate(zip(means, calls, strict=True)))
        passing = [b for b in legal if b.suit is None]
        if passing and mean <= 0:
            return Decision(
                passing[0],
                Thought(
                    "I pass: no suit scores above zero for us over {} sampled deals.", args=(count,)
                ),
            )
        return Decision(
            best,
            Thought(
                "I choose {} as trump: over {} sampled deals it scores {:+.1f} for us on "
                "average, the best suit.",
                args=(best.suit, count, mean),
            ),
        )


@register_strategy(
    "klaverjas",
    "mc",
    about="Plays out many deals that fit what it knows and plays the card that scores best "
    "on them (strong, and slow).",
)
class MonteCarloPlayer(MonteCarlo):
    """PIMC with the default work per decision (`BUDGET`)."""
