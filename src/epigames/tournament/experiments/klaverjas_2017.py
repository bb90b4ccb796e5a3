"""`klaverjas-2017`: the 2017 Klaverjas report's tactics, with its inference and ours.

Three tournaments (`epigames experiment klaverjas-2017`), sized in deals:

- (a) `preset`: the report's setting (`klaverjas(preset=2017)`: one deal, random trump,
  North–South always play, South leads, undertrumping free) with `tactics2017` at every
  seat; per-deal means of both teams beside the seed program's, which we measured by
  running it (`SEED_PROGRAM`);
- (b) `tactics`: `tactics` against `tactics2017` in full Amsterdam matches (16 deals,
  eldest hand names trump), duplicate seats: each match's cards are played twice, the
  teams changing places, so the difference leaves the luck of the cards out;
- (c) `mc`: `mc` against `tactics`, the same way, with the time per `mc` decision
  measured on a few matches in the same run (`decision_ms`).

`false_claims` counts how often the 2017 inference (`Seed2017Inference`) says a player
cannot hold a card that it holds, per opponent type; `claims_markdown` makes its table.
`duplicate` compares two line-ups on the same cards (each match seed played with the teams
both ways), among them the parts of `tactics`; `knowledge_markdown` makes that table.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from epigames.tournament.config import TournamentConfig, checked_config
from epigames.tournament.experiments.base import Suite, markdown_table
from epigames.tournament.seeds import DUPLICATE, FIXED
from epigames.tournament.stats import Line, Summary

if TYPE_CHECKING:
    from epigames.games.match import Match
    from epigames.games.strategy import Strategy

NAME = "klaverjas-2017"
DEALS = 2000
SEED = 2017
PRESET = "klaverjas(preset=2017)"
#: Full matches, Amsterdam rules (the default setting: 16 deals, eldest names trump).
MATCH = "klaverjas"
DEALS_PER_MATCH = 16
#: The seed program's per-deal means (North–South, East–West), measured here by running
#: it: `run.py 2000 --seed 1` printed 64.8 / 128.1 (and `--seed 2` gave `SEED_PROGRAM_2`).
SEED_PROGRAM = (64.8, 128.1)
SEED_PROGRAM_2 = (64.2, 126.9)


@dataclass(frozen=True, slots=True)
class Part:
    """One tournament of the experiment.

    Attributes:
        key: `preset`, `tactics` or `mc`.
        game: the game string.
        strategies: per seat (preset) or per team (the others).
        scheme: fixed or rotated seats.
    """

    key: str
    game: str
    strategies: tuple[str, ...]
    scheme: str

    @property
    def deals_per_game(self) -> int:
        """Deals in one game of this part."""
        return 1 if self.game == PRESET else DEALS_PER_MATCH


PARTS = (
    Part("preset", PRESET, ("tactics2017",) * 4, FIXED),
    Part("tactics", MATCH, ("tactics", "tactics2017"), DUPLICATE),
    Part("mc", MATCH, ("mc", "tactics"), DUPLICATE),
)


def games_for(part: Part, deals: int) -> int:
    """Games of `part` for about `deals` deals (at least one; duplicate parts an even
    number: both ways of every deal)."""
    games = max(1, math.ceil(deals / part.deals_per_game))
    if part.scheme == DUPLICATE and games % 2:
        games += 1
    return games


def tournament_configs(deals: int = DEALS) -> list[TournamentConfig]:
    """The three tournaments for about `deals` deals each (names `klaverjas-2017-<key>`)."""
    suffix = "" if deals == DEALS else f"-n{deals}"
    return [
        checked_config(
            part.game,
            part.strategies,
            games_for(part, deals),
            seed=SEED,
            seat_scheme=part.scheme,
            name=f"{NAME}-{part.key}{suffix}",
        )
        for part in PARTS
    ]


def _per_deal(line: Line, deals: int) -> tuple[float, float, float]:
    return line.mean_return / deals, line.return_low / deals, line.return_high / deals


def _fmt(mean: float, low: float, high: float) -> str:
    return f"{mean:.1f} ({low:.1f}–{high:.1f})"


def decision_ms(
    strategy: str, matches: int, seed: int = SEED
) -> tuple[float, float, float, int, float]:
    """Time `strategy`'s decisions in `matches` full matches against `tactics`, one core.

    The time is the CPU time of this process (`time.process_time`): on a shared machine
    the wall clock would count the time other processes had the core. The first decision
    is left out of the figures: it pays once per process for what is loaded on first use
    (numba compiles `mc`'s rollouts, or loads them from its cache, at their first call).

    Returns the mean, 95th percentile and largest milliseconds per decision, the number
    of decisions timed, and the milliseconds of the first decision.
    """
    from epigames.games.core import View
    from epigames.games.match import Match
    from epigames.games.strategy import Decision, Strategy

    times: list[float] = []

    class Timed(Strategy):
        def __init__(self, inner: Strategy) -> None:
            super().__init__(inner.rng)
            self.inner = inner

        def choose(self, view: View) -> Decision:
            started = time.process_time()
            decision = self.inner.choose(view)
            times.append(time.process_time() - started)
            return decision

    for i in range(matches):
        names = (strategy, "tactics") if i % 2 == 0 else ("tactics", strategy)
        match = Match(MATCH, [names[s % 2] for s in range(4)], seed * 1000 + i)
        for seat, agent in list(match.agents.items()):
            if names[seat % 2] == strategy:
                match.agents[seat] = Timed(agent)
        match.run()
    first = 1000 * times[0] if times else 0.0
    ms = sorted(1000 * t for t in times[1:]) or [0.0]
    return sum(ms) / len(ms), ms[int(0.95 * (len(ms) - 1))], ms[-1], len(times) - 1, first


def within_chance(mean: float, half: float, deals: int, program: float) -> bool:
    """Whether our per-deal mean (95% half width `half` over `deals` deals) and the seed
    program's (one run of `DEALS` deals, its spread taken as ours) differ by less than the
    95% interval of their difference."""
    theirs = half * math.sqrt(deals / DEALS)
    return abs(mean - program) <= math.hypot(half, theirs)


def suite_markdown(summaries: dict[str, Summary], command: str) -> str:
    """The report from the three tournaments' summaries (in the order of `PARTS`)."""
    preset, tactics, mc = summaries.values()
    lines = [
        f"# {NAME}: the 2017 Klaverjas tactics, their inference and a Monte-Carlo player",
        "",
        "Per-deal means with 95% intervals (mean return per game divided by its deals).",
        "",
        f"## (a) The 2017 preset, `tactics2017` at every seat ({preset.games} deals)",
        "",
        f"The seed program's means come from one run of {DEALS:,} deals; a difference is "
        "within chance when it is inside the 95% interval of a difference of two means, "
        "the program's spread taken as ours over its number of deals.",
        "",
        "| team | ours per deal (95% CI) | seed program (measured) | within chance? |",
        "|---|---|---|---|",
    ]
    for line, seed in zip(preset.teams, SEED_PROGRAM, strict=True):
        mean, low, high = _per_deal(line, 1)
        same = "yes" if within_chance(mean, (high - low) / 2, preset.games, seed) else "no"
        lines.append(f"| {line.label} | {_fmt(mean, low, high)} | {seed} | {same} |")
    for key, summary, first, second in (
        ("b", tactics, "tactics", "tactics2017"),
        ("c", mc, "mc", "tactics"),
    ):
        deals = summary.games * DEALS_PER_MATCH
        by_label = {line.label: line for line in summary.team_lineups}
        a, b = by_label[f"{first}+{first}"], by_label[f"{second}+{second}"]
        (paired,) = summary.differences
        per_deal = [x / DEALS_PER_MATCH for x in (paired.mean, paired.low, paired.high)]
        lines += [
            "",
            f"## ({key}) `{first}` against `{second}`: {summary.games} full matches, {deals} deals",
            "",
            f"Each match's cards were played twice, `{first}` first as North–South and then "
            f"as East–West ({paired.blocks} pairs of matches); the difference is paired over "
            "the pairs, so the luck of the cards, the same for both teams, is left out.",
            "",
            "| team | per deal (95% CI) |",
            "|---|---|",
            f"| {first} | {_fmt(*_per_deal(a, DEALS_PER_MATCH))} |",
            f"| {second} | {_fmt(*_per_deal(b, DEALS_PER_MATCH))} |",
            f"| difference, on the same cards | {_fmt(*per_deal)} |",
        ]
    mean_ms, p95, top, n, first_ms = decision_ms("mc", 2)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    lines += [
        "",
        f"`mc` time per decision, 2 matches against `tactics` in this run ({n} decisions, "
        f"CPU time of one process): mean {mean_ms:.1f} ms, 95th percentile {p95:.1f} ms, "
        f"largest {top:.1f} ms; the process's first decision, which loads the compiled "
        f"rollouts, took {first_ms:.1f} ms. Load average after timing {load} (1, 5, 15 "
        "minutes).",
        "",
        f"Reproduce: `{command}`",
        "",
    ]
    return "\n".join(lines)


SUITE = Suite(
    name=NAME,
    title="Klaverjas: the 2017 preset, tactics vs tactics2017, mc vs tactics (deals)",
    games=DEALS,
    configs=tournament_configs,
    markdown=suite_markdown,
)


# -- how often the 2017 inference is wrong -----------------------------------------------


@dataclass(frozen=True, slots=True)
class Claims:
    """False "cannot hold" claims of the 2017 inference with one opponent type.

    Attributes:
        opponent: the strategy at every seat.
        deals: deals played.
        false_claims: distinct (observer, player, card) triples where an observer's
            inference said the player cannot hold a card it held (counted once per deal).
        deals_with_false: deals with at least one.
    """

    opponent: str
    deals: int
    false_claims: int
    deals_with_false: int

    @property
    def per_thousand(self) -> float:
        """False claims per 1,000 deals."""
        return 1000 * self.false_claims / self.deals


def false_claims(opponent: str, deals: int, seed: int = SEED, game: str = PRESET) -> Claims:
    """Play `deals` seeded deals with `opponent` at every seat; count false claims.

    Every seat runs the 2017 inference after every card; a claim is false when it rules
    out a card for the player that holds it. The exact engine never does: its claims
    follow from the rules.
    """
    from epigames.cards import KLAVERJAS, Card, Trick
    from epigames.games import load_game
    from epigames.games.klaverjas import CardPlayed, DealDone, Dealt, TrumpChosen
    from epigames.games.klaverjas.inference2017 import Seed2017Inference
    from epigames.games.klaverjas.play import klaverjas_deck
    from epigames.games.match import play_match

    loaded = load_game(game)
    deck = klaverjas_deck(getattr(loaded, "ranks", 8))
    total = affected = played = 0
    index = 0
    while played < deals:
        result = play_match(game, [opponent] * 4, seed * 100_000 + index)
        index += 1
        hands: dict[int, set[Card]] = {}
        observers: list[Seed2017Inference] = []
        trick: Trick | None = None
        leader = 0
        found: set[tuple[int, int, object]] = set()
        for event in result.events:
            if isinstance(event, Dealt):
                hands[event.seat] = set(event.cards)
            elif isinstance(event, DealDone):
                leader = (event.dealer + 1) % 4
                observers = [Seed2017Inference.start(s, hands[s], deck) for s in range(4)]
                found = set()
            elif isinstance(event, TrumpChosen):
                for o in observers:
                    o.trump = event.trump
                trick = Trick.start(leader)
            elif isinstance(event, CardPlayed):
                assert trick is not None
                hands[event.seat].discard(event.card)
                trick = trick.play(event.seat, event.card)
                for o in observers:
                    o.observe(trick)
                    for p in range(4):
                        if p != o.seat:
                            for card in o.ruled_out(p, hands[p]):
                                found.add((o.seat, p, card))
                if len(trick) == 4:
                    assert observers[0].trump is not None
                    trick = Trick.start(trick.winner(observers[0].trump, KLAVERJAS).seat)
                    if not any(hands.values()):
                        total += len(found)
                        affected += bool(found)
                        played += 1
    return Claims(opponent, played, total, affected)


def claims_markdown(rows: Sequence[Claims], command: str) -> str:
    """The table of false claims per 1,000 deals, one row per opponent type."""
    cells = [
        (
            row.opponent,
            row.deals,
            row.false_claims,
            f"{row.per_thousand:.0f}",
            f"{100 * row.deals_with_false / row.deals:.1f}%",
        )
        for row in rows
    ]
    columns = (
        "opponents (all seats)",
        "deals",
        "false claims",
        "per 1,000 deals",
        "deals with one",
    )
    return (
        "\n".join([*markdown_table(columns, "lrrrr", cells), "", f"Reproduce: `{command}`"]) + "\n"
    )


# -- what the knowledge adds to the tactics: duplicate matches -----------------------


def _variants() -> dict[str, Callable[[random.Random, Match], Strategy]]:
    """The line-ups of `duplicate`: the registered tactics and what they are made of.

    - `report-exact`: the report's rules alone on exact knowledge (`Position`, no
      probabilities: `tactics` before it asked them);
    - `report-true`: the report's rules on the true hands: not a player (it reads the
      state), an upper bound for what knowledge can give those rules;
    - `give-blind`, `give-sure`, `no-give`: `tactics` giving points to every trick the
      partner leads so far, only when sure, or never;
    - `lead-sure`, `no-lead`: `tactics` leading to the partner's void only when sure, or
      never.
    """
    from epigames.cards import Card, Suit, Trick
    from epigames.games.klaverjas.rules import KlaverjasState
    from epigames.games.klaverjas.strategies.tactics import (
        Beliefs,
        KnowingPosition,
        Position,
        Tactics,
        TacticsPlayer,
    )
    from epigames.games.klaverjas.views import KlaverjasView
    from epigames.games.strategy import make_strategy

    class Report(Tactics):
        def make_position(
            self, view: KlaverjasView, legal: tuple[Card, ...], trick: Trick, trump: Suit,
            unplayed: int,
        ) -> Position:  # fmt: skip
            return Position(view.seat, legal, view.hand, trick, trump, unplayed, self.beliefs(view))

    class TrueHands:
        """Beliefs that read the true hands (an upper bound; it peeks)."""

        def __init__(self, match: Match) -> None:
            self.match = match

        def may_hold(self, player: int, card: Card) -> bool:
            state = self.match.state
            assert isinstance(state, KlaverjasState)
            return card in state.hands()[player]

        knows_holds = may_hold

    class Peeking(TacticsPlayer):
        def __init__(self, rng: random.Random, match: Match) -> None:
            super().__init__(rng)
            self.match = match

        def beliefs(self, view: KlaverjasView) -> Beliefs:
            return TrueHands(self.match)

    def knowing(name: str, **changes: object) -> Callable[[random.Random, Match], Strategy]:
        position: type[KnowingPosition] = type(name, (KnowingPosition,), changes)

        class Variant(Tactics):
            def make_position(
                self, view: KlaverjasView, legal: tuple[Card, ...], trick: Trick, trump: Suit,
                unplayed: int,
            ) -> Position:  # fmt: skip
                beliefs = self.beliefs(view)
                return position(view.seat, legal, view.hand, trick, trump, unplayed, beliefs)

        return lambda rng, match: Variant(rng)

    def registered(name: str) -> Callable[[random.Random, Match], Strategy]:
        return lambda rng, match: make_strategy("klaverjas", name, rng)

    return {
        "tactics": registered("tactics"),
        "tactics2017": registered("tactics2017"),
        "mc": registered("mc"),
        "report-exact": lambda rng, match: Report(rng),
        "report-true": Peeking,
        "give-blind": knowing("GiveBlind", GIVE_RISK=Fraction(1)),
        "give-sure": knowing("GiveSure", GIVE_RISK=Fraction(0)),
        "no-give": knowing("NoGive", third=Position.third, fourth=Position.fourth),
        "lead-sure": knowing("LeadSure", RUFF_CHANCE=Fraction(1)),
        "no-lead": knowing("NoLead", no_sure_lead=Position.no_sure_lead),
    }


@dataclass(frozen=True, slots=True)
class Duplicate:
    """`first` against `second` on the same deals, each match played with the teams both ways.

    Attributes:
        first, second: names of `duplicate`'s line-ups.
        matches: match seeds; each is played twice, so `2 * matches * 16` deals.
        mean, low, high: `first`'s team points minus `second`'s per deal, with a 95%
            interval over the match seeds (paired: the same cards on both sides).
        diffs: that difference per match seed.
    """

    first: str
    second: str
    matches: int
    mean: float
    low: float
    high: float
    diffs: tuple[float, ...] = ()

    @property
    def deals(self) -> int:
        """Deals played."""
        return 2 * self.matches * DEALS_PER_MATCH


def duplicate(first: str, second: str, matches: int, seed: int = SEED, start: int = 0) -> Duplicate:
    """Play `matches` full matches twice, `first` as North–South and then as East–West.

    A match seed deals the same cards whoever plays (chance has its own generator), so
    the pair's difference leaves out the luck of the cards: its interval is far narrower
    than that of two independent samples (part b).
    """
    from epigames.games.match import Match

    variants = _variants()
    unknown = [name for name in (first, second) if name not in variants]
    if unknown:
        raise ValueError(f"unknown line-up {unknown[0]!r}; choose one of: {', '.join(variants)}")
    diffs: list[float] = []
    for i in range(start, start + matches):
        pair = 0.0
        for sign, names in ((1, (first, second)), (-1, (second, first))):
            match = Match(MATCH, ["random"] * 4, seed * 1000 + i)
            for seat, agent in list(match.agents.items()):
                match.agents[seat] = variants[names[seat % 2]](agent.rng, match)
            match.run()
            returns = match.state.returns()
            pair += sign * (returns[0] - returns[1])
        diffs.append(pair / 2 / DEALS_PER_MATCH)
    mean = sum(diffs) / matches
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (matches - 1)) if matches > 1 else 0.0
    half = 1.96 * spread / math.sqrt(matches)
    return Duplicate(first, second, matches, mean, mean - half, mean + half, tuple(diffs))


#: The comparisons of the knowledge table (`knowledge_markdown`).
KNOWLEDGE_PAIRS = (
    ("tactics", "tactics2017"),
    ("report-exact", "tactics2017"),
    ("report-true", "tactics2017"),
    ("report-true", "report-exact"),
    ("tactics", "report-exact"),
    ("tactics", "no-give"),
    ("tactics", "give-blind"),
    ("tactics", "give-sure"),
    ("tactics", "no-lead"),
    ("tactics", "lead-sure"),
)


def knowledge_markdown(rows: Sequence[Duplicate], command: str) -> str:
    """The table of duplicate comparisons, one row per pair."""
    cells = [
        (
            row.first,
            row.second,
            f"{row.matches} ({row.deals:,})",
            _fmt(row.mean, row.low, row.high),
        )
        for row in rows
    ]
    columns = ("first", "second", "matches (deals)", "first − second per deal (95% CI)")
    return (
        "\n".join([*markdown_table(columns, "llrl", cells), "", f"Reproduce: `{command}`"]) + "\n"
    )


def main(argv: Sequence[str] | None = None) -> None:
    """`python -m epigames.tournament.experiments.klaverjas_2017 [deals] [mc deals]`,
    `... knowledge [matches]` for the duplicate comparisons of `KNOWLEDGE_PAIRS`, or
    `... duplicate FIRST SECOND [matches] [first match]` for one pair (match seeds from
    the first given on: two commands can share the work)."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    module = "python -m epigames.tournament.experiments.klaverjas_2017"
    if args and args[0] == "duplicate":
        first, second = args[1], args[2]
        matches = int(args[3]) if len(args) > 3 else 100
        start = int(args[4]) if len(args) > 4 else 0
        row = duplicate(first, second, matches, start=start)
        print(knowledge_markdown([row], f"{module} {' '.join(args)}"), end="")
        print("per match:", " ".join(f"{d:.3f}" for d in row.diffs))
        return
    if args and args[0] == "knowledge":
        matches = int(args[1]) if len(args) > 1 else 100
        pairs = [duplicate(a, b, matches) for a, b in KNOWLEDGE_PAIRS]
        print(knowledge_markdown(pairs, f"{module} knowledge {matches}"), end="")
        return
    deals = int(args[0]) if args else 1000
    mc_deals = int(args[1]) if len(args) > 1 else deals
    rows = [
        false_claims(name, mc_deals if name.startswith("mc") else deals)
        for name in ("random", "tactics2017", "tactics", "mc")
    ]
    command = f"{module} {deals} {mc_deals}"
    print(claims_markdown(rows, command), end="")


if __name__ == "__main__":
    main()
