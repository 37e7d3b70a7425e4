"""The registry of analysis kinds states what the real functions take: the
same keyword-only options, in the same order, with the same defaults (so
the command line, the main job and sweeps, which read the registry, cannot
drift from the functions)."""

from __future__ import annotations

import inspect

import pytest

import anaconda_sim.analysis as analysis
from anaconda_sim.analysis import driver, registry
from anaconda_sim.analysis.request import Request
from anaconda_sim.cli.parser import OPTIONS
from anaconda_sim.sweep import spec


@pytest.mark.parametrize("kind", registry.KINDS, ids=registry.NAMES)
def test_each_kind_states_its_functions_options(kind):
    function = kind.load()
    assert function is getattr(analysis, kind.function_name)  # the public name, lazily
    parameters = inspect.signature(function).parameters
    assert list(parameters)[:2] == ["hand", "players"]
    keywords = {name: p.default for name, p in parameters.items()
                if p.kind is inspect.Parameter.KEYWORD_ONLY and name != "request"}  # fmt: skip
    # the sampling keywords come last, as one Request or as keywords
    assert list(parameters)[-2:] == ["request", "keywords"]
    assert parameters["keywords"].kind is inspect.Parameter.VAR_KEYWORD
    keywords |= Request.keywords()
    assert dict(kind.options) == keywords
    assert list(kind.options) == list(keywords)  # and in signature order
    assert set(keywords) <= set(OPTIONS), "a keyword without a command-line option"


def test_the_registry_agrees_with_the_driver_and_the_charts():
    from anaconda_sim.output import plots

    assert registry.DEFAULT_DEALS == driver.DEFAULT_DEALS
    assert registry.SAMPLING["max_deals"] == driver.DEFAULT_MAX_DEALS
    # every analysis records its public function in its table's model
    # the same functions; the reveal kind's tables name their decision "order"
    assert sorted(k.function_name for k in registry.KINDS) == sorted(driver.FUNCTIONS.values())
    for kind in registry.KINDS:
        assert callable(getattr(plots, kind.chart))


def test_sweeps_read_their_kinds_from_the_registry():
    assert spec.KINDS == tuple(k.name for k in registry.KINDS if k.sweep)
    assert set(spec.HAND_SIZES) == set(spec.KINDS)
    for name in spec.KINDS:
        assert spec.HAND_SIZES[name] == registry.kind(name).hand_sizes


def test_an_unknown_kind_is_refused_with_the_names():
    with pytest.raises(ValueError, match="'fold' is not an analysis; use one of equity, pass"):
        registry.kind("fold")
