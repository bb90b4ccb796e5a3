"""PettingZoo environments for every registered game: AEC (`env`) and parallel (`parallel_env`).

`env("kwartet(players=3,kinds=4)", observation="knowledge")` gives an `AECEnv` whose
agents are `player_0 … player_{n-1}` (the seats). Each observation is a dict with
`observation` (a float32 vector, see `epigames.adapters.encoding`) and `action_mask`
(int8, one entry per distinct action of the game, see `epigames.adapters.actions`).
With `layout="dict"`, `observation` is instead a dict of the vector's named parts
(`seat`, `private`, the game's public parts such as `trump` or `trick`, and with
`knowledge` also `possible` and `probability`), each shaped as the game declares.
Chance is resolved inside the environment from the generator seeded by `reset(seed=…)`;
rewards are the changes of `State.returns()`, so they add up to the final returns.

Two ways for the AEC environment to take turns:

- `turns="game"` (default): only the seat to move is selected, as the game decides.
- `turns="cycle"`: every seat is selected in seat order, each cycle; a seat that is not
  to move has one legal action, the extra last index `wait`.

`parallel_env(game)` is the turn-based game as a parallel environment: every live agent
gets an observation and sends an action each step, but only the seat to move acts (one
decision per step, then chance); every other agent's action is ignored, and its action
mask allows only `wait` (the extra last index), which says so. Each step's infos name the
agent to act next (`active_agent`), as PettingZoo's turn-based conversion does.

`seed` seeds the generator until `reset(seed=…)` gives a new one (without either, each
environment draws differently). `max_cycles` truncates the game after that many cycles:
in `turns="game"` a cycle is `num_players` decisions, in `turns="cycle"` one round of
the seats, in the parallel environment one step. With `illegal="raise"` (default) an
illegal action of the seat to move (or, in `turns="cycle"`, anything but `wait` from a
seat not to move) raises `IllegalActionError`; with `illegal="random"` the seat to move's
illegal action is replaced by a legal action drawn from the environment's generator (for
samplers that ignore the mask) and the step's info says `illegal: True`.
"""

from __future__ import annotations

import bisect
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from epigames.adapters.actions import action_space
from epigames.adapters.encoding import Vector, check_observation, encoder
from epigames.errors import IllegalActionError, InputError
from epigames.games import CHANCE, TERMINAL, State, View, load_game
from epigames.games.core import UniformOutcomes

__all__ = ["EpigamesEnv", "EpigamesParallelEnv", "env", "parallel_env", "raw_env"]

#: The render modes of both environments (their `metadata`).
_RENDER_MODES = ["human", "ansi"]
#: How many masks an environment keeps by the identity of their legal-action tuple.
_MASKS_KEPT = 1024


class AdapterOptionError(InputError):
    """An option of the environment with a value it does not take."""


def _choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise AdapterOptionError(f"unknown {name} {value!r}; choose one of: {', '.join(choices)}")
    return value


class _Table:
    """The game in play for either environment: its state, chance, observations, actions."""

    def _set_up(
        self,
        game: str,
        observation: str,
        render_mode: str | None,
        max_cycles: int | None,
        illegal: str,
        seed: int | None,
        wait: bool,
        layout: str,
    ) -> None:
        """Check the options and build the spaces; `wait`: the actions end with `wait`."""
        self.game = load_game(game)
        self.kind = check_observation(observation)
        self.layout = _choice("layout", layout, ("flat", "dict"))
        if render_mode is not None:
            _choice("render_mode", render_mode, tuple(_RENDER_MODES))
        self.render_mode = render_mode
        self.illegal = _choice("illegal", illegal, ("raise", "random"))
        if max_cycles is not None and max_cycles < 1:
            raise AdapterOptionError(f"max_cycles must be at least 1, not {max_cycles!r}")
        self.max_cycles = max_cycles
        self.actions = action_space(self.game)
        self.encoder = encoder(self.game, self.kind)
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self.wait = len(self.actions) if wait else None
        size = len(self.actions) + (1 if wait else 0)
        # Every entry is a 0/1 flag, a probability or a number scaled by its range.
        vector: spaces.Space[Any] = spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        if self.layout == "dict":
            vector = spaces.Dict(
                {p.name: spaces.Box(0.0, 1.0, p.shape, np.float32) for p in self.encoder.parts}
            )
        obs_space = spaces.Dict(
            {"observation": vector, "action_mask": spaces.Box(0, 1, (size,), np.int8)}
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._rng = np.random.default_rng(seed)
        self.state: State = self.game.new_initial_state()
        # The mask of the seat to move in `_mask_state` after `_mask_moves` actions and
        # outcomes (`_legal_mask`).
        self._mover_mask = np.zeros(0, dtype=np.int8)
        self._mask_state: State | None = None
        self._masks: dict[int, tuple[tuple[Hashable, ...], npt.NDArray[np.int8]]] = {}
        self._masks_of: dict[tuple[int, ...], npt.NDArray[np.int8]] = {}
        self._mask_moves = -1

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space: one index per distinct action (and `wait` where it is one)."""
        return self.action_spaces[agent]

    def _new_game(self, seed: int | None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.state = self.game.new_initial_state()
        self._resolve_chance()

    def _resolve_chance(self) -> None:
        state = self.state
        while state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            index = _draw(self._rng, outcomes)
            if type(outcomes) is UniformOutcomes:
                state.apply(outcomes.outcomes[index])
            else:
                state.apply(outcomes[index][0])

    def _legal_mask(self, view: View | None = None) -> npt.NDArray[np.int8]:
        """The mask of the seat to move's legal actions (from its `view` when given).

        Kept until the state changes (an action or outcome applied, a new game), so the
        seat to move's observation and the check of its action list them once, not twice.
        """
        state, moves = self.state, len(self.state.history)
        if self._mask_state is not state or self._mask_moves != moves:
            legal = view.legal_actions if view is not None else state.legal_actions()
            # Masks of legal-action tuples met before, by the tuple's identity (kept with
            # its mask, so that its id stays its own): a game that hands out the same tuple
            # for the same situation (Kwartet's asks) gets its mask again without a look-up.
            # The masks are never written to: `observe` hands out copies.
            masks = self._masks
            known = masks.get(id(legal))
            if known is not None and known[0] is legal:
                mask = known[1]
            else:
                # Else by the indices: a game that lists its moves anew each time (Sevens)
                # meets the same sets of moves again and again.
                found = tuple(self.actions.indices(legal))
                kept = self._masks_of.get(found)
                if kept is None:
                    if len(self._masks_of) >= _MASKS_KEPT:
                        self._masks_of.clear()
                    kept = self._masks_of[found] = np.zeros(len(self.actions), dtype=np.int8)
                    kept[list(found)] = 1
                mask = kept
                if type(legal) is tuple:  # immutable: its mask stays right while it lives
                    if len(masks) >= _MASKS_KEPT:
                        masks.clear()
                    masks[id(legal)] = (legal, mask)
            self._mover_mask = mask
            self._mask_state, self._mask_moves = state, moves
        return self._mover_mask

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation vector and action mask, from its seat's view alone."""
        seat = self.possible_agents.index(agent)
        view = self.state.observation(seat)
        vector: Vector = self.encoder.encode(view)
        if seat == self.state.current_player:
            mask = self._legal_mask(view).copy()  # the caller may write into its own
        else:
            mask = self.actions.mask(view.legal_actions)
        if self.wait is not None:
            mask = np.append(mask, np.int8(not view.is_my_turn))
        if self.layout == "dict":
            return {"observation": self.encoder.views(vector), "action_mask": mask}
        return {"observation": vector, "action_mask": mask}

    def _play(self, agent: str, action: int | None) -> tuple[list[float], bool]:
        """Play the seat to move's action index and the chance after it: the changes of
        the returns, and whether an illegal index was replaced (`illegal="random"`)."""
        before = self.state.returns()
        chosen: Hashable | None = None
        index = -1 if action is None else int(action)
        if 0 <= index < len(self.actions) and self._legal_mask()[index]:
            chosen = self.actions.actions[index]
        replaced = chosen is None
        if chosen is None:
            legal = list(self.state.legal_actions())
            self._refuse(agent, action, ", ".join(str(self.actions.index(a)) for a in legal))
            chosen = legal[int(self._rng.integers(len(legal)))]
        self.state.apply(chosen)
        self._resolve_chance()
        after = self.state.returns()
        if after == before:
            return [0.0] * len(after), replaced
        return [float(a - b) for a, b in zip(after, before, strict=True)], replaced

    def _refuse(self, agent: str, action: int | None, legal: str) -> None:
        """Raise for an illegal action unless `illegal="random"` lets it be replaced."""
        if self.illegal == "raise":
            raise IllegalActionError(
                f"illegal action {action!r} for {agent} in {self.game}; legal: {legal}"
            )

    def render(self) -> str | None:
        """The state as text (`ansi` returns it, `human` prints it after each step)."""
        if self.render_mode is None:
            return None
        return self.state.to_json()

    def close(self) -> None:
        """Nothing to release."""


class EpigamesEnv(_Table, AECEnv):  # type: ignore[misc]  # pettingzoo has no type hints
    """An AEC environment playing one epigames game; see the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012  # pettingzoo reads it from the class
        "render_modes": _RENDER_MODES,
        "name": "epigames_v0",
        "is_parallelizable": False,
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
        layout: str = "flat",
    ) -> None:
        AECEnv.__init__(self)
        self.turns = _choice("turns", turns, ("game", "cycle"))
        # In cycle turns a seat not to move is selected too: the extra last index `wait`.
        cycle = turns == "cycle"
        self._set_up(game, observation, render_mode, max_cycles, illegal, seed, cycle, layout)
        self._decisions = 0
        self._cycles = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; a seed fixes every chance outcome (and `illegal="random"`)."""
        self._new_game(seed)
        self._decisions = 0
        self._cycles = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._finish_if_over()
        if self.turns == "cycle":
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self._mover_agent()

    def _mover_agent(self) -> str:
        player = self.state.current_player
        return self.possible_agents[player if player >= 0 else 0]

    def _finish_if_over(self) -> None:
        if self.state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)

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
        changes = [0.0] * len(self.possible_agents)
        if seat == self.state.current_player:
            changes, replaced = self._play(agent, action)
            if replaced:
                self.infos[agent] = {"illegal": True}
            self._decisions += 1
        elif action != self.wait:
            self._refuse(agent, action, "wait")
            self.infos[agent] = {"illegal": True}
        # Most steps change no return: the rewards stay the zeros just cleared, and adding
        # them to the totals would change nothing.
        rewarded = any(changes)
        if rewarded:
            rewards = self.rewards
            for s, other in enumerate(self.possible_agents):
                if other in rewards:
                    rewards[other] = changes[s]
        # The seat to move read once (`is_terminal` and `_mover_agent` would read it again).
        player = self.state.current_player
        over = player == TERMINAL
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        last = seat == len(self.possible_agents) - 1
        if self.turns == "cycle" and last:
            self._cycles += 1
        if not over and self.max_cycles is not None and self._cut_off():
            self.truncations = dict.fromkeys(self.agents, True)
        if rewarded:
            self._accumulate_rewards()
        if self.turns == "cycle":
            self.agent_selection = self.possible_agents[0 if last else seat + 1]
        else:
            self.agent_selection = self.possible_agents[player if player >= 0 else 0]
        if self.render_mode == "human":
            print(self.render())

    def _cut_off(self) -> bool:
        """Whether `max_cycles` cycles are over."""
        if self.max_cycles is None:
            return False
        if self.turns == "cycle":
            return self._cycles >= self.max_cycles
        return self._decisions >= self.max_cycles * len(self.possible_agents)


class EpigamesParallelEnv(_Table, ParallelEnv):  # type: ignore[misc]  # pettingzoo: no hints
    """A parallel environment playing one epigames game: only the seat to move acts.

    See the module docstring. Each step plays one decision: the action of the agent
    whose mask allows more than `wait` (the step's `active_agent`), then chance; the
    other agents' actions are ignored, whatever they are.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # pettingzoo reads it from the class
        "render_modes": _RENDER_MODES,
        "name": "epigames_v0",
    }

    def __init__(
        self,
        game: str,
        observation: str = "hand",
        render_mode: str | None = None,
        max_cycles: int | None = None,
        illegal: str = "raise",
        seed: int | None = None,
        layout: str = "flat",
    ) -> None:
        self._set_up(game, observation, render_mode, max_cycles, illegal, seed, True, layout)
        self.agents: list[str] = []
        self._steps = 0

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Start a new game: every agent's observation and info (`active_agent`)."""
        self._new_game(seed)
        self._steps = 0
        self.agents = [] if self.state.is_terminal() else self.possible_agents[:]
        return self._observations(), self._infos()

    def step(
        self, actions: dict[str, int | None]
    ) -> tuple[
        dict[str, Any],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Play the action of the seat to move (the others' are ignored), then chance.

        Returns:
            Observations, rewards (the changes of the returns), terminations, truncations
            and infos of every agent that was live; once the game is over or cut off,
            `agents` is empty.

        Raises:
            IllegalActionError: the seat to move's action is missing or illegal (with
                `illegal="raise"`).
        """
        if not self.agents:
            return {}, {}, {}, {}, {}
        agents = self.agents
        mover = self.possible_agents[self.state.current_player]
        changes, replaced = self._play(mover, actions.get(mover))
        self._steps += 1
        rewards = {agent: changes[self.possible_agents.index(agent)] for agent in agents}
        over = self.state.is_terminal()
        cut = not over and self.max_cycles is not None and self._steps >= self.max_cycles
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, cut)
        observations = self._observations()
        infos = self._infos() if not (over or cut) else {agent: {} for agent in agents}
        if replaced:
            infos[mover]["illegal"] = True
        if over or cut:
            self.agents = []
        if self.render_mode == "human":
            print(self.render())
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, Any]:
        # The last step's observations go to every agent that was live in it.
        agents = self.agents or self.possible_agents
        return {agent: self.observe(agent) for agent in agents}

    def _infos(self) -> dict[str, dict[str, Any]]:
        player = self.state.current_player
        active = self.possible_agents[player] if player >= 0 else None
        return {agent: {"active_agent": active} for agent in self.agents}


#: The running totals of n equally likely chance outcomes, by n, as `_draw` uses them.
_UNIFORM: dict[int, list[float]] = {}


def _totals(p: npt.NDArray[np.float64]) -> list[float]:
    """The running totals `Generator.choice` draws from for probabilities `p`."""
    cdf = (p / p.sum()).cumsum()
    cdf /= cdf[-1]
    return list(cdf.tolist())


def _draw(rng: np.random.Generator, outcomes: Sequence[tuple[Hashable, float]]) -> int:
    """The index of a chance outcome drawn from `rng` with the outcomes' probabilities.

    The same index as `rng.choice(len(outcomes), p=p / p.sum())`, the draw this adapter
    made before, without its checks: numpy takes `cdf = p.cumsum(); cdf /= cdf[-1]`, one
    `rng.random()` and `cdf.searchsorted(u, side="right")`. Equally likely outcomes
    (`UniformOutcomes`, e.g. the cards of a deal) reuse their totals; the choice built
    and checked a vector of probabilities for each card dealt, some 50 µs.
    """
    if type(outcomes) is UniformOutcomes:
        n = len(outcomes)
        totals = _UNIFORM.get(n)
        if totals is None:
            totals = _UNIFORM[n] = _totals(np.full(n, 1.0 / n))
    else:
        totals = _totals(np.array([p for _, p in outcomes], dtype=np.float64))
    return bisect.bisect_right(totals, rng.random())


class _OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]  # pettingzoo: no hints
    """PettingZoo's order-enforcing wrapper, with `last` and `step` reading the env itself.

    The wrapper finds each of the env's attributes through two `__getattr__` calls in
    Python; `last` reads five of them and `step` one on every decision a trainer takes,
    and the trainer reads `agents` (about a tenth of a Sevens step in all). They check the
    call order as before.
    """

    @property
    def agents(self) -> list[str]:
        """The env's live agents (read in every trainer's loop)."""
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents  # type: ignore[no-any-return]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:  # before reset, or no agent left: the wrapper's own error or warning
            OrderEnforcingWrapper.step(self, action)

    def __str__(self) -> str:
        return str(self.env)


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
            `seed`, `layout` (`flat`: one vector; `dict`: its named parts).

    Raises:
        InputError: a bad game string or option.
    """
    return _OrderEnforcing(raw_env(game, observation, render_mode, **options))


def parallel_env(
    game: str, observation: str = "hand", render_mode: str | None = None, **options: Any
) -> EpigamesParallelEnv:
    """The game as a parallel environment: each step, the seat to move acts, the others wait.

    Args:
        game: a game string.
        observation: `hand` or `knowledge`.
        render_mode: None, `ansi` or `human`.
        **options: `max_cycles` (steps), `illegal` (`raise`, `random`), `seed`, `layout`.

    Raises:
        InputError: a bad game string or option (`turns` is not one: a step is a turn).
    """
    if "turns" in options:
        raise AdapterOptionError(
            "a parallel environment takes no turns option: in each step the seat to move "
            "acts and every other agent waits"
        )
    return EpigamesParallelEnv(game, observation, render_mode, **options)
