"""Export says where in words ("your exports folder", no machine path) and offers to open it."""

from __future__ import annotations

import pytest

from ui.table.controller import Mode, TableController

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_note_names_the_folder_in_words_and_opens_it(window, monkeypatch, lang) -> None:
    from ui.gui import table_view

    opened: list[list[str]] = []
    monkeypatch.setattr(table_view, "folder_opener", lambda: ["opener"])
    monkeypatch.setattr(table_view.subprocess, "Popen", lambda args: opened.append(args))
    window.start_table(TableController(5, mode=Mode.COMPUTER, lang=lang))
    view = window.current_view
    view.current_scene()  # the table on the screen, then Export
    path = view.export()
    assert path is not None and path.exists()
    labels = [lb.text for lb in view.frame_scene().all_labels()]
    word = "exports folder" if lang == "en" else "dossier d'exports"
    note = next(t for t in labels if word in t)
    assert str(path.parent) not in note and "/" not in note  # words, not the machine's path
    s = view.frame_scene()
    from layout_boxes import clashes, straddling

    from ui.scenes.scene import overlaps

    panel = s.layer.panels[0][0]  # over the log only: no card, no line cut in two
    assert not [c for c in s.cards if overlaps(c.rect, panel)] and straddling(s) == []
    assert clashes(s) == []
    (button,) = [b for b in s.layer.buttons if b.id == "open_exports"]
    view.click(button.rect.cx, button.rect.cy)
    assert opened == [["opener", str(path.parent)]]


def test_headless_offers_no_opener(window) -> None:
    window.start_table(TableController(6, mode=Mode.COMPUTER))
    view = window.current_view
    view.current_scene()  # the table on the screen, then Export
    assert view.export() is not None
    layer = view.frame_scene().layer
    assert layer is not None and not [b for b in layer.buttons if b.id == "open_exports"]
