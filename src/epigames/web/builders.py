"""Sessions made to order: a watched game, a replayed history, a game a person plays.

Each builder reads the game string, checks one strategy per seat and gives the session
an unguessable id; `watch_session` and `play_session` let a `Match` drive it, so the same
(game, strategies, seed) gives the same game as a tournament or the CLI.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Hashable, Sequence

from epigames.errors import InputError
from epigames.games import Game, Match, check_strategy, load_game
from epigames.web.budget import UNLIMITED, PlayBudget
from epigames.web.session import HUMAN, Session

#: The largest seed a client may choose (tournament seeds are 63-bit).
MAX_SEED = 2**63 - 1


def check_strategies(
    game: Game, strategies: Sequence[str], persons: Collection[int] = (), person: str = ""
) -> tuple[str, ...]:
    """One known strategy per seat; the seats in `persons` may say anything (`person`, the
    word for them, is named in the error) and become `HUMAN`.

    Raises:
        InputError: wrong count or an unknown strategy.
    """
    names = list(strategies)
    n = game.num_players
    if len(names) != n:
        raise InputError(
            f"{game} has {n} seats ({', '.join(game.seat_names)}) but {len(names)} "
            f"were given; give one per seat (a strategy{f' or {person!r}' if person else ''})"
        )
    for seat, name in enumerate(names):
        if seat in persons:
            names[seat] = HUMAN
        else:
            check_strategy(game.name, name)
    return tuple(names)


def _new_id() -> str:
    return secrets.token_urlsafe(12)


def watch_session(
    game_text: str,
    strategies: Sequence[str],
    seed: int,
    origin: str = "",
    ahead: int | None = None,
    budget: PlayBudget = UNLIMITED,
) -> Session:
    """A watched game, played by a `Match` and kept as frames: to the end at once, or
    lazily, `ahead` frames past each frame asked for (`Session.ahead`), within `budget`
    (`Session.budget`: past it, the frames asked for next play on).

    The same (game, strategies, seed) gives the same game as a tournament or the CLI.
    """
    game = load_game(game_text)
    names = check_strategies(game, strategies)
    session = Session(_new_id(), game, names, seed, origin=origin, ahead=ahead, budget=budget)
    session.drive(Match(game, names, seed))
    return session


def replay_session(game_text: str, history: Sequence[Hashable], origin: str = "") -> Session:
    """A watched session of a given history (actions and chance outcomes; no thoughts).

    The history may stop anywhere; its last frame is where it stops.

    Raises:
        IllegalActionError: the history holds an illegal action.
    """
    game = load_game(game_text)
    session = Session(_new_id(), game, ("?",) * game.num_players, 0, origin=origin)
    session.load_history(history)
    return session


def play_session(
    game_text: str,
    strategies: Sequence[str],
    human: int,
    seed: int | None = None,
    budget: PlayBudget = UNLIMITED,
) -> Session:
    """A game a person plays at seat `human` against agents; agents move up to its turn
    (within `budget`, as `watch_session`).

    The seed is drawn by the server unless given, and kept from the person until the game
    ends: with the seed, a spectator replay would show the deal.
    """
    game = load_game(game_text)
    if not 0 <= human < game.num_players:
        raise InputError(f"no seat {human} in {game}; seats are 0..{game.num_players - 1}")
    names = check_strategies(game, strategies, (human,))
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    session = Session(_new_id(), game, names, seed, human=human, budget=budget)
    session.drive(Match(game, names, seed, humans=(human,)))
    return session
