# Sourced by scripts/test ("dev") and scripts/bot ("run"), from the repository's root folder:
# make .venv and install the project into it, only when something is missing. Needs only
# Python 3.11+ on the machine.
#
# The stamp .venv/.caedes-installed records what is installed: the hash of pyproject.toml and
# "run" (the bot's dependencies) or "dev" (those and the development tools). A dev install
# holds everything the bot needs, so after ./scripts/test, ./scripts/bot installs nothing.
# Whatever changes pyproject.toml makes the next run install again. An install says so first,
# on standard error, since the first one takes a couple of minutes.
set -euo pipefail
PY="${PYTHON:-python3}"
wanted="${1:?say run or dev}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=".venv/.caedes-installed"
hash="$("$PY" -c 'import hashlib;print(hashlib.sha256(open("pyproject.toml","rb").read()).hexdigest())')"
have=""
if [ -f "$stamp" ]; then
  have="$(cat "$stamp")"
fi
if [ "$have" != "$hash dev" ] && [ "$have" != "$hash $wanted" ]; then
  echo "Installing Caedes Bot's packages into .venv/ (the first time this takes a couple of minutes)..." >&2
  if [ "$wanted" = "dev" ]; then
    .venv/bin/python -m pip install --quiet -e ".[dev]"
  else
    .venv/bin/python -m pip install --quiet -e .
  fi
  echo "$hash $wanted" > "$stamp"
fi
