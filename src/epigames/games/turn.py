"""The values of `State.current_player` that are not seats.

A leaf module, so that what draws states (`games.notebook`) reads them without importing
`games.core`, which imports it; `games.core` exports them too.
"""

#: `State.current_player` while chance moves (sample from `chance_outcomes()`).
CHANCE = -1
#: `State.current_player` once the game is over.
TERMINAL = -2
