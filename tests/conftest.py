"""Shared test configuration: a derandomised hypothesis profile for CI (design.md section 6),
and the stores the storage tests run against (``tests/persistence/fixtures.py``)."""

import os

import pytest
from hypothesis import HealthCheck, settings

from tests.persistence import postgres
from tests.persistence.fixtures import BACKENDS, db_backend, pg_template

__all__ = ["db_backend", "pg_template"]

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

_SKIPPED_POSTGRES = (
    f"PostgreSQL: no server given ({postgres.POSTGRES_ENV} unset), so the PostgreSQL runs of "
    "the storage, service, outbox and scheduler tests were SKIPPED (scripts/test starts a "
    "server when PostgreSQL is installed)"
)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each test that uses a database once per store (SQLite, and PostgreSQL when a server
    is given), or on SQLite only when it is marked ``sqlite_only``, or on PostgreSQL only when
    it is marked ``postgres_only`` (skipped without a server)."""
    if "db_backend" not in metafunc.fixturenames:
        return
    if metafunc.definition.get_closest_marker("postgres_only") is not None:
        metafunc.parametrize("db_backend", ("postgresql",), indirect=True)
        return
    only_sqlite = metafunc.definition.get_closest_marker("sqlite_only") is not None
    if only_sqlite or postgres.server_url() is None:
        metafunc.parametrize("db_backend", ("sqlite",), indirect=True)
    else:
        metafunc.parametrize("db_backend", BACKENDS, indirect=True)


def pytest_report_header() -> str:
    if postgres.server_url() is None:
        return _SKIPPED_POSTGRES
    return "PostgreSQL: the storage tests run against SQLite and the server given"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if postgres.server_url() is None:
        terminalreporter.write_line(_SKIPPED_POSTGRES)
