"""The statistics screen as data: the player's record from the game history, the
numbers of ``cribbage stats`` (:func:`ui.reports.player_stats.player_stats`) laid out on the table.

Games, wins and skunks; results by opponent; points per deal as dealer and as pone beside the
averages of expectimax self-play, drawn as pairs of bars; the error rate game by game (oldest
on the left) as a bar chart, filled in while the games are reviewed.
"""

from __future__ import annotations

from ...table.commands import Act
from ...words.i18n import Catalog
from ..scene import GOLD, HEIGHT, PLAYER_COLORS, SOFT, WHITE, WIDTH, Label, Rect, Scene, act_button

ERRORS = Rect(700, 290, 500, 210)
BAR_MAX = 36  # px: a few games do not fill the chart
POINTS_X, BAR_X, BAR_SCALE = 90, 380, 26.0  # px per point
BAR_ROOM = ERRORS.x - 60 - BAR_X  # the longest bar ends well before the error chart


def level_name(spec: str, tr) -> str:
    """The opponent's name in words: its level's, else "Another person", else the spec."""
    from agents import LEVELS

    for level in LEVELS.values():
        if level.spec == spec:
            return tr(level.label)
    return tr("Another person") if spec == "person" else spec


def stats_scene(
    stats: dict | None, lang: str, *, progress: tuple[int, int] | None = None, note: str = ""
) -> Scene:
    """The screen for ``stats`` (None: no history yet); ``progress`` (done, total) while the
    error rates are being computed."""
    cat = Catalog(lang)
    tr = cat.tr
    s = Scene()
    s.labels.append(Label(tr("Statistics"), WIDTH / 2, HEIGHT - 50, 30, GOLD, bold=True))
    back = Rect(WIDTH / 2 - 120, 24, 240, 64)
    s.buttons.append(act_button(Act.BACK, tr("Back"), back, name="stats:back"))
    past = Rect(WIDTH / 2 + 160, 24, 240, 64)
    s.buttons.append(act_button(Act.PAST, tr("Past games"), past, name="stats:past"))
    if note:
        s.labels.append(Label(note, WIDTH / 2, 110, 13, SOFT, width=900))
    if not stats or not stats["games"]:
        text = tr("No finished games yet: every game you finish at the table is counted here.")
        s.labels.append(Label(text, WIDTH / 2, 420, 18, WHITE, width=900))
        return s
    _record(s, stats, cat)
    _points(s, stats, cat)
    _errors(s, stats, cat, progress)
    if "progress" in stats:
        _progress(s, stats["progress"], cat)
    return s


def _progress(s: Scene, prog: dict, cat: Catalog) -> None:
    """Streaks, the record and best win against each level, achievements, month by month."""
    from ...reports.progress import ACHIEVEMENTS, streak_words

    tr = cat.tr
    y = 292
    s.labels.append(Label(tr("Progress"), POINTS_X, y, 18, GOLD, "left", bold=True))
    s.labels.append(Label(streak_words(prog["streaks"], cat), POINTS_X, y - 30, 14, WHITE, "left"))
    levels = "  ·  ".join(
        tr("{level} {w}–{l}, best win by {margin}", level=level_name(k, tr), w=v["wins"],
           l=v["losses"], margin=v["best_margin"]) if v["wins"] else
        f"{level_name(k, tr)} {v['wins']}–{v['losses']}"
        for k, v in prog["by_level"].items()
    )  # fmt: skip
    s.labels.append(Label(levels, POINTS_X, y - 82, 13, SOFT, "left", width=560))
    got = [tr("{what} ×{n}", what=tr(ACHIEVEMENTS[a["key"]]), n=a["count"])
           for a in prog["achievements"]]  # fmt: skip
    text = "  ·  ".join(got) if got else tr("No achievements yet: a 24 hand, 31 for 2, a skunk…")
    s.labels.append(Label(tr("Achievements: {list}", list=text), ERRORS.x, 150, 13, GOLD,
                          "left", width=500))  # fmt: skip
    months = "  ·  ".join(f"{m['month']} {m['wins']}–{m['games'] - m['wins']}"
                          for m in prog["by_month"][-6:])  # fmt: skip
    s.labels.append(Label(tr("Month by month: {list}", list=months), ERRORS.x, 214, 13, SOFT,
                          "left", width=500))  # fmt: skip


def _record(s: Scene, st: dict, cat: Catalog) -> None:
    tr = cat.tr
    sk = st["skunks"]
    y = HEIGHT - 110
    lines = [
        (tr("Games {n}: {won}, {lost} ({pct})", n=st["games"],
            won=cat.ntr("{n} win", "{n} wins", st["wins"]),
            lost=cat.ntr("{n} loss", "{n} losses", st["losses"]),
            pct=cat.percent(st["win_rate"])), 20, WHITE, True),
        (tr("Skunks: {given} given ({dg} double), {taken} taken ({dt} double)",
            given=sk["given"], dg=sk["double_given"], taken=sk["taken"],
            dt=sk["double_taken"]), 15, SOFT, False),
    ]  # fmt: skip
    by_target = st.get("by_target", {})
    if len(by_target) > 1:  # the games to 61 and to 121 apart
        text = "  ·  ".join(
            tr("to {t}: {w}–{l}, skunks {given}/{taken}", t=t, w=r["wins"], l=r["losses"],
               given=r["skunks"]["given"], taken=r["skunks"]["taken"])
            for t, r in by_target.items()
        )  # fmt: skip
        lines.append((tr("Games {list}", list=text), 15, SOFT, False))
    for text, size, color, bold in lines:
        s.labels.append(Label(text, POINTS_X, y, size, color, "left", bold=bold))
        y -= 32
    opp = "  ·  ".join(
        f"{level_name(k, tr)} {v['wins']}–{v['losses']}" for k, v in st["by_opponent"].items()
    )
    s.labels.append(Label(tr("By opponent: {list}", list=opp), POINTS_X, y, 15, SOFT, "left",
                          width=1100))  # fmt: skip


def _points(s: Scene, st: dict, cat: Catalog) -> None:
    tr, num = cat.tr, cat.number
    """Per role and part: your average (bar in your colour) over the expected one (white)."""
    y = HEIGHT - 250
    s.labels.append(Label(tr("Points per deal"), POINTS_X, y, 18, GOLD, "left", bold=True))
    s.labels.append(Label(tr("you"), BAR_X, y, 13, PLAYER_COLORS[0], "left", bold=True))
    s.labels.append(Label(tr("expected"), BAR_X + 60, y, 13, WHITE, "left", bold=True))
    y -= 34
    parts = {"pegging": tr("pegging"), "hand": tr("hand"), "crib": tr("crib")}
    values = [
        v
        for t in st["points_per_deal"].values()
        for v in (*(t.get(p) for p in parts), *t["expected"].values())
        if isinstance(v, int | float)
    ]
    scale = min(BAR_SCALE, BAR_ROOM / max(max(values, default=1.0), 1e-9))
    for role, title in (("dealer", tr("As dealer")), ("pone", tr("As pone"))):
        t = st["points_per_deal"][role]
        s.labels.append(Label(tr("{role} ({n} deals)", role=title, n=t["deals"]), POINTS_X, y,
                              15, WHITE, "left", bold=True))  # fmt: skip
        y -= 28
        for part in ("pegging", "hand", "crib") if role == "dealer" else ("pegging", "hand"):
            mine, exp = t[part], t["expected"][part]
            s.labels.append(Label(parts[part], POINTS_X + 20, y, 14, SOFT, "left"))
            shown = "–" if mine is None else num(mine, 2)
            s.labels.append(Label(f"{shown} / {num(exp, 2)}", BAR_X - 14, y, 14, WHITE, "right"))
            if mine is not None:
                s.panels.append((Rect(BAR_X, y + 1, max(scale * mine, 1), 9), PLAYER_COLORS[0]))
            s.panels.append((Rect(BAR_X, y - 8, max(scale * exp, 1), 5), WHITE))
            y -= 26


def _errors(s: Scene, st: dict, cat: Catalog, progress: tuple[int, int] | None) -> None:
    """The error rate of each game (thousandths of a game lost per decision), oldest first."""
    tr, num = cat.tr, cat.number
    r = ERRORS
    s.labels.append(Label(tr("Error rate, game by game"), r.x, r.y + r.h + 50, 18, GOLD, "left",
                          bold=True))  # fmt: skip
    s.labels.append(Label(tr("(winning chance lost per decision, thousandths; lower is better)"),
                          r.x, r.y + r.h + 24, 12, SOFT, "left"))  # fmt: skip
    s.labels.append(
        Label(tr("oldest on the left, newest on the right"), r.x + r.w, r.y - 16, 12, SOFT, "right")
    )
    s.panels.append((Rect(r.x - 2, r.y - 2, r.w + 4, r.h + 4), (12, 40, 26)))
    s.panels.append((r, (18, 70, 46)))
    rates = [g["error_rate"] for g in st.get("error_rate", [])]
    if progress is not None and progress[0] < progress[1]:
        text = tr("Reviewing your games: {k} of {n}", k=progress[0], n=progress[1])
        s.labels.append(Label(text, r.cx, r.cy, 15, WHITE))
    if not rates:
        return
    top = max(max(rates), 1e-9)
    w = min(r.w / max(len(rates), 1), BAR_MAX)
    for i, v in enumerate(rates):
        h = (r.h - 20) * v / top
        x0, x1 = r.x + round(i * w), r.x + round((i + 1) * w)
        s.panels.append((Rect(x0 + 2, r.y, max(x1 - x0 - 4, 1), max(h, 1)), PLAYER_COLORS[0]))
        if len(rates) <= 12:
            s.labels.append(Label(num(1000 * v), (x0 + x1) // 2, round(r.y + h + 10), 12, WHITE))
    s.labels.append(Label(num(1000 * top), r.x - 6, r.y + r.h - 26, 12, SOFT, "right"))
    s.labels.append(Label("0", r.x - 6, r.y + 6, 12, SOFT, "right"))
    if "error_rate_first_half" in st:
        text = tr("first half {a}, second half {b}",
                  a=num(1000 * st["error_rate_first_half"]),
                  b=num(1000 * st["error_rate_second_half"]))  # fmt: skip
        s.labels.append(Label(text, r.x, r.y - 40, 13, SOFT, "left"))
