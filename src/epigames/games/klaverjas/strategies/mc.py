"""`mc`: a determinized Monte-Carlo player (perfect-information Monte Carlo, PIMC).

For each decision it draws deals of the unseen cards from the seat's exact knowledge
(`view.knowledge.sample_world`: uniform over the deals consistent with its hand and
everything played so far), and for every legal card plays each sampled deal out to its
end with a fast rollout policy that sees all hands. The card with the best mean score
difference (our team's deal score minus theirs, nat and pit included) is played; the
same sampled deals serve every card, so the comparison is between cards, not between
deals. Trump is chosen the same way: each suit is played out from the first lead on the
same sampled deals (in bidding it passes when no suit scores above zero).

The rollouts run on `Sim`, the card play over bitmasks: a hand is one integer and
"higher in the suit" is a mask, so a rollout of a whole deal takes some 60 µs. Its legal
cards are those of `play.legal_cards` in every setting, its roem that of `play.roem` and
its deal scores those of the rules (the tests compare them); it never touches the real
state. The rollout policy is `Sim.pick`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from epigames.cards import Card, Suit
from epigames.games.core import View
from epigames.games.klaverjas.actions import Bid
from epigames.games.klaverjas.play import PLAYERS, card_points, klaverjas_deck, strength, team_of
from epigames.games.klaverjas.views import KlaverjasView
from epigames.games.strategy import Decision, Strategy, Thought, register_strategy

#: The work of one decision of `mc`, counted in simulated card plays. A sampled deal
#: costs `SAMPLE_COST` plays and a rollout `ROLLOUT_COST` plus the cards it plays, so a
#: decision among `k` choices with `n` cards still to play in the deal samples
#: `BUDGET // (SAMPLE_COST + k * (ROLLOUT_COST + n))` deals, kept between `MIN_SAMPLES`
#: and `MAX_SAMPLES`: the time per decision stays about even over the deal, where a
#: fixed number of deals would make the first tricks' decisions the slowest by far. A
#: trump choice counts each suit as a choice. Measured times are in docs/klaverjas.md.
BUDGET = 30_000
SAMPLE_COST = 20
ROLLOUT_COST = 4
MIN_SAMPLES = 8
MAX_SAMPLES = 300

_SUITS = tuple(Suit)
_SUIT_MASKS = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)


def _low(mask: int) -> int:
    """The lowest card (bit) of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


class Sim:
    """Card play over bitmasks, for one deck, trump and rule set.

    A card is a bit, `8 * suit + strength - 1` (suits in `Suit` order, `strength` under
    this trump), so within a suit a higher bit is a higher card. A hand is an int. The
    trick on the table is `n` cards led in suit `led`, won so far by card `wbit` of seat
    `wseat`, its cards `tmask` and their points `tpts`. The deal so far is `acc`, per
    team (0 North–South, 1 East–West): points at 0 and 1, roem at 2 and 3, tricks at 4
    and 5.

    Attributes:
        bit_of: each card's bit.
        deck_bits: the bits of `play.klaverjas_deck` in its order (the order of the card
            engine's layout, so of `sample_world`).
        pts: card points per bit.
    """

    __slots__ = (
        "above",
        "amsterdam",
        "bit_of",
        "cheap_order",
        "deck_bits",
        "four",
        "kq",
        "pts",
        "rank_of",
        "runs",
        "t",
        "tm",
        "undertrump",
    )

    def __init__(
        self, ranks: int, trump: Suit, rules: str, undertrump: str, four_kind: bool
    ) -> None:
        deck = klaverjas_deck(ranks)
        self.t = _SUITS.index(trump)
        self.tm = _SUIT_MASKS[self.t]
        self.amsterdam = rules == "amsterdam"
        self.undertrump = undertrump
        self.bit_of = {c: 8 * _SUITS.index(c.suit) + strength(c, trump) - 1 for c in deck}
        self.deck_bits = tuple(self.bit_of[c] for c in deck)
        self.pts = [0] * 32
        self.rank_of = [-1] * 32
        for c, b in self.bit_of.items():
            self.pts[b] = card_points((c,), trump)
            # The roem order: 7 is 0 … A is 7 in every suit.
            self.rank_of[b] = c.rank.value - 7
        self.above = [_SUIT_MASKS[b >> 3] & ~((2 << b) - 1) for b in range(32)]
        # `cheap` takes the lowest card of the first of these masks that meets the legal
        # cards: fewest points first, a plain card before a trump, then the lowest.
        keys: dict[int, int] = {}
        for b in self.deck_bits:
            k = self.pts[b] * 64 + (32 if b >> 3 == self.t else 0) + (b & 7)
            keys[k] = keys.get(k, 0) | 1 << b
        self.cheap_order = tuple(keys[k] for k in sorted(keys))
        # Sequence roem per suit, for each of the 256 patterns of the suit's eight bits.
        self.runs: list[list[int]] = []
        for s in range(4):
            table = []
            for p in range(256):
                ranks_held = [self.rank_of[8 * s + i] for i in range(8) if p >> i & 1]
                best = run = 0
                for r in range(8):
                    run = run + 1 if r in ranks_held else 0
                    best = max(best, run)
                table.append(50 if best >= 4 else 20 if best == 3 else 0)
            self.runs.append(table)
        kq = sum(
            1 << b
            for c, b in self.bit_of.items()
            if c.suit is trump and c.rank.name in ("KING", "QUEEN")
        )
        # Stuk needs both cards; a deck without one of them (ranks < 8) gets a mask no
        # trick can cover.
        self.kq = kq if kq.bit_count() == 2 else 1 << 32
        # Four of a kind: the trick of one rank's four cards. Four jacks 200; four tens,
        # queens, kings or aces 100.
        self.four: dict[int, int] = {}
        if four_kind:
            for rank in set(self.rank_of) - {-1}:
                bonus = 200 if rank == 4 else 100 if rank >= 3 else 0
                cards = [b for b in range(32) if self.rank_of[b] == rank]
                if bonus and len(cards) == PLAYERS:
                    self.four[sum(1 << b for b in cards)] = bonus

    def mask(self, cards: Sequence[Card]) -> int:
        """The bitmask of some cards."""
        m = 0
        for c in cards:
            m |= 1 << self.bit_of[c]
        return m

    def legal(self, hand: int, seat: int, n: int, led: int, wbit: int, wseat: int) -> int:
        """The cards of `hand` that `seat` may play to the trick (as `play.legal_cards`)."""
        if n == 0:
            return hand
        follow = hand & _SUIT_MASKS[led]
        if led == self.t:
            # A trump lead is won by the highest trump in the trick, so `wbit` is it.
            return (follow & self.above[wbit]) or follow or hand
        if follow:
            return follow
        if self.amsterdam and wseat == seat ^ 2:
            return hand
        trumps = hand & self.tm
        if not trumps:
            return hand
        if wbit >> 3 != self.t:
            return trumps
        over = trumps & self.above[wbit]
        if over:
            return over
        if self.undertrump == "forbid":
            return (hand & ~self.tm) or trumps
        if self.undertrump == "force":
            return trumps
        return hand

    def trick_roem(self, tmask: int) -> int:
        """The roem of a complete trick (as `play.roem`)."""
        runs = self.runs
        return (
            runs[0][tmask & 0xFF]
            + runs[1][tmask >> 8 & 0xFF]
            + runs[2][tmask >> 16 & 0xFF]
            + runs[3][tmask >> 24]
            + (20 if tmask & self.kq == self.kq else 0)
            + self.four.get(tmask, 0)
        )

    def cheap(self, legal: int) -> int:
        """The cheapest card: fewest points, a plain card before a trump, then the lowest."""
        for m in self.cheap_order:
            m &= legal
            if m:
                return _low(m)
        raise ValueError("no card to play")

    def can_beat(self, hand: int, x: int, led: int) -> bool:
        """Whether a player with `hand`, playing after `x` wins the trick, could beat it."""
        follow = hand & _SUIT_MASKS[led]
        if follow:
            return x >> 3 == led and bool(follow & self.above[x])
        trumps = hand & self.tm
        if not trumps:
            return False
        return x >> 3 != self.t or bool(trumps & self.above[x])

    def pick(
        self, h: list[int], seat: int, legal: int, n: int, led: int, wbit: int, wseat: int
    ) -> int:
        """The rollout policy's card, all hands `h` known.

        Lead: the highest trump when it is the best left and an opponent holds trumps;
        a low trump when the partner holds the best one; else the plain card worth most
        that is the best left of its suit and that no opponent can trump; else a low card
        of a suit the partner wins for sure; else the cheapest card, a plain one if any.
        Follow, the partner winning for sure: throw the plain card worth most (a suit's
        best card is kept back); the partner winning but beatable by the next player:
        the cheapest card that the next player cannot beat. An opponent winning: last
        to play, the cheapest card that wins; else the cheapest winner the opponent
        still to play cannot beat. Otherwise the cheapest card. (Each rule was kept
        when it beat the policy without it in duels of policies on open hands.)
        """
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        t, tm, above, pts = self.t, self.tm, self.above, self.pts
        partner = seat ^ 2
        if n == 0:
            o1, o3 = h[seat ^ 1], h[seat ^ 3]
            opp = o1 | o3
            others = opp | h[partner]
            mine = legal & tm
            if mine and opp & tm:
                top = mine.bit_length() - 1
                if not others & above[top]:
                    return top
                theirs = h[partner] & tm
                if theirs and not opp & above[theirs.bit_length() - 1]:
                    return _low(mine)
            best, best_pts = -1, -1
            for s in range(4):
                sm = _SUIT_MASKS[s]
                m = legal & sm
                if s == t or not m:
                    continue
                c = m.bit_length() - 1
                if others & above[c]:
                    continue
                if (not o1 & sm and o1 & tm) or (not o3 & sm and o3 & tm):
                    continue
                if pts[c] > best_pts:
                    best, best_pts = c, pts[c]
            if best >= 0:
                return best
            ph = h[partner]
            for s in range(4):
                sm = _SUIT_MASKS[s]
                m, pm = legal & sm, ph & sm
                if s == t or not m or not pm or opp & above[pm.bit_length() - 1]:
                    continue
                if (not o1 & sm and o1 & tm) or (not o3 & sm and o3 & tm):
                    continue
                return _low(m)
            return self.cheap(legal & ~tm or legal)
        nxt = h[(seat + 1) & 3]
        if wseat == partner:
            if n == 3 or not self.can_beat(nxt, wbit, led):
                plain = legal & ~tm
                if not plain:
                    return self.cheap(legal)
                others = h[seat ^ 1] | h[seat ^ 3] | h[partner]
                best, best_pts = -1, -1
                for s in range(4):
                    m = plain & _SUIT_MASKS[s]
                    if not m:
                        continue
                    c = m.bit_length() - 1
                    if not others & above[c]:
                        c = _low(m)
                    if pts[c] > best_pts:
                        best, best_pts = c, pts[c]
                return best
            groups: tuple[int, ...] = (legal & (above[wbit] | (tm if wbit >> 3 != t else 0)),)
        else:
            win = legal & (above[wbit] | (tm if wbit >> 3 != t else 0))
            if not win:
                return self.cheap(legal)
            plain = win & ~tm
            if n == 3:
                return _low(plain or win)
            # The one opponent still to play sits next: a second hand's partner is last.
            groups = (plain, win & tm)
        # The cheapest winning card (of the first group that has one) the next player
        # cannot beat.
        for group in groups:
            while group:
                c = _low(group)
                if not self.can_beat(nxt, c, led):
                    return c
                group &= group - 1
        return self.cheap(legal)

    def finish(
        self,
        h: list[int],
        turn: int,
        n: int,
        led: int,
        wbit: int,
        wseat: int,
        tmask: int,
        tpts: int,
        acc: list[int],
        first: int = -1,
    ) -> None:
        """Play the deal out with the rollout policy, `turn` to play (`first`, if given).

        `h` and `acc` are updated in place.
        """
        t, pts, pick, legal = self.t, self.pts, self.pick, self.legal
        trick_roem = self.trick_roem
        card = first
        while True:
            seat = turn
            if card < 0:
                hand = h[seat]
                if not hand:
                    return
                card = pick(h, seat, legal(hand, seat, n, led, wbit, wseat), n, led, wbit, wseat)
            bit = 1 << card
            h[seat] ^= bit
            if n == 0:
                led, wbit, wseat, tmask, tpts = card >> 3, card, seat, bit, pts[card]
            else:
                if (card >> 3 == wbit >> 3 and card > wbit) or (card >> 3 == t and wbit >> 3 != t):
                    wbit, wseat = card, seat
                tmask |= bit
                tpts += pts[card]
            card = -1
            n += 1
            if n < PLAYERS:
                turn = (seat + 1) & 3
                continue
            team = wseat & 1
            if not (h[0] | h[1] | h[2] | h[3]):
                tpts += 10
            acc[team] += tpts
            acc[2 + team] += trick_roem(tmask)
            acc[4 + team] += 1
            n = 0
            turn = wseat

    @staticmethod
    def score(acc: Sequence[int], playing: int, team: int) -> int:
        """`team`'s deal score minus the other's, from a finished deal's `acc` (as
        `play.score_deal`: nat, the playing team scores nothing and the defenders
        everything; pit, 100 more)."""
        s0, s1 = acc[0] + acc[2], acc[1] + acc[3]
        if playing == 0:
            d = -(s0 + s1) if s0 <= s1 else s0 - s1 + (100 if acc[5] == 0 else 0)
        else:
            d = s0 + s1 if s1 <= s0 else s0 - s1 - (100 if acc[4] == 0 else 0)
        return d if team == 0 else -d


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
    rollout_cost = ROLLOUT_COST
    min_samples = MIN_SAMPLES
    max_samples = MAX_SAMPLES

    def samples(self, choices: int, left: int) -> int:
        """Deals to sample for a decision among `choices` with `left` cards still to play."""
        cost = self.sample_cost + choices * (self.rollout_cost + left)
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

    def _worlds(self, view: KlaverjasView, samples: int) -> list[tuple[int, ...]]:
        """`samples` deals drawn from the seat's knowledge (a holder per deck card)."""
        knowledge = view.knowledge
        if knowledge.worlds_count() == 1:
            # Every holder is known: the one consistent deal is all there is to play out.
            samples = 1
        rng = self.rng
        return [knowledge.sample_world(rng) for _ in range(samples)]

    @staticmethod
    def _hands(sim: Sim, world: tuple[int, ...]) -> list[int]:
        hands = [0, 0, 0, 0]
        for bit, holder in zip(sim.deck_bits, world, strict=True):
            if 0 <= holder < PLAYERS:
                hands[holder] |= 1 << bit
        return hands

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
        means, count = self.card_values(view, legal)
        order = sorted(range(len(legal)), key=lambda i: -means[i])
        best, second = legal[order[0]], legal[order[1]]
        text = (
            f"I play {best}: over {count} sampled deals it scores {means[order[0]]:+.1f} "
            f"for us on average, the best of {len(legal)} cards (next {second} "
            f"{means[order[1]]:+.1f})."
        )
        return Decision(best, Thought(text, frozenset([best, second])))

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
        team = team_of(seat)
        if samples is None:
            samples = self.samples(len(legal), PLAYERS * len(view.hand) - n)
        worlds = self._worlds(view, samples)
        bits = [sim.bit_of[c] for c in legal]
        totals = [0] * len(legal)
        finish, score = sim.finish, sim.score
        for world in worlds:
            hands = self._hands(sim, world)
            for i, bit in enumerate(bits):
                acc = list(acc0)
                finish(list(hands), seat, n, led, wbit, wseat, tmask, tpts, acc, bit)
                totals[i] += score(acc, playing, team)
        return [total / len(worlds) for total in totals], len(worlds)

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
            total = 0
            for world in worlds:
                acc = [0] * 6
                sim.finish(self._hands(sim, world), eldest, 0, 0, 0, 0, 0, 0, acc)
                total += sim.score(acc, team, team)
            means.append(total / len(worlds))
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
                Thought(f"I pass: no suit scores above zero for us over {count} sampled deals."),
            )
        return Decision(
            best,
            Thought(
                f"I choose {best.suit} as trump: over {count} sampled deals it scores "
                f"{mean:+.1f} for us on average, the best suit."
            ),
        )


@register_strategy("klaverjas", "mc")
class MonteCarloPlayer(MonteCarlo):
    """PIMC with the default work per decision (`BUDGET`)."""

    name = "mc"
