"""The decision rules of the two reports, on exact knowledge.

2020 report (Kwartet): `greedy`, `silent`, `mixed`. 2023 report (Quartet on Mesa):
`owner`, `defensive`, `aggressive`. The reports kept knowledge by hand and missed
inferences; here the same rules read the seat's exact `CardKnowledge`, so they are the
reports' strategies played by perfect logicians.

"A random request" is a uniformly random legal ask: any opponent with cards, any card
of a kind the seat holds (its own cards included when `ask_own` is true). Ties between
equally good asks are broken uniformly at random with the strategy's own generator.
"""

from __future__ import annotations

import random

from mypy_extensions import mypyc_attr

from epigames.games.core import View
from epigames.games.kwartet.strategies.reading import Reading, pick
from epigames.games.strategy import Decision, Strategy, register_strategy


@mypyc_attr(allow_interpreted_subclasses=True)
class ReadingStrategy(Strategy):
    """A strategy that decides on its seat's `Reading` of the view (built once per move).

    Compiled with mypyc (`epigames.native`): the strategies are native classes, registered
    after their class statements (a class decorator would leave a class to plain Python,
    and a compiled class keeps no docstring, so each says what it does in `about`).
    """

    # Declared here as well as in `Strategy`: compiled, it is then a slot of this class.
    rng: random.Random

    def choose(self, view: View) -> Decision:
        """Read the view, then `decide`."""
        return self.decide(Reading(view))

    def decide(self, read: Reading) -> Decision:
        """The decision on a reading of the seat's view."""
        raise NotImplementedError


@mypyc_attr(allow_interpreted_subclasses=True)
class KnownFirst(ReadingStrategy):
    """The 2023 report's rules: ask for a card whose holder is known, else `otherwise`."""

    def decide(self, read: Reading) -> Decision:
        """A known holder's card (a random one), else the rule's own choice."""
        if read.known:
            return read.ask_known(self.rng, read.known)
        return self.otherwise(read)

    def otherwise(self, read: Reading) -> Decision:
        """The choice when no holder of a needed card is known."""
        raise NotImplementedError


def _greedy(self: Strategy, read: Reading) -> Decision:
    if read.known:
        return read.ask_known(self.rng, read.known)
    return read.ask_random(self.rng, "I know no holder of a card I need")


def _silent(self: Strategy, read: Reading) -> Decision:
    complete = read.complete_kinds
    if complete:
        pairs = [(c, h) for c, h in read.known if c.kind in complete]
        card, holder = pick(self.rng, pairs)
        known = read.why_known(card, holder)
        return read.ask(
            holder, card, "{}, and I know where all of kind {} is; I ask for it.", known, card.kind
        )
    rng = self.rng
    draw = rng.random()
    if read.game.ask_own and draw < 1 / 3:
        own = read.view.hand
        card = pick(rng, own)
        target = pick(rng, read.view.targets)
        decoy = (
            "I know no whole kind yet; to hide what I collect I ask {} for {}, which I hold myself."
        )
        return read.ask(target, card, decoy, read.names[target], card)
    return read.ask_random(rng, "I know no whole kind yet")


class Greedy(ReadingStrategy):
    """2020: ask for a card whose holder it knows (a random such one), else a random request."""

    def decide(self, read: Reading) -> Decision:
        """Known holder first, else a uniformly random legal ask."""
        return _greedy(self, read)


class Silent(ReadingStrategy):
    """2020: ask for known cards only when it knows where all missing cards of the kind are.

    Otherwise a random request 2/3 of the time and 1/3 of the time a decoy: a card it
    holds itself (which no one else can have), so the others learn little. When the rules
    forbid asking for one's own cards (`ask_own` false) the decoy becomes a random request.
    """

    def decide(self, read: Reading) -> Decision:
        """A known card of a kind it can complete, else random or decoy (2:1)."""
        return _silent(self, read)


class Mixed(ReadingStrategy):
    """2020: each request, a fair coin picks the greedy or the silent rule."""

    def decide(self, read: Reading) -> Decision:
        """Greedy or silent, a coin flip per request."""
        if self.rng.random() < 0.5:
            return _greedy(self, read)
        return _silent(self, read)


class Owner(KnownFirst):
    """2023: known holder first; else a random needed card, asked of one of its possible holders."""

    def otherwise(self, read: Reading) -> Decision:
        """A random missing card from a random possible holder."""
        rng = self.rng
        card = pick(rng, read.missing)
        holders = read.possible(card)
        target = pick(rng, holders)
        others = ", ".join(read.names[h] for h in holders)
        why = "I know no holder of a card I need; {} may be with {}, so I ask {}."
        return read.ask(target, card, why, card, others, read.names[target])


class Defensive(KnownFirst):
    """2023: known holder first; else the kinds needing fewest cards, then the surest card.

    Among the kinds it needs fewest cards to complete, it takes the missing cards with the
    fewest possible holders (a random one of them) and asks a random possible holder.
    """

    def otherwise(self, read: Reading) -> Decision:
        """The closest kind's card with fewest possible holders."""
        fewest = min(read.needed[k] for k in read.missing_by_kind)
        cards = [
            c for k, cs in read.missing_by_kind.items() if read.needed[k] == fewest for c in cs
        ]
        options = {c: read.possible(c) for c in cards}
        narrow = min(len(h) for h in options.values())
        card = pick(self.rng, [c for c in cards if len(options[c]) == narrow])
        target = pick(self.rng, options[card])
        need = "1 card" if fewest == 1 else f"{fewest} cards"
        why = "Kind {} needs only {}; {} can be with {} seat{}, so I ask {}."
        plural = "s" * (narrow != 1)
        return read.ask(
            target, card, why, card.kind, need, card, narrow, plural, read.names[target]
        )


class Aggressive(KnownFirst):
    """2023: known holder first; else ask the leading opponent for its most probable card.

    Opponents with cards are tried by score, highest first (ties in random order); the
    first that may hold a needed card is asked for the needed card it most probably holds
    (exact probability; the report approximated it by the number of possible holders).
    """

    def otherwise(self, read: Reading) -> Decision:
        """The leader's most probable needed card."""
        rng = self.rng
        scores = read.view.scores
        order = sorted(read.view.targets, key=lambda t: (-scores[t], rng.random()))
        knowledge, missing = read.knowledge, read.missing
        indices = [c.index for c in missing]
        for target in order:
            # The target's column alone, from the exact counts (`marginals` has the same).
            chances = knowledge.chances(target, indices)
            best = max(chances)
            if best > 0:
                card = pick(rng, [missing[i] for i, p in enumerate(chances) if p == best])
                lead = "leads" if scores[target] == max(scores[t] for t in order) else "is next"
                why = "{} {} with {} points; it holds {} with probability {:.0%}, so I ask for it."
                name = read.names[target]
                return read.ask(target, card, why, name, lead, scores[target], card, best)
        raise AssertionError("some opponent holds a card the seat needs")  # pragma: no cover


register_strategy(
    "kwartet",
    "greedy",
    about="2020: ask for a card whose holder it knows (a random such one), else a random request.",
)(Greedy)
register_strategy(
    "kwartet",
    "silent",
    about="2020: ask for known cards only when it knows where all missing cards of the kind are.",
)(Silent)
register_strategy(
    "kwartet",
    "mixed",
    about="2020: each request, a fair coin picks the greedy or the silent rule.",
)(Mixed)
register_strategy(
    "kwartet",
    "owner",
    about="2023: known holder first; else a random needed card, asked of one of its possible "
    "holders.",
)(Owner)
register_strategy(
    "kwartet",
    "defensive",
    about="2023: known holder first; else the kinds needing fewest cards, then the surest card.",
)(Defensive)
register_strategy(
    "kwartet",
    "aggressive",
    about="2023: known holder first; else ask the leading opponent for its most probable card.",
)(Aggressive)
