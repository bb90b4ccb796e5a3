"""Small settings of every game for the adapter tests (a game without one runs its defaults)."""

from __future__ import annotations

from epigames.games import registered_games

# Small decks keep knowledge cheap; each lasts more than the four cycles of max_cycles_test
# (Blufpoker: at least 19 calls, since a call can come right after the first throw).
SMALL: dict[str, str] = {
    "kwartet": "kwartet(players=3,kinds=3)",
    "blufpoker": "blufpoker(players=2,penalties=10)",
    "klaverjas": "klaverjas(ranks=3,deals=1)",
    "kemps": "kemps(players=2,table=3,ranks=4,max_turns=20)",
}
#: Further settings of a game with a mode of its own: the Kemps team game (calls, signals;
#: seats and table given, since OpenSpiel fills in the 2023 defaults of the others).
MORE: tuple[str, ...] = ("kemps(players=4,table=4,ranks=5,max_turns=20,teams=true)",)


def small_games() -> list[str]:
    """One small game string per registered game."""
    return [SMALL.get(name, name) for name in registered_games()] + list(MORE)
