"""The learned pass read off its table of hand classes
(anaconda_sim/strategies/learned/passclass.py) against the search it
replaces (R7): the same three cards on random hands, the classes against a
plain twin, and the table chosen only for the weights it was built for."""

from __future__ import annotations

import hashlib
import itertools

import numba
import numpy as np
import pytest
from numba import njit

from anaconda_sim import _table_cache as table_cache
from anaconda_sim._table_cache import table_path
from anaconda_sim.strategies import get_strategy
from anaconda_sim.strategies.kinds import KIND_LEARNED, KIND_SENSIBLE, kernel_extras
from anaconda_sim.strategies.learned import passclass
from anaconda_sim.strategies.learned.params import N_PASS, W0
from anaconda_sim.strategies.learned.passclass import (
    BUILD_DEALS,
    CLASSES,
    NO_TABLE,
    SEARCH,
    class_of_cards,
    learned_extras,
    pass_learned_by_class,
    pass_table,
)
from anaconda_sim.strategies.learned.play import pass_learned
from anaconda_sim.table import views as V


def _random_hands(seed: int, rows: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((rows, 52)), axis=1)[:, :7].astype(np.int32)


@njit(cache=False)
def _passes(hands, params, learned):
    """Each hand's pass by the search and by the table: two (rows, 3) arrays."""
    own = np.full(V.OWN_SIZE, -1, dtype=np.int32)
    own[V.O_NCARDS] = 7
    searched = np.empty((hands.shape[0], 3), dtype=np.int64)
    read = np.empty((hands.shape[0], 3), dtype=np.int64)
    out = np.empty(3, dtype=np.int64)
    for i in range(hands.shape[0]):
        for j in range(7):
            own[V.O_CARDS + j] = hands[i, j]
        pass_learned(own, params, out)
        searched[i] = out
        pass_learned_by_class(own, params, learned, out)
        read[i] = out
    return searched, read


@njit(cache=False)
def _classes(hands):
    out = np.empty(hands.shape[0], dtype=np.int64)
    for i in range(hands.shape[0]):
        out[i] = class_of_cards(hands[i])
    return out


def _naive_class(hand: np.ndarray) -> tuple[int, ...]:
    """A hand's class, plainly: the multiset of its suits' rank sets."""
    sets = [sum(1 << (int(c) >> 2) for c in hand if int(c) & 3 == suit) for suit in range(4)]
    return tuple(sorted(sets))


def test_renamed_suits_give_the_same_class_and_only_they_do():
    hands = _random_hands(21, 3000)
    classes = _classes(hands)
    assert ((classes >= 0) & (classes < CLASSES)).all()
    for permutation in itertools.permutations(range(4)):
        renamed = (hands & ~3) | np.array(permutation, dtype=np.int32)[hands & 3]
        assert np.array_equal(_classes(renamed), classes)
    # the same class exactly when the twin's multisets of rank sets agree
    naive = [_naive_class(hand) for hand in hands]
    by_class: dict[int, tuple[int, ...]] = {}
    for c, twin in zip(classes.tolist(), naive, strict=True):
        assert by_class.setdefault(c, twin) == twin
    assert len(set(by_class.values())) == len(by_class)


@pytest.mark.parametrize(("players", "hands"), [(6, 200_000), (3, 100_000)])
def test_R7_the_table_passes_what_the_search_passes(players, hands):
    """Every pass of at least 100,000 random hands per table, ties (the
    table's SEARCH entries) included."""
    params = get_strategy("learned").param_array(players)
    learned = learned_extras([KIND_LEARNED], params, BUILD_DEALS)
    assert len(learned[1]) == CLASSES
    sample = _random_hands(players, hands)
    searched, read = _passes(sample, params, learned)
    assert np.array_equal(searched, read)
    entries = learned[1][_classes(sample)]
    assert (entries == SEARCH).sum() > 100  # the searched classes are exercised too
    three_of_seven = [mask for mask in range(128) if bin(mask).count("1") == 3]
    assert np.isin(entries[entries != SEARCH], three_of_seven).all()


def test_a_table_serves_only_the_weights_it_was_built_for():
    params = get_strategy("learned").param_array(6)
    learned = learned_extras([KIND_LEARNED], params, BUILD_DEALS)
    other = params.copy()
    other[W0 + 1] += 0.75  # another kept-pair weight: other passes
    sample = _random_hands(5, 20_000)
    searched, read = _passes(sample, other, learned)
    assert np.array_equal(searched, read)  # the table was not read for them
    table_passes = _passes(sample, params, learned)[1]
    assert not np.array_equal(read, table_passes)  # and it would have given others
    assert learned_extras([KIND_LEARNED], other, BUILD_DEALS) is NO_TABLE  # not a tabled one's


def test_which_tables_have_a_table():
    learned6 = get_strategy("learned").param_array(6)
    sensible = get_strategy("sensible").param_array(6)
    weights, table = learned_extras([KIND_SENSIBLE, KIND_LEARNED], np.stack([sensible, learned6]),
                                    BUILD_DEALS)
    assert np.array_equal(weights, learned6[W0 : W0 + N_PASS]) and len(table) == CLASSES
    assert learned_extras([KIND_SENSIBLE], sensible) is NO_TABLE
    assert learned_extras([KIND_LEARNED], None) is NO_TABLE
    # the hi-lo rules: no learned pass, no table
    assert kernel_extras(True, [KIND_LEARNED], learned6) == (True, NO_TABLE)
    hilo, (_, table2) = kernel_extras(False, [KIND_LEARNED], learned6)  # built: read
    assert hilo is None and table2 is table
    # one argument type whatever the table: one compiled set of kernels
    assert numba.typeof(NO_TABLE) == numba.typeof((weights, table))


def test_a_table_is_kept_in_the_cache_folder():
    params = get_strategy("learned").param_array(5)
    table = pass_table(params)
    digest = hashlib.sha256(np.ascontiguousarray(params[W0 : W0 + N_PASS]).tobytes()).hexdigest()
    path = table_path(f"learned-pass-{digest[:16]}")
    if path is not None:  # the cache is on
        with np.load(path) as stored:
            assert np.array_equal(stored["table"], table)


def test_a_small_call_reads_a_kept_table_and_builds_none(tmp_path, monkeypatch):
    """Below BUILD_DEALS deals a missing table is not built (the call
    searches); one the cache folder holds is read."""
    params = get_strategy("learned").param_array(7)
    weights = params[W0 : W0 + N_PASS].tobytes()
    monkeypatch.setattr(passclass, "_TABLES", {})
    monkeypatch.setattr(table_cache, "cache_folder", lambda: tmp_path)  # an empty folder
    assert learned_extras([KIND_LEARNED], params, BUILD_DEALS - 1) is NO_TABLE
    assert weights not in passclass._TABLES and not list(tmp_path.iterdir())
    built = learned_extras([KIND_LEARNED], params, BUILD_DEALS)[1]
    assert len(list(tmp_path.iterdir())) == 1
    monkeypatch.setattr(passclass, "_TABLES", {})
    read = learned_extras([KIND_LEARNED], params, 1)[1]  # kept: read, not built
    assert np.array_equal(read, built)
