"""The results page: the current figures of every results file in ``benchmarks/results``, each
with the command, commit, date, machine and load that made it where the file records them (and,
where it does not, which of them are not recorded).

Every file is picked up by its name alone: a new results file appears on the page without an
edit here (tournament files of ``cribbage bench`` and the strength script's files as tables, any
other JSON as its figures, text files as their first lines, images as images). The page is
``benchmarks/RESULTS.md`` (the README's "benchmarks" link) and the docs site's benchmarks page,
both from :func:`render`; the history of the figures stays in git and the changelog.

    python benchmarks/results_page.py           # writes benchmarks/RESULTS.md
    python benchmarks/results_page.py --check   # exit 1 if it is not up to date
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
PAGE = HERE / "RESULTS.md"
#: What a results file may record of where it came from, in the order the page says it.
PROVENANCE = ("command", "commit", "date", "machine", "load")
_ALIASES = {"load": ("load", "load_average", "load_1min", "load_average_before")}
#: Sections of the page, in order, and the words of a file name or command that place a file.
AREAS = (
    ("Strength", ("strength/", "_vs_", "ladder", "exploit", "win_aware", "ablation")),
    ("Luck and the review", ("luck", "review", "hint", "equity_calibration")),
    ("Learning", ("neural", "train", "sb3", "master_inference", "curve")),
    ("Speed", ("speed/", "speed", "latency", "soak")),
    ("Start-up and the table's frames", ("startup/", "frame", "first_", "compile", "gui_")),
    ("Tables and discard strategy", ("tables/", "equity_table", "discard")),
)
OTHER = "Other results"
MAX_FIGURES = 16
MAX_COLUMNS = 9
MAX_ROWS = 20
#: Columns of a table that hold its figures come first (after at most three names).
FIGURE_WORDS = ("win", "elo", "rate", "margin", "mean", "median", "games", "ci", "gain")
TEXT_LINES = 12


def _publish(text: str) -> str:
    """``text`` without machine paths or issue references (the docs' one filter)."""
    sys.path.insert(0, str(HERE.parent / "docs" / "_ext"))
    try:
        from publish import publish
    finally:
        sys.path.pop(0)
    return publish(text)


def _num(x: object) -> str:
    if isinstance(x, bool) or not isinstance(x, int | float):
        return str(x)
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return str(x)
    if isinstance(x, int) or float(x).is_integer():
        return f"{int(x):,}" if abs(x) >= 10000 else str(int(x))
    return f"{x:.4g}" if abs(x) < 1000 else f"{x:,.0f}"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(ci: object) -> str:
    if isinstance(ci, list) and len(ci) == 2 and all(isinstance(v, int | float) for v in ci):
        return f" [{_pct(ci[0])}, {_pct(ci[1])}]"
    return ""


def _provenance(d: object) -> dict[str, object]:
    if not isinstance(d, dict):
        return {}
    out: dict[str, object] = {}
    for key in PROVENANCE:
        for alias in _ALIASES.get(key, (key,)):
            if alias in d:
                out[key] = d[alias]
                break
    if "command" not in out and "commands" in d:
        out["command"] = d["commands"]
    return out


def _bench_command(d: dict) -> str | None:
    """The ``cribbage bench`` command a tournament file's parameters name."""
    p = d.get("params")
    if not isinstance(p, dict) or "agents" not in p:
        return None
    words = ["cribbage bench", *p["agents"], f"--games {p.get('games')}", f"--seed {p.get('seed')}"]
    if p.get("duplicate") is False:
        words.append("--no-duplicate")
    if p.get("agent_seed") is not None:
        words.append(f"--agent-seed {p['agent_seed']}")
    return " ".join(str(w) for w in words)


def _pairing_rows(pairings: list) -> list[str]:
    rows = ["| pairing | games | first's win rate [95%] | luck-adjusted [95%] | mean margin |",
            "|---|---|---|---|---|"]  # fmt: skip
    for p in pairings:
        if not isinstance(p, dict):
            continue
        names = p.get("agents") or [p.get("a"), p.get("b")]
        win = p.get("win_rate", p.get("a_win_rate"))
        ci = p.get("win_rate_ci", p.get("wilson95"))
        adj = p.get("luck_adjusted") or {}
        adjusted = f"{_pct(adj['win'])}{_ci(adj.get('win_ci'))}" if adj.get("win") else "-"
        margin = p.get("mean_margin")
        rows.append(
            f"| {' vs '.join(str(n) for n in names)} | {_num(p.get('games'))} | "
            f"{_pct(win) if isinstance(win, int | float) else '-'}{_ci(ci)} | {adjusted} | "
            f"{'-' if margin is None else f'{margin:+.2f}'} |"
        )
    return rows


def _leaves(x: object, path: str = "") -> list[tuple[str, object]]:
    """The scalar figures of a JSON value with their key paths (short lists kept whole)."""
    if isinstance(x, dict):
        out = []
        for k, v in x.items():
            if path == "" and k in (*PROVENANCE, "commands", "load_average", "what"):
                continue
            out += _leaves(v, f"{path} / {k}" if path else str(k))
        return out
    if isinstance(x, list):
        if len(x) <= 4 and all(not isinstance(v, dict | list) for v in x):
            return [(path, "[" + ", ".join(_num(v) for v in x) + "]")]
        out = []
        for i, v in enumerate(x):
            out += _leaves(v, f"{path} / {i}")
        return out
    return [(path, x)]


def _figures(d: object) -> list[str]:
    """The figures of one JSON file, as Markdown lines."""
    if isinstance(d, dict) and isinstance(d.get("pairings"), list) and d["pairings"]:
        first = d["pairings"][0]
        if isinstance(first, dict) and ("win_rate" in first or "a_win_rate" in first):
            return _pairing_rows(d["pairings"])
    if isinstance(d, dict) and "a_win_rate" in d:
        return _pairing_rows([d])
    if isinstance(d, dict) and "win_rate" in d and "agents" in d:
        return _pairing_rows([d])
    tables: list[str] = []
    if isinstance(d, list) and d and all(isinstance(x, dict) for x in d):
        return _table(d)
    if isinstance(d, dict):  # lists of records, and records side by side, become tables
        for k, v in d.items():
            if _records(v):
                tables += [f"{k}:", "", *_table(v), ""]
            elif _side_by_side(v):
                tables += [f"{k}:", "", *_columns(v), ""]
        d = {k: v for k, v in d.items() if not (_records(v) or _side_by_side(v))}
    leaves = _leaves(d)
    lines = [f"- {k}: {_num(v) if not isinstance(v, str) else v[:100]}" for k, v in leaves]
    if len(lines) > MAX_FIGURES:
        lines = [*lines[:MAX_FIGURES], f"- ... and {len(lines) - MAX_FIGURES} more in the file"]
    return [*lines, *([""] if lines and tables else []), *tables[:-1]]


def _cell(v: object) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_num(x) for x in v) + "]"
    return _num(v) if not isinstance(v, str) else v[:60].replace("|", "/")


def _records(v: object) -> bool:
    """A list of records (dicts): a table with a row each."""
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def _side_by_side(v: object) -> bool:
    """A few named records of scalars (``{"greedy": {...}, "expectimax": {...}}``): a table
    with a column each."""
    return (
        isinstance(v, dict)
        and 2 <= len(v) <= 6
        and all(
            isinstance(x, dict) and x and all(_short(y) for y in x.values()) for x in v.values()
        )
    )


def _columns(v: dict) -> list[str]:
    """Named records side by side: a row per field, a column per record."""
    fields: list[str] = []
    for x in v.values():
        fields += [k for k in x if k not in fields]
    out = ["| | " + " | ".join(str(k) for k in v) + " |", "|---|" + "---|" * len(v)]
    for f in fields[:MAX_ROWS]:
        out.append(
            f"| {f} | " + " | ".join(_cell(x[f]) if f in x else "" for x in v.values()) + " |"
        )
    return out


def _short(v: object) -> bool:
    """A value a table's cell can hold: a scalar or a short list of scalars."""
    if isinstance(v, list):
        return len(v) <= 4 and all(not isinstance(x, dict | list) for x in v)
    return not isinstance(v, dict)


def _table(rows: list[dict]) -> list[str]:
    """A list of records as a table: its scalar columns (at most :data:`MAX_COLUMNS`), its
    first :data:`MAX_ROWS` rows."""
    keys: list[str] = []
    for r in rows:
        keys += [k for k, v in r.items() if k not in keys and _short(v)]
    names = [k for k in keys if all(isinstance(r.get(k, ""), str) for r in rows)][:3]
    figures = [k for k in keys if k not in names and any(w in k for w in FIGURE_WORDS)]
    cols = [*names, *figures, *(k for k in keys if k not in names and k not in figures)]
    cols = cols[:MAX_COLUMNS]
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows[:MAX_ROWS]:
        out.append("| " + " | ".join(_cell(r[k]) if k in r else "" for k in cols) + " |")
    if len(rows) > MAX_ROWS:
        out.append(f"| ... {len(rows) - MAX_ROWS} more rows in the file |" + " |" * (len(cols) - 1))
    return out


def _where(d: object, rel: str) -> list[str]:
    """The line saying where a file's figures came from, and what it does not record."""
    prov = _provenance(d)
    if "command" not in prov and isinstance(d, dict):
        cmd = _bench_command(d)
        if cmd:
            prov["command"] = cmd + "  (from its parameters)"
    parts = []
    for key in PROVENANCE:
        if key not in prov:
            continue
        v = prov[key]
        if key == "command":
            cmds = v if isinstance(v, list) else [v]
            parts.append("command: " + "; ".join(f"`{c}`" for c in cmds))
        elif key == "load":
            load = v if isinstance(v, list) else [v]
            parts.append("load: " + ", ".join(
                _num(round(x, 2)) if isinstance(x, int | float) else str(x) for x in load))  # fmt: skip
        else:
            parts.append(f"{key}: {v}")
    missing = [k for k in PROVENANCE if k not in prov]
    if missing:
        parts.append("not recorded in the file: " + ", ".join(missing))
    return [f"*{'; '.join(parts)}.*"]


def _area(name: str, d: object) -> str:
    cmd = str(_provenance(d).get("command", ""))
    for area, words in AREAS:
        if any(w in cmd for w in words if w.endswith("/")):
            return area
    for area, words in AREAS:
        if any(w in name for w in words if not w.endswith("/")):
            return area
    return OTHER


def _section(path: Path, root: Path) -> tuple[str, list[str]] | None:
    """A file's area and its part of the page (None: not a results file, e.g. a checkpoint)."""
    rel = path.relative_to(root).as_posix()
    if path.suffix == ".jsonl" or path.name.startswith("."):
        return None
    head = [f"### {rel}", ""]
    if path.suffix == ".json":
        try:
            d = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            return OTHER, [*head, "*Not valid JSON.*", ""]
        what = d.get("what") if isinstance(d, dict) else None
        lines = [*head, *([str(what), ""] if what else []), *_figures(d), "", *_where(d, rel), ""]
        return _area(path.name, d), lines
    if path.suffix in (".png", ".svg"):
        return _area(path.name, None), [*head, f"![{rel}](results/{rel})", ""]
    if path.suffix in (".txt", ".csv", ".md"):
        text = path.read_text(encoding="utf-8").splitlines()
        shown = text[:TEXT_LINES] + ([f"... ({len(text) - TEXT_LINES} more lines)"] if
                                     len(text) > TEXT_LINES else [])  # fmt: skip
        body = ["```text", *shown, "```", "", "*Not recorded in the file: command, commit, "
                "date, machine, load.*", ""]  # fmt: skip
        return _area(path.name, None), [*head, *body]
    return _area(path.name, None), [*head, f"A {path.suffix or 'plain'} file.", ""]


def render(results: Path = RESULTS) -> str:
    """The whole page from every file under ``results``."""
    sections: dict[str, list[str]] = {}
    for path in sorted(p for p in results.rglob("*") if p.is_file()):
        got = _section(path, results)
        if got is not None:
            sections.setdefault(got[0], []).extend(got[1])
    out = [
        "# Results",
        "",
        "The current figure of every results file in `benchmarks/results`, generated from the "
        "files by `python benchmarks/results_page.py` (do not edit by hand). Each says the "
        "command, commit, date, machine and load that made it where the file records them; "
        "files written before results carried them say which are not recorded. The history of "
        "the figures is in git and the changelog.",
        "",
        "Win rates are the first agent's, with 95% intervals; luck-adjusted rates subtract the "
        "luck of the chance events (unbiased, with less variance).",
        "",
    ]
    for area in [a for a, _ in AREAS] + [OTHER]:
        if area in sections:
            out += [f"## {area}", "", *sections[area]]
    return _publish("\n".join(out).rstrip() + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the page is not up to date")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        ok = PAGE.exists() and PAGE.read_text(encoding="utf-8") == text
        print("up to date" if ok else f"out of date: run python {Path(__file__).name}")
        return 0 if ok else 1
    tmp = PAGE.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(PAGE)
    print(f"wrote {PAGE.name} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
