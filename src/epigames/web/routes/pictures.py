"""Routes about what the agents know at a frame: Kripke pictures, the knowledge matrix,
and formulas asked about a picture.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import Field

from epigames.web import views
from epigames.web.routes.common import Body, Name, Perspective, Store

router = APIRouter(prefix="/api/sessions")


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
        seat = views.seen_as(session, perspective)
        result = views.picture_json(views.get_picture(session, frame, subject, seat))
        result["frame"] = session.check_frame(frame)
        return result


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
        pic = views.get_picture(session, body.frame, body.subject, seat)
        return views.formula_json(pic, body.formula)
