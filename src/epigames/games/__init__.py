"""Games: the framework (`core`, `strategy`, `match`) and every registered game.

Importing this package registers the built-in games and their strategies. The public
names are the ones imported below as `name as name` (the explicit re-export form).
"""

from epigames.games.core import (
    CHANCE as CHANCE,
    TERMINAL as TERMINAL,
    Event as Event,
    Fact as Fact,
    Game as Game,
    GameStringError as GameStringError,
    GroupObservation as GroupObservation,
    Param as Param,
    PrivateObservation as PrivateObservation,
    PublicAnnouncement as PublicAnnouncement,
    SeatError as SeatError,
    State as State,
    StateFormatError as StateFormatError,
    UnknownGameError as UnknownGameError,
    UnknownParameterError as UnknownParameterError,
    View as View,
    game_class as game_class,
    game_registered as game_registered,
    illegal_action as illegal_action,
    load_game as load_game,
    register_game as register_game,
    registered_games as registered_games,
    replay as replay,
    state_from_json as state_from_json,
    unregister_game as unregister_game,
)
from epigames.games.match import (
    Match as Match,
    MatchError as MatchError,
    MatchResult as MatchResult,
    MatchSetupError as MatchSetupError,
    TranscriptEntry as TranscriptEntry,
    play_match as play_match,
)
from epigames.games.strategy import (
    Decision as Decision,
    SearchStrategy as SearchStrategy,
    Strategy as Strategy,
    Thought as Thought,
    UnknownStrategyError as UnknownStrategyError,
    check_strategy as check_strategy,
    make_strategy as make_strategy,
    register_strategy as register_strategy,
    split_strategy_names as split_strategy_names,
    strategies_for as strategies_for,
    strategy_choices as strategy_choices,
    strategy_description as strategy_description,
)

# Registers the built-in games; imported last because they build on the names above.
from epigames.games import kwartet as kwartet  # isort: skip
from epigames.games import blufpoker as blufpoker  # isort: skip
from epigames.games import klaverjas as klaverjas  # isort: skip
from epigames.games import kemps as kemps  # isort: skip
from epigames.games import sevens as sevens  # isort: skip
