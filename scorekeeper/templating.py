"""The app's Jinja environment: Flask's, with less work for the two things a page does most,
each with the same outcome as Jinja's own.

A page save draws about 290 calls from its templates (every ``_()``, ``url_for()``, macro
and method called in them) and escapes about 550 values.

- Calls (``QuickContext``): Jinja's ``Context.call`` asks each callable two or three times
  whether it wants the template's context, the evaluation context or the environment
  (``hasattr`` on the callable and on its ``__call__``): about 5% of a save's time, spent on
  questions whose answer depends only on the kind of callable. Here it is asked once, for the
  kinds of callable whose ``__call__`` never takes anything (functions, methods, built-ins,
  partials, macros); every other callable, and every function that takes the template's
  context, goes through Jinja's own ``Context.call``: the same arguments, the same answers.
- Escaping (``escaped``): markupsafe's ``escape`` makes a new ``Markup`` through its Python
  constructor for every value, also for a value that is markup already (a word of the
  catalog, a macro's output: a quarter of them), which it copies. Here text is escaped by
  markupsafe's own function and wrapped without the constructor's questions, markup is
  given as it is (it is immutable), an integer is written as it is (digits and a sign need
  no escaping), and every other value goes to ``escape``. The templates' compiled code calls
  it for each value they output where escaping is on (``EscapingCodeGenerator``); where a
  template turns escaping off, or decides it as it runs, Jinja's own code is kept.
"""

from __future__ import annotations

import functools
import types
import typing as t

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

#: Callables Jinja calls as they are: their type's ``__call__`` asks for nothing, so Jinja's
#: question of their ``__call__`` is always no (``Context.call``'s "callable classes").
DIRECT = frozenset(
    {
        types.FunctionType,
        types.MethodType,
        types.BuiltinFunctionType,
        types.BuiltinMethodType,
        types.MethodWrapperType,
        functools.partial,
        Macro,
    }
)

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
        if type(__obj) not in DIRECT:
            return Context.call(__self, __obj, *args, **kwargs)
        pass_arg = getattr(__obj, "jinja_pass_arg", None)
        if pass_arg is _PassArg.context:
            return Context.call(__self, __obj, *args, **kwargs)
        if kwargs:
            kwargs.pop("_loop_vars", None)
            kwargs.pop("_block_vars", None)
        if pass_arg is _PassArg.eval_context:
            args = (__self.eval_ctx, *args)
        elif pass_arg is _PassArg.environment:
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
