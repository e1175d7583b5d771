"""Flask-Compress, as the app uses it (``create_app`` binds it)."""

from __future__ import annotations

from flask_compress import Compress as _Compress


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
