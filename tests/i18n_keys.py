"""Find every message id the ui code marks for translation (shared by the catalog test and the
catalog builder)."""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parent.parent / "ui"


def _literals(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_":
        return _literals(node.args[0]) if node.args else []
    return []


def message_ids() -> dict[str, str]:
    """msgid -> first file that uses it."""
    ids: dict[str, str] = {}
    for path in sorted(UI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = (
                f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            )
            if name in ("tr", "N_") and node.args:
                found = _literals(node.args[0])
            elif name == "ntr" and len(node.args) >= 2:  # a count: singular and plural
                found = _literals(node.args[0]) + _literals(node.args[1])
            elif name in ("_who", "who") and len(node.args) >= 3:
                found = _literals(node.args[1]) + _literals(node.args[2])
            else:
                continue
            for msgid in found:
                ids.setdefault(msgid, str(path.relative_to(UI.parent)))
    # The count of a show is said with the engine's phrases (one table for every narration).
    from cribbage_env.rules.scoring import COUNT_PHRASES

    for msgid in COUNT_PHRASES.values():
        ids.setdefault(msgid, "cribbage_env/rules/scoring.py")
    # The opponent levels' names are the agents' one table of levels.
    from agents.registry import LEVELS

    for level in LEVELS.values():
        ids.setdefault(level.label, "agents/registry.py")
    return ids
