"""gunicorn's settings: ``gunicorn app:app`` reads this file from the working directory.

``GUNICORN_BIND`` (default 127.0.0.1:8000) and ``WEB_CONCURRENCY`` (workers, default 2) change
where and how it serves. Which client addresses may set ``X-Forwarded-*`` is set here
explicitly, never left to gunicorn's default (which trusts 127.0.0.1 whatever the app thinks):

- ``PROXY_FIX`` off (no proxy): nobody. A client's own ``X-Forwarded-Proto`` is ignored, and
  the app (without ProxyFix) ignores ``X-Forwarded-For``: the login limits count the real peer.
- ``PROXY_FIX=1`` (behind nginx or similar): the proxy only, on this machine by default;
  ``FORWARDED_ALLOW_IPS`` names it when it runs elsewhere (``10.0.0.5``, or a network).
"""

from __future__ import annotations

import os
from pathlib import Path

from scorekeeper import config as settings

_instance = os.environ.get("INSTANCE_PATH", str(Path(__file__).resolve().parent / "instance"))
_proxy_fix = bool(settings.load(_instance)["PROXY_FIX"])

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
forwarded_allow_ips = (
    (os.environ.get("FORWARDED_ALLOW_IPS") or "127.0.0.1,::1") if _proxy_fix else ""
)
# The longest request line gunicorn reads (its default, said here): the app itself answers an
# address longer than scorekeeper.web.URL_MAX (2048) with 414 in its error format; only a
# request line beyond this limit gets gunicorn's own 414, an HTML page (the OpenAPI document
# describes both: scorekeeper.api.spec.EVERY).
limit_request_line = 4094
