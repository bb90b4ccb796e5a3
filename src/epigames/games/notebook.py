"""States and views as HTML tables: what Jupyter shows for them (`_repr_html_`).

A `State` is the whole position, as a spectator of the table sees it after the game:
its table has every seat's private situation (`View.summary()` of each seat's own view)
and the full event log, each event with the seats that observed it. A `View` is one
seat's: its table has only that seat's situation, its legal actions and the events it
observed.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from epigames.games.turn import CHANCE, TERMINAL

# Annotations only: `games.core` imports this module for `_repr_html_`.
if TYPE_CHECKING:
    from epigames.games.core import State, View
    from epigames.games.events import Event

__all__ = ["EVENTS_SHOWN", "state_html", "view_html"]

#: The newest events a table lists; older ones are counted in one line.
EVENTS_SHOWN = 12

_TABLE = '<table style="border-collapse:collapse;text-align:left;margin:0 0 8px">'
_CELL = 'style="text-align:left;vertical-align:top;padding:2px 8px"'


def _row(*cells: str, head: bool = False) -> str:
    tag = "th" if head else "td"
    return "<tr>" + "".join(f"<{tag} {_CELL}>{cell}</{tag}>" for cell in cells) + "</tr>"


def _to_move(player: int, names: Sequence[str]) -> str:
    if player == TERMINAL:
        return "game over"
    if player == CHANCE:
        return "chance to move"
    return f"{escape(names[player])} to move"


def _events(events: Sequence[Event], names: Sequence[str], audience: bool) -> str:
    """The newest events as a table; with `audience`, who observed each."""
    shown = events[-EVENTS_SHOWN:]
    first = len(events) - len(shown)
    rows = [_row("#", "seen by", "event", head=True) if audience else _row("#", "event", head=True)]
    if first:
        rows.append(
            _row("", "", f"<i>… {first} earlier</i>")
            if audience
            else _row("", f"<i>… {first} earlier</i>")
        )
    for i, event in enumerate(shown, start=first + 1):
        text = escape(event.text)
        if not audience:
            rows.append(_row(str(i), text))
            continue
        seen = (
            "everyone"
            if event.public
            else ", ".join(escape(n) for s, n in enumerate(names) if event.visible_to(s))
        )
        rows.append(_row(str(i), seen, text))
    return _TABLE + "".join(rows) + "</table>"


def state_html(state: State) -> str:
    """The state's seats (private situation, return) and its newest events, as HTML."""
    game = state.game
    names = game.seat_names
    player = state.current_player
    winners = set(state.winners())
    status = _to_move(player, names)
    if winners:
        status += "; won by " + ", ".join(escape(names[s]) for s in sorted(winners))
    returns = state.returns()
    rows = [_row("seat", "holds and sees", "return", head=True)]
    for seat, name in enumerate(names):
        label = f"<b>{escape(name)}</b>" if seat == player else escape(name)
        rows.append(_row(label, escape(state.observation(seat).summary()), f"{returns[seat]:g}"))
    return (
        f"<div><p><b>{escape(str(game))}</b> · {len(state.history)} steps · {status}</p>"
        + _TABLE
        + "".join(rows)
        + "</table>"
        + _events(state.events, names, audience=True)
        + "</div>"
    )


def view_html(view: View) -> str:
    """One seat's situation, legal actions and newest observed events, as HTML."""
    game = view.game
    names = game.seat_names
    legal = [game.action_to_string(a) for a in view.legal_actions]
    listed = ", ".join(escape(a) for a in legal[:EVENTS_SHOWN])
    if len(legal) > EVENTS_SHOWN:
        listed += f", … ({len(legal)} in all)"
    rows = [
        _row("holds and sees", escape(view.summary())),
        _row("legal actions", listed or f"none ({_to_move(view.current_player, names)})"),
    ]
    return (
        f"<div><p><b>{escape(names[view.seat])}</b>'s view of {escape(str(game))} · "
        f"{_to_move(view.current_player, names)}</p>"
        + _TABLE
        + "".join(rows)
        + "</table>"
        + _events(view.log, names, audience=False)
        + "</div>"
    )
