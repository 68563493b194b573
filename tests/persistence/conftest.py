"""Storage test fixtures (see ``fixtures.py``)."""

from tests.persistence.fixtures import db, db_template, db_url

__all__ = ["db", "db_template", "db_url"]
