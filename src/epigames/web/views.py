"""JSON for the web client, built per perspective: a frame, a Kripke picture, a formula.

A perspective is `None` (the spectator, who sees everything), a seat, or `PUBLIC` (a
table's spectator while its game runs: the public events and the public state only). For a
seat, every response is built from `state.observation(seat)` and
`state.picture(subject, seat)` only; nothing is built from the true state and filtered
afterwards. `PUBLIC` gets the public state arrays (`View.public_state`, the same for every
seat) and no view, picture or thought.
"""

from __future__ import annotations

from typing import Any

from epigames.errors import InputError
from epigames.games import TERMINAL, Game, State
from epigames.games.picture import HasPictures, KripkePicture
from epigames.logic import Partition
from epigames.logic.formula import Formula
from epigames.logic.picture import Exact
from epigames.logic.syntax import atom_text, to_text
from epigames.web.guide import Guide
from epigames.web.session import Session, SessionError

#: The perspective of a table's spectator while the game runs: public information only.
PUBLIC = -1

#: Most worlds a picture response carries (a Blufpoker cup can have thousands of rolls).
MAX_WORLDS = 120
#: Most log entries one frame response carries; older ones come with `since`.
MAX_LOG = 2000


def parse_perspective(game: Game, text: str | None) -> int | None:
    """`None` for the spectator (`spectator`, empty), else the seat (number or name).

    Raises:
        SeatError: no such seat.
    """
    if text is None or text.strip().lower() in ("", "spectator", "all"):
        return None
    return game.seat_index(text)


def allowed_perspective(session: Session, perspective: int | None) -> int | None:
    """The perspective if the session allows it: a person playing sees only its seat.

    Raises:
        SessionError: a played game asked from another perspective (403).
    """
    if session.human is not None and perspective != session.human and not session.finished:
        name = session.game.seat_names[session.human]
        raise SessionError(
            f"you play {name}: while the game runs you can only see it as {name} "
            f"(perspective={session.human})",
            403,
        )
    return perspective


def seen_as(session: Session, text: str | None) -> int | None:
    """The perspective a request names (`parse_perspective`), if the session allows it.

    Raises:
        SeatError: no such seat.
        SessionError: a played game asked from another perspective (403).
    """
    return allowed_perspective(session, parse_perspective(session.game, text))


def player_label(game: Game, player: int) -> str:
    """`South`, `chance` or `game over`."""
    if player == TERMINAL:
        return "game over"
    if player < 0:
        return "chance"
    return game.seat_names[player]


def log_entries(
    session: Session, frame: int, perspective: int | None, since: int = 0, guide: bool = False
) -> tuple[int, int, list[dict[str, Any]]]:
    """The log up to a frame as seen from a perspective: events and decisions interleaved.

    A decision comes just before the events it caused. The spectator sees everything. A
    seat sees the public events, its own private ones and its own decisions with their
    thoughts: a thought is its thinker's private observation, like its hand. Of another
    seat's decision it sees only that the seat moved (`action` and `thought` empty): what
    the move did shows in the events it caused, and its label may say more (a secret
    signal, how many dice went under the cup).

    Returns:
        The log's length, the index of the first entry returned (`since`, or later when
        the log has more than `MAX_LOG` entries after it), and the entries from there on:
        only those are turned into JSON, so stepping forward costs a few entries.
        With `guide`, each entry carries `explain`: the entry in plain words
        (`web.guide.Guide`), from what the perspective sees of it.
    """
    events = session.head.events[: session.event_counts[frame]]
    decisions = session.decisions[:frame]
    # First the order, as cheap references; then JSON for the requested tail only.
    order: list[tuple[bool, int]] = []  # (is_decision, index)
    d = 0
    for i, event in enumerate(events):
        while d < len(decisions) and decisions[d].first_event <= i:
            order.append((True, d))
            d += 1
        if perspective is None or event.public or event.visible_to(perspective):
            order.append((False, i))
    order.extend((True, k) for k in range(d, len(decisions)))
    start = max(0, min(since, len(order)), len(order) - MAX_LOG)
    entries: list[dict[str, Any]] = []
    explainer = Guide.of(session.game) if guide else None
    for is_decision, index in order[start:]:
        if is_decision:
            dec = decisions[index]
            shown = perspective is None or perspective == dec.seat
            human = dec.seat in session.persons
            # A thought is put into words when read (`Thought.text`): once per entry.
            said = dec.thought.text if shown else ""
            entries.append(
                {
                    "type": "decision",
                    "index": index,
                    "seat": dec.seat,
                    "action": dec.action if shown else "",
                    "thought": said,
                    "human": human,
                }
            )
            if explainer is not None:
                entries[-1]["explain"] = explainer.thought(
                    dec.seat,
                    dec.action if shown else None,
                    said,
                    dec.thought.concluded if shown else (),
                    human=human,
                )
        else:
            entry = events[index].to_dict()
            entries.append(
                {
                    "type": "event",
                    "public": entry.pop("public"),
                    "kind": entry.pop("kind"),
                    "text": entry.pop("text"),
                    "data": {k: v for k, v in entry.items() if k != "facts"},
                }
            )
            if explainer is not None:
                entries[-1]["explain"] = explainer.event(events[index])
    return len(order), start, entries


#: How far back in the log the subject of the last move is looked for.
FOCUS_EVENTS = 200


def focus_subject(
    session: Session, frame: int, perspective: int | None, subjects: list[str]
) -> str | None:
    """The subject the last move is about, as the perspective saw it: the first card still
    pictured that the newest event it saw with such a card names (asked for, taken, not
    followed), else the first subject (the cup); None when there is none.

    Read from the events the perspective observed only, as its log is.
    """
    if not subjects:
        return None
    names = set(subjects)
    events = session.head.events[: session.event_counts[frame]]
    for event in reversed(events[-FOCUS_EVENTS:]):
        if perspective is not None and not (event.public or event.visible_to(perspective)):
            continue
        # In the event's order: a swap names the card taken before the card put down.
        for fact in event.facts:
            card = getattr(fact, "card", None)
            if card is not None and str(card) in names:
                return str(card)
    return subjects[0]


def table(state: State, perspective: int | None) -> dict[str, Any]:
    """The table: each visible seat's view (`View.to_dict` without the log).

    The spectator gets every seat's view; a seat only its own, which carries the public
    counts (hand sizes, scores, …) of the others.
    """
    game = state.game
    if perspective == PUBLIC:
        return {"views": {}, "public": public_json(state)}
    seats = range(game.num_players) if perspective is None else [perspective]
    views = {}
    for s in seats:
        data = state.observation(s).to_dict(include_log=False)
        if s != state.current_player:
            data.pop("legal_actions", None)
        views[str(s)] = data
    return {"views": views}


def public_json(state: State) -> list[dict[str, Any]]:
    """The public state (`Game.public_parts`) as the entries that are not zero, each with
    the labels of its position on every axis."""
    # Every seat's public arrays are the same; seat 0's view is as good as any.
    arrays = state.observation(0).public_state()
    parts = []
    for part in state.game.public_parts():
        values = arrays[part.name]
        entries = [
            {"at": [axis.labels[i] for axis, i in zip(part.axes, index, strict=True)],
             "value": float(values[index])}
            for index in zip(*values.nonzero(), strict=True)
        ] if part.axes else [{"at": [], "value": float(values)}]  # fmt: skip
        parts.append({"name": part.name, "help": part.help, "entries": entries})
    return parts


def frame_json(
    session: Session, frame: int, perspective: int | None, since: int = 0, guide: bool = False
) -> dict[str, Any]:
    """Everything the client shows for one frame from one perspective.

    Args:
        session: the game.
        frame: which frame.
        perspective: None (spectator), a seat, or `PUBLIC`.
        since: log entries before this index are left out (the client has them).
        guide: explain each log entry in plain words (the guided game).
    """
    frame = session.check_frame(frame)
    state = session.state_at(frame)
    game = session.game
    player = state.current_player
    length, start, log = log_entries(session, frame, perspective, since, guide)
    terminal = state.is_terminal()
    subjects = (
        list(state.picture_subjects())
        if isinstance(state, HasPictures) and perspective != PUBLIC
        else []
    )
    data: dict[str, Any] = {
        "session": session.id,
        "game": str(game),
        "game_name": game.name,
        "seat_names": list(game.seat_names),
        "frame": frame,
        "last_frame": session.last_frame,
        "perspective": perspective,
        # At a table (several people) the person is the seat the request is seen from.
        "human": session.human
        if session.human is not None or perspective not in session.persons
        else perspective,
        "current_player": player,
        "current_label": player_label(game, player),
        "terminal": terminal,
        "finished": session.finished,
        "table": table(state, perspective),
        "log_length": length,
        "log_start": start,
        "log": log,
        "subjects": subjects,
        "focus": focus_subject(session, frame, perspective, subjects),
        "legal_actions": [],
    }
    if terminal:
        data["returns"] = list(state.returns())
        data["winners"] = list(state.winners())
    if perspective is not None and player == perspective and frame == session.last_frame:
        data["legal_actions"] = [
            game.action_to_string(a) for a in state.observation(perspective).legal_actions
        ]
    if not session.played or session.finished:
        data["seed"] = str(session.seed)  # digits: a JSON number loses them past 2^53
        data["strategies"] = list(session.strategies)
    else:
        # At a table the other people's seats say so, not the word the match keeps for them.
        data["strategies"] = [
            "you" if s == perspective else "a person" if s in session.persons else name
            for s, name in enumerate(session.strategies)
        ]
    data["origin"] = session.origin
    return data


def pictured_state(session: Session, frame: int) -> HasPictures:
    """The state at a (checked) frame, as one that draws pictures.

    Raises:
        SessionError: the game draws no pictures (404).
    """
    state = session.state_at(frame)
    if not isinstance(state, HasPictures):
        raise SessionError(f"{session.game.name} draws no Kripke pictures yet", 404)
    return state


def get_picture(
    session: Session, frame: int, subject: str, perspective: int | None
) -> KripkePicture:
    """The state's `picture(subject, perspective)`, cached per session.

    Raises:
        SessionError: the game draws no pictures (404).
        InputError: an unknown subject (from the game).
    """
    frame = session.check_frame(frame)
    state = pictured_state(session, frame)
    return session.picture_cached(
        frame, subject, perspective, lambda: state.picture(subject, perspective)
    )


def _blocks(partition: object, keep: list[int]) -> list[list[int]]:
    """An agent's blocks among the kept worlds (as positions in `keep`)."""
    index = {w: i for i, w in enumerate(keep)}
    if isinstance(partition, Partition):
        blocks: dict[int, list[int]] = {}
        for w in keep:
            blocks.setdefault(int(partition.block[w]), []).append(index[w])
        return list(blocks.values())
    raise InputError("only S5 pictures (a partition per agent) can be drawn")


def picture_json(picture: KripkePicture) -> dict[str, Any]:
    """A picture as nodes and per-agent blocks, with probabilities and the true world.

    Edges are implied by blocks (S5: every pair inside a block is related); the client
    draws each agent's blocks as edges in the agent's colour. A world is `considered`
    when the perspective considers it possible (the picture's designated worlds).
    """
    model = picture.model
    true_world = picture.true_world
    considered = set(model.designated)
    order = list(range(model.size))
    truncated = False
    if model.size > MAX_WORLDS:
        # Keep the worlds the perspective considers possible, then the most likely ones.
        def weight(w: int) -> float:
            name = model.worlds[w]
            return sum(p.get(name, 0.0) for p in picture.probabilities.values())

        keep = sorted(order, key=lambda w: (w not in considered, -weight(w)))
        order = sorted(keep[:MAX_WORLDS])
        truncated = True
    worlds = []
    for w in order:
        name = model.worlds[w]
        worlds.append(
            {
                "name": name,
                "atoms": sorted(model.world_atoms(w)),
                "true": name == true_world,
                "considered": w in considered,
                "probabilities": {
                    agent: probs.get(name, 0.0) for agent, probs in picture.probabilities.items()
                },
            }
        )
    agents = [
        {"name": agent, "blocks": _blocks(model.relations[agent], order)} for agent in model.agents
    ]
    return {
        "subject": picture.subject,
        "perspective": picture.perspective,
        "true_world": true_world,
        "worlds": worlds,
        "world_count": model.size,
        # Formulas are judged on the exact model behind the drawing (None: the game's engine).
        "exact_worlds": _exact_size(picture),
        "truncated": truncated,
        "agents": agents,
        "atoms": [{"name": a, "typed": atom_text(a)} for a in model.atoms],
    }


def matrix_json(session: Session, frame: int, perspective: int | None) -> dict[str, Any]:
    """The knowledge matrix: per agent, subjects × worlds (holders) with probabilities.

    Built from each subject's picture for the perspective, so a seat sees only the
    probabilities its picture carries. A world is a column when some agent gives it a
    probability, or it is the true world: the cup's model while it is rolled has up to
    56 × 56 worlds and only the holder's certainty.
    """
    frame = session.check_frame(frame)
    subjects = list(pictured_state(session, frame).picture_subjects())
    columns: list[str] = []
    agents: list[str] = []
    rows = []
    for subject in subjects:
        picture = get_picture(session, frame, subject, perspective)
        likely = {w for p in picture.probabilities.values() for w, x in p.items() if x > 0}
        for name in picture.model.worlds:
            if (name in likely or name == picture.true_world) and name not in columns:
                columns.append(name)
        for agent in picture.probabilities:
            if agent not in agents:
                agents.append(agent)
        rows.append(
            {
                "subject": subject,
                "true_world": picture.true_world,
                "probabilities": {a: dict(p) for a, p in picture.probabilities.items()},
            }
        )
    # Seats in seat order first (the usual columns: holders), then anything else.
    # Sort keys are taken before sorting: list.sort empties the list while it runs.
    order = {name: (0, i) for i, name in enumerate(session.game.seat_names)}
    first_seen = {name: (1, i) for i, name in enumerate(columns)}
    columns.sort(key=lambda c: order.get(c, first_seen[c]))
    if len(columns) > MAX_WORLDS:
        raise SessionError(
            f"a knowledge matrix of {len(columns)} columns is too wide to show; "
            "use the Kripke panel",
            422,
        )
    return {"frame": frame, "perspective": perspective, "agents": agents, "columns": columns,
            "rows": rows}  # fmt: skip


def formula_json(picture: KripkePicture, formula: Formula) -> dict[str, Any]:
    """A formula judged on a picture, for the picture's perspective (`KripkePicture.judge`).

    The answer is read at the picture's designated worlds (`KripkePicture.considered`),
    on the exact model behind the drawing: the true world when the perspective knows it;
    otherwise every world the seat considers possible, where the formula is true in all
    (the seat knows it), false in all, or neither (the seat cannot tell), as *Ask the
    game* says. The drawn worlds where it is false are listed, and those that stand for
    worlds where it is true and worlds where it is false (`mixed_worlds`).
    """
    judged = picture.judge(formula)
    verdict = judged.verdict
    if picture.true_world is not None:
        answer = f"{verdict} in the true world {picture.true_world}"
    else:
        answer = {
            "true": "true in every world this seat considers possible: it knows it",
            "false": "false in every world this seat considers possible",
            "unknown": "this seat cannot tell: true in some worlds it considers possible, "
            "false in others",
        }[verdict]
    return {
        "formula": to_text(formula),
        "holds": verdict == "true",
        "verdict": verdict,
        "true_worlds": list(judged.true_worlds),
        "false_worlds": list(judged.false_worlds),
        "mixed_worlds": list(judged.mixed_worlds),
        "exact_worlds": _exact_size(picture),
        "answer": answer,
    }


def _exact_size(picture: KripkePicture) -> int | None:
    """How many worlds the exact model behind the drawing has; None when no exact model
    is built (the game's engine answers)."""
    exact = picture.exact
    if exact is None:
        return picture.model.size
    return exact.model.size if isinstance(exact, Exact) else None
