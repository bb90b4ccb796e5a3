"""Possible holders by Hall's condition, with the not-all facts that no deal can break left
out and those that name one unknown card taken as lacks: the same masks as the card
engine's full path with every fact, on whole 52-card games, whether the knowledge or the
tracker's parts answer (`KempsView.possible_masks`, and `elsewhere_cards`, which the turn
planner reads)."""

from __future__ import annotations

import pytest

from epigames.cards import CardKnowledge
from epigames.games import Match
from epigames.games.kemps import KempsView
from epigames.games.kemps.knowledge import KempsKnowledge, _by_hall, elsewhere_of


@pytest.mark.parametrize(
    ("game", "players"),
    [
        ("kemps", ("blocking", "blocking", "greedy")),
        ("kemps(ranks=6,players=2,table=4)", ("random", "kbgreedy")),
        ("kemps(ranks=8)", ("blocking", "random", "kbgreedy")),
        ("kemps(ranks=10,players=4,table=4)", ("random", "blocking", "random", "greedy")),
    ],
)
def test_possible_masks_are_the_full_path_s(game: str, players: tuple[str, ...]) -> None:
    asked = shortcut = 0
    for seed in range(5):
        match = Match(game, players, seed)
        state = match.state
        while not match.over and len(match.transcript) < 400:
            match.run_chance()
            if match.over:
                break
            for seat in range(len(players)):
                view = state.observation(seat)
                assert isinstance(view, KempsView)
                # Asked first: the tracker answers from its parts where it can.
                masks = view.possible_masks()
                elsewhere = state.observation(seat).elsewhere_cards()  # type: ignore[attr-defined]
                knowledge = view.knowledge
                assert type(knowledge) is KempsKnowledge
                public = view.public
                hand = knowledge.hand
                full = CardKnowledge(public.public, seat, hand, not_all=public.not_all)
                assert knowledge.possible_masks() == full.possible_masks() == masks
                assert elsewhere == elsewhere_of(masks, seat, len(players))
                asked += 1
                shortcut += public.not_all != () and (
                    _by_hall(public.public, seat, hand, public.not_all) is not None
                )
            match.step()
    assert asked > 300 and shortcut > 50, (asked, shortcut)
