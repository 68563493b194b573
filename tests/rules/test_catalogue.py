"""The catalogue of rules modules and the registries it fills (design.md section 3).

An order or an event is stored by its class name and found again through
``Order.registry`` / ``Event.registry``. Those fill up only as modules are imported, so
``caedes_bot.rules.catalogue`` imports every rules module; these tests check, in a fresh
process, that importing the catalogue, the engine or the storage mappers alone is enough to
find every class by name, and that no rules module hides an import inside a function.
"""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import caedes_bot.rules
from caedes_bot.rules import catalogue
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order

RULES = Path(caedes_bot.rules.__file__).parent
#: Modules that are not listed in the catalogue: the engine imports it, and it is itself.
NOT_LISTED = {"caedes_bot.rules.engine", "caedes_bot.rules.catalogue"}


def _rules_modules() -> list[str]:
    """Every module under ``caedes_bot/rules`` (packages excluded), imported here."""
    names = []
    for info in pkgutil.walk_packages([str(RULES)], prefix="caedes_bot.rules."):
        if not info.ispkg:
            importlib.import_module(info.name)
            names.append(info.name)
    return sorted(names)


def _rules_classes(registry: dict[str, type]) -> list[str]:
    """The registered class names defined in the rules (tests register stand-ins of their own)."""
    return sorted(n for n, c in registry.items() if c.__module__.startswith("caedes_bot.rules."))


def _fresh(code: str, stdin: str = "") -> object:
    """Run ``code`` in a fresh Python process and return the JSON it prints."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(done.stdout)


def test_the_catalogue_lists_every_rules_module() -> None:
    listed = {m.__name__ for m in catalogue.MODULES}
    assert listed == set(_rules_modules()) - NOT_LISTED


@pytest.mark.parametrize(
    "entry", ["caedes_bot.rules.catalogue", "caedes_bot.rules.engine"], ids=["catalogue", "engine"]
)
def test_one_import_registers_every_order_and_event_class(entry: str) -> None:
    """Importing the catalogue (or the engine) alone, in a process that has applied no order,
    registers every order and event class of the rules."""
    _rules_modules()
    expected = {
        "orders": _rules_classes(dict(Order.registry)),
        "events": _rules_classes(dict(Event.registry)),
    }
    assert expected["orders"] and expected["events"]
    found = _fresh(
        f"import json, {entry}\n"
        "from caedes_bot.rules.events import Event\n"
        "from caedes_bot.rules.orders import Order\n"
        "print(json.dumps({'orders': sorted(Order.registry), 'events': sorted(Event.registry)}))\n"
    )
    assert found == expected


def test_stored_orders_and_events_load_by_name_in_a_fresh_process() -> None:
    """``load_order`` / ``load_event`` find every class by its stored name in a process that has
    imported nothing but the mappers (as ``RulesService.replay`` does after a restart)."""
    _rules_modules()
    names = {
        "orders": _rules_classes(dict(Order.registry)),
        "events": _rules_classes(dict(Event.registry)),
    }
    unknown = _fresh(
        "import json, sys\n"
        "from caedes_bot.persistence.mappers import UnknownType, load_event, load_order\n"
        "names = json.loads(sys.stdin.read())\n"
        "unknown = []\n"
        "for what, load in (('orders', load_order), ('events', load_event)):\n"
        "    for name in names[what]:\n"
        "        try:\n"
        "            load({'type': name})\n"
        "        except UnknownType:\n"
        "            unknown.append(name)\n"
        "        except Exception:\n"
        "            pass  # found by name; the stored fields are missing here\n"
        "print(json.dumps(unknown))\n",
        stdin=json.dumps(names),
    )
    assert unknown == []


def test_no_rules_module_imports_inside_a_function() -> None:
    """Imports sit at the top of every rules module, so import cycles cannot hide."""
    hidden = []
    for path in sorted(RULES.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Import | ast.ImportFrom):
                        hidden.append(f"{path.relative_to(RULES)}:{inner.lineno}")
    assert hidden == []
