"""LaTeX rendering of formulas; `Formula.to_latex()` calls `to_latex` here."""

from __future__ import annotations

from epigames.logic import formula as fm
from epigames.logic.formula import Formula, install_renderers

_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "#": r"\#",
            "$": r"\$", "%": r"\%", "&": r"\&", "^": r"\^{}", "~": r"\~{}"}  # fmt: skip


def _text(name: str) -> str:
    return r"\mathit{" + "".join(_SPECIAL.get(ch, ch) for ch in name) + "}"


def _group(group: tuple[str, ...]) -> str:
    return r"\{" + ",".join(_text(a) for a in group) + r"\}"


#: The connectives' LaTeX: an operator between the arguments (with what no argument is), a
#: function name before them, or an arrow between two.
_INFIX: dict[type[fm.NAry], tuple[str, str]] = {
    fm.And: (r"\land", r"\top"),
    fm.Or: (r"\lor", r"\bot"),
}
_FUNCTION: dict[type[fm.NAry], str] = {fm.Xor: r"\bigoplus", fm.OneOf: r"\mathrm{OneOf}"}
_ARROW: dict[type[fm.Binary], str] = {fm.Implies: r"\rightarrow", fm.Iff: r"\leftrightarrow"}


def to_latex(f: Formula) -> str:
    """The formula as LaTeX math; fully parenthesised so it never misleads."""
    if isinstance(f, fm.Top):
        return r"\top"
    if isinstance(f, fm.Bot):
        return r"\bot"
    if isinstance(f, fm.Atom):
        return _text(f.name)
    if isinstance(f, fm.Not):
        return r"\neg " + to_latex(f.arg)
    if isinstance(f, fm.NAry):
        args = [to_latex(a) for a in f.args]
        if type(f) in _FUNCTION:
            return _FUNCTION[type(f)] + "(" + ", ".join(args) + ")"
        op, empty = _INFIX[type(f)]
        return "(" + f" {op} ".join(args) + ")" if args else empty
    if isinstance(f, fm.Binary):
        return f"({to_latex(f.left)} {_ARROW[type(f)]} {to_latex(f.right)})"
    if isinstance(f, fm.Knowledge):
        return f"{f.symbol}_{{{_text(f.agent)}}} {to_latex(f.arg)}"
    if isinstance(f, fm.GroupKnowledge):
        return f"{f.symbol}_{{{_group(f.group)}}} {to_latex(f.arg)}"
    if isinstance(f, fm.Announce):
        who = "" if f.group is None else ",".join(_text(a) for a in f.group)
        inner = f"{who}{'?' if f.whether else ''}!{to_latex(f.pre)}"
        box = rf"\langle {inner} \rangle" if f.diamond else f"[{inner}]"
        return f"{box} {to_latex(f.post)}"
    if isinstance(f, fm.Quantified):
        q = r"\forall" if f.keyword == "forall" else r"\exists"
        return f"{q} " + ",".join(_text(v) for v in f.variables) + ". " + to_latex(f.arg)
    raise TypeError(f"not a formula: {f!r}")


# `Formula.to_latex()` calls this (formula.py cannot import this module: it imports formula).
install_renderers(latex=to_latex)
