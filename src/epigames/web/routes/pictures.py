"""Routes about what the agents know at a frame: Kripke pictures, the knowledge matrix,
and formulas asked about a picture or about the game state (card holders, the cup).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import Field

from epigames.games.ask import ask, ask_seat, read_formula
from epigames.web import views
from epigames.web.routes.common import Body, Name, Perspective, Store
from epigames.web.session import Session

router = APIRouter(prefix="/api/sessions")

#: The most hand-size combinations of a card structure built for a question here: the
#: server pays for it (four-player Kwartet, 38,416, takes a few seconds; the library's
#: default, 200,000, half a minute and 400 MB).
WEB_COMBINATIONS = 60_000


class StateQuery(Body):
    """A formula about the game state (cards or dice) at one frame."""

    frame: int
    perspective: Name | None = None
    formula: str = Field(min_length=1, max_length=1000)


class FormulaQuery(Body):
    """A formula about one subject's picture at one frame."""

    frame: int
    subject: Name
    perspective: Name | None = None
    formula: str = Field(min_length=1, max_length=1000)


@router.get("/{sid}/frames/{frame}/picture")
def picture(
    sid: str,
    frame: int,
    subject: Annotated[str, Query(min_length=1, max_length=40)],
    store: Store,
    perspective: Perspective = None,
) -> dict[str, Any]:
    """The Kripke model of one subject (a card, the cup) at a frame."""
    with store.using(sid) as session:
        return picture_answer(session, frame, subject, views.seen_as(session, perspective))


@router.get("/{sid}/frames/{frame}/matrix")
def matrix(sid: str, frame: int, store: Store, perspective: Perspective = None) -> dict[str, Any]:
    """The knowledge matrix: subjects × possible holders, probability per agent."""
    with store.using(sid) as session:
        return views.matrix_json(session, frame, views.seen_as(session, perspective))


@router.post("/{sid}/formula")
def formula(sid: str, body: FormulaQuery, store: Store) -> dict[str, Any]:
    """Evaluate a formula on a subject's picture; syntax errors are 422 with a caret."""
    with store.using(sid) as session:
        seat = views.seen_as(session, body.perspective)
        return formula_answer(session, body.frame, body.subject, body.formula, seat)


@router.post("/{sid}/ask")
def ask_state(sid: str, body: StateQuery, store: Store) -> dict[str, Any]:
    """A formula about the state's cards or dice: the truth and who knows it, or a seat's view.

    A spectator (a watched game, or a played one once over) gets the truth at the true
    deal and the seats that know it. From a seat, and always for the person playing
    while the game runs, only what that seat can tell: true in every world it considers
    possible, false in every one, or it cannot tell, and what it can tell of the others.
    """
    with store.using(sid) as session:
        seat = views.seen_as(session, body.perspective)
        return ask_answer(session, body.frame, body.formula, seat)


# What the routes answer once they know the session and the perspective; the tables'
# routes (`routes.tables`) answer the same from a seat token's perspective.


def picture_answer(session: Session, frame: int, subject: str, seat: int | None) -> dict[str, Any]:
    """A subject's picture at a frame from a perspective, with the frame it is of."""
    result = views.picture_json(views.get_picture(session, frame, subject, seat))
    result["frame"] = session.check_frame(frame)
    return result


def formula_answer(
    session: Session, frame: int, subject: str, text: str, seat: int | None
) -> dict[str, Any]:
    """A formula judged on a subject's picture from a perspective."""
    pic = views.get_picture(session, frame, subject, seat)
    state = session.state_at(session.check_frame(frame))
    return views.formula_json(pic, read_formula(state, text, pic.model.atoms))


def ask_answer(session: Session, frame: int, text: str, seat: int | None) -> dict[str, Any]:
    """A formula about a frame's state: the truth and who knows it (spectator), or what
    the seat can tell."""
    state = session.state_at(session.check_frame(frame))
    names = session.game.seat_names
    if seat is None:
        answer = ask(state, text, WEB_COMBINATIONS)
        knowers = [names[s] for s in answer.knowers]
        value = "true" if answer.value else "false"
        return {
            "formula": str(answer.formula),
            "perspective": None,
            "value": answer.value,
            "knowers": knowers,
            "worlds": answer.worlds,
            "kind": answer.kind,
            "answer": f"{value} in the true state; known by: {', '.join(knowers) or 'nobody'}",
        }
    seen = ask_seat(state, seat, text, WEB_COMBINATIONS)
    others = {names[s]: tell for s, tell in enumerate(seen.others) if s != seat}
    verdict = {
        "true": f"true in every world {names[seat]} considers possible: {names[seat]} knows it",
        "false": f"false in every world {names[seat]} considers possible",
        "unknown": f"{names[seat]} cannot tell: true in some worlds it considers possible, "
        "false in others",
    }[seen.verdict]
    return {
        "formula": str(seen.formula),
        "perspective": names[seat],
        "verdict": seen.verdict,
        "knows": seen.verdict == "true",
        "others": others,
        "answer": verdict,
    }
