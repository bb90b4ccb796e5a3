"""The symbolic engine: knowledge structures on BDDs agree with the explicit engine."""

from __future__ import annotations

from itertools import product
from pathlib import Path
from random import Random

import numpy as np
import pytest
from hypothesis import given, settings

from epigames.errors import InputError, ModelError, UnknownAgentError
from epigames.logic import (
    ActionModel,
    Atom,
    Exists,
    Forall,
    Formula,
    K,
    Kw,
    Not,
    Or,
    Top,
    parse,
    product_update,
)
from epigames.logic.puzzles import muddy_children_story
from epigames.logic.puzzles.muddy_children import (
    play_symbolic_muddy_children,
    symbolic_muddy_children,
)
from epigames.logic.smcdel import (
    AUTO_SYMBOLIC_ABOVE,
    SmcdelInput,
    SmcdelModelError,
    choose_engine,
    modal_quantifier,
    parse_smcdel,
    run_jobs,
)
from epigames.logic.symbolic import (
    BACKENDS,
    KnowledgeStructure,
    SymbolicUnavailableError,
    backend_name,
    bdd as bdd_module,
    from_kripke,
)
from epigames.logic.symbolic.actions import product_update as symbolic_update
from tests.logic.strategies import SEEDS, random_formula, random_s5_spec

pytest.importorskip("dd")

EXAMPLES = Path(__file__).parent.parent.parent / "examples"
AVAILABLE = [b for b in BACKENDS if bdd_module._load(b) is not None]


def build(text_law: str = "top", **obs: list[str]) -> KnowledgeStructure:
    return KnowledgeStructure.build(["1", "2", "3"], parse(text_law), obs or {"a": ["1"]})


# --- random structures: the two engines agree ----------------------------------------------


def random_structure(seed: int) -> tuple[SmcdelInput, list[Formula]]:
    """A small SMCDEL-style structure (random law and observations) and formulas over it."""
    rnd = Random(seed)
    variables = tuple(sorted(rnd.sample(range(1, 6), rnd.randint(1, 4))))
    cubes = []
    for values in product((False, True), repeat=len(variables)):
        if rnd.random() < 0.6:
            cubes.append(
                parse(
                    " & ".join(
                        str(v) if b else f"~{v}" for v, b in zip(variables, values, strict=True)
                    )
                )
            )
    law = Or(tuple(cubes)) if cubes else parse("top")
    agents = ("a", "b", "c")[: rnd.randint(1, 3)]
    observations = {a: tuple(v for v in variables if rnd.random() < 0.5) for a in agents}
    atoms = (*(str(v) for v in variables), "9")
    formulas = [random_formula(rnd, agents, 4, atoms=atoms) for _ in range(3)]
    return SmcdelInput(variables, law, observations), formulas


def symbolic_of(data: SmcdelInput, backend: str | None = None) -> KnowledgeStructure:
    return KnowledgeStructure.build(
        [str(v) for v in data.variables],
        data.law,
        {a: [str(v) for v in vs] for a, vs in data.observations.items()},
        backend=backend,
    )


def check_agree(seed: int, backend: str | None) -> None:
    data, formulas = random_structure(seed)
    model, states = data.explicit()
    structure = symbolic_of(data, backend)
    assert structure.count_states() == model.size
    for f in formulas:
        explicit = [
            frozenset(str(v) for v in states[i]) for i in np.flatnonzero(model.truth_set(f))
        ]
        assert structure.where(f) == explicit, f"{f} on {data}"
        assert structure.valid(f) == model.valid(f), str(f)


@settings(max_examples=150, deadline=None)
@given(SEEDS)
def test_engines_agree_on_random_structures(seed: int) -> None:
    check_agree(seed, None)


@pytest.mark.parametrize("backend", AVAILABLE)
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_every_backend_agrees(backend: str, seed: int) -> None:
    check_agree(seed, backend)


@settings(max_examples=80, deadline=None)
@given(SEEDS)
def test_kripke_translation_agrees_at_every_world(seed: int) -> None:
    rnd = Random(seed)
    spec = random_s5_spec(rnd, max_worlds=10, designated=True)
    model = spec.build()
    encoded = from_kripke(model)
    structure = encoded.structure
    assert structure.count_states() <= model.size
    for _ in range(3):
        f = random_formula(rnd, spec.agents, 4)
        truth = model.truth_set(f)
        for w, state in enumerate(encoded.states):
            assert structure.true_at(f, state) == bool(truth[w]), f"{f} at world {w}"
        assert structure.holds(f) == model.holds(f), str(f)


@pytest.mark.parametrize("backend", AVAILABLE)
@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.smcdel.txt")), ids=lambda p: p.name)
def test_every_example_file_gets_the_same_answers(path: Path, backend: str) -> None:
    data = parse_smcdel(path.read_text())
    explicit = [r.answer for r in run_jobs(data, "explicit")]
    assert data.structure(backend).manager.backend == backend
    assert [r.answer for r in run_jobs(data, "symbolic")] == explicit


# --- the structure --------------------------------------------------------------------------


def test_knowledge_follows_observations() -> None:
    s = build(a=["2", "3"], b=["1"])
    assert s.count_states() == 8
    assert s.holds(parse("K_a (2 & 3) & ~Kw_a 1 & K_b 1 & M_b ~2"), {"1", "2", "3"})
    assert s.where(parse("K_a 2")) == [{"1", "2"}, {"1", "2", "3"}, {"2"}, {"2", "3"}]
    assert s.where(parse("Kw_b 1")) == s.where(Top())
    assert s.valid(parse("D_{a,b} (1 & 2 & 3) <-> (1 & 2 & 3)"))


def test_where_lists_states_in_vocabulary_order() -> None:
    s = build("~(1 & 2)", a=["1"])
    assert s.where(Top()) == [
        frozenset(),
        frozenset({"1"}),
        frozenset({"1", "3"}),
        frozenset({"2"}),
        frozenset({"2", "3"}),
        frozenset({"3"}),
    ]


def test_common_knowledge_needs_the_whole_component() -> None:
    # a tells 1 apart, b tells 2 apart: from {1,2} everything is reachable.
    s = KnowledgeStructure.build(["1", "2"], Top(), {"a": ["1"], "b": ["2"]})
    assert not s.holds(parse("C_{a,b} (1 | 2)"), {"1", "2"})
    assert s.announce(parse("1 | 2")).holds(parse("C_{a,b} (1 | 2)"), {"1"})
    assert s.valid(parse("Cw_{a,b} top"))


def test_public_announcement_and_its_truthfulness() -> None:
    s = build(a=["1"], b=["2"])
    after = s.announce(parse("1 -> 2"))
    assert after.count_states() == 6
    assert after.holds(parse("K_a 2"), {"1", "2"})
    assert s.holds(parse("[!(1 -> 2)] K_a 2"), {"1", "2"})
    assert not s.holds(parse("<!(1 -> 2)> top"), {"1"})
    with pytest.raises(ModelError, match="true in no state"):
        s.announce(parse("1 & ~1"))
    pointed = s.with_designated([{"1"}])
    with pytest.raises(ModelError, match="false at every designated state"):
        pointed.announce(parse("~1"))


def test_group_announcement_informs_only_the_group() -> None:
    s = build(a=[], b=[])
    told = s.announce_to(["a"], parse("1"))
    assert told.valid(parse("1 -> K_a 1"))
    assert told.valid(parse("~Kw_b 1"))
    assert told.valid(parse("K_b (1 -> K_a 1)"))
    assert s.valid(parse("[a!1] (K_a 1 & ~K_b 1)"))
    assert s.valid(parse("[a?!1] (Kw_a 1 & ~Kw_b 1)"))
    assert s.valid(parse("[?!1] (C_{a,b} 1 | C_{a,b} ~1)"))
    everyone = s.announce_whether(parse("2"))
    assert everyone.valid(parse("Kw_a 2 & Kw_b 2 & ~Kw_a 1"))
    assert len(everyone.variables) == 4 and everyone.count_states() == 8


def test_quantifiers_inside_and_outside_the_vocabulary() -> None:
    s = build(a=["1"])
    assert s.valid(Exists(("z",), Atom("z")))
    assert not s.satisfiable(Forall(("z",), Atom("z")))
    assert s.valid(Exists(("1",), Atom("1")))
    assert s.where(Forall(("1",), Atom("1") | Atom("2"))) == s.where(Atom("2"))
    # Under a modality, substitution: K_a 1 with 1 := ⊤ is ⊤.
    assert s.valid(Exists(("1",), K("a", Atom("1"))))


def test_atoms_outside_the_vocabulary_are_false() -> None:
    s = build()
    assert not s.satisfiable(Atom("zz"))
    assert s.valid(Not(Kw("a", Atom("2"))) | Top())


def test_build_errors() -> None:
    with pytest.raises(ModelError, match="twice"):
        KnowledgeStructure.build(["1", "1"], Top(), {})
    with pytest.raises(ModelError, match=r"observes \['7'\]"):
        KnowledgeStructure.build(["1"], Top(), {"a": ["7"]})
    with pytest.raises(ModelError, match="Boolean"):
        KnowledgeStructure.build(["1"], parse("K_a 1"), {"a": ["1"]})
    with pytest.raises(ModelError, match="satisfied by no assignment"):
        KnowledgeStructure.build(["1"], parse("1 & ~1"), {"a": ["1"]})


def test_query_errors_name_the_input() -> None:
    s = build("~(1 & 2)")
    with pytest.raises(UnknownAgentError, match=r"unknown agent 'zed'; .* agents are: a"):
        s.valid(parse("K_zed 1"))
    with pytest.raises(UnknownAgentError, match="'zed'"):
        s.valid(parse("[zed!1] 1"))
    with pytest.raises(ModelError, match=r"\['8'\], which are not in the vocabulary"):
        s.holds(Top(), {"8"})
    with pytest.raises(ModelError, match="not a state"):
        s.holds(Top(), {"1", "2"})
    with pytest.raises(ModelError, match="no designated state"):
        s.holds(Top())
    with pytest.raises(ModelError, match="no value"):
        s.true_at(Top(), {})


def test_unknown_or_missing_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(InputError, match=r"unknown BDD backend 'cudd'; choose one of: dd\.cudd"):
        KnowledgeStructure.build(["1"], Top(), {}, backend="cudd")
    monkeypatch.setattr(bdd_module, "_load", lambda name=None: None)
    bdd_module._default.cache_clear()
    try:
        assert backend_name() is None
        with pytest.raises(SymbolicUnavailableError, match=r"pip install 'epigames\[symbolic\]'"):
            KnowledgeStructure.build(["1"], Top(), {})
    finally:
        bdd_module._default.cache_clear()


def test_kripke_translation_needs_partitions() -> None:
    from epigames.logic import KripkeModel

    m = KripkeModel.build(["w"], {}, relations={"a": []})
    with pytest.raises(ModelError, match="not a partition"):
        from_kripke(m)


# --- muddy children -------------------------------------------------------------------------


@pytest.mark.parametrize("muddy", [{1}, {2, 5}, {1, 3, 4, 6}, set(range(1, 7))])
def test_symbolic_muddy_children_tells_the_explicit_story(muddy: set[int]) -> None:
    explicit = muddy_children_story(6, muddy)
    symbolic = play_symbolic_muddy_children(6, muddy)
    assert [(r.worlds, r.knowers) for r in symbolic.rounds] == [
        (r.worlds, r.knowers) for r in explicit.rounds
    ]


def test_muddy_children_beyond_the_explicit_bound() -> None:
    story = play_symbolic_muddy_children(40, range(1, 41))
    assert len(story.rounds) == 40
    assert story.rounds[-1].knowers == frozenset(range(1, 41))
    assert all(not r.knowers for r in story.rounds[:-1])
    # After k announcements, the states with at least k muddy children are left.
    assert story.rounds[1].worlds == 2**40 - 1 - 40


def test_symbolic_muddy_children_refuses_a_false_father() -> None:
    with pytest.raises(ModelError, match="false at every designated state"):
        play_symbolic_muddy_children(3, [])
    with pytest.raises(ModelError, match="not children"):
        symbolic_muddy_children(3, [4])


def test_smcdel_input_on_bdds_reports_like_the_explicit_engine() -> None:
    data = parse_smcdel("VARS 1,2\nLAW 1 & ~1\nOBS a: 1\nVALID? 1")
    with pytest.raises(SmcdelModelError, match="satisfied by no valuation") as info:
        run_jobs(data, "symbolic")
    assert (info.value.line, info.value.column) == (2, 5)
    data = parse_smcdel("VARS 1,2 LAW ~(1 & 2) OBS a: 1\nTRUE? {1} 1\nTRUE?  {1,2} 1")
    with pytest.raises(SmcdelModelError, match=r"state \{1,2\} does not satisfy the LAW") as e:
        run_jobs(data, "symbolic")
    assert (e.value.line, e.value.column) == (3, 8)
    with pytest.raises(InputError, match="unknown engine 'fast'"):
        run_jobs(data, "fast")


def test_auto_picks_by_size() -> None:
    assert choose_engine(AUTO_SYMBOLIC_ABOVE) == "explicit"
    assert choose_engine(AUTO_SYMBOLIC_ABOVE + 1) == "symbolic"
    assert choose_engine(100, "explicit") == "explicit"
    assert choose_engine(1, "symbolic") == "symbolic"


# --- SMCDEL's quantifiers over modal formulas -------------------------------------------------

MODAL_FORALL = (
    "VARS 1 LAW 1 OBS a:\nVALID? Forall 1 a knows that 1\nWHERE? Exists 1 ~ a knows that 1"
)


def test_smcdel_quantifies_the_bdd_of_a_modal_formula() -> None:
    # ||K a 1|| = ∀1 (LAW → 1) = ⊤ as a BDD, so Forall 1 of it is ⊤ and Exists 1 of its
    # negation ⊥ (SMCDEL's answers); by substitution they would be K a ⊤ & K a ⊥ (false)
    # and ~K a ⊤ | ~K a ⊥ (true) in the one state.
    data = parse_smcdel(MODAL_FORALL)
    assert [r.answer for r in run_jobs(data, "symbolic")] == [True, []]
    assert [r.answer for r in run_jobs(data, "auto")] == [True, []]
    assert data.valid(data.jobs[0].formula, "auto")
    plain = KnowledgeStructure.build(["1"], parse("1"), {"a": []})
    assert not plain.valid(data.jobs[0].formula)  # the engine's own reading: substitution


def test_explicit_engine_refuses_smcdel_modal_quantifiers() -> None:
    data = parse_smcdel(MODAL_FORALL)
    with pytest.raises(SmcdelModelError, match="Forall over a formula with modalities") as e:
        run_jobs(data, "explicit")
    assert (e.value.line, e.value.column) == (2, 1)
    assert "--engine symbolic" in str(e.value)
    with pytest.raises(ModelError, match="Exists over a formula with modalities"):
        data.where(data.jobs[1].formula)


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_smcdel_reading_agrees_where_quantifiers_are_boolean(seed: int) -> None:
    data, formulas = random_structure(seed)
    structure = symbolic_of(data)
    smcdel = KnowledgeStructure.build(
        [str(v) for v in data.variables],
        data.law,
        {a: [str(v) for v in vs] for a, vs in data.observations.items()},
        bdd_quantifiers=True,
    )
    for f in formulas:
        if modal_quantifier(f) is None and "9" not in f.atoms():
            assert smcdel.where(f) == structure.where(f), str(f)


# --- action models ------------------------------------------------------------------------------


def random_action(rnd: Random, agents: tuple[str, ...]) -> ActionModel:
    """A random S5 action model: 1-3 events, random pre- and postconditions, partitions."""
    names = [f"e{i}" for i in range(rnd.randint(1, 3))]
    events: dict[str, object] = {}
    for e in names:
        pre = random_formula(rnd, agents, 2) if rnd.random() < 0.7 else Top()
        post = {p: random_formula(rnd, agents, 1) for p in ("p", "q", "s") if rnd.random() < 0.3}
        events[e] = (pre, post)
    partitions = {}
    for a in agents:
        labels = {e: rnd.randrange(len(names)) for e in names}
        partitions[a] = [[e for e in names if labels[e] == k] for k in set(labels.values())]
    designated = [e for e in names if rnd.random() < 0.6] or names[:1]
    return ActionModel.build(events, partitions=partitions, designated=designated)  # type: ignore[arg-type]


@settings(max_examples=80, deadline=None)
@given(SEEDS)
def test_action_models_update_both_engines_alike(seed: int) -> None:
    rnd = Random(seed)
    spec = random_s5_spec(rnd, max_worlds=8, designated=True)
    model = spec.build()
    action = random_action(rnd, spec.agents)
    structure = from_kripke(model).structure
    try:
        after = product_update(model, action)
    except ModelError:  # no designated event can happen at the designated world
        with pytest.raises(ModelError, match="can happen"):
            symbolic_update(structure, action)
        return
    if after.size == 0:
        with pytest.raises(ModelError, match="in any state"):
            symbolic_update(structure, action)
        return
    updated = symbolic_update(structure, action)
    assert updated.count_states() <= after.size
    for _ in range(4):
        f = random_formula(rnd, spec.agents, 3, atoms=("p", "q", "r", "s"))
        assert updated.valid(f) == after.valid(f), str(f)
        assert updated.holds(f) == after.holds(f), str(f)


def test_private_announcement_as_an_action_model() -> None:
    s = build(a=[], b=[]).with_designated([{"1"}])
    told = symbolic_update(s, ActionModel.private_announcement(("a", "b"), ["a"], parse("1")))
    assert told.holds(parse("K_a 1 & ~K_b 1 & ~K_b K_a 1 & M_b K_a 1"))
    assert told.count_states() == 8 + 4  # (state, skip) for all 8, (state, tell) for 4


def test_factual_change() -> None:
    s = build(a=["1"], b=[]).with_designated([{"1"}])
    flip = ActionModel.build(
        {"flip": (Top(), {"1": parse("~1"), "new": parse("1")})},
        partitions={"a": [["flip"]], "b": [["flip"]]},
        designated=["flip"],
    )
    after = symbolic_update(s, flip)
    assert after.holds(parse("~1 & new & K_a ~1 & K_a new"))
    assert after.valid(parse("1 <-> ~new"))
    with pytest.raises(ModelError, match="agents"):
        symbolic_update(s, ActionModel.public_announcement(("a",), Top()))
    with pytest.raises(ModelError, match="in any state"):
        symbolic_update(s, ActionModel.public_announcement(("a", "b"), parse("1 & ~1")))
