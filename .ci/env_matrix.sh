#!/usr/bin/env bash
# Env tests against the two ends of the supported Gymnasium range (pyproject: gymnasium>=1.2.2,<2).
# ray[rllib] pins gymnasium 1.2.2; the newest 1.x is what a fresh install gets. Each version runs in
# its own fresh venv (the project is used from the checkout, not installed), so the global
# environment is left as it is.
#   bash .ci/env_matrix.sh                 # 1.2.2 and newest 1.x
#   bash .ci/env_matrix.sh 1.2.2           # one version ("latest" = newest 1.x)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
if [ "$#" -eq 0 ]; then set -- 1.2.2 latest; fi
for version in "$@"; do
  if [ "$version" = latest ]; then spec="gymnasium>=1.2.2,<2"; else spec="gymnasium==$version"; fi
  venv="${TMPDIR:-/tmp}/cribbage-env-gymnasium-$version"
  echo "== env tests with $spec (venv $venv)"
  python3 -m venv --clear "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    "numpy>=1.24" "numba>=0.60" "$spec" "pettingzoo>=1.24" "pytest>=7" "hypothesis>=6" "tqdm>=4.60"
  "$venv/bin/python" -c "import gymnasium, pettingzoo; print('gymnasium', gymnasium.__version__, '/ pettingzoo', pettingzoo.__version__)"
  (cd "$root" && "$venv/bin/python" -m pytest -q -p no:cacheprovider \
    tests/cribbage_env/envs/test_env_encoding.py tests/cribbage_env/envs/test_env_gym.py tests/cribbage_env/envs/test_env_aec.py tests/cribbage_env/envs/test_env_ppo_smoke.py \
    cribbage_env/encoding.py cribbage_env/envs/single.py cribbage_env/envs/vector.py cribbage_env/envs/aec.py)
done
