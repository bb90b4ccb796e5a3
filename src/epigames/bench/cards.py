"""The card-location engine's operations, timed on Kwartet-like games.

Plays 4-player games (13 kinds x 4 cards) where each player asks for a card whose holder
it knows, else a random one, and times public updates, building the deciding agent's
knowledge, and each kind of query: microseconds per operation, and each operation's cost
relative to a public update measured in the same run (the baseline).

Then `epigames ask` at every k-th step of seeded six-player Kwartet and eight-player Kemps
team matches, several formulas each (K, nested K, C, D, many cards): the worst and median
CPU seconds per answer (issue 37 asks for under 2 s at any step).
"""

from __future__ import annotations

import random
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from time import perf_counter, process_time

from rich.console import Console
from rich.table import Table

from epigames.cards.knowledge import CardKnowledge
from epigames.cards.layout import CardLayout
from epigames.cards.public import PublicInfo
from epigames.games import Match, load_game
from epigames.games.ask import ask

KINDS, VALUES, PLAYERS = 13, 4, 4


class _Clock:
    def __init__(self) -> None:
        self.total: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def add(self, name: str, since: float, calls: int = 1) -> None:
        self.total[name] += perf_counter() - since
        self.calls[name] += calls


def play(rng: random.Random, clock: _Clock, extras: bool) -> int:
    """Play one game; return the number of decisions."""
    layout = CardLayout.create(range(KINDS * VALUES), [f"P{i}" for i in range(PLAYERS)])
    order = list(range(KINDS * VALUES))
    rng.shuffle(order)
    hands = [set(order[i::PLAYERS]) for i in range(PLAYERS)]
    public = PublicInfo.start(layout, [len(h) for h in hands])
    player, decisions = 0, 0
    while any(hands):
        if not hands[player]:
            player = (player + 1) % PLAYERS
            continue
        hand = hands[player]
        for k in {c // VALUES for c in hand}:
            kind = range(k * VALUES, (k + 1) * VALUES)
            if all(c in hand for c in kind):  # dealt a whole quartet
                for c in kind:
                    public = public.remove(c, player)
                    hand.discard(c)
        if not hand:
            continue
        decisions += 1
        t = perf_counter()
        me = CardKnowledge.create(public, player, hand)
        clock.add("build knowledge", t)
        kinds = sorted({c // VALUES for c in hand})
        wanted = [c for k in kinds for c in range(k * VALUES, (k + 1) * VALUES) if c not in hand]
        t = perf_counter()
        known = [me.holder(c) for c in wanted]
        clock.add("holder() x all wanted, first", t)
        t = perf_counter()
        for c in wanted:
            me.holder(c)
        clock.add("holder() one card, cached", t, max(1, len(wanted)))
        if extras and decisions % 10 == 0:
            t = perf_counter()
            me.worlds_count()
            clock.add("worlds_count()", t)
            t = perf_counter()
            me.marginals()
            clock.add("marginals() after count", t)
            t = perf_counter()
            me.sample_world(rng)
            clock.add("sample_world() after count", t)
        targets = [(c, h) for c, h in zip(wanted, known, strict=True) if h is not None]
        if targets:
            card, other = rng.choice(targets)
        else:
            card = rng.choice(wanted) if wanted else next(iter(hand))
            other = rng.choice([q for q in range(PLAYERS) if q != player])
        kind_cards = range(card // VALUES * VALUES, (card // VALUES + 1) * VALUES)
        t = perf_counter()
        public = public.at_least_one(player, kind_cards)
        clock.add("public update", t)
        if card in hands[other]:
            t = perf_counter()
            public = public.move(card, other, player)
            clock.add("public update", t)
            hands[other].discard(card)
            hand.add(card)
            if all(c in hand for c in kind_cards):
                t = perf_counter()
                for c in kind_cards:
                    public = public.remove(c, player)
                    hand.discard(c)
                clock.add("public update", t, VALUES)
        else:
            t = perf_counter()
            public = public.lacks(card, other)
            clock.add("public update", t)
            player = other
    return decisions


#: Per game, the formulas asked at every k-th step.
ASKED = {
    "kwartet(players=6)": (
        "K_1 (holds(2, <1,1>) | holds(3, <2,1>) | holds(4,<3,2>)) & K_2 ~K_3 holds(5,<4,4>)",
        "K_0 holds(1, <5,2>) | K_2 K_4 ~holds(3, <6,1>)",
        "C_{0,1,2} ~holds(0, <7,3>) | D_{1,2} holds(3, <8,4>)",
        "K_3 (holds(0,<1,2>) & holds(1,<2,2>) | holds(2,<3,3>) & holds(4,<4,1>) | holds(5,<9,4>))",
    ),
    "kemps(teams=true,players=8)": (
        "K_1 holds(2, AH) | K_3 ~holds(4, KS) & ~K_2 K_1 holds(2,QH)",
        "K_0 K_4 ~holds(6, 7D) | C_{0,4} holds(1, JC)",
        "D_{0,4} holds(2, TS) & ~K_5 holds(3, 8H)",
    ),
}


def sweep(
    console: Console,
    quick: bool = False,
    asked: Mapping[str, Sequence[str]] = ASKED,
    seeds: Sequence[int] | None = None,
    every: int | None = None,
) -> list[float]:
    """Ask each formula at every k-th step of a few seeded matches; print the worst and
    median CPU seconds per answer, and return every time.

    `asked` maps game strings to formulas (`ASKED` by default); `seeds` and `every`
    default to seed 0 every 25th step when `quick`, else seeds 0–2 every 5th step.
    """
    seeds = seeds if seeds is not None else ((0,) if quick else (0, 1, 2))
    every = every if every is not None else (25 if quick else 5)
    table = Table(title=f"epigames ask at every {every}th step, seeds {list(seeds)}")
    for column in ("game", "answers", "median s", "worst s", "worst at"):
        table.add_column(column, justify="left" if column == "game" else "right")
    times: list[float] = []
    for name, formulas in asked.items():
        game = load_game(name)
        mine: list[tuple[float, str]] = []
        for seed in seeds:
            match = Match(game, [game.default_strategy] * game.num_players, seed)
            step = 0
            while True:
                match.run_chance()
                if step % every == 0:
                    for formula in formulas:
                        start = process_time()
                        ask(match.state, formula)
                        mine.append((process_time() - start, f"seed {seed} step {step}"))
                if match.over:
                    break
                match.step()
                step += 1
        worst = max(mine)
        table.add_row(
            name,
            str(len(mine)),
            f"{statistics.median(t for t, _ in mine):.3f}",
            f"{worst[0]:.3f}",
            worst[1],
        )
        times += [t for t, _ in mine]
    console.print(table)
    return times


def run(console: Console, quick: bool = False) -> None:
    """Print µs per engine operation, with and without counting queries, then the
    `ask` sweep."""
    games = 5 if quick else 20
    rng = random.Random(2020)
    for extras in (False, True):
        clock = _Clock()
        start = perf_counter()
        decisions = sum(play(rng, clock, extras) for _ in range(games))
        elapsed = perf_counter() - start
        title = "counting every 10th decision" if extras else "holder queries only"
        table = Table(
            title=f"{games} games, {decisions} decisions, {games / elapsed:.1f} games/s ({title})"
        )
        table.add_column("operation")
        table.add_column("µs", justify="right")
        table.add_column("calls", justify="right")
        table.add_column("× public update", justify="right")
        base = clock.total["public update"] / clock.calls["public update"]
        for name, total in clock.total.items():
            per = total / clock.calls[name]
            table.add_row(name, f"{1e6 * per:.1f}", str(clock.calls[name]), f"{per / base:.1f}")
        console.print(table)
    sweep(console, quick)
