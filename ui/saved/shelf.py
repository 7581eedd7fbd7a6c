"""Unfinished games: a new game never replaces the game under way.

The autosave (:mod:`ui.saved.autosave`) holds the game being played. When a new game starts while it
holds an unfinished one, that game moves to ``unfinished/`` beside it (a rename: nothing is
rewritten); the start screen lists the games to resume, the current one first, and resuming a
shelved game shelves the current one in turn. Files are only renamed inside the data folder;
one that cannot be read is listed as such and left alone.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from agents.store.files import UnreadableFile, parse_json, read_text

from ..table.saves import SaveError, read_save
from .autosave import SaveStore

SHELF_NAME = "unfinished"
#: Games listed on the start screen (the newest; older ones stay on disk).
LISTED = 6


@dataclass(frozen=True)
class Unfinished:
    """One game to resume: its file and what the list says about it."""

    path: Path
    current: bool  # the autosave itself (the game last played)
    when: float  # modification time (seconds since the epoch)
    opponent: str | None  # the other seat's agent spec, None: pass and play
    target: int
    scores: tuple[int, int]
    error: str = ""  # why it cannot be resumed (listed, not touched)


def shelf_dir(store: SaveStore) -> Path:
    return store.dir / SHELF_NAME


def shelve(store: SaveStore) -> Path | None:
    """Move the autosave's unfinished game to the shelf; its new path (None: nothing to move,
    or the store does not write)."""
    if not store.writable or not store.exists():
        return None
    folder = shelf_dir(store)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target, n = folder / f"game-{stamp}.json", 1
    while target.exists():
        n += 1
        target = folder / f"game-{stamp}-{n}.json"
    os.replace(store.path, target)
    return target


def describe(path: Path, current: bool) -> Unfinished:
    """What the list shows about the save at ``path`` (replayed to its cursor for the score)."""
    import cribbage_env as ce

    when = path.stat().st_mtime
    try:
        saved = read_save(parse_json(read_text(path, what="saved game")), trusted=_any())
        g = ce.replay(  # the table's games cut by hand, as a resumed one
            saved.seed, saved.actions[: saved.cursor], interactive_cuts=True, rules=saved.rules
        )
    except (UnreadableFile, SaveError, ValueError, ce.IllegalActionError) as exc:
        return Unfinished(path, current, when, None, 0, (0, 0), str(exc) or "unreadable")
    opponent = saved.agents[1] if saved.mode == "computer" else None
    return Unfinished(path, current, when, opponent, saved.rules.target, g.scores)


class _any(tuple):
    """Every spec counts as trusted for reading the list (nothing is built from it)."""

    def __contains__(self, item: object) -> bool:
        return True


def unfinished(store: SaveStore) -> list[Unfinished]:
    """The games to resume, the current one first, then the shelf newest first."""
    out = [describe(store.path, True)] if store.exists() else []
    folder = shelf_dir(store)
    files = sorted(folder.glob("game-*.json"), reverse=True) if folder.is_dir() else []
    out += [describe(p, False) for p in files if p.is_file() and not p.is_symlink()]
    return out


def take_from_shelf(store: SaveStore, path: Path) -> None:
    """Make the shelved game at ``path`` the autosave (the current one goes to the shelf)."""
    folder = shelf_dir(store).resolve()
    if path.resolve().parent != folder or not path.is_file():
        raise SaveError(f"{path} is not an unfinished game of {store.dir}")
    shelve(store)
    os.replace(path, store.path)


def unfinished_label(u: Unfinished, lang: str) -> str:
    """One line of the list: opponent, score (you first), the game's target, when, current."""
    from agents import LEVELS

    from ..words.i18n import Catalog

    tr = Catalog(lang).tr
    if u.opponent is None:
        who = tr("Pass and play")
    else:
        names = {lv.spec: tr(lv.label) for lv in LEVELS.values()}
        who = names.get(u.opponent, u.opponent)
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(u.when))
    text = tr("{who}: {a}–{b}, game to {target}, {when}", who=who, a=u.scores[0],
              b=u.scores[1], target=u.target, when=when)  # fmt: skip
    return f"{text} ({tr('last played')})" if u.current else text
