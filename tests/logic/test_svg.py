"""Kripke models and pictures drawn as SVG (`logic.svg`, what Jupyter shows)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from epigames.games import Match
from epigames.logic.model import KripkeModel
from epigames.logic.picture import KripkePicture
from epigames.logic.puzzles import muddy_children
from epigames.logic.svg import MAX_DRAWN, model_svg, picture_svg

NS = {"s": "http://www.w3.org/2000/svg"}


def parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def worlds(root: ET.Element) -> list[str]:
    return [
        g.attrib["data-world"]
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if "data-world" in g.attrib
    ]


def lines_of(root: ET.Element, agent: str) -> list[ET.Element]:
    group = root.find(f".//s:g[@data-agent='{agent}']", NS)
    assert group is not None
    return group.findall("s:line", NS)


def test_muddy_children_draws_every_world_and_each_childs_pairs() -> None:
    model = muddy_children(3, [1, 2])
    root = parsed(model._repr_svg_())
    assert worlds(root) == list(model.worlds)
    # Each child cannot tell apart the two worlds that differ in its own forehead: 4 pairs.
    for child in model.agents:
        assert len(lines_of(root, child)) == 4
    # The designated world is ringed (dashed), and no world is called actual.
    assert "actual" not in model._repr_svg_()
    designated = root.find(f".//s:g[@data-world='{model.worlds[model.designated[0]]}']", NS)
    assert designated is not None
    assert any(c.get("stroke-dasharray") == "4 3" for c in designated.findall("s:circle", NS))


def test_a_large_block_is_drawn_as_a_chain_not_every_pair() -> None:
    names = [f"w{i}" for i in range(9)]
    model = KripkeModel.build(names, {}, partitions={"a": [names]})
    root = parsed(model_svg(model))
    assert len(lines_of(root, "a")) == 8  # a chain through nine worlds, not 36 pairs


def test_other_relations_are_arrows_with_loops() -> None:
    model = KripkeModel.build(
        ["w", "v"], {"w": ["p"]}, relations={"a": [("w", "v"), ("v", "v")]}, designated=["w"]
    )
    svg = model._repr_svg_()
    root = parsed(svg)
    (arrow,) = lines_of(root, "a")
    assert arrow.get("marker-end") == "url(#arrow0)"
    group = root.find(".//s:g[@data-agent='a']", NS)
    assert group is not None
    loops = group.findall("s:circle", NS)
    assert len(loops) == 1
    assert "v → itself" in "".join(loops[0].itertext())


def test_past_the_limit_the_designated_and_likeliest_worlds_are_drawn() -> None:
    names = [f"w{i}" for i in range(MAX_DRAWN + 10)]
    model = KripkeModel.build(names, {}, partitions={"a": [[n] for n in names]}, designated=["w70"])
    likely = {"a": {"w69": 0.9, "w0": 0.0}}
    svg = model_svg(model, probabilities=likely)
    drawn = worlds(parsed(svg))
    assert len(drawn) == MAX_DRAWN
    assert {"w70", "w69"} <= set(drawn)
    assert f"drawing {MAX_DRAWN} of {MAX_DRAWN + 10} worlds" in svg


def kwartet_pictures() -> tuple[KripkePicture, KripkePicture]:
    match = Match("kwartet(players=3,kinds=4)", ["expert", "greedy", "mixed"], seed=7)
    match.run_chance()
    state = match.state
    subject = state.picture_subjects()[0]
    return state.picture(subject, None), state.picture(subject, 1)


def test_a_spectators_picture_marks_the_true_world_and_every_seats_bars() -> None:
    picture, _ = kwartet_pictures()
    svg = picture._repr_svg_()
    assert svg == picture_svg(picture)
    root = parsed(svg)
    assert worlds(root) == list(picture.model.worlds)
    assert "as a spectator sees it" in svg
    actual = root.find(f".//s:g[@data-world='{picture.true_world}']", NS)
    assert actual is not None
    assert "actual" in "".join(actual.itertext())
    # One bar label (the seat's initial) per seat under each of the worlds.
    seats = picture.model.agents
    for name in picture.model.worlds:
        group = root.find(f".//s:g[@data-world='{name}']", NS)
        assert group is not None
        initials = [t.text for t in group.findall("s:text", NS) if t.get("text-anchor") == "end"]
        assert initials == [seat[0] for seat in seats]


def test_a_seats_picture_rings_what_it_considers_possible_and_shows_only_its_bars() -> None:
    _, picture = kwartet_pictures()
    assert picture.true_world is None, "seat 1 should not know the holder of this card"
    svg = picture_svg(picture)
    seat = picture.model.agents[1]
    assert f"as {seat} sees it" in svg
    assert f"{len(picture.considered)} possible (ringed)" in svg
    assert "actual" not in svg
    root = parsed(svg)
    for name in picture.model.worlds:
        group = root.find(f".//s:g[@data-world='{name}']", NS)
        assert group is not None
        initials = [t.text for t in group.findall("s:text", NS) if t.get("text-anchor") == "end"]
        assert initials == [seat[0]]


@pytest.mark.parametrize("name", ["<b>&", 'say "hi"'])
def test_names_are_escaped(name: str) -> None:
    model = KripkeModel.build([name, "x"], {name: ["p<q"]}, partitions={name: [[name, "x"]]})
    assert worlds(parsed(model_svg(model))) == [name, "x"]
