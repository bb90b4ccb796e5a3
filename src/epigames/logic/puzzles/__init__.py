"""Classic epistemic puzzles, modelled and solved with the explicit Kripke engine.

Every puzzle is built with the public API of `epigames.logic` (`KripkeModel`, `Partition`,
formulas, `announce`) and returns the models it goes through, so the answer can be
inspected, re-checked with other formulas, or drawn.

Puzzles, one module each:
    * Muddy children: `muddy_children`, `play_muddy_children`, `muddy_children_story`.
    * Cheryl's birthday: `cheryl_birthday`.
    * Sum and Product (Freudenthal): `sum_and_product`.
    * Russian cards (3-3-1): `russian_cards`.
    * Drinking logicians, any number, on a knowledge structure: `drinking_logicians`.
    * Dining cryptographers, on a knowledge structure:
      `dining_cryptographers.dining_cryptographers`.

Example::

    from epigames.logic.puzzles import muddy_children_story
    story = muddy_children_story(3, {1, 2})
    [sorted(r.knowers) for r in story.rounds]   # [[], [1, 2]]
"""

from __future__ import annotations

from epigames.logic.puzzles.cheryl import CHERYL_DATES, cheryl_birthday, cheryl_model
from epigames.logic.puzzles.common import Solution, Step
from epigames.logic.puzzles.drinking_logicians import (
    DrinkingStory,
    drinking_logicians,
    drinking_logicians_structure,
)
from epigames.logic.puzzles.muddy_children import (
    MuddyRound,
    MuddyStory,
    muddy_children,
    muddy_children_story,
    nobody_knows,
    play_muddy_children,
    someone_muddy,
)
from epigames.logic.puzzles.russian_cards import (
    RUSSIAN_AGENTS,
    RussianCards,
    anne_says,
    russian_cards,
    russian_cards_model,
    russian_informative,
    russian_safe,
)
from epigames.logic.puzzles.sum_and_product import sum_and_product, sum_and_product_model

__all__ = [
    "CHERYL_DATES",
    "RUSSIAN_AGENTS",
    "DrinkingStory",
    "MuddyRound",
    "MuddyStory",
    "RussianCards",
    "Solution",
    "Step",
    "anne_says",
    "cheryl_birthday",
    "cheryl_model",
    "drinking_logicians",
    "drinking_logicians_structure",
    "muddy_children",
    "muddy_children_story",
    "nobody_knows",
    "play_muddy_children",
    "russian_cards",
    "russian_cards_model",
    "russian_informative",
    "russian_safe",
    "someone_muddy",
    "sum_and_product",
    "sum_and_product_model",
]
