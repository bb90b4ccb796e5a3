"""LaTeX rendering of formulas; `Formula.to_latex()` calls `to_latex` here."""

from __future__ import annotations

from epigames.logic.formula import (
    And,
    Announce,
    Atom,
    Bot,
    Formula,
    GroupKnowledge,
    Iff,
    Implies,
    Knowledge,
    Not,
    OneOf,
    Or,
    Quantified,
    Top,
    Xor,
    install_renderers,
)

_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "#": r"\#",
            "$": r"\$", "%": r"\%", "&": r"\&", "^": r"\^{}", "~": r"\~{}"}  # fmt: skip


def _text(name: str) -> str:
    return r"\mathit{" + "".join(_SPECIAL.get(ch, ch) for ch in name) + "}"


def _group(group: tuple[str, ...]) -> str:
    return r"\{" + ",".join(_text(a) for a in group) + r"\}"


def _nary(args: tuple[Formula, ...], op: str, empty: str) -> str:
    if not args:
        return empty
    return "(" + f" {op} ".join(to_latex(a) for a in args) + ")"


def to_latex(f: Formula) -> str:
    """The formula as LaTeX math; fully parenthesised so it never misleads."""
    if isinstance(f, Top):
        return r"\top"
    if isinstance(f, Bot):
        return r"\bot"
    if isinstance(f, Atom):
        return _text(f.name)
    if isinstance(f, Not):
        return r"\neg " + to_latex(f.arg)
    if isinstance(f, And):
        return _nary(f.args, r"\land", r"\top")
    if isinstance(f, Or):
        return _nary(f.args, r"\lor", r"\bot")
    if isinstance(f, Xor):
        return r"\bigoplus(" + ", ".join(to_latex(a) for a in f.args) + ")"
    if isinstance(f, OneOf):
        return r"\mathrm{OneOf}(" + ", ".join(to_latex(a) for a in f.args) + ")"
    if isinstance(f, Implies):
        return f"({to_latex(f.left)} \\rightarrow {to_latex(f.right)})"
    if isinstance(f, Iff):
        return f"({to_latex(f.left)} \\leftrightarrow {to_latex(f.right)})"
    if isinstance(f, Knowledge):
        return f"{f.symbol}_{{{_text(f.agent)}}} {to_latex(f.arg)}"
    if isinstance(f, GroupKnowledge):
        return f"{f.symbol}_{{{_group(f.group)}}} {to_latex(f.arg)}"
    if isinstance(f, Announce):
        who = "" if f.group is None else ",".join(_text(a) for a in f.group)
        inner = f"{who}{'?' if f.whether else ''}!{to_latex(f.pre)}"
        box = rf"\langle {inner} \rangle" if f.diamond else f"[{inner}]"
        return f"{box} {to_latex(f.post)}"
    if isinstance(f, Quantified):
        q = r"\forall" if f.keyword == "forall" else r"\exists"
        return f"{q} " + ",".join(_text(v) for v in f.variables) + ". " + to_latex(f.arg)
    raise TypeError(f"not a formula: {f!r}")


# `Formula.to_latex()` calls this (formula.py cannot import this module: it imports formula).
install_renderers(latex=to_latex)
