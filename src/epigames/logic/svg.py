"""Kripke models and pictures drawn as static SVG: what Jupyter shows for them.

`KripkeModel._repr_svg_` and `KripkePicture._repr_svg_` call `model_svg` and
`picture_svg`. The web app draws the same pictures interactively in the browser
(`web/static/kripke.js`); this drawing follows its conventions so a reader of both sees
one picture: worlds on a circle (on a grid past ten), each agent's relation as lines in
the agent's colour and dash pattern with its initial, the true world ringed in black, and
each agent's probability of a world as a bar under it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from html import escape
from typing import Protocol

from epigames.logic.relations import AnyRelation, Partition

__all__ = ["MAX_DRAWN", "Drawable", "DrawablePicture", "model_svg", "picture_svg"]


# What the drawing reads of a `KripkeModel` and a `KripkePicture`, as protocols: the
# model and picture modules import this one, so it may not import them, not even for
# annotations (tests/logic/test_imports.py counts every import).
class Drawable(Protocol):
    """A Kripke model as far as `model_svg` reads it (`KripkeModel` is one)."""

    @property
    def agents(self) -> tuple[str, ...]: ...
    @property
    def worlds(self) -> tuple[str, ...]: ...
    @property
    def relations(self) -> Mapping[str, AnyRelation]: ...
    @property
    def designated(self) -> tuple[int, ...]: ...
    @property
    def size(self) -> int: ...
    def world_atoms(self, world: int) -> frozenset[str]: ...


class DrawablePicture(Protocol):
    """A subject's picture as far as `picture_svg` reads it (`KripkePicture` is one)."""

    @property
    def subject(self) -> str: ...
    @property
    def model(self) -> Drawable: ...
    @property
    def true_world(self) -> str | None: ...
    @property
    def probabilities(self) -> Mapping[str, Mapping[str, float]]: ...
    @property
    def perspective(self) -> int | None: ...
    @property
    def considered(self) -> tuple[str, ...]: ...


#: Past this many worlds only this many are drawn: the designated ones first, then the
#: likeliest (pictures) or the first ones; the caption says how many were left out.
MAX_DRAWN = 64

# The web app's seat colours (web/static/api.js, SEAT_COLORS) and dash patterns
# (kripke.js, DASHES): agent k of a model is drawn as seat k is in the browser.
COLORS = ("#d62839", "#1f5fbf", "#2a9d4b", "#8e44ad", "#e67e22", "#16a0a6")
DASHES = ("", "9 5", "2 5", "12 4 2 4", "6 3 6 9", "1 3")
INK = "#1d2530"

WIDTH = 640
TOP = 34  # the caption's band
LEGEND = 36


def _color(k: int) -> str:
    return COLORS[k % len(COLORS)]


def _dash(k: int) -> str:
    dash = DASHES[k % len(DASHES)]
    return f' stroke-dasharray="{dash}"' if dash else ""


def _pct(p: float) -> str:
    return "0%" if p == 0 else "<1%" if p < 0.01 else f"{100 * p:.0f}%"


def _short(name: str, limit: int) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _layout(n: int, below: float) -> tuple[list[tuple[float, float]], float, bool]:
    """World centres for n worlds, the drawing's height, and whether worlds are small.

    Up to ten worlds sit on an ellipse, with room above each for "actual" and `below`
    under it for the probability bars; more sit small on a grid.
    """
    if n <= 10:
        r = 0.0 if n == 1 else min(170.0, 80.0 + n * 9)
        above = 30.0 + 28
        height = above + 2 * r + 30 + below
        mid_x, mid_y = WIDTH / 2, TOP + above + r
        return (
            [
                (
                    mid_x + 1.5 * r * math.cos(-math.pi / 2 + 2 * math.pi * i / n),
                    mid_y + r * math.sin(-math.pi / 2 + 2 * math.pi * i / n),
                )
                for i in range(n)
            ],
            height,
            False,
        )
    cols = math.ceil(math.sqrt(n * 1.8))
    rows = math.ceil(n / cols)
    cell_w, cell_h = (WIDTH - 60) / cols, 44.0
    points = [
        (30 + (i % cols + 0.5) * cell_w, TOP + 10 + (i // cols + 0.5) * cell_h) for i in range(n)
    ]
    return points, 20 + rows * cell_h, True


def _pairs(model: Drawable, agent: str, drawn: Sequence[int]) -> list[tuple[int, int, bool]]:
    """An agent's lines between drawn worlds, as positions in `drawn`: (a, b, directed).

    A partition's block is joined pairwise when small, else by a chain in world order (S5
    is transitive: the chain says the same without a blot of lines); loops are left out
    (every world of a partition is linked to itself). Another relation gives one arrow
    per edge, a loop being (a, a, True).
    """
    index = {w: i for i, w in enumerate(drawn)}
    relation = model.relations[agent]
    if isinstance(relation, Partition):
        blocks: dict[int, list[int]] = {}
        for w in drawn:
            blocks.setdefault(int(relation.block[w]), []).append(index[w])
        out: list[tuple[int, int, bool]] = []
        for block in blocks.values():
            if len(block) <= 6:
                out += [(a, b, False) for i, a in enumerate(block) for b in block[i + 1 :]]
            else:
                ordered = sorted(block)
                out += [(a, b, False) for a, b in itertools.pairwise(ordered)]
        return out
    src, dst = relation.edges()
    return [
        (index[s], index[d], True)
        for s, d in zip(src.tolist(), dst.tolist(), strict=True)
        if s in index and d in index
    ]


def model_svg(
    model: Drawable,
    *,
    true_world: str | None = None,
    probabilities: Mapping[str, Mapping[str, float]] | None = None,
    caption: str | None = None,
) -> str:
    """The model as an SVG document.

    Args:
        model: any Kripke model (S5 partitions or arbitrary relations).
        true_world: a world to mark as the actual one (ringed in black, "actual" above it).
        probabilities: agent → world name → probability, drawn as a bar per agent under
            each world (when ten worlds or fewer are drawn).
        caption: the line above the drawing; by default the model's size and what the
            rings mean.
    """
    probabilities = probabilities or {}
    designated = set(model.designated)
    drawn = list(range(model.size))
    if model.size > MAX_DRAWN:

        def weight(w: int) -> float:
            return sum(p.get(model.worlds[w], 0.0) for p in probabilities.values())

        keep = sorted(drawn, key=lambda w: (w not in designated, -weight(w), w))
        drawn = sorted(keep[:MAX_DRAWN])
    n = len(drawn)
    bars = [a for a in model.agents if a in probabilities]
    points, height, small = _layout(n, 8.0 + 12 * len(bars))
    radius = 15.0 if small else 30.0
    total = TOP + height + LEGEND
    names = [model.worlds[w] for w in drawn]
    if caption is None:
        caption = f"{model.size} world{'' if model.size == 1 else 's'}"
        if designated:
            caption += "; designated worlds ringed"
    if n < model.size:
        caption += f" (drawing {n} of {model.size} worlds)"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {total:.0f}" '
        f'width="{WIDTH}" height="{total:.0f}" font-family="sans-serif" role="img">',
        f"<title>Kripke model: {escape(caption)}</title>",
        f'<text x="10" y="22" font-size="14" font-weight="700" fill="{INK}">'
        f"{escape(caption)}</text>",
    ]
    if any(not isinstance(r, Partition) for r in model.relations.values()):
        parts.append(
            "<defs>"
            + "".join(
                f'<marker id="arrow{k}" viewBox="0 0 10 10" refX="10" refY="5" '
                f'markerUnits="userSpaceOnUse" markerWidth="11" markerHeight="11" '
                f'orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" '
                f'fill="{_color(k)}"/></marker>'
                for k in range(len(model.agents))
            )
            + "</defs>"
        )
    # Lines first so the worlds sit on top; parallel lines of several agents are offset.
    count = len(model.agents)
    for k, agent in enumerate(model.agents):
        color, offset = _color(k), (k - (count - 1) / 2) * 4.5
        parts.append(f'<g data-agent="{escape(agent)}">')
        for a, b, directed in _pairs(model, agent, drawn):
            (px, py), (qx, qy) = points[a], points[b]
            if a == b:
                # A loop: a small circle on the world's rim, one place per agent.
                angle = -math.pi / 2 + (k - (count - 1) / 2) * 0.6
                cx, cy = px + radius * math.cos(angle), py + radius * math.sin(angle)
                parts.append(
                    f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius / 2:.1f}" fill="none" '
                    f'stroke="{color}" stroke-width="2"{_dash(k)}>'
                    f"<title>{escape(agent)}: {escape(names[a])} → itself</title></circle>"
                )
                continue
            dx, dy = qx - px, qy - py
            length = math.hypot(dx, dy) or 1.0
            ox, oy = -dy / length * offset, dx / length * offset
            # Arrows end at the target's rim, not under its circle.
            end = radius + 3 if directed else 0.0
            x2, y2 = qx - dx / length * end + ox, qy - dy / length * end + oy
            arrow = f' marker-end="url(#arrow{k})"' if directed else ""
            what = "considers possible" if directed else "cannot tell apart"
            pair = f"{names[a]} → {names[b]}" if directed else f"{names[a]} and {names[b]}"
            parts.append(
                f'<line x1="{px + ox:.1f}" y1="{py + oy:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                f'stroke="{color}" stroke-width="3" stroke-linecap="round" opacity="0.85"'
                f"{_dash(k)}{arrow}><title>{escape(agent)} {what}: {escape(pair)}</title></line>"
            )
            if not small and not directed:
                t = 0.5 + (k - (count - 1) / 2) * 0.09
                lx, ly = px + dx * t + 2.5 * ox, py + dy * t + 2.5 * oy
                parts.append(
                    f'<circle cx="{lx:.1f}" cy="{ly:.1f}" r="8" fill="#fff" stroke="{color}" '
                    f'stroke-width="1.5"/><text x="{lx:.1f}" y="{ly + 3.5:.1f}" '
                    f'text-anchor="middle" font-size="10" font-weight="700" fill="{INK}">'
                    f"{escape(agent[:1])}</text>"
                )
        parts.append("</g>")
    for i, w in enumerate(drawn):
        x, y = points[i]
        name = names[i]
        atoms = sorted(model.world_atoms(w))
        tooltip = name + "".join("\n" + a for a in atoms)
        parts.append(f'<g data-world="{escape(name)}"><title>{escape(tooltip)}</title>')
        if name == true_world:
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius + 7:.1f}" fill="none" '
                f'stroke="{INK}" stroke-width="4"/>'
            )
            if not small:
                parts.append(
                    f'<text x="{x:.1f}" y="{y - radius - 12:.1f}" text-anchor="middle" '
                    f'font-size="11" font-weight="700" fill="{INK}">actual</text>'
                )
        elif w in designated:
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius + 5:.1f}" fill="none" '
                f'stroke="{INK}" stroke-width="2" stroke-dasharray="4 3"/>'
            )
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="#fff" stroke="#5b6675" '
            f'stroke-width="2"/>'
        )
        # A short valuation (`m1 m2`) is written under the name; a long one only in the tooltip.
        shown = " ".join(atoms)
        lift = 5 if small or len(shown) > 14 or not atoms else -2
        parts.append(
            f'<text x="{x:.1f}" y="{y + lift:.1f}" text-anchor="middle" '
            f'font-size="{10 if small else 13}" font-weight="700" fill="{INK}">'
            f"{escape(_short(name, 6 if small else 10))}</text>"
        )
        if lift < 0:
            parts.append(
                f'<text x="{x:.1f}" y="{y + 12:.1f}" text-anchor="middle" font-size="10" '
                f'fill="#5b6675">{escape(shown)}</text>'
            )
        if not small and bars:
            # A pale card under the bars keeps them legible where lines pass below.
            parts.append(
                f'<rect x="{x - 40:.1f}" y="{y + radius + 3:.1f}" width="82" '
                f'height="{12 * len(bars) + 2}" rx="3" fill="#fff" opacity="0.85"/>'
            )
            for j, agent in enumerate(bars):
                p = probabilities[agent].get(name, 0.0)
                by = y + radius + 12 + j * 12
                color = _color(model.agents.index(agent))
                parts.append(
                    f'<text x="{x - 30:.1f}" y="{by + 1:.1f}" font-size="10" text-anchor="end" '
                    f'font-weight="700" fill="{color}">{escape(agent[:1])}</text>'
                    f'<rect x="{x - 26:.1f}" y="{by - 7:.1f}" width="40" height="8" rx="2" '
                    f'fill="#eef1f4"/><rect x="{x - 26:.1f}" y="{by - 7:.1f}" '
                    f'width="{40 * p:.1f}" height="8" rx="2" fill="{color}"/>'
                    f'<text x="{x + 18:.1f}" y="{by + 1:.1f}" font-size="10" fill="{INK}">'
                    f"{_pct(p)}</text>"
                )
        parts.append("</g>")
    # The legend: one entry per agent, with its line, dash pattern and initial.
    step = min(150.0, (WIDTH - 20) / max(1, count))
    legend_y = TOP + height + 4
    for k, agent in enumerate(model.agents):
        lx = 10 + k * step
        parts.append(
            f'<line x1="{lx:.1f}" y1="{legend_y + 14:.1f}" x2="{lx + 30:.1f}" '
            f'y2="{legend_y + 14:.1f}" stroke="{_color(k)}" stroke-width="3"{_dash(k)}/>'
            f'<text x="{lx + 36:.1f}" y="{legend_y + 18:.1f}" font-size="12" font-weight="700" '
            f'fill="{INK}">{escape(_short(agent, 14))}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def picture_svg(picture: DrawablePicture) -> str:
    """A game subject's picture as an SVG document: its model, the true world when the
    perspective knows it, and each seat's probabilities it may see."""
    model = picture.model
    who = (
        "a spectator"
        if picture.perspective is None
        else model.agents[picture.perspective]
        if 0 <= picture.perspective < len(model.agents)
        else f"seat {picture.perspective}"
    )
    size = model.size
    caption = f"{picture.subject} as {who} sees it: {size} world{'' if size == 1 else 's'}"
    if picture.true_world is None:
        considered = len(picture.considered)
        caption += f", {considered} possible (ringed)"
    return model_svg(
        model,
        true_world=picture.true_world,
        probabilities=picture.probabilities,
        caption=caption,
    )
