"""The import graph of ``scorekeeper`` (grimp's view, as import-linter sees it: imports inside
functions and under ``TYPE_CHECKING`` count too) has no circles, and no game depends on another.

``make lint`` checks the layers with import-linter (the contracts in pyproject.toml); these
tests say the same of every module and every installed game, with nothing listed by hand.
"""

from __future__ import annotations

from itertools import permutations

import grimp
import pytest

from scorekeeper.games.registry import INSTALLED


def build():
    return grimp.build_graph("scorekeeper", include_external_packages=False, cache_dir=None)


@pytest.fixture(scope="module")
def graph():
    return build()


def circles(graph) -> list[tuple[str, ...]]:
    """For each direct import a -> b, the shortest chain b -> ... -> a back, when there is one."""
    found = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back:
                found.append((importer, *back))
    return found


def test_the_import_graph_has_no_circles(graph):
    assert len(graph.modules) > 50  # the whole app was read
    assert circles(graph) == []


def test_a_circle_is_found_when_there_is_one():
    """The check itself can fail: the circle of issue 19 (the rules' base importing the app's
    refusal, which imports the base back) is found once it is put back."""
    graph = build()
    graph.add_import(importer="scorekeeper.games.base", imported="scorekeeper.errors")
    found = circles(graph)
    assert ("scorekeeper.games.base", "scorekeeper.errors", "scorekeeper.games.base") in found


def test_the_type_checking_imports_are_in_the_graph(graph):
    """``errors`` names the games' types under ``TYPE_CHECKING`` only: grimp counts it."""
    assert graph.direct_import_exists(
        importer="scorekeeper.errors", imported="scorekeeper.games.base"
    )


@pytest.mark.parametrize("first,second", list(permutations(INSTALLED, 2)))
def test_no_game_imports_another(graph, first, second):
    assert not graph.chain_exists(
        importer=f"scorekeeper.games.{first}",
        imported=f"scorekeeper.games.{second}",
        as_packages=True,
    )


def test_the_games_import_nothing_of_the_app(graph):
    games = {"scorekeeper.games", *graph.find_descendants("scorekeeper.games")}
    outside = {
        (module, imported)
        for module in games
        for imported in graph.find_modules_directly_imported_by(module)
        if imported not in games
    }
    assert outside == set()
