#!/usr/bin/env bash
# Build the wheel and sdist, check them, install the wheel (not the checkout) into a fresh venv
# and smoke-test what a user of the published package gets (issue 26): the version, a game
# against the shipped neural agent (its weights), the equity table (its data), the GUI headless.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
python -m pip install -q build twine
python -m build --outdir "$out/dist" . >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
python -m twine check --strict "$out"/dist/*
whl="$(ls "$out"/dist/*.whl)"
python -m zipfile -l "$whl" >"$out/wheel.txt"  # listed once: grep -q on a pipe cuts it short
for f in agents/data/neural.npz cribbage_env/data/equity.npz ui/locale/fr.po; do
  grep -q "$f" "$out/wheel.txt" || { echo "the wheel lacks $f"; exit 1; }
done
python3 -m venv "$out/venv"
"$out/venv/bin/pip" install -q --no-compile "$whl[gui]"  # bytecode on first import
cd "$out"  # away from the checkout: only the installed wheel can be imported
export PATH="$out/venv/bin:$PATH" CRIBBAGE_DATA_DIR="$out/data"
unset PYTHONPATH
python -c "import cribbage_env, agents, ui; assert '$out/venv' in cribbage_env.__file__, cribbage_env.__file__"
want="$(python -c 'import cribbage_env; print(cribbage_env.__version__)')"
test "$(cribbage --version)" = "cribbage-env $want"
bench="$(cribbage bench neural random --games 2 --workers 1 --db "$out/r.sqlite")"
grep -q "2 games" <<<"$bench"
test -n "$(cribbage equity --table)"
test -n "$(cribbage equity 100 90 --dealer me)"
ARCADE_HEADLESS=1 cribbage play --autoplay 6 --screenshots "$out/shots" --no-motion
ls "$out"/shots/*.png >/dev/null
echo "wheel smoke test passed: $(basename "$whl")"
rm -rf "$out"
