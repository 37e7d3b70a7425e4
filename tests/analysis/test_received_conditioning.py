"""The showdown model after the pass conditions the right neighbour on the
packet it passed (R7): named received cards say what else it held.

A deterministic pass (``"sensible"``, ``"call-down"``) passes the named three
from some sevens only; the kernels deal the right neighbour one of the fours
with which it does (``right_fours``), uniformly. Unnamed, the packet is three
of the hero's seven held cards and is drawn with the neighbour's four from
their posterior. A uniformly random pass passes any three with the same
probability, so nothing changes for it.
"""

from __future__ import annotations

import itertools
import math

import naive_showdown
import numpy as np
import pandas as pd
import pytest

from anaconda_sim.analysis import discard_values, equity, reveal_values
from anaconda_sim.cards import mask_from_cards, parse_cards
from anaconda_sim.rng import root_key
from anaconda_sim.sim.models import ReceivedCondition, pub_at_pass
from anaconda_sim.strategies import get_strategy
from anaconda_sim.table import views as V

SENSIBLE = get_strategy("sensible")
HAND = "K♠ K♥ 8♦ 7♣ 2♣ 3♦ 4♥"
PASSED = "J♣ 9♥ 5♠"
TRASH = "2♣ 3♦ 4♥"


def _passes(strategy, pub, seat, seven, received) -> bool:
    own = V.new_own(seat)
    own[V.O_NCARDS] = 7
    own[V.O_CARDS : V.O_CARDS + 7] = seven
    chosen = strategy.decide_pass(pub, own, np.zeros(1, dtype=np.uint64))
    return set(chosen.tolist()) == set(received)


@pytest.mark.parametrize("rules", ["pagat", "hi-lo"])
@pytest.mark.parametrize("received", [TRASH, "8♦ 7♣ 4♥", "K♠ K♥ 8♦"])
def test_R7_right_fours_are_exactly_the_fours_that_pass_received(rules, received):
    """Exhaustive on a reduced deck: the kernel's table is every four with
    which Strategy.decide_pass gives exactly the received three."""
    hand = parse_cards(HAND)
    rec = parse_cards(received)
    # 24 cards out of play (the hand and 17 more) leave 28 unseen: C(28, 4) fours
    dead = [c for c in range(52) if c not in hand][:34:2]
    known = mask_from_cards(hand + dead)
    unseen = [c for c in range(52) if c not in hand + dead]
    pub = pub_at_pass(3, rules)
    condition = ReceivedCondition.of(pub, SENSIBLE, known, rec)
    expected = {
        four for four in itertools.combinations(unseen, 4)
        if _passes(SENSIBLE, pub, 2, list(four) + rec, rec)
    }  # fmt: skip
    got = {tuple(int(c) for c in row[:4]) for row in condition.fours}
    packets = {tuple(sorted(int(c) for c in row[4:])) for row in condition.fours}
    assert packets <= {tuple(sorted(rec))}
    assert got == expected
    assert len(got) == len(condition.fours)  # no four twice
    assert condition.acceptance == pytest.approx(len(expected) / math.comb(len(unseen), 4))


def test_random_passes_are_not_conditioned():
    """A uniform pass has the same likelihood 1/35 for every seven: no table."""
    pub, known = pub_at_pass(4), mask_from_cards(parse_cards(HAND))
    for name in ("random", "random-pass"):
        condition = ReceivedCondition.of(pub, get_strategy(name), known, parse_cards(TRASH))
        assert condition.fours.shape == (0, 7) and condition.acceptance is None
        assert not condition.posterior
    unnamed = ReceivedCondition.of(pub, SENSIBLE, 0, None)
    assert unnamed.fours.shape == (0, 7) and unnamed.acceptance is None and unnamed.posterior


def _kept_fours(players, received, deals, seed):
    """The right neighbour's kept four of ``deals`` deals, straight from the kernel."""
    from anaconda_sim.sim.kernels.showdown import opponents_after_pass
    from anaconda_sim.strategies import kernel_extras

    hand = parse_cards(HAND)
    known = mask_from_cards(hand + parse_cards(PASSED))
    pub = pub_at_pass(players)
    rec = parse_cards(received)
    condition = ReceivedCondition.of(pub, SENSIBLE, known, rec)
    kinds = np.full(players, SENSIBLE.kind, dtype=np.int64)
    params = np.stack([SENSIBLE.param_array()] * players)
    key = root_key(seed)
    fours = np.empty((deals, 4), dtype=np.int64)
    for deal in range(deals):
        owns = np.full((players, V.OWN_SIZE), -1, dtype=np.int32)
        kept = np.empty((players, 4), dtype=np.int64)
        packets = np.empty((players, 3), dtype=np.int64)
        states = np.empty((players, 1), dtype=np.uint64)
        opponents_after_pass(
            key, deal, players, pub, kinds, params, known, np.array(rec, dtype=np.int64),
            condition.fours, 0, np.full(7, -1, dtype=np.int64), owns, kept, packets, states,
            np.empty(52, dtype=np.int64),
            np.empty(7, dtype=np.int64), np.empty(7, dtype=np.int64),
            np.empty(1, dtype=np.uint64), *kernel_extras(False, kinds),
        )  # fmt: skip
        fours[deal] = kept[players - 1]
        dealt = [c for s in range(1, players) for c in kept[s]] + packets[1:-1].ravel().tolist()
        assert len(set(dealt)) == len(dealt) and not set(dealt) & (set(hand) | set(rec))
    return fours, condition


def test_R7_kernel_kept_four_follows_the_conditional_law():
    """Every kept four passes the received three, and each unseen card is in
    it as often as in the exact conditional law (4 standard errors)."""
    rec = parse_cards(TRASH)
    pub = pub_at_pass(3)
    deals = 4000
    fours, condition = _kept_fours(3, TRASH, deals, seed=21)
    for four in fours[:300]:
        assert _passes(SENSIBLE, pub, 2, four.tolist() + rec, rec)
    table = condition.fours[:, :4].astype(np.int64)
    for card in range(52):
        p = np.isin(table, card).any(axis=1).mean()
        p_hat = np.isin(fours, card).any(axis=1).mean()
        tolerance = 4 * math.sqrt(p * (1 - p) / deals) + 1e-12
        assert abs(p_hat - p) <= tolerance, (card, p_hat, p)


@pytest.mark.parametrize("players", [2, 3])
def test_R7_equity_after_pass_agrees_with_rejection_twin(players):
    """The kernel's equity after a named pass agrees with plain rejection
    sampling in Python within 4 combined standard errors."""
    hand, passed, rec = parse_cards(HAND), parse_cards(PASSED), parse_cards(TRASH)
    twin, accepted = naive_showdown.received_shares(hand, players, passed, rec, SENSIBLE,
                                                    deals=6000, seed=31)  # fmt: skip
    row = equity(HAND, players, passed=PASSED, received=TRASH, opponents="sensible",
                 deals=60_000, seed=32)  # fmt: skip
    twin_se = twin.std(ddof=1) / math.sqrt(len(twin))
    tolerance = 4 * math.hypot(twin_se, row["se"].item())
    assert abs(row["value"].item() - twin.mean()) < tolerance
    # the twin's share of accepted shuffles estimates the exact acceptance
    acceptance = row.attrs["received_acceptance"]
    assert abs(accepted - acceptance) < 4 * math.sqrt(acceptance * (1 - acceptance) / 16_000)


def test_R7_received_trash_means_a_stronger_right_neighbour():
    """A sensible neighbour that passed 2♣ 3♦ 4♥ held hardly any other 2, 3
    or 4 (only beside trips, breaking a pair of them): heads-up, the hero's
    kings win far less often than against a random four."""
    named = equity(HAND, 2, passed=PASSED, received=TRASH, opponents="sensible", deals=40_000,
                   seed=4)  # fmt: skip
    # the same packet from a neighbour passing at random tells nothing: a random four
    unconditioned = equity(HAND, 2, passed=PASSED, received=TRASH, opponents="random-pass",
                           deals=40_000, seed=4)  # fmt: skip
    gap = unconditioned["value"].item() - named["value"].item()
    assert gap > 4 * math.hypot(named["se"].item(), unconditioned["se"].item())
    assert 0.3 < named.attrs["received_acceptance"] < 0.45
    assert unconditioned.attrs["received_acceptance"] is None
    # a random four of the 42 unseen cards holds one of the nine other 2s, 3s
    # and 4s with probability 1 - C(33, 4) / C(42, 4), about 0.65
    fours, _ = _kept_fours(2, TRASH, 500, seed=5)
    assert (fours // 4 < 3).any(axis=1).mean() < 0.05


def test_same_seed_same_numbers_any_batch_or_threads():
    import numba

    kwargs = dict(passed=PASSED, received=TRASH, opponents="sensible", deals=5000, seed=9)
    a = discard_values(HAND, 4, batch_size=1000, **kwargs)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        b = discard_values(HAND, 4, batch_size=4096, **kwargs)
    finally:
        numba.set_num_threads(before)
    pd.testing.assert_frame_equal(a, b)
    assert a.attrs["received_acceptance"] == b.attrs["received_acceptance"]


@pytest.mark.parametrize("opponents", ["random-pass", ["sensible", "random-pass"]])
def test_random_pass_right_neighbour_unchanged(opponents):
    """With a uniformly passing right neighbour the named cards change no number."""
    kwargs = dict(passed=PASSED, opponents=opponents, deals=4000, seed=6)
    named = discard_values(HAND, 3, received=TRASH, **kwargs)
    other = discard_values(HAND, 3, received="K♠ K♥ 8♦", **kwargs)
    unnamed = discard_values(HAND, 3, **kwargs)
    for table in (other, unnamed):
        assert np.array_equal(named["value"].to_numpy(), table["value"].to_numpy())
    assert named.attrs["received_acceptance"] is None


def test_reveal_values_condition_on_received():
    five = "K♠ K♥ 8♦ 7♣ 4♥"
    table = reveal_values(five, 3, discards="2♣ 3♦", passed=PASSED, received=TRASH,
                          opponents="sensible", deals=300, seed=3)  # fmt: skip
    assert 0.3 < table.attrs["received_acceptance"] < 0.45
    unnamed = reveal_values(five, 3, discards="2♣ 3♦", passed=PASSED, opponents="sensible",
                            deals=300, seed=3)  # fmt: skip
    assert unnamed.attrs["received_acceptance"] is None


def test_a_learned_right_neighbour_is_conditioned_with_its_table_size_parameters():
    # "learned" takes the parameters shipped for the table size
    from anaconda_sim.analysis import discard_values

    table = discard_values("Q♠ Q♥ 9♣ 8♦ Q♦ 9♦ 5♠", 4, passed="3♠ 4♥ 2♣", received="Q♦ 9♦ 5♠",
                           opponents="learned", deals=300, seed=1, progress=False)  # fmt: skip
    assert 0 < table.attrs["received_acceptance"] < 1


# ------------------------------------------------- an unnamed packet (R7) --
def test_R7_unnamed_packet_posterior_is_exact_on_a_small_deck():
    """Unnamed, the kernel draws the right neighbour's packet (three of the
    hero's seven) and kept four together: every pair it draws is one with
    which the neighbour's pass gives that packet, and every such pair comes
    up equally often (the posterior), checked against the full enumeration
    on a deck reduced to 12 unseen cards (4 standard errors per pair)."""
    from anaconda_sim.sim.kernels.showdown import opponents_after_pass
    from anaconda_sim.sim.layout import RIGHT_POSTERIOR
    from anaconda_sim.strategies import kernel_extras

    hand, passed = parse_cards(HAND), parse_cards(PASSED)
    dead = [c for c in range(52) if c not in hand + passed][:30]
    known = mask_from_cards(hand + passed + dead)
    unseen = [c for c in range(52) if c not in hand + passed + dead]
    players, right = 2, 1
    pub = pub_at_pass(players)
    exact = {
        (tuple(sorted(packet)), four)
        for packet in itertools.combinations(hand, 3)
        for four in itertools.combinations(unseen, 4)
        if _passes(SENSIBLE, pub, right, list(four) + list(packet), packet)
    }  # fmt: skip
    kinds = np.full(players, SENSIBLE.kind, dtype=np.int64)
    params = np.stack([SENSIBLE.param_array()] * players)
    key, deals = root_key(44), 30_000
    counts: dict[tuple, int] = {}
    owns = np.full((players, V.OWN_SIZE), -1, dtype=np.int32)
    kept = np.empty((players, 4), dtype=np.int64)
    packets = np.empty((players, 3), dtype=np.int64)
    for deal in range(deals):
        opponents_after_pass(
            key, deal, players, pub, kinds, params, known,
            np.full(3, RIGHT_POSTERIOR, dtype=np.int64), np.zeros((0, 7), dtype=np.int8), 0,
            np.array(hand, dtype=np.int64), owns, kept, packets,
            np.empty((players, 1), dtype=np.uint64), np.empty(52, dtype=np.int64),
            np.empty(7, dtype=np.int64), np.empty(7, dtype=np.int64),
            np.empty(1, dtype=np.uint64), *kernel_extras(False, kinds),
        )  # fmt: skip
        pair = (tuple(sorted(packets[right].tolist())), tuple(sorted(kept[right].tolist())))
        counts[pair] = counts.get(pair, 0) + 1
    assert set(counts) <= exact
    # the whole law: a chi-square statistic within 5 of its standard deviations
    # of its mean (len(exact) - 1 degrees of freedom) ...
    expected = deals / len(exact)
    chi2 = sum((counts.get(pair, 0) - expected) ** 2 / expected for pair in exact)
    df = len(exact) - 1
    assert abs(chi2 - df) < 5 * math.sqrt(2 * df), (chi2, df)
    # ... and which three was passed: each packet as often as its share of
    # the passing pairs (4 standard errors)
    for packet in {pair[0] for pair in exact}:
        p = sum(pair[0] == packet for pair in exact) / len(exact)
        seen = sum(n for pair, n in counts.items() if pair[0] == packet) / deals
        assert abs(seen - p) < 4 * math.sqrt(p * (1 - p) / deals), (packet, seen, p)


ISSUE_HAND = "8♥ 8♣ 5♦ 5♠ K♣"


def test_two_player_equity_reads_the_opponents_pass():
    """Heads-up the right neighbour is the only opponent: its pass must enter
    the model. A neighbour that passed three of the hero's cards by
    "sensible" kept better cards than a random four, so the hero's equity
    is far lower against it than against one passing at random (which the
    packet tells nothing about: that number is the model's as before)."""
    sensible = equity(ISSUE_HAND, 2, opponents="sensible", seed=3)
    random_pass = equity(ISSUE_HAND, 2, opponents="random-pass", seed=3)
    gap = random_pass["value"].item() - sensible["value"].item()
    assert gap > 4 * math.hypot(sensible["se"].item(), random_pass["se"].item())
    assert random_pass["value"].item() == pytest.approx(0.65355, abs=1e-12)


@pytest.mark.parametrize(("players", "held", "passed"), [
    (2, ISSUE_HAND, None), (3, ISSUE_HAND, None), (2, HAND, PASSED),
])  # fmt: skip
def test_R7_unnamed_packet_equity_agrees_with_rejection_twin(players, held, passed):
    """After the discard (five cards, two unknown discards) or after a named
    pass with the packet received unnamed, the kernel's equity agrees with
    plain rejection sampling in Python within 4 combined standard errors."""
    strategy = get_strategy("sensible")
    twin, accepted = naive_showdown.unnamed_received_shares(
        parse_cards(held), players, None if passed is None else parse_cards(passed), strategy,
        deals=1500, seed=41,
    )  # fmt: skip
    row = equity(held, players, passed=passed, opponents="sensible", deals=40_000, seed=42)
    twin_se = twin.std(ddof=1) / math.sqrt(len(twin))
    tolerance = 4 * math.hypot(twin_se, row["se"].item())
    assert abs(row["value"].item() - twin.mean()) < tolerance, (row["value"].item(), twin.mean())
    assert 0 < accepted < 1
