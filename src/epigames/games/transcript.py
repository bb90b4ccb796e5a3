"""JSON-lines transcripts that replay on their own: what a seat knows at a step, and the
check that re-runs a transcript through the rules (`epigames replay`).

`epigames play --json` prints one JSON object a line (format `FORMAT`): a `match` header
(the game string, the seats, and for a card game its holders: the location codes of the
facts, seats first), then for every step (every action applied, chance outcomes included,
numbered from 1) its `chance` or `decision` line (with the legal actions the seat chose
from), the `event` lines it caused and, when asked, a `knowledge` line, all carrying the
step's number in `step`; a `result` line ends it. A full transcript (no `--seat`) holds
every chance outcome and every decision, so `check_transcript` can feed them back through
`State.apply` and compare every legal set, every event and the result; it works the same
for every registered game.

The lines' shapes are the typed dicts below (`MatchLine` …) and, for events, the game's
event classes (`Game.event_types`): `epigames.games.schema` makes a JSON Schema of both.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Literal, NotRequired, TypedDict

from epigames.errors import EpigamesError, InputError
from epigames.games.core import CHANCE, TERMINAL, Game, State, load_game
from epigames.games.knowledge import AnyKnowledge

__all__ = [
    "DETAILS",
    "FORMAT",
    "LINE_TYPES",
    "ChanceLine",
    "DecisionLine",
    "Difference",
    "EventLine",
    "KnowledgeLine",
    "MatchLine",
    "ReplayReport",
    "ResultLine",
    "TranscriptError",
    "check_transcript",
    "event_line",
    "knowledge_record",
]

#: The transcript format `epigames play --json` writes (1: no chance lines, `index`,
#: `after` and `move` numberings; 2: chance lines and one `step` number; 3: the legal
#: actions on every decision line, and events that name every card's seat and call one
#: thing by one name).
FORMAT: Final = 3
#: How much a knowledge line says: the subjects whose value the seat knows and the number
#: of worlds it considers possible (`known`), or also every card's possible places with
#: their exact probabilities (`full`).
DETAILS = ("known", "full")


class TranscriptError(InputError):
    """A transcript that cannot be read or replayed: the message names the line."""


class MatchLine(TypedDict):
    """The first line: which game, and how to read the rest.

    Attributes:
        type: always `match`.
        format: the transcript format (`FORMAT`); `epigames replay` reads only its own.
        game: the canonical game string, every parameter given (`load_game` reads it).
        seed: the match seed: the same seed and strategies play the same game.
        seats: the seats' display names; seat `i` of every other line is `seats[i]`.
        strategies: the strategy at each seat, in seat order.
        viewer: the seat whose view this is (`--seat`), or null for the full transcript.
        holder_labels: what the holder codes of the facts mean, in plain words: the seats
            first, then a card game's piles (`the table`, `the deck`).
        holders: a card game's short holder names, as knowledge lines use them (holder
            code `i` is `holders[i]`); absent in a game without cards.
    """

    type: Literal["match"]
    format: Literal[3]
    game: str
    seed: int
    seats: list[str]
    strategies: list[str]
    viewer: int | None
    holder_labels: list[str]
    holders: NotRequired[list[str]]


class ChanceLine(TypedDict):
    """A chance outcome (a card dealt or drawn, dice rolled); full transcripts only.

    Attributes:
        type: always `chance`.
        step: the step's number: every action applied, chance outcomes included, from 1.
        outcome: the outcome as the game writes it (`Game.parse_action` reads it back).
    """

    type: Literal["chance"]
    step: int
    outcome: str


class DecisionLine(TypedDict):
    """A seat's decision: what it could do, what it did and why.

    Attributes:
        type: always `decision`.
        step: the step's number: every action applied, chance outcomes included, from 1.
        seat: the seat that decides (the one to move).
        action: the action chosen, as the game writes it; one of `legal`.
        legal: every legal action of the seat at this point, in the rules' order.
        thought: the strategy's reason in words (not checked by `epigames replay`).
    """

    type: Literal["decision"]
    step: int
    seat: int
    action: str
    legal: list[str]
    thought: str


class EventLine(TypedDict):
    """An event the step caused: these two keys, then the event's own (`Event.to_dict`).

    Attributes:
        type: always `event`.
        step: the number of the step (chance outcome or decision) that caused it.
    """

    type: Literal["event"]
    step: int


class KnowledgeLine(TypedDict):
    """What each shown seat knows after a step (`--trace-knowledge`), keyed by seat name.

    Attributes:
        type: always `knowledge`.
        step: the step after which the seats know this.
        known: per seat, every subject whose value it knows (a card: its holder's short
            name; Blufpoker's cup: the roll).
        worlds: per seat, how many worlds (deals, rolls) it considers possible.
        possible: per seat (`--trace-knowledge-full`, card games), every card's possible
            holders with the exact probability of each, as a fraction (`"1/3"`).
    """

    type: Literal["knowledge"]
    step: int
    known: dict[str, dict[str, str]]
    worlds: dict[str, int]
    possible: NotRequired[dict[str, dict[str, dict[str, str]]]]


class ResultLine(TypedDict):
    """The last line: how the match ended.

    Attributes:
        type: always `result`.
        returns: what each seat scores (`State.returns`), in seat order.
        winners: the winning seats (every seat of a winning team).
        moves: the number of decisions (chance outcomes not counted).
    """

    type: Literal["result"]
    returns: list[float]
    winners: list[int]
    moves: int


#: Every line type of a transcript, in the order they first appear.
LINE_TYPES: Final = (MatchLine, ChanceLine, DecisionLine, EventLine, KnowledgeLine, ResultLine)


def event_line(step: int, data: dict[str, Any]) -> dict[str, Any]:
    """The transcript line of an event (`Event.to_dict()`) caused by `step`."""
    head: EventLine = {"type": "event", "step": step}
    return {**head, **data}


def knowledge_record(game: Game, knowledge: AnyKnowledge, detail: str) -> dict[str, Any]:
    """What a seat's knowledge says, as JSON: the values it knows, how many worlds it
    considers possible and, with `detail` `full` in a card game, every card's possible
    holders with exact probabilities (`"1/3"`), holders named as in the header."""
    record: dict[str, Any] = {
        "known": knowledge.known_values(),
        "worlds": knowledge.worlds_count(),
    }
    layout = game.card_layout
    if detail == "full" and layout is not None:
        places: dict[str, dict[str, str]] = {}
        for card in layout.cards:
            holders = sorted(knowledge.possible_holders(card))
            places[layout.card_name(layout.card_index(card))] = {
                layout.holders[h]: str(knowledge.probability(card, h)) for h in holders
            }
        record["possible"] = places
    return record


@dataclass(frozen=True, slots=True)
class Difference:
    """Where a transcript and the rules part: the step, the transcript's line, and what
    each says there."""

    step: int
    line: int
    transcript: str
    rules: str

    def __str__(self) -> str:
        return (
            f"step {self.step} (line {self.line}): the transcript has {self.transcript}; "
            f"the rules give {self.rules}"
        )


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """The outcome of `check_transcript`: the game, the steps replayed, and the first
    difference (None when every event and the result agree)."""

    game: str
    steps: int
    difference: Difference | None = None


@dataclass
class _Read:
    """A transcript's lines, sorted by what they are."""

    header: dict[str, Any]
    #: (step, line, "chance" or "decision", action text, seat or None)
    actions: list[tuple[int, int, str, str, int | None]] = field(default_factory=list)
    #: step → the legal actions its decision line gives
    legal: dict[int, list[str]] = field(default_factory=dict)
    #: step → [(line, event line)]
    events: dict[int, list[tuple[int, dict[str, Any]]]] = field(default_factory=dict)
    result: tuple[int, dict[str, Any]] | None = None
    last_line: int = 0


def _step_of(data: dict[str, Any], number: int, source: str) -> int:
    step = data.get("step")
    if type(step) is not int or step < 1:
        raise TranscriptError(
            f"{source} line {number}: a {data['type']} line needs a 'step' number from 1, "
            f"not {step!r}"
        )
    return step


def _read(lines: Iterable[str], source: str) -> _Read:
    """Sort the lines, checking each is what the format says.

    Raises:
        TranscriptError: a line that is not JSON or not a transcript line, no header, a
            transcript of one seat's view, another format, steps out of order.
    """
    read: _Read | None = None
    number = 0
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except ValueError as error:
            raise TranscriptError(
                f"{source} line {number} is not JSON ({error}); expected one JSON object a "
                "line, as 'epigames play --json' prints"
            ) from None
        kind = data.get("type") if isinstance(data, dict) else None
        if not isinstance(kind, str):
            raise TranscriptError(
                f"{source} line {number}: expected a JSON object with a 'type', not {raw[:60]!r}"
            )
        if read is None:
            read = _Read(_header(data, number, source))
            continue
        if kind == "match":
            raise TranscriptError(f"{source} line {number}: a second 'match' header")
        if kind in ("chance", "decision"):
            step = _step_of(data, number, source)
            text = data.get("outcome" if kind == "chance" else "action")
            seat = data.get("seat") if kind == "decision" else None
            if not isinstance(text, str) or (kind == "decision" and type(seat) is not int):
                what = "an 'outcome' text" if kind == "chance" else "a 'seat' and an 'action'"
                raise TranscriptError(f"{source} line {number}: a {kind} line needs {what}")
            expected = len(read.actions) + 1
            if step != expected:
                raise TranscriptError(
                    f"{source} line {number}: step {step} where step {expected} was expected "
                    "(every step has one chance or decision line, in order)"
                )
            read.actions.append((step, number, kind, text, seat))
            legal = data.get("legal")
            if kind == "decision":
                if not isinstance(legal, list) or not all(isinstance(a, str) for a in legal):
                    raise TranscriptError(
                        f"{source} line {number}: a decision line needs its 'legal' actions "
                        f"(a list of texts), not {legal!r}"
                    )
                read.legal[step] = legal
        elif kind == "event":
            step = _step_of(data, number, source)
            read.events.setdefault(step, []).append((number, data))
        elif kind == "knowledge":
            _step_of(data, number, source)
        elif kind == "result":
            read.result = (number, data)
        else:
            raise TranscriptError(
                f"{source} line {number}: unknown line type {kind!r}; expected chance, "
                "decision, event, knowledge or result"
            )
    if read is None:
        raise TranscriptError(
            f"{source} is empty; expected the JSON lines of 'epigames play --json'"
        )
    read.last_line = number
    return read


def _header(data: dict[str, Any], number: int, source: str) -> dict[str, Any]:
    if data.get("type") != "match" or not isinstance(data.get("game"), str):
        raise TranscriptError(
            f"{source} line {number}: expected the 'match' header with the game string first"
        )
    if data.get("format") != FORMAT:
        raise TranscriptError(
            f"{source} is a transcript of format {data.get('format', 1)!r}; this version "
            f"replays format {FORMAT} (legal actions on every decision line, and chance "
            "lines since format 2): write it again with this version's 'epigames play --json'"
        )
    viewer = data.get("viewer")
    if viewer is not None:
        raise TranscriptError(
            f"{source} shows the game as seat {viewer!r} sees it: the other seats' draws and "
            "decisions are not in it; replay a full transcript ('epigames play --json' "
            "without --seat)"
        )
    return data


def _who(game: Game, player: int) -> str:
    if player == CHANCE:
        return "chance"
    if player == TERMINAL:
        return "the game over"
    return game.seat_names[player]


def _as_json(value: object) -> Any:
    """The value as the transcript's JSON reads back (tuples become lists)."""
    return json.loads(json.dumps(value))


def _short(data: object) -> str:
    text = json.dumps(data, ensure_ascii=False)
    return text if len(text) <= 300 else text[:297] + "..."


def _delta(theirs: dict[str, Any] | None, ours: dict[str, Any] | None) -> tuple[str, str]:
    """Two event lines as the difference shows them: only the fields that differ (with the
    event's kind) when both are there, else the one that is."""
    if theirs is None or ours is None:
        return (
            _short(theirs) if theirs is not None else "no more events",
            _short(ours) if ours is not None else "no more events",
        )
    keys = [k for k in {**theirs, **ours} if theirs.get(k) != ours.get(k)]
    if "kind" not in keys:
        keys.insert(0, "kind")
    return (
        f"event {_short({k: theirs.get(k) for k in keys})}",
        f"event {_short({k: ours.get(k) for k in keys})}",
    )


def check_transcript(lines: Iterable[str], source: str = "the transcript") -> ReplayReport:
    """Re-run a full JSON-lines transcript through the rules and find where it differs.

    Every chance outcome and decision is applied in step order; each decision's `legal`
    actions must be the rules' legal actions there, the events each step causes must be
    the transcript's event lines of that step, and the end its `result`.
    Thoughts and knowledge lines are not checked (no strategy is run).

    Raises:
        TranscriptError: the file is not such a transcript (the message names the line).
        InputError: its game string names no game of this version.
    """
    read = _read(lines, source)
    game = load_game(read.header["game"])
    state = game.new_initial_state()

    def differ(step: int, line: int, transcript: str, rules: str) -> ReplayReport:
        return ReplayReport(str(game), step - 1, Difference(step, line, transcript, rules))

    for step, line, kind, text, seat in read.actions:
        player = state.current_player
        if seat is not None and not 0 <= seat < game.num_players:
            raise TranscriptError(f"{source} line {line}: no seat {seat} in {game}")
        mover = "chance" if seat is None else _who(game, seat)
        if (kind == "chance") != (player == CHANCE) or (seat is not None and seat != player):
            return differ(
                step, line, f"{mover} to move ({text!r})", f"{_who(game, player)} to move"
            )
        if step in read.legal:
            legal = [game.action_to_string(a) for a in state.legal_actions()]
            if read.legal[step] != legal:
                return differ(
                    step, line, f"legal actions {_short(read.legal[step])}", _short(legal)
                )
        try:
            action = game.parse_action(text)
            start = len(state.events)
            state.apply(action)
        except EpigamesError as error:
            return differ(step, line, repr(text), f"an error: {error}")
        made = [_as_json(event_line(step, e.to_dict())) for e in state.events[start:]]
        given = read.events.pop(step, [])
        for index in range(max(len(made), len(given))):
            ours = made[index] if index < len(made) else None
            theirs = given[index] if index < len(given) else None
            if theirs is None or ours != theirs[1]:
                where = theirs[0] if theirs is not None else line
                said, made_here = _delta(theirs[1] if theirs else None, ours)
                return differ(step, where, said, made_here)
    steps = len(read.actions)
    if read.events:
        step = min(read.events)
        line, data = read.events[step][0]
        return differ(step, line, _short(data), f"no step {step}: the game has {steps} steps")
    if not state.is_terminal():
        return differ(
            steps + 1,
            read.last_line,
            "no more steps",
            f"a game not over ({_who(game, state.current_player)} to move)",
        )
    return _check_result(state, read, steps)


def _check_result(state: State, read: _Read, steps: int) -> ReplayReport:
    game = state.game
    if read.result is None:
        return ReplayReport(
            str(game), steps, Difference(steps, read.last_line, "no result line", "the end")
        )
    line, data = read.result
    moves = sum(1 for action in read.actions if action[2] == "decision")
    ours = {
        "returns": list(state.returns()),
        "winners": list(state.winners()),
        "moves": moves,
    }
    theirs = {key: data.get(key) for key in ours}
    if _as_json(ours) != theirs:
        return ReplayReport(str(game), steps, Difference(steps, line, _short(theirs), _short(ours)))
    return ReplayReport(str(game), steps)
