"""The evaluators' derived tables read from the cache are the tables built
at import, and a damaged file is never used."""

from __future__ import annotations

import numpy as np
import pytest

from anaconda_sim import _table_cache
from anaconda_sim.hands import lookup, low


def _in_use(name: str) -> dict:
    """The tables the evaluators of this process hold."""
    if name == "evaluator":
        return {k: getattr(lookup, k) for k in lookup._build()}
    return {"RANK_TABLE": low._LOW_RANK_TABLE, "FIVE_TABLE": low._LOW_FIVE_TABLE,
            "CLASS_INFO": low.LOW_CLASS_INFO, "CATEGORY_START": low.LOW_CATEGORY_START}


@pytest.mark.parametrize(("name", "module"), [("evaluator", lookup), ("low", low)])
def test_the_tables_in_use_are_the_tables_built_now(name, module):
    # whether this process read them from the cache or built them
    built, in_use = module._build(), _in_use(name)
    assert in_use.keys() == built.keys()
    for key, table in built.items():
        if key == "CLASS_INFO":
            assert in_use[key] == table
            assert all(type(c) is int and all(type(r) is int for r in ranks)
                       for c, ranks in in_use[key])  # fmt: skip
        else:
            assert in_use[key].dtype == table.dtype and np.array_equal(in_use[key], table), key
    # and what the next process reads is what is built now
    path = _table_cache.table_path(name)
    if path is not None:  # the cache is on
        stored = _table_cache._read(path)
        assert stored is not None
        expected = lookup._as_arrays(module._build())
        assert stored.keys() == expected.keys()
        for key, table in expected.items():
            assert stored[key].dtype == table.dtype and np.array_equal(stored[key], table), key


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(_table_cache, "cache_folder", lambda: tmp_path)
    return tmp_path


def _build_counting(calls: list[int]):
    def build():
        calls.append(1)
        return {"squares": np.arange(5, dtype=np.int64) ** 2, "flags": np.array([1, 0], np.uint8)}
    return build


def test_built_once_then_read(cache):
    calls: list[int] = []
    first = _table_cache.cached_arrays("t", _build_counting(calls))
    again = _table_cache.cached_arrays("t", _build_counting(calls))
    assert len(calls) == 1
    assert first.keys() == again.keys()
    assert all(np.array_equal(first[k], again[k]) and first[k].dtype == again[k].dtype
               for k in first)  # fmt: skip
    assert list(cache.glob("*.tmp")) == []


@pytest.mark.parametrize("damage", ["truncated", "garbage", "altered", "no digest", "empty"])
def test_a_damaged_file_is_built_again_never_read(cache, damage):
    calls: list[int] = []
    _table_cache.cached_arrays("t", _build_counting(calls))
    path = _table_cache.table_path("t")
    assert path is not None and path.exists()
    if damage == "truncated":
        path.write_bytes(path.read_bytes()[:-40])
    elif damage == "garbage":
        path.write_bytes(b"not a table file")
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        with np.load(path) as stored:
            digest = stored["__sha256__"]
        arrays = {"squares": np.arange(5, dtype=np.int64) ** 2 + (damage == "altered"),
                  "flags": np.array([1, 0], np.uint8)}  # fmt: skip
        if damage == "altered":  # same digest, one number changed
            arrays["__sha256__"] = digest
        np.savez(path, **arrays)
    got = _table_cache.cached_arrays("t", _build_counting(calls))
    assert len(calls) == 2  # built again
    assert got["squares"].tolist() == [0, 1, 4, 9, 16]
    # and the file is whole again
    assert _table_cache._read(path) is not None


def test_an_unwritable_folder_or_no_cache_still_gives_the_tables(tmp_path, monkeypatch):
    calls: list[int] = []
    monkeypatch.setattr(_table_cache, "cache_folder", lambda: None)
    assert _table_cache.cached_arrays("t", _build_counting(calls))["squares"][-1] == 16
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder should be")
    monkeypatch.setattr(_table_cache, "cache_folder", lambda: blocked / "cache")
    assert _table_cache.cached_arrays("t", _build_counting(calls))["squares"][-1] == 16
    assert len(calls) == 2


def test_the_hand_class_lookup_in_use_is_the_one_built_now():
    from anaconda_sim.hands import classes

    built = classes._built_lookup()
    assert classes._lookup().dtype == built.dtype and np.array_equal(classes._lookup(), built)
    path = _table_cache.table_path("hand-classes")
    if path is not None:  # the cache is on
        stored = _table_cache._read(path)
        assert stored is not None and np.array_equal(stored["lookup"], built)
    # one hand's class in Python (no kernel) is the kernel's, for every hand drawn
    hands = np.array([np.random.default_rng(i).choice(52, 7, replace=False)
                      for i in range(2000)])  # fmt: skip
    assert [classes.class_id(h.tolist()) for h in hands] == classes.class_ids(hands).tolist()
