"""`tom`: a Kemps player that reasons about what the others know of each other's collections.

Every card a player takes from the table is seen by all, so whoever takes a card shows
what it collects. `tom` reads that from the public log at two orders:

- first order, about an opponent: "I know West collects Queens" when West is publicly
  known to hold Queens it took (the card engine's public holdings), and "West likely
  collects 9s" from the expected number of 9s in West's hand (`view.knowledge`'s exact
  probabilities);
- second order, about itself: "North knows I collect 7s" when North saw it take 7s that
  it still holds, and "North knows it and took a 7 anyway: it blocks me" when an
  opponent took a card of a rank it was publicly known to collect.

It chooses the rank to collect by what it can reach this turn, less the cards of the
rank the opponents took and keep, less a penalty for a rank an opponent is known to block
it on, and, of equal ranks, the one it shows the least of (its hidden cards tell nobody
anything). It puts down first the cards the opponents want least, keeps the cards
an opponent collects, and takes such cards from the table when it has a spare card to
give for them. A whole turn is planned at its first decision, as the report's players do.

In the team game its partner is no opponent, and what the opponents can know of a four of
a kind decides when it completes one in view and when it calls Stop Kemps: it asks the
card engine (`tom_team`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from epigames.cards import Card, Holds, Rank
from epigames.cards.fact_types import CardFact, NamedFact
from epigames.games.core import View
from epigames.games.events import Event, Fact
from epigames.games.kemps.actions import HAND_SIZE, OF_A_KIND, PASS, SIGNAL, Swap
from epigames.games.kemps.events import Called, Kemps, NewHand, Swapped, TeamTurnEnded, TurnEnded
from epigames.games.kemps.strategies.greedy import ReportPlayer, SwapSheet
from epigames.games.kemps.strategies.simple import team_move
from epigames.games.kemps.strategies.tom_team import (
    STOP_AT,
    Exposure,
    after_swaps,
    exposure,
    rank_cards,
    signal_thought,
    stop_call,
)
from epigames.games.kemps.views import KempsView
from epigames.games.strategy import Decision, Thought, register_strategy

#: How much one card of a rank an opponent took (and keeps) counts against collecting it.
OPPONENT_CARD = 1.0
#: The extra penalty of a rank an opponent is known to block us on.
BLOCKED = 1.5
#: An opponent interest at which a card is worth taking from the table to block it.
BLOCK_AT = 1.5
#: Turns without a score after which `tom` stops blocking: players who all block each
#: other (two `tom` pairs) would otherwise hold each other's cards to the turn cap.
STUCK_AFTER = 60


@dataclass(frozen=True, slots=True)
class Knows(NamedFact, name="knows"):
    """``agent`` knows ``known``, a card fact: e.g. ``knows(2, holds(0, 7♠))``."""

    agent: int
    known: CardFact

    def _field_json(self, key: str, value: Any) -> Any:
        return value.to_dict() if key == "known" else value


class PublicCollections:
    """What the public log shows of who collects what, folded one event at a time.

    Attributes:
        seat: the seat whose log is folded (its own takes are the "me" of `blockers`).
        shown: per seat, the cards it took from the table and still holds (public).
        blockers: per seat, the ranks it took a card of while `seat` was publicly known
            to hold that rank (it knew, and took one anyway).
        stoppers: the seats that called Stop Kemps (the team game): players who act on
            what they know of an opponent's hand.
        quiet: turns ended since the last score (a Kemps, or a right call).
    """

    def __init__(self, seat: int, players: int) -> None:
        self.seat = seat
        self.shown: list[set[Card]] = [set() for _ in range(players)]
        self.blockers: list[set[Rank]] = [set() for _ in range(players)]
        self.stoppers: set[int] = set()
        self.quiet = 0
        self._done = 0
        self._first: Event | None = None

    def update(self, log: Sequence[Event]) -> PublicCollections:
        """Fold the events not folded yet; start over for another game's log."""
        if self._done > len(log) or (log and self._first is not None and log[0] is not self._first):
            self.__init__(self.seat, len(self.shown))  # type: ignore[misc]
        if log:
            self._first = log[0]
        for event in log[self._done :]:
            kind = type(event)
            if kind is Swapped:
                assert isinstance(event, Swapped)
                mine = {c.rank for c in self.shown[self.seat]}
                if event.seat != self.seat and event.taken.rank in mine:
                    self.blockers[event.seat].add(event.taken.rank)
                self.shown[event.seat].discard(event.put)
                self.shown[event.seat].add(event.taken)
            elif kind is TurnEnded or kind is TeamTurnEnded:
                self.quiet += 1
            elif kind is Kemps or kind is NewHand:
                assert isinstance(event, Kemps | NewHand)
                self.shown[event.seat].clear()
                if kind is Kemps:
                    self.quiet = 0
            elif kind is Called:
                assert isinstance(event, Called)
                if event.stop:
                    self.stoppers.add(event.seat)
                if event.right:
                    self.shown[event.target].clear()
                    self.quiet = 0
        self._done = len(log)
        return self


@dataclass(frozen=True, slots=True)
class TomPlan:
    """A turn's swaps and the reasons for them, with the order of knowledge each used.

    Attributes:
        swaps: the swaps, in order.
        collect: the rank collected.
        reasons: sentences, each naming whose knowledge it is ("I know …", "North knows
            I …"), in the order they were used; each a template and its values, put into
            words only when the plan is read.
        concluded: the facts acted on: `Holds` (first order, from the public log) and
            `Knows` (second order).
    """

    swaps: tuple[Swap, ...]
    collect: Rank | None
    reasons: tuple[Thought, ...]
    concluded: tuple[Fact, ...]

    def __str__(self) -> str:
        return " ".join([reason.text for reason in self.reasons])

    def thought(self, template: str, *args: object) -> Thought:
        """A decision's thought: `template` over `args` (see `Thought`), with the facts
        acted on."""
        return Thought(template, self.concluded, args)


@dataclass(frozen=True, slots=True)
class _Cards:
    """Cards as a thought names them (`6♥, 6♠`), put into words when the thought is read."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return ", ".join(str(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class _Swaps:
    """A turn's swaps as a thought names them (`5♦ for 2♥; …`), put into words when read."""

    taken: tuple[Card, ...]
    given: tuple[Card, ...]

    def __str__(self) -> str:
        return "; ".join(f"{t} for {g}" for t, g in zip(self.taken, self.given, strict=True))


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class _Reading:
    """One turn's reading of the view: who is known or likely to collect what."""

    def __init__(self, view: KempsView, public: PublicCollections) -> None:
        self.view = view
        self.me = view.seat
        self.names = view.game.seat_names
        game = view.kemps_game
        # In the team game the partner is no opponent: not blocked, not guarded against.
        self.opponents = [
            s
            for s in range(game.players)
            if s != self.me and game.team_of(s) != game.team_of(self.me)
        ]
        self.public = public
        knowledge = view.knowledge
        layout = knowledge.layout
        matrix: npt.NDArray[np.float64] = knowledge.marginals()
        self._index = layout.card_index
        cards = layout.cards
        ranks = [cards[i].rank for i in range(0, len(cards), OF_A_KIND)]  # type: ignore[attr-defined]
        # The expected number of each rank's cards in each opponent's hand.
        per_rank = matrix[:, : view.game.num_players].reshape(len(ranks), OF_A_KIND, -1).sum(axis=1)
        self.expected = {r: per_rank[i] for i, r in enumerate(ranks)}
        self._shown: dict[tuple[int, Rank], list[Card]] = {}
        self._interested: dict[Rank, tuple[int, float]] = {}

    def shown(self, seat: int, rank: Rank) -> list[Card]:
        """The cards of `rank` everybody saw `seat` take and knows it still holds."""
        key = (seat, rank)
        found = self._shown.get(key)
        if found is None:
            found = sorted((c for c in self.public.shown[seat] if c.rank is rank), key=self._index)
            self._shown[key] = found
        return found

    def interest(self, seat: int, rank: Rank) -> float:
        """How strongly `seat` seems to collect `rank`: its expected cards of it, and
        again the ones it took (taking shows intent)."""
        return float(self.expected[rank][seat]) + len(self.shown(seat, rank))

    def most_interested(self, rank: Rank) -> tuple[int, float]:
        """The opponent most interested in `rank`, and how much."""
        found = self._interested.get(rank)
        if found is None:
            best = max(self.opponents, key=lambda s: self.interest(s, rank))
            found = self._interested[rank] = (best, self.interest(best, rank))
        return found

    def blocker(self, rank: Rank) -> int | None:
        """An opponent known to have taken `rank` against us and still holding it."""
        for seat in self.opponents:
            if rank in self.public.blockers[seat] and self.shown(seat, rank):
                return seat
        return None

    def why_interested(
        self, seat: int, rank: Rank
    ) -> tuple[str, tuple[object, ...], tuple[Fact, ...]]:
        """First-order: 'I know West collects Qs (West took Q♠)' or 'West likely …', as a
        template, its values and the facts it rests on."""
        name, took = self.names[seat], self.shown(seat, rank)
        if took:
            why = "I know {} collects {}s ({} took {})."
            return (
                why,
                (name, rank.text, name, _Cards(tuple(took))),
                tuple(Holds(seat, c) for c in took),
            )
        expected = float(self.expected[rank][seat])
        return (
            "{} likely collects {}s ({:.1f} expected in its hand).",
            (name, rank.text, expected),
            (),
        )


def plan_tom(view: KempsView, public: PublicCollections) -> TomPlan:
    """Tom's plan for this turn (see the module docstring)."""
    read = _Reading(view, public)
    me, names = read.me, read.names
    hand, table = list(view.hand), list(view.table)
    budget = view.game.max_swaps  # type: ignore[attr-defined]
    reasons: list[Thought] = []
    concluded: list[Fact] = []

    # A game stuck for long (every player blocking or hiding from the others) ends only at
    # the turn cap: then `tom` neither blocks nor hides, and somebody scores.
    stuck = public.quiet >= STUCK_AFTER
    team = view.kemps_game.team_game
    # The team game: before completing four of a kind in view, what the first opponents to
    # call would know of it (`tom_team.exposure`), per rank that can be completed now.
    exposures: dict[Rank, Exposure | None] = {}

    def exposed(rank: Rank, takes: int) -> Exposure | None:
        """What the first callers would know after the `takes` swaps completing `rank`."""
        if rank not in exposures:
            taken = [(i, c) for i, c in enumerate(table) if c.rank is rank][:takes]
            given = [c for c in hand if c.rank is not rank]
            moves = [(i, c, g) for (i, c), g in zip(taken, given, strict=False)]
            after = after_swaps(view.public, me, view.game.num_players, moves)
            cards = rank_cards(view, taken[0][1])
            exposures[rank] = exposure(view, after, cards, public.stoppers)
        return exposures[rank]

    def outlook(rank: Rank) -> tuple[float, int, int]:
        mine = sum(c.rank is rank for c in hand)
        takes = min(sum(c.rank is rank for c in table), HAND_SIZE - mine, budget)
        shown = len(read.shown(me, rank))
        # Only the cards opponents took count against a rank: a card merely dealt to an
        # opponent comes back to the table when it collects something else.
        taken = sum(len(read.shown(s, rank)) for s in read.opponents)
        score = mine + takes - OPPONENT_CARD * taken
        if read.blocker(rank) is not None:
            score -= BLOCKED
        if team and not stuck and takes and mine + takes == OF_A_KIND:
            seen = exposed(rank, takes)
            if seen is not None and seen.hides:
                # The last card stays on the table: as good as blocked this turn.
                takes -= 1
                score -= 1 + BLOCKED
        return score, mine + takes, mine - shown

    ranks = list(dict.fromkeys(c.rank for c in hand + table))
    outlooks = {r: outlook(r) for r in ranks}
    # A Kemps this turn beats everything; then the best outlook, then the rank showing least.
    target = max(ranks, key=lambda r: (outlooks[r][1] == OF_A_KIND, outlooks[r][0], outlooks[r][2]))

    shown_mine = read.shown(me, target)
    if shown_mine:
        concluded += [Knows(s, Holds(me, c)) for s in read.opponents for c in shown_mine]
        knowers = _names([names[s] for s in read.opponents])
        said = "{} know I collect {}s (I took {})."
        reasons.append(Thought(said, args=(knowers, target.text, _Cards(tuple(shown_mine)))))
    for rank in ranks:
        blocker = read.blocker(rank)
        if blocker is None or rank is target or not read.shown(me, rank):
            continue
        took = read.shown(blocker, rank)
        concluded.append(Knows(blocker, Holds(me, read.shown(me, rank)[0])))
        said = (
            "{} knows I collect {}s (I took {}) and took {} anyway: it blocks me, "
            "so I switch to {}s."
        )
        mine = _Cards(tuple(read.shown(me, rank)))
        blocked = (names[blocker], rank.text, mine, _Cards(tuple(took)), target.text)
        reasons.append(Thought(said, args=blocked))
    if not shown_mine and outlooks[target][2] > 0 and outlooks[target][1] < OF_A_KIND:
        said = "Nobody knows I collect {0}s: my {0}s are hidden."
        reasons.append(Thought(said, args=(target.text,)))
    reasons.append(Thought("I collect {}s.", args=(target.text,)))

    # The cards the opponents want least go first; the ones they collect stay. Unless the
    # game is stuck: then nothing is held back or taken to block.
    if stuck:
        said = (
            "Nobody has scored for {} turns: blocking and hiding only keep the game stuck, "
            "so I block nobody and hide nothing."
        )
        reasons.append(Thought(said, args=(public.quiet,)))

    def giveaway(card: Card) -> float:
        return 0.0 if stuck else read.most_interested(card.rank)[1]

    spares = sorted((c for c in hand if c.rank is not target), key=giveaway)
    sheet = SwapSheet(hand, table, spares)
    swaps = sheet.swaps

    wanted = [c for c in table if c.rank is target]
    limit = outlooks[target][1] - sum(c.rank is target for c in hand)
    seen = exposures.get(target)
    if seen is not None:
        said, name = "", names[seen.observer]
        values: tuple[object, ...] = (name, target.text, float(seen.chance))
        if seen.hides:
            concluded.append(Knows(seen.observer, Holds(me, wanted[limit])))
            said = (
                "{} would give four {}s in my hand {:.2f} if I took {} in view, and it calls "
                "Stop Kemps on what it knows: I leave it on the table."
            )
            values = (name, target.text, float(seen.chance), wanted[limit])
        elif seen.chance > STOP_AT:
            said = "{} could tell my four {}s ({:.2f}) but has not called Stop Kemps: I complete."
        else:
            said = "{}, first to call, would give four {}s in my hand only {:.2f}: I complete."
        reasons.append(Thought(said, args=values))
    for card in wanted[:limit]:
        if spares and len(swaps) < budget:
            sheet.take(card)
    # Block: take a card an opponent collects, paying with a card wanted less.
    candidates = (
        []
        if stuck
        else sorted(
            (c for c in table if c.rank is not target and c not in sheet.put_down),
            key=lambda c: -giveaway(c),
        )
    )
    for card in candidates:
        seat, want = read.most_interested(card.rank)
        if not spares or len(swaps) >= budget or want < BLOCK_AT or giveaway(spares[0]) >= want:
            continue
        why, values, facts = read.why_interested(seat, card.rank)
        reasons.append(
            Thought(why + " I take {} from the table to block it.", args=(*values, card))
        )
        concluded += facts
        sheet.take(card)
    kept = [c for c in spares if giveaway(c) >= BLOCK_AT]
    for card in kept:
        seat, _ = read.most_interested(card.rank)
        why, values, facts = read.why_interested(seat, card.rank)
        reasons.append(Thought(why + " I keep {}.", args=(*values, card)))
        concluded += facts
    if swaps:
        moves = _Swaps(tuple(sheet.taken), tuple(s.card for s in swaps))
        reasons.append(Thought("My swaps: {}.", args=(moves,)))
    else:
        reasons.append(Thought("No swap helps."))
    return TomPlan(tuple(swaps), target, tuple(reasons), tuple(concluded))


@register_strategy(
    "kemps",
    "tom",
    about="Reads who collects what from the open swaps, knows what the others know of it, "
    "and blocks and hides its own collection.",
)
class Tom(ReportPlayer):
    """Plans each turn with `plan_tom` and plays it swap by swap, then ends the turn; in a
    call window of the team game, Kemps! on its partner's signal, else Stop Kemps when an
    opponent's four of a kind is likely enough (`stop_call`)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self._public: PublicCollections | None = None

    def collections(self, view: KempsView) -> PublicCollections:
        """The public log folded so far: who showed what."""
        if self._public is None or self._public.seat != view.seat:
            self._public = PublicCollections(view.seat, view.game.num_players)
        return self._public.update(view.log)

    def plan(self, view: KempsView) -> TomPlan:
        """This turn's plan, from the public log folded so far."""
        return plan_tom(view, self.collections(view))

    def choose(self, view: View) -> Decision:
        """A call in a call window (see the class), else the next move of this turn's plan."""
        assert isinstance(view, KempsView)
        if view.window:
            move = team_move(view)
            assert move is not None
            if move.action != PASS:
                return move
            stop = stop_call(view, self.collections(view).shown)
            return move if stop is None else stop
        decision = super().choose(view)
        if decision.action == SIGNAL:
            # The report's signal, with what the first opponents to call can know of it.
            return Decision(SIGNAL, signal_thought(view, self.collections(view).stoppers))
        return decision


__all__ = ["Knows", "PublicCollections", "Tom", "TomPlan", "plan_tom"]
