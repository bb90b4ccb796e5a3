"""Playing a match: `Match`, the one play loop, and `play_match`, a pure function of it.

Everything that plays (the CLI, the web app, tournaments, experiments, benchmarks) drives a
`Match`; `play_match(game, strategies, seed)` is `Match(...).run()`, pure and picklable.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import json
import random
from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from epigames.cards.slots import slot_maker
from epigames.errors import EpigamesError, IllegalActionError, InputError
from epigames.games.core import (
    CHANCE,
    TERMINAL,
    EventLog,
    Game,
    State,
    UniformOutcomes,
    View,
    load_game,
)
from epigames.games.events import Event
from epigames.games.loop import BadChoice, Chooser, play_agents
from epigames.games.outcomes import WeightedOutcomes
from epigames.games.strategy import (
    NO_THOUGHT,
    SearchStrategy,
    Strategy,
    Thought,
    make_strategy,
)
from epigames.logic.formula import Formula

if TYPE_CHECKING:
    from epigames.games.ask import Answer


class MatchSetupError(InputError):
    """A match that cannot start: wrong number of strategies, a bad seed."""


class MatchError(EpigamesError):
    """A move asked of a match at the wrong time: an agent's step at a person's turn, …"""


class TranscriptEntry(NamedTuple):
    """One decision of a match (an immutable named tuple: one is made per move).

    Attributes:
        seat: who decided.
        action: the action played.
        thought: the strategy's reason (empty for a person's move).
        first_event: index into `MatchResult.events` of the first event the action caused.
    """

    seat: int
    action: Hashable
    thought: Thought
    first_event: int


# No slots here: a slotted subclass then makes a slot of every field, base ones included,
# and its `__slots__` names them all.
@dataclass(frozen=True, kw_only=True)
class MatchSummary:
    """How one match ended, without its log: what a tournament keeps of it.

    Attributes:
        seed: the match seed.
        strategies: strategy name per seat.
        returns: each seat's return.
        winners: the seats with the highest return (several on a tie).
        moves: the number of player (non-chance) actions.
        capped: the game stopped at a cap (`State.capped`), not by its rules.
    """

    seed: int
    strategies: tuple[str, ...]
    returns: tuple[float, ...]
    winners: tuple[int, ...]
    moves: int
    capped: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchResult(MatchSummary):
    """Everything about one finished match: its summary, the game and the whole log.

    Attributes:
        game: the canonical game string.
        events: the full event log (public and private).
        transcript: every decision, in order.
        history: every action and chance outcome, in order (replayable).
    """

    game: str
    events: tuple[Event, ...]
    transcript: tuple[TranscriptEntry, ...]
    history: tuple[Hashable, ...]

    def to_dict(self) -> dict[str, Any]:
        """All content as JSON values."""
        game = load_game(self.game)
        return {
            "game": self.game,
            "seed": self.seed,
            "strategies": list(self.strategies),
            "returns": list(self.returns),
            "winners": list(self.winners),
            "moves": self.moves,
            "events": [e.to_dict() for e in self.events],
            "transcript": [
                {
                    "seat": t.seat,
                    "action": game.action_to_string(t.action),
                    "thought": t.thought.text,
                    "first_event": t.first_event,
                }
                for t in self.transcript
            ],
            "history": [game.action_to_string(a) for a in self.history],
        }

    def digest(self) -> str:
        """SHA-256 of the canonical JSON of `to_dict()`: equal digests, equal matches."""
        text = json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()


_new_entry = tuple.__new__


def seed_streams(seed: int, seats: int) -> tuple[random.Random, list[random.Random]]:
    """Independent generators for chance and for each seat, from one match seed.

    `numpy.random.SeedSequence(seed)` is spawned into `1 + seats` children; each becomes a
    128-bit seed for a `random.Random` (fast for the many small draws a game makes). The
    result depends only on `seed`, in any process and on any machine. A seat's generator
    is seeded when first used (`SeededOnUse`): many strategies never draw.
    """
    chance, *children = spawned_seeds(seed, 1 + seats)
    return random.Random(chance), [SeededOnUse(child) for child in children]


class SeededOnUse(random.Random):
    """A `random.Random` that seeds itself with `seed` when first touched, then is one.

    Seeding a Mersenne Twister from a 128-bit seed costs about 5 µs, a few percent of a
    short match, and a strategy that never draws (the Klaverjas tactics) never pays it.
    Any attribute read seeds it and turns it into a plain `random.Random`, so every draw
    is the one `random.Random(seed)` would make.
    """

    def __init__(self, seed: int) -> None:  # seeding is what is put off: no super call
        object.__getattribute__(self, "__dict__")["_seed"] = seed

    def __getattribute__(self, name: str) -> Any:
        seed = object.__getattribute__(self, "__dict__").pop("_seed")
        object.__setattr__(self, "__class__", random.Random)
        random.Random.__init__(self, seed)
        return getattr(self, name)


# `numpy.random.SeedSequence`'s hash constants (numpy/random/bit_generator.pyx).
_MASK = 0xFFFFFFFF
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715


def _hash_constants(init: int, mult: int, n: int) -> list[tuple[int, int]]:
    # The multiplier before and after each of n hash steps (they do not depend on data).
    out, h = [], init
    for _ in range(n):
        out.append((h, h * mult & _MASK))
        h = out[-1][1]
    return out


_STEPS_A = _hash_constants(_INIT_A, _MULT_A, 24)  # pool 4 + 12 mixes + a spawn key + slack
_STEPS_B = _hash_constants(_INIT_B, _MULT_B, 4)
_PAIRS = tuple((s, d) for s in range(4) for d in range(4) if s != d)
#: The pool word a zero word of the seed hashes to, at each of the four first steps.
_ZERO_POOL = tuple((v := before * after & _MASK) ^ v >> 16 for before, after in _STEPS_A[:4])


def spawned_seeds(seed: int, n: int) -> list[int]:
    """`[int.from_bytes(c.generate_state(4).tobytes(), "little") for c in
    numpy.random.SeedSequence(seed).spawn(n)]`, computed directly.

    numpy builds a `SeedSequence` per child and arrays per step: 40 µs for a match's
    five children, a few percent of a Klaverjas hand. The children share the hash of the
    seed (their entropy is the seed's words padded to the pool size, then the child's
    index), so it is mixed once. The tests compare it with numpy's over many seeds.
    """
    assert n <= _MASK + 1  # a child's index is one word of its entropy
    words = []
    rest = seed
    while True:
        words.append(rest & _MASK)
        rest >>= 32
        if not rest:
            break
    words += [0] * (4 - len(words))  # padded to the pool size, as with a spawn key
    steps = _STEPS_A
    needed = 4 + len(_PAIRS) + 4 * (len(words) - 4) + 4
    if needed > len(steps):
        steps = _hash_constants(_INIT_A, _MULT_A, needed)
    pool = list(_ZERO_POOL)  # a seed below 2**32 has three zero words, hashed alike always
    for k in range(4):
        if words[k]:
            before, after = steps[k]
            v = (words[k] ^ before) * after & _MASK
            pool[k] = v ^ v >> 16
    k = 4
    for s, d in _PAIRS:
        before, after = steps[k]
        k += 1
        v = (pool[s] ^ before) * after & _MASK
        r = (_MIX_L * pool[d] - _MIX_R * (v ^ v >> 16)) & _MASK
        pool[d] = r ^ r >> 16
    for word in words[4:]:
        for d in range(4):
            before, after = steps[k]
            k += 1
            v = (word ^ before) * after & _MASK
            r = (_MIX_L * pool[d] - _MIX_R * (v ^ v >> 16)) & _MASK
            pool[d] = r ^ r >> 16
    terms = _CHILD_TERMS.get((k, n)) or _child_terms(k, n, steps)
    (b0, c0), (b1, c1), (b2, c2), (b3, c3) = _STEPS_B
    p0, p1, p2, p3 = pool
    l0, l1, l2, l3 = _MIX_L * p0, _MIX_L * p1, _MIX_L * p2, _MIX_L * p3
    seeds = []
    for t0, t1, t2, t3 in terms:
        # The child's index mixed into each pool word, then `generate_state(4)`.
        r = (l0 - t0) & _MASK
        v = (r ^ r >> 16 ^ b0) * c0 & _MASK
        x = v ^ v >> 16
        r = (l1 - t1) & _MASK
        v = (r ^ r >> 16 ^ b1) * c1 & _MASK
        x |= (v ^ v >> 16) << 32
        r = (l2 - t2) & _MASK
        v = (r ^ r >> 16 ^ b2) * c2 & _MASK
        x |= (v ^ v >> 16) << 64
        r = (l3 - t3) & _MASK
        v = (r ^ r >> 16 ^ b3) * c3 & _MASK
        x |= (v ^ v >> 16) << 96
        seeds.append(x)
    return seeds


#: (hash step, children) → per child, the part of each pool word's mix that depends only
#: on the child's index: `_MIX_R * hash(index)`, the same for every seed of that size.
_CHILD_TERMS: dict[tuple[int, int], list[tuple[int, int, int, int]]] = {}


def _child_terms(k: int, n: int, steps: list[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    terms = []
    for key in range(n):
        words = []
        for before, after in steps[k : k + 4]:
            v = (key ^ before) * after & _MASK
            words.append(_MIX_R * (v ^ v >> 16))
        terms.append((words[0], words[1], words[2], words[3]))
    if n <= 16:  # the few sizes matches use; a caller asking for many children pays each time
        _CHILD_TERMS[k, n] = terms
    return terms


def sample_outcome(outcomes: Sequence[tuple[Hashable, float]], rng: random.Random) -> Hashable:
    """Draw one chance outcome with the given probabilities.

    Equally likely outcomes given as `UniformOutcomes`, and a game's fixed table of pairs
    given as `WeightedOutcomes`, are drawn by binary search over the running totals the
    scan below would reach, so the draw is the same as from their plain pairs.
    """
    r = rng.random()
    if type(outcomes) is WeightedOutcomes:
        table = outcomes.choices
        return table[min(bisect.bisect_right(outcomes.totals, r), len(table) - 1)]
    if type(outcomes) is UniformOutcomes:
        choices = outcomes.outcomes
        n = len(choices)
        totals = _TOTALS.get(n) or _running_totals(n)
        return choices[min(bisect.bisect_right(totals, r), n - 1)]
    total = 0.0
    for outcome, probability in outcomes:
        total += probability
        if r < total:
            return outcome
    return outcomes[-1][0]  # rounding left `total` a hair below 1


_TOTALS: dict[int, tuple[float, ...]] = {}


def _running_totals(n: int) -> tuple[float, ...]:
    # The totals the loop above reaches over n pairs of probability 1.0 / n, summed alike:
    # the first outcome whose total exceeds `r` is the one it returns.
    totals, total, probability = [], 0.0, 1.0 / n
    for _ in range(n):
        total += probability
        totals.append(total)
    _TOTALS[n] = got = tuple(totals)
    return got


class Match:
    """One game between seated strategies and people: the only play loop there is.

    It owns the state, one seeded agent per agent seat and the transcript. Chance and the
    agents draw from `seed_streams(seed)`, so a seed gives the same game in the CLI, the
    web app and a tournament. A seat in `humans` has no agent: play stops at its turn
    until `apply` brings its action.

    Args:
        game: a game or game string.
        strategies: one registered strategy name per seat (any text at a person's seat).
        seed: a non-negative integer.
        humans: the seats people play.

    Raises:
        MatchSetupError: wrong number of strategies or a negative seed.
        UnknownGameError, UnknownStrategyError, GameStringError: bad names or parameters.
    """

    def __init__(
        self,
        game: Game | str,
        strategies: Sequence[str],
        seed: int,
        humans: Collection[int] = (),
    ) -> None:
        self.game: Game = load_game(game)
        names = tuple(strategies)
        n = self.game.num_players
        if isinstance(strategies, str) or len(names) != n:
            raise MatchSetupError(
                f"{self.game.name} with {n} seats needs {n} strategies; "
                f"got {len(names)}: {', '.join(names)}"
            )
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise MatchSetupError(f"seed {seed!r} is not a non-negative integer")
        self.strategies = names
        self.seed = seed
        self.humans = frozenset(humans)
        self._chance_rng, seat_rngs = seed_streams(seed, n)
        self.agents: dict[int, Strategy] = {
            s: make_strategy(self.game.name, name, seat_rngs[s])
            for s, name in enumerate(names)
            if s not in self.humans
        }
        for seat, agent in self.agents.items():
            if isinstance(agent, SearchStrategy):
                agent.bind(functools.partial(self._resample, seat))
        self.state: State = self.game.new_initial_state()
        self.transcript: list[TranscriptEntry] = []

    def _resample(self, seat: int, rng: random.Random) -> State:
        # What a `SearchStrategy` searches from instead of the true state it may not see.
        return self.state.resample(seat, rng)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.state.current_player == TERMINAL

    def waiting_for(self) -> int | None:
        """The person's seat whose turn it is (after any chance moves), else None."""
        self.run_chance()
        seat = self.state.current_player
        return seat if seat in self.humans else None

    def ask(self, formula: Formula | str) -> Answer:
        """A formula about the cards or dice of the current state, and which seats know it.

        See `epigames.games.ask.ask` (atoms ``holds(h, c)``; Blufpoker's ``cup_653``).
        """
        # Imported when asked: `games.ask` loads the card structures and Blufpoker's rules,
        # which a match of another game does not need.
        from epigames.games.ask import ask

        return ask(self.state, formula)

    def run_chance(self) -> int:
        """Apply chance outcomes until a seat is to move or the game ends; returns how many."""
        state, done = self.state, 0
        while state.current_player == CHANCE:
            pairs = state.chance_outcomes()
            if type(pairs) is WeightedOutcomes:  # `sample_outcome`'s draw, inlined
                table = pairs.choices
                r = self._chance_rng.random()
                state.apply(table[min(bisect.bisect_right(pairs.totals, r), len(table) - 1)])
            else:
                state.apply(sample_outcome(pairs, self._chance_rng))
            done += 1
        return done

    def step_action(self) -> TranscriptEntry | None:
        """Apply exactly one action: a chance outcome (returns None) or an agent's decision.

        Raises:
            MatchError: it is a person's turn, or the game is over.
            IllegalActionError: the agent chose an illegal action.
        """
        if self.state.current_player == CHANCE:
            state = self.state
            state.apply(sample_outcome(state.chance_outcomes(), self._chance_rng))
            return None
        return self.step()

    def step(self, view: View | None = None) -> TranscriptEntry:
        """Play chance, then one agent's decision.

        Args:
            view: the deciding seat's view, when the caller has built it already.

        Raises:
            MatchError: it is a person's turn, or the game is over.
            IllegalActionError: the agent chose an illegal action (the state is unchanged).
        """
        self.run_chance()
        seat = self.state.current_player
        agent = self.agents.get(seat)
        if agent is None:
            whose = "the game is over" if seat == TERMINAL else f"{self._name(seat)} is a person"
            raise MatchError(f"no agent can move now: {whose}")
        decision = agent.choose(self.state.observation(seat) if view is None else view)
        return self._play(seat, decision.action, decision.thought)

    def apply(self, action: Hashable) -> TranscriptEntry:
        """Play a person's action at its turn (after any chance moves).

        Raises:
            MatchError: it is an agent's turn, or the game is over.
            IllegalActionError: not legal; the state is unchanged.
        """
        seat = self.waiting_for()
        if seat is None:
            raise MatchError("no person is to move now")
        return self._play(seat, action, NO_THOUGHT)

    def advance(self) -> int:
        """Let the agents play until a person's turn or the end; returns their decisions."""
        made = 0
        while self.waiting_for() is None and not self.over:
            self.step()
            made += 1
        return made

    def run(self) -> MatchResult:
        """Play to the end (agents only) and return the result.

        Raises:
            MatchError: a person's seat is to move.
            IllegalActionError: a strategy chose an illegal action.
        """
        state = self.state
        choosers: list[Chooser] = [
            None if agent is None else agent.choose
            for agent in map(self.agents.get, range(self.game.num_players))
        ]
        # The shared log of an `EventLog` is one list that only grows: its length is read
        # directly, not through the `events` property at every decision.
        shared = getattr(type(state), "events", None) is vars(EventLog)["events"]
        log = state.events if shared else None
        try:
            seat = play_agents(
                state,
                choosers,
                self._chance_rng,
                sample_outcome,
                log,
                self.transcript,
                TranscriptEntry,
            )
        except BadChoice as bad:
            raise self._chose_badly(bad.seat, bad.error) from None
        if seat != TERMINAL:
            raise MatchError(f"{self._name(seat)} is a person: the match cannot run alone")
        return self.result()

    def result(self) -> MatchResult:
        """The match so far as a `MatchResult` (final once `over`)."""
        state, game = self.state, self.game
        text = _GAME_TEXT.get(game)
        if text is None:
            text = _GAME_TEXT[game] = str(game)  # games are frozen values: cached by value
        # `MatchResult(...)` through its slots' setters (one is made per match).
        return _new_result(
            self.seed,
            self.strategies,
            tuple(state.returns()),
            state.winners(),
            len(self.transcript),
            state.capped,
            text,
            tuple(state.events),
            tuple(self.transcript),
            tuple(state.history),
        )

    def _play(self, seat: int, action: Hashable, thought: Thought) -> TranscriptEntry:
        state = self.state
        first = len(state.events)
        try:
            state.apply(action)
        except IllegalActionError as exc:
            if seat in self.humans:
                raise
            raise self._chose_badly(seat, exc) from None
        # `TranscriptEntry(...)` without the named tuple's Python-level `__new__`.
        entry: TranscriptEntry = _new_entry(TranscriptEntry, (seat, action, thought, first))
        self.transcript.append(entry)
        return entry

    def _chose_badly(self, seat: int, exc: IllegalActionError) -> IllegalActionError:
        return IllegalActionError(
            f"strategy {self.strategies[seat]!r} at {self._name(seat)} chose badly: {exc}"
        )

    def _name(self, seat: int) -> str:
        return self.game.seat_names[seat]


#: The canonical string of each game played (a game is an immutable value).
_GAME_TEXT: dict[Game, str] = {}
_new_result = slot_maker(MatchResult)


def play_match(game_string: str, strategy_names: Sequence[str], seed: int) -> MatchResult:
    """Play one match to the end and return its result (`Match(...).run()`).

    Pure and picklable: the result depends only on the arguments, so matches can run in
    any worker process.

    Args:
        game_string: e.g. `"kwartet(players=3)"`.
        strategy_names: one registered strategy name per seat, in seat order.
        seed: a non-negative integer.

    Raises:
        MatchSetupError: wrong number of strategies or a negative seed.
        UnknownGameError, UnknownStrategyError, GameStringError: bad names or parameters.
        IllegalActionError: a strategy chose an illegal action.
    """
    return Match(game_string, strategy_names, seed).run()
