"""The app's Jinja environment: Flask's, with less work for what a page does most, each with
the same outcome as Jinja's own.

A page save draws about 290 calls from its templates (every ``_()``, ``url_for()``, macro
and method called in them) and escapes about 550 values.

- Calls (``QuickContext``): Jinja's ``Context.call`` asks each callable two or three times
  whether it wants the template's context, the evaluation context or the environment
  (``hasattr`` on the callable and on its ``__call__``): about 5% of a save's time, spent on
  questions whose answer depends only on the kind of callable. Here it is asked once, for the
  kinds of callable whose ``__call__`` never takes anything (functions, methods, built-ins,
  partials, macros), and read where the kind keeps it (``FINDERS``: no AttributeError raised
  and caught for the callables that have none, nearly all); every other callable, and every
  function that takes the template's context, goes through Jinja's own ``Context.call``:
  the same arguments, the same answers.
- Escaping (``escaped``): markupsafe's ``escape`` makes a new ``Markup`` through its Python
  constructor for every value, also for a value that is markup already (a word of the
  catalog, a macro's output: a quarter of them), which it copies. Here text is escaped by
  markupsafe's own function and wrapped without the constructor's questions, markup is
  given as it is (it is immutable), an integer is written as it is (digits and a sign need
  no escaping), and every other value goes to ``escape``. The templates' compiled code calls
  it for each value they output where escaping is on (``EscapingCodeGenerator``); where a
  template turns escaping off, or decides it as it runs, Jinja's own code is kept.
- Templates found (``cache_size=-1``): each ``{% extends %}``, ``{% import %}`` and
  ``{% include %}`` looks its template up again, about 15 a page save; Jinja's default cache
  keeps the last 400 in an LRU list that moves the one found to its end under a lock (a
  search through the list, each time). The app's templates are a fixed set (about 90 files,
  and a game's own by its registered name), so they are kept in a plain dictionary.
"""

from __future__ import annotations

import functools
import types
import typing as t

from flask.globals import _cv_request
from flask.templating import Environment as FlaskEnvironment
from jinja2.compiler import CodeGenerator
from jinja2.runtime import Context
from jinja2.runtime import Macro
from jinja2.utils import _PassArg
from markupsafe import Markup
from markupsafe import escape

try:  # markupsafe's escaping of text itself (its C speedups where built)
    from markupsafe import _escape_inner
except ImportError:  # pragma: no cover - another markupsafe: its escape, as Jinja calls it
    _escape_inner = None

#: Where Jinja would find a callable's ``jinja_pass_arg`` (what it wants passed first), by
#: the callable's type, for the types whose ``__call__`` asks for nothing (so Jinja's question
#: of their ``__call__``, ``Context.call``'s "callable classes", is always no). Read without
#: ``getattr(obj, name, None)``, which raises and catches an AttributeError inside for every
#: callable that has none (nearly all): functions, partials and macros keep it in their own
#: dictionary (their types define none), a method in its function's, built-ins never have it.
#: Functions and macros, most of the calls, are read in ``QuickContext.call`` itself; the
#: other kinds here.
PASS_ARG = "jinja_pass_arg"


def _own(obj: t.Any) -> _PassArg | None:
    return obj.__dict__.get(PASS_ARG)


def _method(obj: types.MethodType) -> _PassArg | None:
    function = obj.__func__
    if type(function) is types.FunctionType:
        return function.__dict__.get(PASS_ARG)
    return getattr(obj, PASS_ARG, None)


def _never(_obj: t.Any) -> None:
    return None


FINDERS: dict[type, t.Callable[[t.Any], _PassArg | None]] = {
    types.MethodType: _method,
    types.BuiltinFunctionType: _never,  # also BuiltinMethodType: the same type
    types.MethodWrapperType: _never,
    functools.partial: _own,
}
_FUNCTION = types.FunctionType
_CONTEXT = _PassArg.context
_EVAL_CONTEXT = _PassArg.eval_context
_ENVIRONMENT = _PassArg.environment

_new_str = str.__new__


def escaped(value: t.Any) -> Markup:
    """``markupsafe.escape(value)``, quicker for text, markup and integers."""
    kind = type(value)
    if kind is str and _escape_inner is not None:
        return _new_str(Markup, _escape_inner(value))
    if kind is Markup:
        return value
    if kind is int:
        return _new_str(Markup, str(value))
    return escape(value)


class QuickContext(Context):
    """Jinja's template context, its ``call`` quicker for the common callables."""

    def call(__self, __obj: t.Callable[..., t.Any], *args: t.Any, **kwargs: t.Any) -> t.Any:  # noqa: N805, B902 - Jinja's own signature
        kind = type(__obj)
        if kind is _FUNCTION or kind is Macro:  # most calls: the mark is their own (``_own``)
            pass_arg = __obj.__dict__.get(PASS_ARG)
        else:
            find = FINDERS.get(kind)
            if find is None:
                return Context.call(__self, __obj, *args, **kwargs)
            pass_arg = find(__obj)
        if pass_arg is _CONTEXT:
            return Context.call(__self, __obj, *args, **kwargs)
        if kwargs:
            kwargs.pop("_loop_vars", None)
            kwargs.pop("_block_vars", None)
        if pass_arg is _EVAL_CONTEXT:
            args = (__self.eval_ctx, *args)
        elif pass_arg is _ENVIRONMENT:
            args = (__self.environment, *args)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined(
                "value was undefined because a callable raised a StopIteration exception"
            )


class EscapingCodeGenerator(CodeGenerator):
    """Jinja's code generator, the values a template outputs with escaping on escaped by
    ``escaped`` (the environment's, reached as the compiled code reaches it everywhere)."""

    def _output_child_pre(self, node, frame, finalize) -> None:
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile:
            self.write("environment.escaped(")
            if finalize.src is not None:
                self.write(finalize.src)
            return
        super()._output_child_pre(node, frame, finalize)


class Environment(FlaskEnvironment):
    """Flask's environment with the quicker calls and escaping above."""

    context_class = QuickContext
    code_generator_class = EscapingCodeGenerator
    escaped = staticmethod(escaped)

    def __init__(self, app, **options: t.Any) -> None:
        options.setdefault("cache_size", -1)
        super().__init__(app, **options)


#: How many addresses ``kept_url_for`` keeps per app before it starts again (a game page
#: asks for about 15 of its game's own; a worker sees a few hundred games a day).
URLS_KEPT = 4096


def kept_url_for(app: t.Any) -> t.Callable[..., str]:
    """``url_for`` for the templates, each address built once per process.

    Flask's ``url_for`` costs about 11 µs (the endpoint's rule found, its converters run, the
    address joined); a game page asks for about 15. An address depends only on the endpoint,
    its values (``_external``, ``_scheme`` and ``_method`` among them) and anchor, and the
    request's script root, host and scheme as its URL adapter holds them (the app's URL map
    is made once): kept by those. A blueprint-relative endpoint (``.index``), an app with URL
    defaults registered, and values that cannot be a key (a list) go to Flask's own."""
    build = app.url_for
    kept: dict[tuple, str] = {}

    def url_for(endpoint: str, **values: t.Any) -> str:
        context = _cv_request.get(None)
        if context is None or endpoint[:1] == "." or app.url_default_functions:
            return build(endpoint, **values)
        anchor = values.pop("_anchor", None)
        adapter = context.url_adapter
        try:
            key = (
                endpoint,
                tuple(values.items()),
                anchor,
                adapter.script_name,
                adapter.server_name,
                adapter.subdomain,
                adapter.url_scheme,
            )
            found = kept.get(key)
        except TypeError:  # a value that cannot be a key
            return build(endpoint, _anchor=anchor, **values)
        if found is None:
            found = build(endpoint, _anchor=anchor, **values)
            if len(kept) >= URLS_KEPT:
                kept.clear()
            kept[key] = found
        return found

    return url_for
