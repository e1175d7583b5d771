"""The Flask extension objects, created once and bound to the app in ``create_app``."""

from flask_compress import Compress as _Compress
from flask_login import LoginManager
from flask_migrate import Migrate
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
migrate = Migrate()


class Compress(_Compress):
    """Flask-Compress, closing what a streamed answer (a static file) was read from: it
    replaces the answer's body with a compressing generator and would leave the file open."""

    def after_request(self, response):
        original = response.response if response is not None else None
        response = super().after_request(response)
        if (
            original is not None
            and response.response is not original
            and hasattr(original, "close")
        ):
            response.call_on_close(original.close)
        return response


compress = Compress()
csrf = CSRFProtect()
login_manager = LoginManager()
