"""`mc`: a determinized Monte-Carlo player (perfect-information Monte Carlo, PIMC).

For each decision it draws `samples` deals of the unseen cards from the seat's exact
knowledge (`view.knowledge.sample_world`: uniform over the deals consistent with its
hand and everything played so far), and for every legal card plays each sampled deal out
to its end with a fast rollout policy that sees all hands. The card with the best mean
score difference (our team's deal score minus theirs, nat and pit included) is played;
the same sampled deals serve every card, so the comparison is between cards, not
between deals. Trump is chosen the same way: each suit is played out on sampled deals
from the start (in bidding it passes when no suit scores above zero).

The rollouts run on `Deal`, a small simulator over card indices written for speed; its
legal cards are those of `play.legal_cards` in every setting (the tests compare them)
and it never touches the real state. The rollout policy (`Deal.policy_card`): lead the
highest trump while opponents hold trumps and it is the best left, else a card that is
the best left of its suit, else the cheapest card; follow with the cheapest card that
wins when an opponent is winning (the best winner when another opponent still plays),
throw points on a trick the partner surely wins, and otherwise the cheapest card.
"""

from __future__ import annotations

import functools

from epigames.cards import Card, Suit
from epigames.games.core import View
from epigames.games.klaverjas.actions import Bid
from epigames.games.klaverjas.knowledge import layout_for
from epigames.games.klaverjas.play import (
    PLAYERS,
    card_points,
    klaverjas_deck,
    roem,
    score_deal,
    strength,
    team_of,
)
from epigames.games.klaverjas.views import KlaverjasView
from epigames.games.strategy import Decision, Strategy, Thought, register_strategy

#: Rollouts per card decision of `mc`: the sampled deals are this many divided by the
#: number of legal cards, kept between `MIN_SAMPLES` and `MAX_SAMPLES` (so early cards,
#: with long rollouts and many choices, get fewer deals). Trump choices use `MIN_SAMPLES`
#: deals per suit. Measured times per decision are in docs/klaverjas.md.
ROLLOUTS = 120
MIN_SAMPLES = 12
MAX_SAMPLES = 40

_SUITS = tuple(Suit)


@functools.cache
def _deck(ranks: int) -> tuple[Card, ...]:
    return klaverjas_deck(ranks)


@functools.cache
def _roem_table(ranks: int, trump: Suit, four_kind: bool) -> dict[int, int]:
    """A cache of `play.roem` per complete trick, keyed by the bitmask of its cards."""
    return {}


@functools.cache
def _tables(ranks: int, trump: Suit) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Per card index (deck order): suit index, strength and points with `trump`."""
    deck = _deck(ranks)
    suits = tuple(_SUITS.index(c.suit) for c in deck)
    strengths = tuple(strength(c, trump) for c in deck)
    points = tuple(card_points((c,), trump) for c in deck)
    return suits, strengths, points


class Deal:
    """The rest of one deal with every hand known, for rollouts (card indices, deck order).

    Attributes:
        hands: each seat's cards.
        trick: the cards of the trick on the table, in order, and `seats` their players.
        points, roem, tricks: per team (0 North–South, 1 East–West) so far this deal.
    """

    __slots__ = (
        "amsterdam",
        "deck",
        "four_kind",
        "hands",
        "playing",
        "points",
        "pts",
        "roem",
        "roem_of",
        "seats",
        "strength",
        "suit",
        "trick",
        "tricks",
        "trump",
        "turn",
        "undertrump",
    )

    def __init__(
        self,
        ranks: int,
        trump: Suit,
        rules: str,
        undertrump: str,
        four_kind: bool,
        playing: int,
    ) -> None:
        self.deck = _deck(ranks)
        self.suit, self.strength, self.pts = _tables(ranks, trump)
        self.roem_of = _roem_table(ranks, trump, four_kind)
        self.trump = _SUITS.index(trump)
        self.amsterdam = rules == "amsterdam"
        self.undertrump = undertrump
        self.four_kind = four_kind
        self.playing = playing
        self.hands: list[list[int]] = [[] for _ in range(PLAYERS)]
        self.trick: list[int] = []
        self.seats: list[int] = []
        self.turn = 0
        self.points = [0, 0]
        self.roem = [0, 0]
        self.tricks = [0, 0]

    def copy(self) -> Deal:
        """An independent copy."""
        other = Deal.__new__(Deal)
        other.deck, other.suit, other.strength, other.pts = (
            self.deck,
            self.suit,
            self.strength,
            self.pts,
        )
        other.trump, other.amsterdam, other.undertrump = self.trump, self.amsterdam, self.undertrump
        other.four_kind, other.playing = self.four_kind, self.playing
        other.roem_of = self.roem_of
        other.hands = [list(h) for h in self.hands]
        other.trick, other.seats, other.turn = list(self.trick), list(self.seats), self.turn
        other.points, other.roem, other.tricks = (
            list(self.points),
            list(self.roem),
            list(self.tricks),
        )
        return other

    def next_seat(self) -> int:
        """Whose turn it is."""
        return self.turn

    def winning(self) -> int:
        """The position in the trick of the card winning it so far."""
        trick, suit, st, trump = self.trick, self.suit, self.strength, self.trump
        best = 0
        for i in range(1, len(trick)):
            c, b = trick[i], trick[best]
            if suit[c] == suit[b]:
                if st[c] > st[b]:
                    best = i
            elif suit[c] == trump:
                best = i
        return best

    def legal(self, seat: int) -> list[int]:
        """The cards `seat` may play next (as `play.legal_cards`)."""
        hand, trick = self.hands[seat], self.trick
        if not trick:
            return hand
        suit, st, trump = self.suit, self.strength, self.trump
        led = suit[trick[0]]
        follow = [c for c in hand if suit[c] == led]
        top = max((st[c] for c in trick if suit[c] == trump), default=-1)
        if led == trump:
            if not follow:
                return hand
            return [c for c in follow if st[c] > top] or follow
        if follow:
            return follow
        if self.amsterdam and self.seats[self.winning()] == (seat + 2) % PLAYERS:
            return hand
        trumps = [c for c in hand if suit[c] == trump]
        if not trumps:
            return hand
        if top < 0:
            return trumps
        over = [c for c in trumps if st[c] > top]
        if over:
            return over
        if self.undertrump == "forbid":
            return [c for c in hand if suit[c] != trump] or trumps
        if self.undertrump == "force":
            return trumps
        return hand

    def play(self, seat: int, card: int) -> None:
        """`seat` plays `card`; a fourth card closes the trick and scores it."""
        self.hands[seat].remove(card)
        self.trick.append(card)
        self.seats.append(seat)
        if len(self.trick) < PLAYERS:
            self.turn = (seat + 1) % PLAYERS
            return
        winner = self.seats[self.winning()]
        team = winner % 2
        pts = self.pts
        last = not self.hands[winner]
        self.points[team] += sum(pts[c] for c in self.trick) + (10 if last else 0)
        trick = self.trick
        key = (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])
        bonus = self.roem_of.get(key)
        if bonus is None:
            cards = [self.deck[c] for c in trick]
            bonus = self.roem_of[key] = roem(cards, _SUITS[self.trump], self.four_kind)
        self.roem[team] += bonus
        self.tricks[team] += 1
        self.trick = []
        self.seats = []
        self.turn = winner

    def score(self, team: int) -> int:
        """The deal's score of `team` minus the other's (call at the end of the deal)."""
        scores = score_deal(self.points, self.roem, self.tricks, self.playing).scores
        return scores[team] - scores[1 - team]

    def policy_card(self, seat: int) -> int:
        """The rollout policy's card (all hands known)."""
        legal = self.legal(seat)
        if len(legal) == 1:
            return legal[0]
        suit, st, pts, trump = self.suit, self.strength, self.pts, self.trump

        def cheap(c: int) -> tuple[int, int, int]:
            return (pts[c], suit[c] == trump, st[c])

        trick = self.trick
        hands = self.hands
        if not trick:
            opp = hands[(seat + 1) % PLAYERS] + hands[(seat + 3) % PLAYERS]
            others = opp + hands[(seat + 2) % PLAYERS]
            my_trumps = [c for c in legal if suit[c] == trump]
            if my_trumps and any(suit[c] == trump for c in opp):
                best = max(my_trumps, key=lambda c: st[c])
                if all(st[c] < st[best] for c in others if suit[c] == trump):
                    return best
            for c in sorted(legal, key=lambda c: -pts[c]):
                if suit[c] != trump and all(st[o] < st[c] for o in others if suit[o] == suit[c]):
                    return c
            return min(legal, key=cheap)
        w = self.winning()
        win_card, win_seat = trick[w], self.seats[w]
        led = suit[trick[0]]
        last = len(trick) == PLAYERS - 1

        def beats(c: int, b: int) -> bool:
            if suit[c] == suit[b]:
                return st[c] > st[b]
            return suit[c] == trump

        if win_seat == (seat + 2) % PLAYERS:
            safe = last
            if not safe:
                nxt = hands[(seat + 1) % PLAYERS]
                nfollow = [c for c in nxt if suit[c] == led]
                pool = nfollow if nfollow else nxt
                safe = not any(beats(c, win_card) for c in pool)
            if safe:
                plain = [c for c in legal if suit[c] != trump]
                if plain:
                    return max(plain, key=lambda c: (pts[c], st[c]))
            return min(legal, key=cheap)
        winners = [c for c in legal if beats(c, win_card)]
        if winners:
            if last:
                return min(winners, key=lambda c: (suit[c] == trump, st[c]))
            return max(winners, key=lambda c: (suit[c] != trump, st[c]))
        return min(legal, key=cheap)

    def rollout(self) -> None:
        """Play the deal out with the rollout policy."""
        hands = self.hands
        while any(hands):
            seat = self.next_seat()
            self.play(seat, self.policy_card(seat))


class MonteCarlo(Strategy):
    """PIMC: sampled deals from exact knowledge, each legal card played out on every one."""

    name = "mc"
    rollouts = ROLLOUTS
    min_samples = MIN_SAMPLES
    max_samples = MAX_SAMPLES

    def _deal(self, view: KlaverjasView, trump: Suit, playing: int) -> Deal:
        game = view.game
        return Deal(
            getattr(game, "ranks", 8),
            trump,
            getattr(game, "rules", "amsterdam"),
            getattr(game, "undertrump", "forbid"),
            getattr(game, "four_kind", True),
            playing,
        )

    def _worlds(self, view: KlaverjasView, samples: int) -> list[list[list[int]]]:
        """`samples` sampled hands (card indices per seat), the seat's own included."""
        knowledge = view.knowledge
        rng = self.rng
        cards = layout_for(getattr(view.game, "ranks", 8)).cards
        assert len(cards) == len(_deck(getattr(view.game, "ranks", 8)))
        out = []
        for _ in range(samples):
            world = knowledge.sample_world(rng)
            hands: list[list[int]] = [[] for _ in range(PLAYERS)]
            for index, holder in enumerate(world):
                if 0 <= holder < PLAYERS:
                    hands[holder].append(index)
            out.append(hands)
        return out

    def choose(self, view: View) -> Decision:
        """The card (or trump call) with the best mean score difference over sampled deals."""
        assert isinstance(view, KlaverjasView)
        if view.trump is None:
            return self._choose_trump(view)
        legal = [c for c in view.legal_actions if isinstance(c, Card)]
        if len(legal) == 1:
            card = legal[0]
            return Decision(
                card, Thought(f"I play {card}: it is my only legal card.", frozenset([card]))
            )
        trump, trick, playing = view.trump, view.trick, view.playing_team
        assert trick is not None and playing is not None
        deck = _deck(getattr(view.game, "ranks", 8))
        index = {c: i for i, c in enumerate(deck)}
        base = self._deal(view, trump, playing)
        table = view.table
        base.points, base.roem, base.tricks = (
            list(table.points),
            list(table.roem),
            list(table.tricks),
        )
        if trick.plays:
            base.trick = [index[p.card] for p in trick.plays]
            base.seats = [p.seat for p in trick.plays]
        base.turn = view.seat
        team = team_of(view.seat)
        totals = [0] * len(legal)
        samples = self.rollouts // len(legal)
        samples = max(self.min_samples, min(self.max_samples, samples))
        worlds = self._worlds(view, samples)
        for hands in worlds:
            base.hands = hands
            for i, card in enumerate(legal):
                deal = base.copy()
                deal.play(view.seat, index[card])
                deal.rollout()
                totals[i] += deal.score(team)
        n = len(worlds)
        order = sorted(range(len(legal)), key=lambda i: -totals[i])
        best, second = legal[order[0]], legal[order[1]]
        text = (
            f"I play {best}: over {n} sampled deals it scores {totals[order[0]] / n:+.1f} "
            f"for us on average, the best of {len(legal)} cards (next {second} "
            f"{totals[order[1]] / n:+.1f})."
        )
        return Decision(best, Thought(text, frozenset([best, second])))

    def _choose_trump(self, view: KlaverjasView) -> Decision:
        legal = [b for b in view.legal_actions if isinstance(b, Bid)]
        team = team_of(view.seat)
        eldest = view.table.eldest
        worlds = self._worlds(view, self.min_samples)
        means: list[tuple[float, int, Bid]] = []
        for i, bid in enumerate(legal):
            if bid.suit is None:
                continue
            base = self._deal(view, bid.suit, team)
            base.turn = eldest
            total = 0
            for hands in worlds:
                deal = base.copy()
                deal.hands = [list(h) for h in hands]
                deal.rollout()
                total += deal.score(team)
            means.append((total / len(worlds), -i, bid))
        mean, _, best = max(means)
        assert best.suit is not None
        passing = [b for b in legal if b.suit is None]
        if passing and mean <= 0:
            return Decision(
                passing[0],
                Thought(
                    f"I pass: no suit scores above zero for us over {len(worlds)} sampled deals."
                ),
            )
        return Decision(
            best,
            Thought(
                f"I choose {best.suit} as trump: over {len(worlds)} sampled deals it scores "
                f"{mean:+.1f} for us on average, the best suit."
            ),
        )


@register_strategy("klaverjas", "mc")
class MonteCarloPlayer(MonteCarlo):
    """PIMC with `ROLLOUTS` rollouts per card decision."""

    name = "mc"
