# Sourced by scripts/test and scripts/bot: make .venv with the project installed, once per
# change of pyproject.toml. Needs only Python 3.11+ on the machine.
set -euo pipefail
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=".venv/.caedes-installed"
want="$(cat pyproject.toml | "$PY" -c 'import hashlib,sys;print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')-$1"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  if [ "$1" = "dev" ]; then
    .venv/bin/python -m pip install --quiet -e ".[dev]"
  else
    .venv/bin/python -m pip install --quiet -e .
  fi
  echo "$want" > "$stamp"
fi
