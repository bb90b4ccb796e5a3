"""The Kemps rules as the 2023 program plays them: parameters and states.

The deck (the `ranks` lowest ranks of four suits; 13 is the 52-card deck) is shuffled:
`table` cards are dealt face up, then four to each seat; the rest is the deck. Seats take
turns in order. In a turn a player makes up to `max_swaps` swaps, each taking a table card
into its hand and putting a hand card in the same slot (not taking back a card it put
down in the same turn), and then ends the turn. If its four cards are then of one rank
it scores a Kemps: the four cards leave the game and it draws a new hand of four from the
deck (the discard pile shuffled into the deck first if the deck is short); a new hand
that is already four of a kind scores at the end of the player's next turn. When the
deck and the discard pile together hold fewer than four cards, that Kemps ends the game.

At the start of a turn after `redeal_after` turns in a row that left the table as it
was, the table goes to the discard pile and a new one is dealt from the deck (the pile,
the old table included, shuffled into the deck first if the deck is short).

Every shuffle is explicit chance: each card drawn from the deck is a chance outcome,
every card in the deck equally likely. A seat's return is its number of Kemps. A game
also stops after `max_turns` turns, reported as capped (`GameOver.capped`).

With `teams=true` it is the real team game (4, 6 or 8 seats, partners opposite, a table of
4 by default) made turn-based: a player whose four cards are of one rank may end its turn
with its team's secret signal, seen by its partner alone; nobody scores for itself. After
every turn a call window asks every seat in order, starting after the player who moved:
pass, call "Kemps!" for one's partner, or "Stop Kemps" against an opponent; the first call
ends the window. A right call scores 1 for the caller's team and the target's four cards
leave the game (a new hand is drawn); a wrong one costs the caller's team 1 and shows that
the target's hand is not four of a kind. The game ends when a team reaches `target`, or
when a right call leaves no new hand to deal. Partners share their team's score.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from epigames.cards import Card, CardLayout, spectator_picture
from epigames.errors import IllegalActionError
from epigames.games.core import (
    CHANCE,
    TERMINAL,
    EventLog,
    Game,
    State,
    UniformOutcomes,
    check_seat,
    illegal_action,
    register_game,
    replayed,
)
from epigames.games.events import Event
from epigames.games.kemps import events as ev, observation
from epigames.games.kemps.actions import (
    DONE,
    HAND_SIZE,
    OF_A_KIND,
    PASS,
    SIGNAL,
    Call,
    KempsAction,
    Signal,
    Swap,
    kemps_deck,
    legal_moves,
    parse_action,
)
from epigames.games.kemps.knowledge import layout_for
from epigames.games.kemps.picture import report_picture
from epigames.games.kemps.records import Records, one_rank
from epigames.games.kemps.views import KempsView
from epigames.games.observation import Part
from epigames.games.params import GameStringError, Param
from epigames.games.picture import HasPictures, KripkePicture, subject_card, true_deal

SEAT_NAMES = (
    "South",
    "West",
    "North",
    "East",
    "Southwest",
    "Northeast",
    "Northwest",
    "Southeast",
)
#: Seats and table of the team game when the game string does not give them (spec §C.2).
TEAM_PLAYERS, TEAM_TABLE = 4, 4
#: The default turn cap. Finished games of the report strategies and `tom` take under 250
#: turns (seeds 0-199 of nine line-ups; one `tom` x3 game took 1,018). Random games run to
#: the cap, and at
#: 1,000 turns (about 3,700 decisions) OpenSpiel's `random_sim_test` of the default game
#: runs in seconds. It keeps a clone of every state with its own copy of the history, so
#: at the 2023 program's cap of 10,000 turns (`kemps(max_turns=10000)`, what our
#: experiments play) it would need about 11 GB.
MAX_TURNS = 1_000


@register_game
@dataclass(frozen=True, init=False)
class KempsGame(Game):
    """Kemps as the 2023 program plays it: collect four of a kind by swapping with the table
    (with `teams`, the real team game)."""

    name: ClassVar[str] = "kemps"
    event_types: ClassVar[tuple[type[Event], ...]] = ev.EVENTS
    # Random agents rarely collect four of a kind from 52 cards: their games run to
    # `max_turns` (about 3,700 moves); greedy ones end in about 90.
    default_strategy: ClassVar[str] = "greedy"
    # Eight ranks: 25 to 50 moves, tom reading the others' swaps against greedy.
    showcase: ClassVar[str] = "kemps(ranks=8)"
    showcase_agents: ClassVar[tuple[str, ...]] = ("tom", "greedy")
    params: ClassVar[tuple[Param, ...]] = (
        Param(
            "players",
            int,
            3,
            min=2,
            max=len(SEAT_NAMES),
            help="number of seats (4 by default in the team game: 4, 6 or 8)",
        ),
        Param("table", int, 6, min=1, max=12, help="cards face up (4 by default in the team game)"),
        Param("ranks", int, 13, min=2, max=13, help="ranks in the deck (4 cards each), from 2 up"),
        Param("max_swaps", int, 4, min=1, max=8, help="swaps a player may make in one turn"),
        Param(
            "redeal_after",
            int,
            3,
            min=1,
            max=100,
            help="turns in a row without a change after which the table is replaced",
        ),
        Param(
            "max_turns",
            int,
            MAX_TURNS,
            min=1,
            max=100_000,
            help="turns after which the game is capped",
        ),
        Param(
            "teams",
            bool,
            False,
            help="the real team game: signals, Kemps! and Stop Kemps",
            field="team_game",
        ),
        Param("target", int, 3, min=1, max=100, help="team game: the score that wins"),
    )
    players: int = 3
    table: int = 6
    ranks: int = 13
    max_swaps: int = 4
    redeal_after: int = 3
    max_turns: int = MAX_TURNS
    team_game: bool = False
    target: int = 3

    def __init__(
        self,
        players: int | None = None,
        table: int | None = None,
        ranks: int = 13,
        max_swaps: int = 4,
        redeal_after: int = 3,
        max_turns: int = MAX_TURNS,
        team_game: bool = False,
        target: int = 3,
    ) -> None:
        """Seats and table default by game: 3 and 6 (2023), 4 and 4 (the team game)."""
        teams = team_game
        values = {
            "players": players if players is not None else (TEAM_PLAYERS if teams else 3),
            "table": table if table is not None else (TEAM_TABLE if teams else 6),
            "ranks": ranks,
            "max_swaps": max_swaps,
            "redeal_after": redeal_after,
            "max_turns": max_turns,
            "team_game": teams,
            "target": target,
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)
        self.__post_init__()

    def __str__(self) -> str:
        """The canonical game string; the 2023 game's leaves out the team parameters."""
        text = Game.__str__(self)
        if self.team_game:
            return text
        return text.replace(f",teams=false,target={self.target})", ")")

    def __post_init__(self) -> None:
        if self.team_game and self.players % 2:
            raise GameStringError(
                f"{self.name}: teams=true needs an even number of players (4, 6 or 8), "
                f"not players={self.players}"
            )
        if self.team_game and self.players < 4:
            raise GameStringError(
                f"{self.name}: teams=true needs 4, 6 or 8 players, not players={self.players}"
            )
        if not self.team_game and self.players > 6:
            raise GameStringError(
                f"{self.name}: {self.players} players only in the team game (teams=true); "
                "the 2023 game has 2 to 6"
            )
        super().__post_init__()
        cards = self.ranks * OF_A_KIND
        # The first deal needs the table and every hand (the deck may be empty).
        need = self.table + HAND_SIZE * self.players
        if need > cards:
            raise GameStringError(
                f"{self.name}: {self.players} players and a table of {self.table} need at "
                f"least {need} cards, but {self.ranks} ranks have "
                f"{cards}; use more ranks, fewer players or a smaller table"
            )

    @property
    def seat_names(self) -> tuple[str, ...]:
        """South, West, North, … in turn order."""
        return SEAT_NAMES[: self.players]

    @property
    def card_layout(self) -> CardLayout:
        """The seats, the table (face up), the deck, the discard pile and the cards out."""
        return layout_for(self.ranks, self.seat_names)

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The team game's partnerships, seat i with the seat opposite (i + players/2);
        in the 2023 game every seat plays for itself."""
        if not self.team_game:
            return Game.teams.fget(self)  # type: ignore[attr-defined,no-any-return]
        half = self.players // 2
        return tuple((s, s + half) for s in range(half))

    def partner(self, seat: int) -> int:
        """The seat opposite `seat` (team game)."""
        return (seat + self.players // 2) % self.players

    @property
    def returns_range(self) -> tuple[float, float]:
        """From no Kemps to every rank; the team game from a wrong call every turn to the target."""
        if self.team_game:
            return (-self.max_turns, self.target)
        return (0, self.ranks)

    @property
    def max_game_length(self) -> int:
        """At most `max_turns` turns of at most `max_swaps` decisions (the last swap ends
        the turn); in the team game a turn ends with `done` or the signal, and its call
        window asks every seat."""
        per_turn = self.max_swaps
        if self.team_game:
            per_turn += 1 + self.players
        return self.max_turns * per_turn

    @property
    def deck(self) -> tuple[Card, ...]:
        """Every card of this game, rank by rank."""
        return kemps_deck(self.ranks)

    def public_parts(self) -> tuple[Part, ...]:
        """The table, the counts, the cards out, the scores, this turn's swaps; in the team
        game the call window and the signals (`observation`)."""
        return observation.public_parts(self)

    def distinct_actions(self) -> list[KempsAction]:
        """Every action some state allows: `done`, a swap of each slot for each card; in
        the team game also `signal`, `pass` and each call against each seat."""
        swaps: list[KempsAction] = [
            Swap(slot, card) for slot in range(self.table) for card in self.deck
        ]
        if not self.team_game:
            return [DONE, *swaps]
        calls = [Call(seat, stop) for seat in range(self.players) for stop in (False, True)]
        return [DONE, *swaps, SIGNAL, PASS, *calls]

    def distinct_chance_outcomes(self) -> list[Card]:
        """Every chance outcome: the card drawn next."""
        return list(self.deck)

    def new_initial_state(self) -> KempsState:
        """The state before the first deal."""
        return KempsState(self)

    def parse_action(self, text: str) -> Hashable:
        """Read `swap 3 7♥` (slot from 1), `done`, a card drawn by chance (`7♥`); in the
        team game `signal`, `pass`, `kemps SEAT`, `stop SEAT`."""
        return parse_action(text, self.team_game)


class KempsState(EventLog, State, HasPictures):
    """A Kemps position; see the module docstring for the rules.

    Its values (the table, the hands, the piles, the scores, this turn's swaps) are kept
    once, in `Records`: the rules change them as they publish each event, and a seat's
    view keeps the ones it shows.
    """

    #: The seat to move, `CHANCE` while cards are drawn, `TERMINAL` at the end: a plain
    #: attribute, since the play loop reads it before every move.
    current_player: int = CHANCE

    def __init__(self, game: KempsGame) -> None:
        n = game.players
        self.game: KempsGame = game
        self._names = game.seat_names
        self._at = ev.Places.of(n)
        self.current_player = CHANCE
        self._start_log(n)
        log = (self._events, self._audience, self._history)
        self._records = Records(game, layout_for(game.ranks, game.seat_names), game.deck, log)

    # --- the State interface -------------------------------------------------

    def observation(self, seat: int) -> KempsView:
        """The seat's view: its own hand and the public values, as they are now.

        Raises:
            SeatError: no such seat.
        """
        if type(seat) is not int or not 0 <= seat < self.game.players:
            check_seat(self.game, seat)
        return KempsView(self.game, seat, self.current_player, self, self._records)

    def legal_actions(self) -> list[KempsAction]:
        """`done`, then every allowed swap (none at chance nodes and at the end); in the
        team game `signal` when the hand allows it, and in a call window the calls."""
        p = self.current_player
        if p < 0:
            return []
        r = self._records
        return list(legal_moves(self.game, p, r.hands[p], r.table, r.put_down, r.swaps, r.window))

    def chance_outcomes(self) -> Sequence[tuple[Hashable, float]]:
        """While drawing: each card of the deck, equally likely, is the next one drawn."""
        if self.current_player != CHANCE:
            return []
        # The pairs are made only if read: a match draws by index (a deal is ~90 draws).
        # Made without `UniformOutcomes.__init__` (Python code) for every draw.
        outcomes = _new_object(UniformOutcomes)
        _set_outcomes(outcomes, tuple(self._records.deck))
        return outcomes

    def apply(self, action: Hashable) -> None:
        """Draw a card (chance), swap with the table, or end the turn.

        Raises:
            IllegalActionError: not legal here; the state is unchanged.
        """
        # The move itself is made by the records (compiled: see `records`).
        p = self._records.apply(action)
        if p < CHANCE:  # the end, or a move refused
            if p != TERMINAL:
                raise self._refused(action)
            self.capped = self._records.capped
        self.current_player = p

    def _refused(self, action: Hashable) -> IllegalActionError:
        """The error for a move the rules refused, with the reason where there is one."""
        error = illegal_action(self, action)
        p = self.current_player
        if p < 0:
            return error
        r = self._records
        if r.window:
            if type(action) is Call and 0 <= action.seat < self.game.players:
                partner = self.game.partner(p)
                why = (
                    f"Stop Kemps is called against an opponent, not {self._names[action.seat]}"
                    if action.stop
                    else f"Kemps! is called for one's partner, {self._names[partner]}"
                )
                return _with_reason(error, why)
            return error
        if type(action) is Swap:
            return _with_reason(error, self._why_not(p, action.slot, action.card))
        if type(action) is Signal and self.game.team_game:
            return _with_reason(error, "the signal needs four cards of one rank")
        return error

    def _why_not(self, p: int, slot: int, card: Card) -> str:
        r = self._records
        if r.swaps >= self.game.max_swaps:
            return f"{self.game.max_swaps} swaps is the most in one turn"
        table = r.table
        if not 0 <= slot < len(table):
            return f"the table has slots 1 to {len(table)}"
        if table[slot] in r.put_down:
            return f"{table[slot]} was put down this turn and may not be taken back"
        return f"{card} is not in {self._names[p]}'s hand"

    def returns(self) -> tuple[float, ...]:
        """Kemps so far."""
        return tuple(float(s) for s in self._records.scores)

    def clone(self) -> KempsState:
        """An independent copy; cards, events and actions are shared immutable values."""
        other = KempsState.__new__(KempsState)
        other.__dict__.update(self.__dict__)
        self._clone_log(other)
        other._records = self._records.copy((other._events, other._audience, other._history))
        return other

    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The true hands, in hand order: for referees and tests, never for strategies."""
        return tuple(self._records.hands)

    def location(self, card: Card) -> int:
        """The true holder of a card as a layout index (cards being drawn are in the deck)."""
        r = self._records
        for s, hand in enumerate(r.hands):
            if card in hand:
                return s
        if card in r.table:
            return self._at.table
        if card in r.discard:
            return self._at.discard
        if card in r.out:
            return self._at.out
        return self._at.deck

    def picture_subjects(self) -> list[str]:
        """The cards still in play, each with a Kripke picture; none before the deal."""
        r = self._records
        if not r.announcements:
            return []
        return [str(c) for c in self.game.deck if c not in r.out]

    def picture(self, subject: str, seat: int | None = None) -> KripkePicture:
        """A card's Kripke picture from `seat`'s view (None: a spectator's), in the report's
        worlds: nobody holds it, or player i does (`kemps.picture.report_picture`).

        Raises:
            InputError: the subject is not a card in play.
            SeatError: no such seat.
        """
        r = self._records
        in_play = [c for c in self.game.deck if c not in r.out]
        if not r.announcements:
            in_play = []
        card = subject_card(self.game, subject, in_play, Card.parse, "none yet")
        if seat is not None:
            return self.observation(seat).knowledge.picture(str(card))
        knowledges = [self.observation(s).knowledge for s in range(self.game.players)]
        places = spectator_picture(knowledges, card, true_deal(self, knowledges[0]))
        return report_picture(places, self.game.seat_names)

    def resample(self, seat: int, rng: random.Random) -> KempsState:
        """The same game with other hidden draws that `seat` cannot tell from the true ones.

        Draws where every card is now from the seat's exact knowledge (uniform over the
        consistent deals), then walks the history backwards from there: a swap gives the
        player back the card it put down, a Kemps gives back its four cards, and each
        hidden draw (another seat's first hand or new hand) gets the cards that player
        holds at that point. Table draws and the seat's own draws stay as they were.
        In the team game a signal the seat did not see becomes `done` where the sampled
        hand is not four of a kind (the seat cannot tell the two apart). Replaying the
        history with those draws leads to the sampled deal.
        """
        if self.current_player == CHANCE and not self._records.announcements:
            dealt = list(self._history)  # mid-deal: nothing seen yet, any order will do
            rng.shuffle(dealt)
            return replayed(self, dealt)
        world = self.observation(seat).knowledge.sample_world(rng)
        deck = self.game.deck
        n = self.game.players
        hands: list[list[Card]] = [
            [deck[c] for c, h in enumerate(world) if h == s] for s in range(n)
        ]
        steps = _annotate(self.game, self._history)
        history = list(self._history)
        for i in reversed(range(len(history))):
            for kind, who, cards in reversed(steps[i]):
                if kind == "swap":
                    taken, put = cards
                    hands[who][hands[who].index(taken)] = put
                elif kind == "kemps":
                    hands[who] = list(cards)
                elif kind == "signal":
                    unseen = self.game.team_game and who not in (seat, self.game.partner(seat))
                    if unseen and not one_rank(tuple(hands[who])):
                        history[i] = DONE
                else:  # the last card of a hand drawn
                    if who != seat:
                        history[i - len(hands[who]) + 1 : i + 1] = hands[who]
                    hands[who] = []
        return replayed(self, history, seat)


#: `UniformOutcomes(outcomes)` in two calls in C: the object and its one slot.
_new_object = object.__new__
_set_outcomes = vars(UniformOutcomes)["outcomes"].__set__


def _with_reason(error: IllegalActionError, reason: str) -> IllegalActionError:
    """The error with the reason the move is not allowed before the list of legal ones."""
    text = str(error)
    head, sep, tail = text.partition("; legal actions")
    return IllegalActionError(f"{head}: {reason}{sep}{tail}")


def _annotate(game: KempsGame, history: list[Hashable]) -> list[list[_Undo]]:
    """Per step of a history, what it did to the hands, in order: a swap `(taken, put)`,
    a Kemps or a right call (the cards that left), the last draw of a seat's hand, a
    signal; found by replaying it."""
    state = game.new_initial_state()
    steps: list[list[_Undo]] = []
    for action in history:
        player = state.current_player
        step: list[_Undo] = []
        if player == CHANCE:
            queue = state._records.queue
            if queue[0] >= 0 and (len(queue) == 1 or queue[1] != queue[0]):
                step.append(("draw", queue[0], ()))
        elif type(action) is Swap:
            step.append(("swap", player, (state._records.table[action.slot], action.card)))
        elif type(action) is Signal:
            step.append(("signal", player, ()))
        events = len(state.events)
        state.apply(action)
        for event in state.events[events:]:
            if type(event) is ev.Kemps:
                step.append(("kemps", event.seat, event.cards))
            elif type(event) is ev.Called and event.right:
                step.append(("kemps", event.target, event.cards))
        steps.append(step)
    return steps


#: What a step did to a seat's hand: its kind, the seat, the cards.
_Undo = tuple[str, int, tuple[Card, ...]]
