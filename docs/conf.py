"""Sphinx configuration of the cribbage-env site (furo, MyST, MyST-NB executed tutorials).

Local preview: ``pip install -e ".[docs]"`` then
``sphinx-build -W --keep-going -b html docs docs/_build/html`` and open
``docs/_build/html/index.html``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(ROOT))
# The tutorials' kernels and the commands they run import this checkout, not another install.
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT), str(HERE / "_ext"), *filter(None, [os.environ.get("PYTHONPATH")])]
)
os.environ.setdefault("MPLBACKEND", "Agg")


def _scratch_command_line() -> None:
    """The tutorials' ``%%bash`` cells type ``cribbage ...`` as a reader would: that name runs
    this checkout with this Python, with a scratch data folder (the build never touches the
    person's own games) and a terminal 100 columns wide; the kernels' ``%%bash`` prints a
    command's output whole (docs_run.bash)."""
    import atexit
    import shutil
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="cribbage-docs-"))
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    (tmp / "bin").mkdir()
    script = tmp / "bin" / "cribbage"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m ui "$@"\n', encoding="utf-8")
    script.chmod(0o755)
    os.environ["PATH"] = os.pathsep.join([str(tmp / "bin"), os.environ.get("PATH", "")])
    os.environ["CRIBBAGE_DATA_DIR"] = str(tmp / "data")
    os.environ["COLUMNS"] = "100"
    os.environ["CRIBBAGE_DOCS_SRC"] = str(HERE)  # where a page's setup cell finds the guides
    startup = tmp / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-bash.py").write_text(
        "import docs_run\nget_ipython().register_magic_function(docs_run.bash, 'cell', 'bash')\n",
        encoding="utf-8",
    )
    os.environ["IPYTHONDIR"] = str(tmp / "ipython")  # the kernels' profile: that %%bash


_scratch_command_line()

project = "cribbage-env"
author = "cribbage-env contributors"
copyright = "2026, cribbage-env contributors"
release = version = "0.1.0"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx_copybutton",
    "cribbage_docs",
]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb"}
exclude_patterns = ["_build", "_generated", "Thumbs.db", ".DS_Store", "**/.ipynb_checkpoints"]
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath", "substitution"]
# Figures the code knows, for the pages' prose: {{ obs_size }} and the like (cribbage_docs.py).
myst_substitutions = __import__("cribbage_docs").substitutions()
myst_heading_anchors = 3

# Tutorials are executed on every build; a cell that raises fails the build.
nb_execution_mode = os.environ.get("CRIBBAGE_DOCS_EXECUTE", "cache")
nb_execution_cache_path = str(HERE / "_build" / ".jupyter_cache")
nb_execution_timeout = 600
nb_execution_raise_on_error = True
nb_execution_in_temp = True  # each page runs in a folder of its own: the files it writes go there
nb_execution_show_tb = True
nb_merge_streams = True

autodoc_default_options = {"show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_mock_imports = ["arcade"]
napoleon_google_docstring = False
# Docstrings are written for readers of the code: reST roles inside prose; some of them name
# private helpers, so unresolved Python cross-references are not errors (nitpicky is off).


html_theme = "furo"
html_title = "cribbage-env"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_theme_options = {"source_repository": "", "navigation_with_keys": True}
