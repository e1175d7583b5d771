"""The Flask extension objects the app's modules use, created once and bound to the app in
``create_app``. Those only the app's making uses (Flask-Migrate, Flask-Compress) are made
there (``scorekeeper.factory``): a restore's checking processes import the services, and so
this module, without importing Alembic or the compressors (0.2 s of each one's start)."""

from flask_login import LoginManager
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

# Stable constraint names, so migrations work the same on SQLite and PostgreSQL.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


# Objects keep what they hold after a commit: a view that saved a game renders it from what
# is in memory instead of reading every row again.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
csrf = CSRFProtect()
login_manager = LoginManager()
