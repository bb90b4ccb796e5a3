"""Kwartet knowledge against brute force: every deal a seat cannot rule out, replayed.

For small games, after the deal and after every ask, for every seat: enumerate every
initial deal that agrees with the seat's own dealt hand, replay the same asks on it with a
small simulator written here from the rules (not the rules engine), keep the deals that
produce exactly the public announcements the game produced, and compare the engine's
`holder`, `possible_holders`, `worlds_count` and exact `probability` with what those
deals say. All moves are public, so initial deals map one-to-one to current card
locations; the test checks that too.

A second oracle uses the logic engine: one Kripke model of every deal of a 3 × 3 game,
one partition per seat (its own dealt hand), each public fact announced as a formula over
atoms `holds(seat, card)`, and `K_seat holds(h, c)` compared with the engine's `holder`.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

import numpy as np
import numpy.typing as npt
import pytest

from epigames.cards import Count, Holds, HoldsAtLeastOne, Lacks, Moved, Removed, holds_atom
from epigames.games import CHANCE, load_game, play_match, strategies_for
from epigames.games.events import Event, Fact
from epigames.games.kwartet import (
    Ask,
    Asked,
    Card,
    DealDone,
    Dealt,
    GameOver,
    KwartetGame,
    KwartetState,
    LaidDown,
    OutOfCards,
)
from epigames.logic import And, Atom, Formula, K, KripkeModel, Not, Or, Partition
from tests.cards.formulas import card_formula
from tests.games.kwartet.helpers import dealt

MEMBERS = 4

#: (game, number of games). 4 × 4 enumerates 34,650 deals per seat; the others far fewer.
CASES = [
    ("kwartet(players=3,kinds=4,ask_own=true)", 60),
    ("kwartet(players=3,kinds=4,ask_own=false)", 60),
    ("kwartet(players=3,kinds=5,ask_own=true)", 30),
    ("kwartet(players=3,kinds=5,ask_own=false)", 30),
    ("kwartet(players=4,kinds=4,ask_own=true)", 25),
    ("kwartet(players=4,kinds=4,ask_own=false)", 25),
]

#: A public announcement as a plain tuple, from the rules engine or from the simulator.
Record = tuple[Hashable, ...]
#: Candidate deals: one row per deal, one bitmask of cards per seat.
Hands = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]


# --- a small independent simulator of the public record -----------------------------


def kind_mask(kind: int) -> int:
    """Bits of the four cards of a 0-based kind."""
    return 0b1111 << (kind * MEMBERS)


@dataclass(frozen=True, slots=True)
class Sim:
    """A Kwartet position as the simulator keeps it: hands as bitmasks, whose turn, scores."""

    hands: tuple[int, ...]
    turn: int
    scores: tuple[int, ...]
    kinds_left: int


def pass_turn(
    hands: Sequence[int], after: int, kinds_left: int, scores: tuple[int, ...]
) -> tuple[int, list[Record]]:
    """The next seat with cards after `after`, or the end of the game."""
    if kinds_left == 0:
        return -1, [("end", scores)]
    n = len(hands)
    for step in range(1, n + 1):
        seat = (after + step) % n
        if hands[seat]:
            return seat, []
    raise AssertionError("cards left but no seat holds any")


def sim_start(hands0: Sequence[int], kinds: int) -> tuple[Sim, list[Record]]:
    """The announcements right after the deal: sizes, quartets dealt whole, empty hands."""
    hands = list(hands0)
    scores = [0] * len(hands)
    records: list[Record] = [("deal", tuple(h.bit_count() for h in hands))]
    left = kinds
    for seat in range(len(hands)):
        for kind in range(kinds):
            if hands[seat] & kind_mask(kind) == kind_mask(kind):
                hands[seat] &= ~kind_mask(kind)
                scores[seat] += 1
                left -= 1
                records.append(("down", seat, kind + 1))
        if not hands[seat]:
            records.append(("out", seat))
    turn, end = pass_turn(hands, len(hands) - 1, left, tuple(scores))
    return Sim(tuple(hands), turn, tuple(scores), left), records + end


def sim_ask(sim: Sim, target: int, card: int, ask_own: bool) -> tuple[Sim, list[Record]] | None:
    """The announcements of the player to move asking `target` for `card`; None if illegal."""
    hands, p = list(sim.hands), sim.turn
    bit, kind = 1 << card, card // MEMBERS
    if (
        target == p
        or not hands[target]
        or not hands[p] & kind_mask(kind)
        or (not ask_own and hands[p] & bit)
    ):
        return None
    success = bool(hands[target] & bit)
    records: list[Record] = [("ask", p, target, card, success)]
    scores, left = list(sim.scores), sim.kinds_left
    if not success:
        turn, end = pass_turn(hands, p, left, tuple(scores))
        return Sim(tuple(hands), turn, tuple(scores), left), records + end
    hands[target] &= ~bit
    hands[p] |= bit
    if hands[p] & kind_mask(kind) == kind_mask(kind):
        hands[p] &= ~kind_mask(kind)
        scores[p] += 1
        left -= 1
        records.append(("down", p, kind + 1))
    if not hands[target]:
        records.append(("out", target))
    turn, end = p, []
    if not hands[p]:
        records.append(("out", p))
        turn, end = pass_turn(hands, p, left, tuple(scores))
    return Sim(tuple(hands), turn, tuple(scores), left), records + end


def record_of(event: Event) -> Record | None:
    """The rules engine's public announcement as a simulator record (None: private)."""
    if isinstance(event, DealDone):
        return ("deal", event.hand_sizes)
    if isinstance(event, LaidDown):
        return ("down", event.seat, event.card_kind)
    if isinstance(event, Asked):
        return ("ask", event.asker, event.target, event.card.index, event.success)
    if isinstance(event, OutOfCards):
        return ("out", event.seat)
    if isinstance(event, GameOver):
        return ("end", event.scores)
    assert isinstance(event, Dealt), event
    return None


# --- the brute-force oracle ---------------------------------------------------------


def dealt_counts(game: KwartetGame) -> tuple[int, ...]:
    """Cards per seat after the round-robin deal from South."""
    n = game.kinds * MEMBERS
    return tuple(len(range(s, n, game.players)) for s in range(game.players))


@functools.cache
def _splits(n: int, sizes: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """Every way to split positions `0..n-1` into groups of `sizes`: bitmasks, one row each."""
    rows: list[tuple[int, ...]] = []

    def place(i: int, left: tuple[int, ...], row: tuple[int, ...]) -> None:
        if i == len(sizes) - 1:
            rows.append((*row, sum(1 << j for j in left)))
            return
        for chosen in itertools.combinations(left, sizes[i]):
            rest = tuple(j for j in left if j not in chosen)
            place(i + 1, rest, (*row, sum(1 << j for j in chosen)))

    place(0, tuple(range(n)), ())
    return np.array(rows, dtype=np.int64).reshape(-1, len(sizes))


def candidate_deals(counts: tuple[int, ...], n_cards: int, seat: int, own: int) -> Hands:
    """Every initial deal in which `seat` was dealt exactly `own`: one row of hands each."""
    rest = [c for c in range(n_cards) if not own >> c & 1]
    others = [s for s in range(len(counts)) if s != seat]
    local = _splits(len(rest), tuple(counts[s] for s in others))
    hands = np.zeros((len(local), len(counts)), dtype=np.int64)
    hands[:, seat] = own
    for j, card in enumerate(rest):  # local position j is the card `rest[j]`
        hands[:, others] |= ((local >> j) & 1) << card
    return hands


def full(hands: Hands, seat: int, kind: int) -> Mask:
    """Rows where `seat` holds all four cards of the 0-based `kind`."""
    m = kind_mask(kind)
    result: Mask = hands[:, seat] & m == m
    return result


def filter_deal(hands: Hands, laid: set[tuple[int, int]], kinds: int, rules: bool) -> Hands:
    """The candidate deals whose deal-time laydowns agree with the announced `laid`.

    With `rules`, a complete kind is laid down at once, so the candidates must have exactly
    the announced complete kinds; without, only the announced ones (the facts say nothing
    about kinds not laid down). The laid-down kinds leave the hands.
    """
    keep = np.ones(len(hands), dtype=bool)
    for seat in range(hands.shape[1]):
        for kind in range(kinds):
            if (seat, kind) in laid:
                keep &= full(hands, seat, kind)
            elif rules:
                keep &= ~full(hands, seat, kind)
    hands = hands[keep].copy()
    for seat, kind in laid:
        hands[:, seat] &= ~kind_mask(kind)
    return hands


def filter_ask(hands: Hands, record: Record, laid: bool, ask_own: bool, rules: bool) -> Hands:
    """The candidates in which the ask `record` is legal and answered alike, moved on."""
    _, p, t, card, success = record
    assert isinstance(p, int) and isinstance(t, int) and isinstance(card, int)
    bit, kind = 1 << card, card // MEMBERS
    keep = hands[:, p] & kind_mask(kind) != 0  # the asker holds a card of the kind
    if not ask_own:
        keep &= hands[:, p] & bit == 0
    keep &= (hands[:, t] & bit != 0) == bool(success)
    hands = hands[keep].copy()
    if success:
        hands[:, t] &= ~bit
        hands[:, p] |= bit
        complete = full(hands, p, kind)
        if laid:
            hands = hands[complete].copy()
            hands[:, p] &= ~kind_mask(kind)
        elif rules:
            hands = hands[~complete]
    return hands


def check_seat(state: KwartetState, seat: int, hands: Hands) -> None:
    """The engine's knowledge of `seat` equals what the candidate deals `hands` say."""
    knowledge = state.observation(seat).knowledge
    game = state.game
    n = len(hands)
    assert n > 0
    assert knowledge.worlds_count() == n, seat
    bits = np.arange(len(game.deck), dtype=np.int64)
    # counts[h, c]: in how many candidate deals seat h holds card c now
    counts = np.stack(
        [((hands[:, h : h + 1] >> bits) & 1).sum(axis=0) for h in range(game.players)]
    )
    for card in game.deck:
        column = [int(k) for k in counts[:, card.index]]
        where = frozenset(h for h, k in enumerate(column) if k)
        assert sum(column) in (0, n)  # a card is in play in every world or in none
        assert knowledge.possible_holders(card) == where, (seat, card)
        expected = next(iter(where)) if len(where) == 1 else None
        assert knowledge.holder(card) == expected, (seat, card)
        for h in range(game.players):
            assert knowledge.probability(card, h) == Fraction(column[h], n), (seat, card, h)


def strategy_rotation() -> list[str]:
    """Random plus the knowledge-based strategies registered so far (if any)."""
    wanted = ["random", "greedy", "silent", "mixed", "owner", "defensive", "aggressive"]
    return [s for s in wanted if s in strategies_for("kwartet")]


def check_game(spec: str, seed: int, rules: bool) -> int:
    """Play one match and check every seat after the deal and every ask; returns the checks.

    With `rules`, candidate deals are replayed by the rules (a complete kind is laid down
    at once, so a kind *not* laid down is not complete: public information too); without,
    only by the announced facts (laydowns as announced).
    """
    game = load_game(spec)
    assert isinstance(game, KwartetGame)
    pool = strategy_rotation()
    names = [pool[(seed + s) % len(pool)] for s in range(game.players)]
    result = play_match(spec, names, seed)
    state = game.new_initial_state()
    counts = dealt_counts(game)
    candidates: list[Hands] = []
    true_sim: Sim | None = None
    checks = 0
    for action in result.history:
        done = len(state.events)
        state.apply(action)
        if state.current_player == CHANCE:
            continue
        new = [r for e in state.events[done:] if (r := record_of(e)) is not None]
        if true_sim is None:  # the deal is over: every seat's candidate deals
            dealt = {e.seat: e.cards for e in state.events if isinstance(e, Dealt)}
            hands0 = tuple(sum(1 << c.index for c in dealt[s]) for s in range(game.players))
            start = sim_start(hands0, game.kinds)
            assert start[1] == new, "the simulator disagrees with the rules engine"
            true_sim = start[0]
            laid = {(int(r[1]), int(r[2]) - 1) for r in new if r[0] == "down"}  # type: ignore[call-overload]
            for s in range(game.players):
                deals = candidate_deals(counts, game.kinds * MEMBERS, s, hands0[s])
                candidates.append(filter_deal(deals, laid, game.kinds, rules))
        else:
            assert isinstance(action, Ask)
            step = sim_ask(true_sim, action.target, action.card.index, game.ask_own)
            assert step is not None and step[1] == new, "the simulator disagrees with the rules"
            true_sim = step[0]
            laid_now = any(r[0] == "down" for r in new)
            for s in range(game.players):
                candidates[s] = filter_ask(candidates[s], new[0], laid_now, game.ask_own, rules)
        assert true_sim.hands == tuple(sum(1 << c.index for c in h) for h in state.hands())
        for s in range(game.players):
            assert (candidates[s] == np.array(true_sim.hands)).all(axis=1).any()
            check_seat(state, s, candidates[s])
            checks += 1
    assert state.is_terminal()
    for s in range(game.players):  # moves are public: initial deals stay distinct now
        assert len(np.unique(candidates[s], axis=0)) == len(candidates[s])
    return checks


@pytest.mark.parametrize(("spec", "games"), CASES)
def test_knowledge_equals_enumeration_of_deals_under_the_rules(spec: str, games: int) -> None:
    """The engine knows what the rules imply, not only the announced facts.

    (Under the announced facts alone, a kind not laid down could be complete; the engine
    uses the rules' invariant that it is not, so it knows more than those facts say.)
    """
    checks = sum(check_game(spec, seed, rules=True) for seed in range(games))
    assert checks > games * 3


def test_the_invariant_is_what_the_announced_facts_miss() -> None:
    """Right after the deal of the reported 3 × 4 game, the rules rule out 28 deals."""
    spec, seed = CASES[0][0], 0
    game = load_game(spec)
    assert isinstance(game, KwartetGame)
    names = strategy_rotation()
    result = play_match(spec, [names[(seed + s) % len(names)] for s in range(3)], seed)
    state = game.new_initial_state()
    for action in result.history:
        state.apply(action)
        if state.current_player != CHANCE:
            break
    dealt_hands = {e.seat: e.cards for e in state.events if isinstance(e, Dealt)}
    hands0 = tuple(sum(1 << c.index for c in dealt_hands[s]) for s in range(3))
    laid = {(e.seat, e.card_kind - 1) for e in state.events if isinstance(e, LaidDown)}
    deals = candidate_deals(dealt_counts(game), game.kinds * MEMBERS, 1, hands0[1])
    facts_only = filter_deal(deals, laid, game.kinds, rules=False)
    with_rules = filter_deal(deals, laid, game.kinds, rules=True)
    assert len(with_rules) < len(facts_only)
    assert state.observation(1).knowledge.worlds_count() == len(with_rules)


def test_a_kind_not_laid_down_is_not_complete() -> None:
    """The minimal reproduction: West must know that North holds ⟨1,4⟩.

    South publicly gets ⟨1,2⟩ and ⟨1,3⟩ from West, then asks North for ⟨1,1⟩ in vain, so
    West (who holds neither) knows South holds ⟨1,1⟩ ⟨1,2⟩ ⟨1,3⟩. South did not lay kind 1
    down, so it lacks ⟨1,4⟩: North holds it.
    """
    state = dealt("kwartet(players=3,kinds=2)", "1.1 2.1 2.2", "1.2 1.3 2.3", "1.4 2.4")
    for text in ("ask 1 1.2", "ask 1 1.3", "ask 2 1.1"):
        state.apply(state.game.parse_action(text))
    west = state.observation(1).knowledge
    assert west.holder(Card(1, 1)) == 0
    assert west.holder(Card(1, 4)) == 2


# --- the logic engine as a second oracle --------------------------------------------


def holds(names: Sequence[str], seat: int, card: Card) -> Atom:
    """The atom `holds(<Seat>, <card>)`, as in the Kripke pictures."""
    return Atom(holds_atom(names[seat], card))


class DealModel:
    """Every deal of a small game as a Kripke model, updated by the public facts.

    Worlds are initial deals; each seat's partition groups the deals with its dealt hand.
    Atoms describe where the cards are *now*: a fact is announced as a formula (the worlds
    where it is false go), a move or a removal changes the valuation.
    """

    def __init__(self, game: KwartetGame, true_deal: tuple[int, ...]) -> None:
        self.game = game
        self.names = game.seat_names
        counts = dealt_counts(game)
        deals = np.concatenate(
            [
                candidate_deals(counts, len(game.deck), 0, own)
                for own in (
                    sum(1 << c for c in chosen)
                    for chosen in itertools.combinations(range(len(game.deck)), counts[0])
                )
            ]
        )
        # where[w, c]: the seat holding card c in world w now (-1: laid down)
        self.where = np.zeros((len(deals), len(game.deck)), dtype=np.int64)
        for seat in range(game.players):
            for c in range(len(game.deck)):
                self.where[(deals[:, seat] >> c) & 1 == 1, c] = seat
        truth = int(np.flatnonzero((deals == np.array(true_deal)).all(axis=1))[0])
        relations = {
            name: Partition.from_ids(deals[:, seat]) for seat, name in enumerate(self.names)
        }
        self.model = KripkeModel(
            self.names, tuple(map(str, range(len(deals)))), {}, relations, (truth,)
        )
        self._revalue()

    def _revalue(self) -> None:
        m = self.model
        valuation = {
            holds_atom(self.names[seat], card): self.where[:, card.index] == seat
            for seat in range(self.game.players)
            for card in self.game.deck
        }
        self.model = KripkeModel(m.agents, m.worlds, valuation, m.relations, m.designated)

    def announce(self, formula: Formula) -> None:
        keep = self.model.truth_set(formula).copy()
        self.model = self.model.announce(formula)
        self.where = self.where[keep]
        self._revalue()

    def announce_no_complete_kind(self) -> None:
        """The rules' invariant after a public step: no seat holds a whole kind in play."""
        names, members = self.names, MEMBERS
        for kind in range(self.game.kinds):
            cards = self.game.deck[kind * members : (kind + 1) * members]
            if (self.where[0, [c.index for c in cards]] < 0).any():
                continue  # laid down (in every world alike): the invariant is gone
            for seat in range(self.game.players):
                self.announce(Not(And(tuple(holds(names, seat, c) for c in cards))))

    def apply(self, facts: Sequence[Fact]) -> None:
        """Replay an event's facts: claims are announced, moves and removals change atoms."""
        names = self.names
        for fact in facts:
            match fact:
                case Holds(holder=seat, card=card):
                    self.announce(holds(names, seat, cast(Card, card)))
                case Lacks(holder=seat, card=card):
                    self.announce(Not(holds(names, seat, cast(Card, card))))
                case HoldsAtLeastOne(holder=seat, cards=cards):
                    self.announce(Or(tuple(holds(names, seat, cast(Card, c)) for c in cards)))
                case Moved(card=card, dst=dst):
                    self.where[:, cast(Card, card).index] = dst
                    self._revalue()
                case Removed(cards=gone):
                    for card in gone:
                        self.where[:, cast(Card, card).index] = -1
                    self._revalue()
                case _:
                    assert isinstance(fact, Count)  # hand sizes are the same in every world


GAMES_WITH_LOGIC = 6


@pytest.mark.parametrize("ask_own", [True, False])
def test_knowledge_equals_the_logic_engine_after_public_announcements(ask_own: bool) -> None:
    # 12 cards, 4 per seat: 12!/(4!4!4!) = 34,650 worlds
    spec = f"kwartet(players=3,kinds=3,ask_own={str(ask_own).lower()})"
    game = load_game(spec)
    assert isinstance(game, KwartetGame)
    names = game.seat_names
    compared = 0
    pool = strategy_rotation()
    for seed in range(GAMES_WITH_LOGIC):
        result = play_match(spec, [pool[(seed + s) % len(pool)] for s in range(3)], seed)
        state = game.new_initial_state()
        logic: DealModel | None = None
        for action in result.history:
            done = len(state.events)
            state.apply(action)
            if state.current_player == CHANCE:
                continue
            if logic is None:
                dealt_hands = {e.seat: e.cards for e in state.events if isinstance(e, Dealt)}
                logic = DealModel(
                    game, tuple(sum(1 << c.index for c in dealt_hands[s]) for s in range(3))
                )
                done = next(i for i, e in enumerate(state.events) if isinstance(e, DealDone))
            for event in state.events[done:]:
                if event.public:
                    logic.apply(event.facts)
            logic.announce_no_complete_kind()
            model = logic.model
            for seat, name in enumerate(names):
                knowledge = state.observation(seat).knowledge
                block = model.relations[name].block  # type: ignore[union-attr]
                truth = model.designated[0]
                assert int((block == block[truth]).sum()) == knowledge.worlds_count()
                for card in game.deck:
                    for h in range(3):
                        atom = holds(names, h, card)
                        known = model.holds(K(name, atom))
                        possible = not model.holds(K(name, Not(atom)))
                        assert known == (knowledge.holder(card) == h), (seat, card, h)
                        assert possible == (h in knowledge.possible_holders(card))
                        compared += 1
    assert compared > 1000


# --- the counting example of the 2020 report -------------------------------------------


def test_kwartet_2020_counting_example() -> None:
    """South (player 1) finds ⟨8,4⟩ with East (player 4) by counting.

    Kinds 1–7 are dealt whole and laid down at once; what is left: South ⟨8,2⟩ ⟨8,3⟩
    ⟨9,1⟩ ⟨9,2⟩ ⟨9,3⟩, and one card each for West ⟨8,1⟩, North ⟨9,4⟩ and East ⟨8,4⟩.
    South asks West for ⟨8,4⟩ in vain: West is known not to hold it. West asks East for
    ⟨8,2⟩ in vain. North asks South for ⟨9,1⟩ and gets it: North holds a card of kind 9,
    and South holds the other three, so North's unknown card is ⟨9,4⟩ — North has no
    unknown cards left, and ⟨8,4⟩ can only be with East.
    """
    state = dealt(
        "kwartet(players=4,kinds=9)",
        "1.1 1.2 1.3 1.4 8.2 8.3 9.1 9.2 9.3",
        "2.1 2.2 2.3 2.4 3.1 3.2 3.3 3.4 8.1",
        "4.1 4.2 4.3 4.4 5.1 5.2 5.3 5.4 9.4",
        "6.1 6.2 6.3 6.4 7.1 7.2 7.3 7.4 8.4",
    )
    card = Card(8, 4)
    assert state.observation(0).hand_sizes == (5, 1, 1, 1)
    steps = [("ask 1 8.4", False), ("ask 3 8.2", False), ("ask 0 9.1", True)]
    for number, (text, success) in enumerate(steps, 1):
        before = state.observation(0).knowledge
        assert before.holder(card) is None
        assert before.possible_holders(card) == ({1, 2, 3} if number == 1 else {2, 3})
        state.apply(state.game.parse_action(text))
        event = next(e for e in reversed(state.events) if isinstance(e, Asked))
        assert event.success == success
    south = state.observation(0).knowledge
    assert south.holder(card) == 3  # East
    assert south.knows_holds(card, 3) and south.knows(card_formula(("holds", 3, card)))
    assert south.holder(Card(9, 4)) == 2 and south.holder(Card(8, 1)) == 1
    assert south.worlds_count() == 1
    # East sees its own card; West and North cannot place it yet.
    assert state.observation(3).knowledge.holder(card) == 3
    assert state.observation(1).knowledge.holder(card) is None
