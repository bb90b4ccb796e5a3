"""`expert`: our strategy, built on exact probabilities.

Compiled with mypyc (`epigames.native`), as the reports' strategies are (`report.py`).
"""

from __future__ import annotations

import random

from mypy_extensions import mypyc_attr

from epigames.games.core import View
from epigames.games.kwartet.strategies.reading import Reading, pick
from epigames.games.strategy import Decision, Strategy, register_strategy

_COMPLETES = "{}, and with it kind {} is mine; I ask for it."
_BEST_CHANCE = (
    "No holder is certain; kind {} needs {} and {} holds {} with probability {:.0%}, "
    "my best chance there."
)


@mypyc_attr(allow_interpreted_subclasses=True)
class Expert(Strategy):
    """Sure asks first (kinds it can finish before others); else the closest kind's surest ask.

    1. If it knows the holder of a needed card it asks for it (success is certain and
       keeps the turn), first for kinds it can complete that way: a laid-down kind cannot
       be taken back, while a half-gathered kind shows the others where to ask.
    2. Otherwise it keeps to the kinds it needs fewest cards to complete (a point soon,
       and failed asks reveal only kinds it is about to finish) and asks the opponent
       most likely to hold one of their cards, by exact probability over all deals
       consistent with what it knows. Equal chances go to the opponent with most points:
       a card taken from the leader counts twice.
    """

    # Declared here as well as in `Strategy`: compiled, it is then a slot of this class.
    rng: random.Random

    def choose(self, view: View) -> Decision:
        """A certain ask if there is one, else the surest ask of the closest kind."""
        read = Reading(view)
        rng = self.rng
        if read.known:
            complete = read.complete_kinds
            pairs = [(c, h) for c, h in read.known if c.kind in complete] or list(read.known)
            card, holder = pick(rng, pairs)
            why = read.why_known(card, holder)
            if card.kind in complete:
                return read.ask(holder, card, _COMPLETES, why, card.kind)
            return read.ask(holder, card, "{}; I ask for it.", why)
        needed = read.needed
        scores = read.view.scores
        targets = read.view.targets
        knowledge, missing = read.knowledge, read.missing
        # Each opponent's column alone, from the exact counts (`marginals` has the same).
        indices = [c.index for c in missing]
        chances = [knowledge.chances(target, indices) for target in targets]
        best: tuple[int, float, int] | None = None
        options = []
        for i, card in enumerate(missing):
            for j, target in enumerate(targets):
                key = (-needed[card.kind], chances[j][i], scores[target])
                if best is None or key > best:
                    best, options = key, [(card, target)]
                elif key == best:
                    options.append((card, target))
        assert best is not None
        card, target = pick(rng, options)
        need = "1 card" if -best[0] == 1 else f"{-best[0]} cards"
        name = read.names[target]
        return read.ask(target, card, _BEST_CHANCE, card.kind, need, name, card, best[1])


register_strategy(
    "kwartet",
    "expert",
    about="Sure asks first (kinds it can finish before others); else the closest kind's "
    "surest ask.",
)(Expert)
