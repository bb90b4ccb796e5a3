"""OpenSpiel's information-set MCTS as an epigames strategy (`openspiel:ismcts`).

What the bot sees: it is a `SearchStrategy`, so it searches from `state.resample(seat,
rng)`, a state its seat cannot tell from the true one drawn by the `Match`, and from
further resamples of that one (which keep the seat's view). Its randomness (the draws,
the search's choices, the rollouts) comes from the seat's seeded generator, so a seed
gives the same game in any process.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
from open_spiel.python.algorithms import ismcts

from epigames.adapters.openspiel import SpielGame, SpielState, spiel_game_class
from epigames.games import CHANCE, TERMINAL, Game, State, View
from epigames.games.match import sample_outcome
from epigames.games.strategy import Decision, SearchStrategy, Thought

if TYPE_CHECKING:
    # Only the type: `bots` imports this module when it makes the strategy.
    from epigames.adapters.bots import ISMCTSSettings

__all__ = ["ISMCTSStrategy"]

_GAMES: dict[Game, SpielGame] = {}


def _spiel_game(game: Game) -> SpielGame:
    """The OpenSpiel game of an epigames game, made once per process."""
    spiel = _GAMES.get(game)
    if spiel is None:
        params = {p.name: getattr(game, p.attr) for p in type(game).params}
        spiel = _GAMES[game] = spiel_game_class(game.name)(params)
    return spiel


class _Search(ismcts.ISMCTSBot):  # type: ignore[misc]  # OpenSpiel has no type hints
    """OpenSpiel's IS-MCTS keyed by the events the player observed instead of their JSON.

    The information-state string carries a SHA-256 chain over the player's log, which a
    resampled state (a new node's) hashes again from the first event; the tuple of the
    same events is the same information, and hashes far faster.
    """

    def get_state_key(self, state: SpielState) -> tuple[int, tuple[Hashable, ...]]:
        player = int(state.current_player())
        return player, tuple(state.state.observation(player).log)


class _Rollouts:
    """OpenSpiel's evaluator interface: random rollouts on the epigames state.

    OpenSpiel's `RandomRolloutEvaluator` plays through the OpenSpiel state, which maps
    every legal action to its index at every move: several times slower.
    """

    def __init__(self, horizon: int, rng: random.Random) -> None:
        self.horizon = horizon
        self.rng = rng

    def evaluate(self, state: SpielState) -> npt.NDArray[np.float64]:
        """Each seat's returns after random play from `state` (`horizon` moves or the end)."""
        inner: State = state.state.clone()
        rng, left = self.rng, self.horizon or -1
        while left:
            player = inner.current_player
            if player == TERMINAL:
                break
            if player == CHANCE:
                inner.apply(sample_outcome(inner.chance_outcomes(), rng))
                continue
            inner.apply(rng.choice(inner.legal_actions()))
            left -= 1
        return np.array(inner.returns(), dtype=np.float64)

    def prior(self, state: SpielState) -> list[tuple[int, float]]:
        """Equal priors over the legal actions."""
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class ISMCTSStrategy(SearchStrategy):
    """OpenSpiel's IS-MCTS at one seat (`openspiel:ismcts(simulations=…,worlds=…,…)`).

    Each decision draws `worlds` states from the seat's information (the first from the
    `Match`, the others by resampling it), runs `simulations` simulations over them with
    random rollouts of `horizon` moves, and plays the most visited action.
    """

    name = "openspiel:ismcts"

    def __init__(self, rng: random.Random, settings: ISMCTSSettings) -> None:
        super().__init__(rng)
        self.settings = settings
        self._search: _Search | None = None
        self._spiel: SpielGame | None = None

    def _searcher(self, game: Game) -> _Search:
        # Made at the first decision: the plugin is given the game's name, the view its
        # parameters. The draws from `rng` are the same in every run, so this stays seeded.
        if self._search is None:
            settings, rng = self.settings, self.rng
            low, high = game.returns_range
            self._spiel = _spiel_game(game)
            self._search = _Search(
                self._spiel,
                _Rollouts(settings.horizon, random.Random(rng.getrandbits(64))),
                settings.uct_c * float(high - low),
                settings.simulations,
                max_world_samples=settings.worlds,
                random_state=np.random.RandomState(rng.getrandbits(32)),
                final_policy_type=ismcts.ISMCTSFinalPolicyType.NORMALIZED_VISITED_COUNT,
            )
            self._search.set_resampler(self._resampled)
        return self._search

    def _resampled(self, state: SpielState, player: int) -> SpielState:
        clone: SpielState = state.clone()
        clone._box.state = state.state.resample(player, self.rng)
        return clone

    def choose(self, view: View) -> Decision:
        """Search from states drawn from this seat's information; play the most visited."""
        legal = view.legal_actions
        if len(legal) == 1:
            return Decision(legal[0], Thought("IS-MCTS: my only legal move"))
        game = view.game
        search = self._searcher(game)
        assert self._spiel is not None
        root = SpielState(self._spiel, self.sampled_state())
        policy: Sequence[tuple[int, float]] = search.get_policy(root)
        share = max(p for _, p in policy)
        # Ties are common when rollouts end before any return changes (Kemps): a fixed
        # choice among them could repeat one move for the whole game.
        index = self.rng.choice(sorted(a for a, p in policy if p == share))
        action: Hashable = root.tables.actions.actions[index]
        said = "IS-MCTS, {} simulations: {} visited {:.0%}"
        args = (self.settings.simulations, game.action_to_string(action), share)
        return Decision(action, Thought(said, args=args))
