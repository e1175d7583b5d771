"""The app's templates call and escape as Jinja does (``scorekeeper.templating``): every kind
of callable, in and out of loops and blocks, gets the same arguments, and every kind of
value is escaped (or not) alike: the same page as with Jinja's own context and code."""

from __future__ import annotations

import functools

import pytest
from jinja2 import DictLoader
from jinja2 import Environment
from jinja2 import pass_context
from jinja2 import pass_environment
from jinja2 import pass_eval_context
from jinja2.runtime import Context
from markupsafe import Markup
from werkzeug.routing import BuildError
from werkzeug.routing.converters import NumberConverter

from scorekeeper import templating
from scorekeeper.templating import QuickContext


class Reader:
    """A callable object whose ``__call__`` takes the template's context."""

    @pass_context
    def __call__(self, context, name):
        return f"{name}={context.get(name)}"


class Plain:
    def __call__(self, text):
        return text.upper()

    def shout(self, text):
        return text + "!"

    @pass_context
    def looked(self, context, name):
        """A method that takes the context (its function carries the mark)."""
        return f"{name}~{context.get(name)}"

    @pass_environment
    def trimmed(self, environment, text):
        return f"{text}~{environment.trim_blocks}"


def _tagged(eval_ctx, text):
    return f"{text}#{eval_ctx.autoescape}"


def stops():
    raise StopIteration


@pass_context
def seen(context, name):
    """What a function that takes the context sees of a loop's or block's variables."""
    return f"{name}:{context.get(name)}"


@pass_eval_context
def escaping(eval_ctx, text):
    return f"{text}/{eval_ctx.autoescape}"


@pass_environment
def trimming(environment, text):
    return f"{text}/{environment.trim_blocks}"


TEMPLATES = {
    "macros.html": (
        "{% macro box(title) %}<b>{{ title }}</b>{{ caller() if caller }}{% endmacro %}"
    ),
    "page.html": (
        '{% from "macros.html" import box %}'
        "{{ plain('a') }} {{ plain.shout('b') }} {{ joined(['c', 'd']) }} {{ half('&lt;') }}"
        " {{ seen('outer') }} {{ escaping('<f>') }} {{ trimming('g') }} {{ counter('outer') }}"
        " {{ box('<h>') }} {% call box('i') %}inside {{ seen('outer') }}{% endcall %}"
        " {{ plain.looked('outer') }} {{ plain.trimmed('j') }} {{ marked('k') }}"
        " {{ stops() is undefined }} {{ dict(k=1)['k'] }} {{ 'x'.upper() }}"
        "{% for item in [1, 2] %}{% set local = item * 10 %}"
        " [{{ seen('item') }} {{ seen('local') }} {{ counter('local') }} {{ box(item) }}"
        " {{ plain.looked('local') }}"
        " {{ escaping(item) }}]{% endfor %}"
        "{% block body %}{% set inner = 'block' %} {{ seen('inner') }}"
        " {{ counter('inner') }}{% endblock %}"
    ),
}


def drawn(context_class, autoescape: bool) -> str:
    environment = Environment(loader=DictLoader(TEMPLATES), autoescape=autoescape)
    environment.context_class = context_class
    return environment.get_template("page.html").render(
        plain=Plain(),
        joined=", ".join,
        half=functools.partial(str.replace, "<tag>", "<"),
        # A partial marked itself: it is given the evaluation context first.
        marked=pass_eval_context(functools.partial(_tagged)),
        seen=seen,
        escaping=escaping,
        trimming=trimming,
        counter=Reader(),
        stops=stops,
        outer="out",
    )


@pytest.mark.parametrize("autoescape", [True, False], ids=["escaped", "unescaped"])
def test_every_kind_of_callable_is_called_as_jinja_calls_it(autoescape):
    quick = drawn(QuickContext, autoescape)
    assert quick == drawn(Context, autoescape)
    # What the calls gave: the loop's and block's variables reached the functions that take
    # the context, the evaluation context says whether the page escapes.
    assert "local:10 local=10 <b>1</b>" in quick and "local:20 local=20 <b>2</b>" in quick
    assert "inner:block inner=block" in quick and "outer:out" in quick
    assert ("&lt;f&gt;/True" if autoescape else "<f>/False") in quick
    assert ("A b! c, d &amp;lt;tag&gt;" if autoescape else "A b! c, d &lt;tag>") in quick
    assert "g/False" in quick and " True 1 X" in quick
    # Methods and partials that carry the mark get what they ask for.
    assert "outer~out j~False" in quick and "local~10" in quick and "local~20" in quick
    assert f"k#{autoescape}" in quick


class Shown:
    """A value with markup of its own (as a form's field)."""

    def __html__(self):
        return "<i>own</i>"


class Text(str):
    """Text of a kind of its own (as a lazy text)."""


VALUES = {
    "text": "<a href='x'>&</a>",
    "markup": Markup("<b>bold</b> &amp;"),
    "number": -42,
    "big": 10**30,
    "yes": True,
    "real": 1.5,
    "nothing": None,
    "shown": Shown(),
    "subtext": Text("<s>"),
    "plain": 7,
}
OUTPUT = (
    "{% for name, value in values|dictsort %}{{ name }}={{ value }};{% endfor %}"
    " {{ values.text ~ values.markup }} {{ values.markup + values.text }}"
    " {{ '%s|%s'|format(values.text, values.markup) }} {{ values.text|e }} {{ values.text|safe }}"
    "{% autoescape false %} off:{{ values.text }}{{ values.markup }}{% endautoescape %}"
    "{% autoescape on_now %} runs:{{ values.text }}{{ values.plain }}{% endautoescape %}"
    " {% set kept %}{{ values.text }}{% endset %}{{ kept }}"
)


class Ours(Environment):
    """A plain Jinja environment with the app's calls and escaping (the app's own is
    Flask's, which needs an app)."""

    context_class = QuickContext
    code_generator_class = templating.EscapingCodeGenerator
    escaped = staticmethod(templating.escaped)


@pytest.mark.parametrize("autoescape", [True, False], ids=["escaped", "unescaped"])
@pytest.mark.parametrize("on_now", [True, False], ids=["decided-on", "decided-off"])
def test_every_kind_of_value_is_escaped_as_jinja_escapes_it(autoescape, on_now):
    ours = Ours(autoescape=autoescape)
    jinjas = Environment(autoescape=autoescape)
    page = ours.from_string(OUTPUT).render(values=VALUES, on_now=on_now)
    assert page == jinjas.from_string(OUTPUT).render(values=VALUES, on_now=on_now)
    if autoescape:
        assert "text=&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;;" in page
        assert "markup=<b>bold</b> &amp;;" in page and "shown=<i>own</i>;" in page
        assert "number=-42;" in page and "subtext=&lt;s&gt;;" in page
    assert "off:<a href='x'>&</a>" in page
    assert ("runs:&lt;a" if on_now else "runs:<a") in page


def test_each_kind_of_value_escapes_to_markupsafes_answer():
    from markupsafe import escape

    for value in VALUES.values():
        assert templating.escaped(value) == escape(value)
        assert type(templating.escaped(value)) is Markup


def test_the_apps_templates_use_them(app):
    assert app.jinja_env.context_class is QuickContext
    assert app.jinja_env.code_generator_class is templating.EscapingCodeGenerator
    source = app.jinja_env.compile("{{ x }}", raw=True)
    assert "environment.escaped(" in source


def test_the_apps_templates_are_kept_in_a_plain_dictionary(app):
    """Found again without Jinja's LRU list (the app's templates are a fixed set): the same
    compiled template each time."""
    env = app.jinja_env
    assert type(env.cache) is dict
    first = env.get_template("base.html")
    assert env.get_template("base.html") is first
    assert any(name == "base.html" for _loader, name in env.cache)


def _sample_values(rule) -> dict:
    """Values for each of a rule's arguments, as its converter takes them."""
    values = {}
    for name in rule.arguments:
        number = isinstance(rule._converters[name], NumberConverter)
        values[name] = 7 if number else "css"
    return values


def _every_build(app, url_for) -> list[str]:
    built = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda rule: rule.rule):
        if rule.endpoint == "static" or "any" in rule.rule:
            continue
        values = _sample_values(rule)
        built.append(url_for(rule.endpoint, **values))
        built.append(url_for(rule.endpoint, _anchor="now here", **values))
        built.append(url_for(rule.endpoint, page=2, **values))  # a query argument
    return built


def test_the_templates_addresses_are_flasks_own(app):
    """Every endpoint of the app, with an anchor and with a query argument, under the app's
    root and then under a prefix (SCRIPT_NAME, behind a proxy): the kept addresses are the
    ones Flask builds, asked once or twice, and each prefix keeps its own."""
    kept = app.jinja_env.globals["url_for"]
    assert kept is not app.url_for
    for root in ("", "/scorekeeper", ""):
        with app.test_request_context("/", base_url=f"http://localhost{root}/"):
            flasks = _every_build(app, app.url_for)
            assert len(flasks) > 150
            assert _every_build(app, kept) == flasks
            assert _every_build(app, kept) == flasks  # the second time, as kept
            assert all(address.startswith(f"{root}/") for address in flasks)
            assert kept("games.show", game_id=3, _anchor="now") == f"{root}/games/3#now"


def test_addresses_that_are_not_kept_are_flasks_own(app):
    kept = app.jinja_env.globals["url_for"]
    with app.test_request_context("/games/", base_url="https://cards.example/"):
        external = kept("games.show", game_id=3, _external=True)
        assert external == app.url_for("games.show", game_id=3, _external=True)
        assert external == "https://cards.example/games/3"
        assert kept("games.show", game_id=3) == "/games/3"  # the same values, inside the app
        listed = kept("games.index", player=["Ann", "Ben"])  # a value that cannot be a key
        assert listed == app.url_for("games.index", player=["Ann", "Ben"])
        assert "player=Ann" in listed and "player=Ben" in listed
        assert kept(".index") == app.url_for(".index") == "/games/"  # the blueprint's own
    with app.test_request_context("/"), pytest.raises(BuildError):
        kept("games.show")  # a missing value: Flask's error, nothing kept
    with app.test_request_context("/", base_url="https://other.example/"):
        assert kept("games.show", game_id=3, _external=True) == "https://other.example/games/3"
