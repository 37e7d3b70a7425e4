"""The "learned" pass reads its scores from tables derived from the pass
weights (anaconda_sim/strategies/learned/passtables.py: the kept four's terms by
rank multiset and suit class, each gift term by the passed three's code).

The tables must give every pass the score it had before, bit for bit, and
so the same pass, ties included: each entry is checked against the features
of pass_features_of added in the same order, and the kernel with its tables
against the previous kernel (tests/twins/learned_reference.py) on the hands
and parameter vectors of test_decisions_exact.py. The tables are derived,
never given: Strategy.param_array builds them, a row whose weights changed
after they were built is scored in full, and nothing a user writes or reads
holds them.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from decision_samples import hold, parameter_vectors, passes_of, random_hands
from learned_reference import reference_pass
from numba import njit

from anaconda_sim.strategies import get_strategy
from anaconda_sim.strategies.kinds import PARAM_SLOTS
from anaconda_sim.strategies.learned.params import (
    GIFT_CODES,
    GIFT_TABLE0,
    GIFT_TABLE_SIZE,
    KEPT_MULTISETS,
    KEPT_TABLE0,
    LEARNED_SLOTS,
    N_KEPT,
    N_PASS,
    PASS_STAMP0,
    PASS_TABLES_END,
    TABLE0,
    WIN_TABLE_SIZE,
)
from anaconda_sim.strategies.learned.passtables import fill_pass_tables, gift_code, kept_index
from anaconda_sim.strategies.learned.play import pass_features_of, pass_learned, passes_learned
from anaconda_sim.table import views as V


def _vectors() -> list[tuple[str, np.ndarray]]:
    """test_decisions_exact.py's vectors, each with its pass tables."""
    vectors = parameter_vectors(LEARNED_SLOTS)
    for _, v in vectors:
        fill_pass_tables(v)
    return vectors


VECTORS = _vectors()
_hands = random_hands
_passes = passes_of


@pytest.mark.slow  # 2.8 million decisions against their twin
@pytest.mark.parametrize(("name", "params"), VECTORS, ids=[name for name, _ in VECTORS])
def test_the_pass_by_table_is_the_first_best_of_all_35(name: str, params: np.ndarray) -> None:
    hands = _hands(1)
    fast = _passes(pass_learned, hands, params)
    full = _passes(reference_pass, hands, params)
    differ = np.flatnonzero((fast != full).any(axis=1))
    assert differ.size == 0, (name, hands[differ[:3]].tolist())


def _table_score(params: np.ndarray, hand: np.ndarray, passed_at: tuple[int, ...]) -> float:
    """A pass's score read off the tables, as the kernel reads it."""
    kept = [int(c) for i, c in enumerate(hand) if i not in passed_at]
    passed = [int(hand[i]) for i in passed_at]
    most = max(sum(c & 3 == s for c in kept) for s in range(4))
    suit_class = 2 if most == 4 else (1 if most == 3 else 0)
    row = suit_class * KEPT_MULTISETS + kept_index(tuple(sorted(c >> 2 for c in kept)))
    pairs = list(itertools.combinations(passed, 2))
    code = gift_code(sum(a & 3 == b & 3 for a, b in pairs), sum(a >> 2 == b >> 2 for a, b in pairs),
                     sum(1 <= abs((a >> 2) - (b >> 2)) <= 2 for a, b in pairs))  # fmt: skip
    score = float(params[KEPT_TABLE0 + row])
    for f in range(3):
        score += float(params[GIFT_TABLE0 + f * GIFT_CODES + code])
    return score + float(params[GIFT_TABLE0 + 3 * GIFT_CODES + sum(c >> 2 for c in passed)])


def test_table_scores_are_the_feature_sums_bit_for_bit() -> None:
    """Every table read gives the score of the features added term by term
    in weight order, to the last bit (whole-number weights make many exact
    ties, random ones many roundings)."""
    hands = _hands(3, 300).astype(np.int64)
    features = np.empty((35, N_PASS))
    for name in ("shipped 6p", "random 0", "random 3", "whole 1"):
        params = dict(VECTORS)[name]
        for hand in hands:
            pass_features_of(hand, features)
            for k, passed_at in enumerate(itertools.combinations(range(7), 3)):
                score = params[0] * features[k, 0]
                for f in range(1, N_PASS):
                    score += params[f] * features[k, f]
                assert _table_score(params, hand, passed_at) == score, (name, hand, passed_at)


def test_kept_index_numbers_every_multiset_of_four_ranks_once() -> None:
    indices = {kept_index(r) for r in itertools.combinations_with_replacement(range(13), 4)}
    assert indices == set(range(KEPT_MULTISETS))


def test_a_row_whose_weights_changed_is_scored_in_full() -> None:
    """The tables are read only while their stamp equals the weights: a row
    changed after it was built, or one too short to hold them, is scored
    from its weights, and passes as the previous kernel does."""
    hands = _hands(4, 20_000)
    params = dict(VECTORS)["shipped 6p"].copy()
    params[:N_PASS] = dict(VECTORS)["whole 0"][:N_PASS]  # the tables are the 6-player ones
    assert not np.array_equal(params[PASS_STAMP0 : PASS_STAMP0 + N_PASS], params[:N_PASS])
    full = _passes(reference_pass, hands, params)
    assert (_passes(pass_learned, hands, params) == full).all()
    assert (_passes(pass_learned, hands, params[: TABLE0 + WIN_TABLE_SIZE].copy()) == full).all()
    fill_pass_tables(params)
    assert (_passes(pass_learned, hands, params) == full).all()


def test_strategies_build_their_tables_and_keep_none() -> None:
    """Strategy.param_array derives the tables from the weights it holds;
    the strategy itself (its spec, equality, hash) holds only the named
    parameters."""
    assert LEARNED_SLOTS <= PARAM_SLOTS
    for players in (2, 6):
        row = get_strategy("learned").param_array(players)
        fresh = row.copy()
        fresh[PASS_STAMP0:PASS_TABLES_END] = 0.0
        fill_pass_tables(fresh)
        assert np.array_equal(row, fresh)
        assert row[PASS_STAMP0 : PASS_STAMP0 + N_PASS].tolist() == row[:N_PASS].tolist()
    tuned = get_strategy("learned", w_gift_high=-1.5, w_pairs=3.0)
    row = tuned.param_array(4)
    assert row[PASS_STAMP0 : PASS_STAMP0 + N_KEPT].tolist() == row[:N_KEPT].tolist()
    assert row[GIFT_TABLE0 + GIFT_TABLE_SIZE - 1] == -1.5  # w_gift_high times 36 / 36
    assert tuned.spec() == "learned:w_pairs=3,w_gift_high=-1.5"
    assert tuned == get_strategy(tuned.spec()) and hash(tuned) == hash(get_strategy(tuned.spec()))
    assert len(tuned.params) == 2


@njit(cache=False)
def _packet_answers(hands, params):  # type: ignore[no-untyped-def]
    """For each hand and each of its 35 packets (three of the seven, in
    ``itertools.combinations`` order of hand positions): ``passes_learned``'s
    answer, and whether that packet is ``pass_learned``'s pass."""
    fast = np.zeros((hands.shape[0], 35), dtype=np.bool_)
    made = np.zeros((hands.shape[0], 35), dtype=np.bool_)
    own = np.zeros(V.OWN_SIZE, dtype=np.int32)
    out = np.zeros(3, dtype=np.int64)  # int64, as the kernels pass them
    packet = np.zeros(3, dtype=np.int64)
    for h in range(hands.shape[0]):
        hold(own, hands[h])
        pass_learned(own, params, out)
        t = 0
        for a in range(7):
            for b in range(a + 1, 7):
                for c in range(b + 1, 7):
                    # a packet in any order of its cards
                    packet[0], packet[1], packet[2] = hands[h, c], hands[h, a], hands[h, b]
                    fast[h, t] = passes_learned(own, params, packet)
                    hits = 0
                    for i in range(3):
                        for j in range(3):
                            hits += out[i] == packet[j]
                    made[h, t] = hits == 3
                    t += 1
    return fast, made


@pytest.mark.parametrize(("name", "params"), VECTORS, ids=[name for name, _ in VECTORS])
def test_whether_a_packet_is_the_pass_is_answered_as_making_it(name: str, params: np.ndarray):
    """passes_learned (the showdown model's posterior draws) against making
    the pass and comparing: every one of the 35 packets of 100,000 random
    hands for the six-player field's weights, 20,000 for every other vector
    (whole-number weights tie often: the first best pass wins)."""
    hands = _hands(7, 100_000 if name == "shipped 6p" else 20_000)
    fast, made = _packet_answers(hands, params)
    assert (made.sum(axis=1) == 1).all()  # one pass a hand
    differ = np.flatnonzero((fast != made).any(axis=1))
    assert differ.size == 0, (name, hands[differ[:3]].tolist())


def test_a_packet_is_answered_without_the_tables_and_for_cards_not_held():
    own = np.zeros(V.OWN_SIZE, dtype=np.int32)
    hand = _hands(8, 1)[0]
    own[V.O_NCARDS] = 7
    own[V.O_CARDS : V.O_CARDS + 7] = hand
    params = dict(VECTORS)["random 1"].copy()
    params[0] += 0.5  # the weights changed after the tables: scored in full
    out = np.zeros(3, dtype=np.int64)
    pass_learned(own, params, out)
    assert passes_learned(own, params, out)
    assert passes_learned(own, params, out[::-1].copy())
    assert not passes_learned(own, params, np.array([out[0], out[1], 52], dtype=np.int64))
    assert not passes_learned(own, params, np.array([out[0], out[0], out[1]], dtype=np.int64))
