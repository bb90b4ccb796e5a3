"""Games: the framework (`core`, `strategy`, `match`) and every registered game.

Importing this package registers the built-in games and their strategies.
"""

from epigames.games.core import (
    CHANCE,
    TERMINAL,
    Event,
    Fact,
    Game,
    GameStringError,
    GroupObservation,
    Param,
    PrivateObservation,
    PublicAnnouncement,
    SeatError,
    State,
    StateFormatError,
    UnknownGameError,
    UnknownParameterError,
    View,
    game_class,
    game_registered,
    illegal_action,
    load_game,
    register_game,
    registered_games,
    replay,
    state_from_json,
    unregister_game,
)
from epigames.games.match import (
    Match,
    MatchError,
    MatchResult,
    MatchSetupError,
    TranscriptEntry,
    play_match,
)
from epigames.games.strategy import (
    Decision,
    Strategy,
    Thought,
    UnknownStrategyError,
    make_strategy,
    register_strategy,
    strategies_for,
)

# Registers the built-in games; imported last because they build on the names above.
from epigames.games import kwartet  # isort: skip
from epigames.games import blufpoker  # isort: skip
from epigames.games import klaverjas  # isort: skip

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Decision",
    "Event",
    "Fact",
    "Game",
    "GameStringError",
    "GroupObservation",
    "Match",
    "MatchError",
    "MatchResult",
    "MatchSetupError",
    "Param",
    "PrivateObservation",
    "PublicAnnouncement",
    "SeatError",
    "State",
    "StateFormatError",
    "Strategy",
    "Thought",
    "TranscriptEntry",
    "UnknownGameError",
    "UnknownParameterError",
    "UnknownStrategyError",
    "View",
    "blufpoker",
    "game_class",
    "game_registered",
    "illegal_action",
    "klaverjas",
    "kwartet",
    "load_game",
    "make_strategy",
    "play_match",
    "register_game",
    "register_strategy",
    "registered_games",
    "replay",
    "state_from_json",
    "strategies_for",
    "unregister_game",
]
