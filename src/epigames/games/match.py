"""Playing one match: a pure, picklable function of game string, strategies and seed."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from epigames.errors import IllegalActionError, InputError
from epigames.games.core import TERMINAL, Game, load_game
from epigames.games.events import Event
from epigames.games.strategy import make_strategy


class MatchSetupError(InputError):
    """A match that cannot start: wrong number of strategies, a bad seed."""


class TranscriptEntry(NamedTuple):
    """One decision of a match (an immutable named tuple: one is made per move).

    Attributes:
        seat: who decided.
        action: the action played.
        thought: the strategy's reason.
        first_event: index into `MatchResult.events` of the first event the action caused.
    """

    seat: int
    action: Hashable
    thought: str
    first_event: int


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Everything about one finished match.

    Attributes:
        game: the canonical game string.
        seed: the match seed.
        strategies: strategy name per seat.
        returns: each seat's return.
        winners: the seats with the highest return.
        moves: the number of player (non-chance) actions.
        events: the full event log (public and private).
        transcript: every decision, in order.
        history: every action and chance outcome, in order (replayable).
    """

    game: str
    seed: int
    strategies: tuple[str, ...]
    returns: tuple[float, ...]
    winners: tuple[int, ...]
    moves: int
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
                    "thought": t.thought,
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


def seed_streams(seed: int, seats: int) -> tuple[random.Random, list[random.Random]]:
    """Independent generators for chance and for each seat, from one match seed.

    `numpy.random.SeedSequence(seed)` is spawned into `1 + seats` children; each becomes a
    128-bit seed for a `random.Random` (fast for the many small draws a game makes). The
    result depends only on `seed`, in any process and on any machine.
    """
    children = np.random.SeedSequence(seed).spawn(1 + seats)
    gens = [
        random.Random(int.from_bytes(c.generate_state(4).tobytes(), "little")) for c in children
    ]
    return gens[0], gens[1:]


def sample_outcome(outcomes: Sequence[tuple[Hashable, float]], rng: random.Random) -> Hashable:
    """Draw one chance outcome with the given probabilities."""
    r = rng.random()
    total = 0.0
    for outcome, probability in outcomes:
        total += probability
        if r < total:
            return outcome
    return outcomes[-1][0]  # rounding left `total` a hair below 1


def play_match(game_string: str, strategy_names: Sequence[str], seed: int) -> MatchResult:
    """Play one match to the end and return its result.

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
    game: Game = load_game(game_string)
    names = tuple(strategy_names)
    if isinstance(strategy_names, str) or len(names) != game.num_players:
        raise MatchSetupError(
            f"{game.name} with {game.num_players} seats needs {game.num_players} strategies; "
            f"got {len(names)}: {', '.join(names)}"
        )
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise MatchSetupError(f"seed {seed!r} is not a non-negative integer")
    chance_rng, seat_rngs = seed_streams(seed, game.num_players)
    players = [make_strategy(game.name, n, r) for n, r in zip(names, seat_rngs, strict=True)]
    state = game.new_initial_state()
    transcript: list[TranscriptEntry] = []
    observe, apply = state.observation, state.apply  # bound once: this loop is hot
    while True:
        seat = state.current_player
        if seat < 0:
            if seat == TERMINAL:
                break
            apply(sample_outcome(state.chance_outcomes(), chance_rng))
            continue
        decision = players[seat].choose(observe(seat))
        first = len(state.events)
        try:
            apply(decision.action)
        except IllegalActionError as exc:
            raise IllegalActionError(
                f"strategy {names[seat]!r} at {game.seat_names[seat]} chose badly: {exc}"
            ) from None
        transcript.append(TranscriptEntry(seat, decision.action, decision.thought, first))
    return MatchResult(
        game=str(game),
        seed=seed,
        strategies=names,
        returns=tuple(state.returns()),
        winners=state.winners(),
        moves=len(transcript),
        events=tuple(state.events),
        transcript=tuple(transcript),
        history=tuple(state.history),
    )
