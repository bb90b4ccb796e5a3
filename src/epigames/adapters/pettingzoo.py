"""PettingZoo AEC environments for every registered game.

`env("kwartet(players=3,kinds=4)", observation="knowledge")` gives an `AECEnv` whose
agents are `player_0 … player_{n-1}` (the seats). Each observation is a dict with
`observation` (a float32 vector, see `epigames.adapters.encoding`) and `action_mask`
(int8, one entry per distinct action of the game, see `epigames.adapters.actions`).
Chance is resolved inside the environment from the generator seeded by `reset(seed=…)`;
rewards are the changes of `State.returns()`, so they add up to the final returns.

Two ways to take turns:

- `turns="game"` (default): only the seat to move is selected, as the game decides.
- `turns="cycle"`: every seat is selected in seat order, each cycle; a seat that is not
  to move has one legal action, the extra last index `wait`. This makes the game
  usable as a parallel environment (`parallel_env`, every seat acts in each step).

`seed` seeds the generator until `reset(seed=…)` gives a new one (without either, each
environment draws differently). `max_cycles` truncates the game after that many cycles;
in `turns="game"` a cycle is `num_players` decisions. With `illegal="raise"` (default)
an illegal action raises `IllegalActionError`; with `illegal="random"` it is replaced by
a legal action drawn from the environment's generator (for samplers that ignore the
mask) and the step's info says `illegal: True`.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import aec_to_parallel
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from epigames.adapters.actions import action_space
from epigames.adapters.encoding import Vector, check_observation, encoder
from epigames.errors import IllegalActionError, InputError
from epigames.games import CHANCE, State, load_game

__all__ = ["EpigamesEnv", "env", "parallel_env", "raw_env"]


class AdapterOptionError(InputError):
    """An option of the environment with a value it does not take."""


def _choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise AdapterOptionError(f"unknown {name} {value!r}; choose one of: {', '.join(choices)}")
    return value


class EpigamesEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type hints
    """An AEC environment playing one epigames game; see the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012  # pettingzoo reads it from the class
        "render_modes": ["human", "ansi"],
        "name": "epigames_v0",
        "is_parallelizable": True,
    }

    def __init__(
        self,
        game: str,
        observation: str = "hand",
        render_mode: str | None = None,
        max_cycles: int | None = None,
        turns: str = "game",
        illegal: str = "raise",
        seed: int | None = None,
    ) -> None:
        super().__init__()
        self.game = load_game(game)
        self.kind = check_observation(observation)
        if render_mode is not None:
            _choice("render_mode", render_mode, tuple(self.metadata["render_modes"]))
        self.render_mode = render_mode
        self.turns = _choice("turns", turns, ("game", "cycle"))
        self.illegal = _choice("illegal", illegal, ("raise", "random"))
        if max_cycles is not None and max_cycles < 1:
            raise AdapterOptionError(f"max_cycles must be at least 1, not {max_cycles!r}")
        self.max_cycles = max_cycles
        self.actions = action_space(self.game)
        self.encoder = encoder(self.game, self.kind)
        n = self.game.num_players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        # The extra last index is `wait`, legal only for a seat not to move (cycle turns).
        self.wait = len(self.actions) if self.turns == "cycle" else None
        size = len(self.actions) + (1 if self.wait is not None else 0)
        # Every entry is a 0/1 flag or a probability.
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._rng = np.random.default_rng(seed)
        self.state: State = self.game.new_initial_state()
        self._decisions = 0
        self._cycles = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space: one index per distinct action (and `wait` in cycle turns)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; a seed fixes every chance outcome (and `illegal="random"`)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.state = self.game.new_initial_state()
        self._decisions = 0
        self._cycles = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._resolve_chance()
        self._finish_if_over()
        if self.turns == "cycle":
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self._mover_agent()

    def _mover_agent(self) -> str:
        player = self.state.current_player
        return self.possible_agents[player if player >= 0 else 0]

    def _resolve_chance(self) -> None:
        state = self.state
        while state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            p = np.array([probability for _, probability in outcomes], dtype=np.float64)
            index = int(self._rng.choice(len(outcomes), p=p / p.sum()))
            state.apply(outcomes[index][0])

    def _finish_if_over(self) -> None:
        if self.state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation vector and action mask, from its seat's view alone."""
        seat = self.possible_agents.index(agent)
        view = self.state.observation(seat)
        observation: Vector = self.encoder.encode(view)
        mask = self.actions.mask(view.legal_actions)
        if self.wait is not None:
            mask = np.append(mask, np.int8(not view.is_my_turn))
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (an index of its action space)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.infos[agent] = {}
        before = self.state.returns()
        if seat == self.state.current_player:
            self.state.apply(self._game_action(agent, action))
            self._decisions += 1
            self._resolve_chance()
        elif action != self.wait:
            self._refuse(agent, action, "wait")
        after = self.state.returns()
        for s, other in enumerate(self.possible_agents):
            if other in self.rewards:
                self.rewards[other] = float(after[s] - before[s])
        self._finish_if_over()
        last = seat == len(self.possible_agents) - 1
        if self.turns == "cycle" and last:
            self._cycles += 1
        if not self.state.is_terminal() and self._cut_off():
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if self.turns == "cycle":
            self.agent_selection = self.possible_agents[0 if last else seat + 1]
        else:
            self.agent_selection = self._mover_agent()
        if self.render_mode == "human":
            print(self.render())

    def _cut_off(self) -> bool:
        """Whether `max_cycles` cycles are over."""
        if self.max_cycles is None:
            return False
        if self.turns == "cycle":
            return self._cycles >= self.max_cycles
        return self._decisions >= self.max_cycles * len(self.possible_agents)

    def _game_action(self, agent: str, action: int | None) -> Hashable:
        legal = list(self.state.legal_actions())
        chosen: Hashable | None = None
        if action is not None and 0 <= int(action) < len(self.actions):
            candidate = self.actions.actions[int(action)]
            if candidate in legal:
                chosen = candidate
        if chosen is not None:
            return chosen
        self._refuse(agent, action, ", ".join(str(self.actions.index(a)) for a in legal))
        return legal[int(self._rng.integers(len(legal)))]

    def _refuse(self, agent: str, action: int | None, legal: str) -> None:
        """Raise for an illegal action, or (`illegal="random"`) mark the step's info."""
        if self.illegal == "raise":
            raise IllegalActionError(
                f"illegal action {action!r} for {agent} in {self.game}; legal: {legal}"
            )
        self.infos[agent] = {"illegal": True}

    def render(self) -> str | None:
        """The state as text (`ansi` returns it, `human` prints it after each step)."""
        if self.render_mode is None:
            return None
        return self.state.to_json()

    def close(self) -> None:
        """Nothing to release."""


def raw_env(
    game: str, observation: str = "hand", render_mode: str | None = None, **options: Any
) -> EpigamesEnv:
    """The environment without PettingZoo's wrappers."""
    return EpigamesEnv(game, observation, render_mode, **options)


def env(
    game: str, observation: str = "hand", render_mode: str | None = None, **options: Any
) -> AECEnv:
    """The AEC environment of a game string, wrapped to enforce PettingZoo's call order.

    Args:
        game: a game string (`"kwartet(players=3,kinds=4)"`).
        observation: `hand` or `knowledge` (see `epigames.adapters.encoding`).
        render_mode: None, `ansi` or `human`.
        **options: `max_cycles`, `turns` (`game`, `cycle`), `illegal` (`raise`, `random`),
            `seed`.

    Raises:
        InputError: a bad game string or option.
    """
    return OrderEnforcingWrapper(raw_env(game, observation, render_mode, **options))


def parallel_env(
    game: str, observation: str = "hand", render_mode: str | None = None, **options: Any
) -> ParallelEnv:
    """The game as a parallel environment: every seat acts each step, `wait` unless to move."""
    options.setdefault("turns", "cycle")
    if options["turns"] != "cycle":
        raise AdapterOptionError("a parallel environment needs turns='cycle'")
    return aec_to_parallel(env(game, observation, render_mode, **options))
