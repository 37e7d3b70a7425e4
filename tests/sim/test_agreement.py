"""The batch simulator and the reference engine agree deal by deal.

For more than 20,000 deals over 2-7 players, the default rules and
Bicycle's, and every built-in strategy (``"random"`` and ``"sensible"`` with
bluffs included: both engines draw from the same streams), the simulator's
records and :func:`anaconda_sim.game.play.play_deal` give the same deck, chip
results, folds, passes, final hands, discards, showdown values and winners
(R5-R20). Under the hi-lo rules (R21-R26), at every table size and with every
built-in strategy, they also give the same declarations, low values and
split pots.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from anaconda_sim.game.play import play_deal
from anaconda_sim.hands.evaluator import CATEGORY_KEYS, category
from anaconda_sim.sim.simulator import simulate
from anaconda_sim.strategies import get_strategy
from anaconda_sim.strategies.learned.params import SHOW_ARRAY_SIZE
from anaconda_sim.table.rules import Rules

DEALS_PER_CASE = 420  # 12 rule sets x 4 mixes x 420 = 20,160 deals
HILO_DEALS_PER_CASE = 240  # 6 table sizes x 4 mixes x 240 = 5,760 hi-lo deals

BLUFFER = get_strategy("sensible", bluff=0.3)
LOOSE = get_strategy("sensible", continue_late=1.0, aggressive_at=3.0, bluff=0.1)
#: the learned family away from its shipped values: every pass feature and
#: betting rule in play (per-round thresholds, loose calls, bluffs)
LEARNED_BOLD = get_strategy(
    "learned-v1", w_flush4=3.0, w_open_straight=1.5, w_gutshot=0.5, w_gift_pair=-2.0,
    w_gift_connected=-0.5, bet_r1=0.3, raise_r2=0.4, call_r3=0.5, call_r4=2.0, bluff=0.2,
)  # fmt: skip


#: the board-reading family away from its shipped values: loose calls, bets on
#: thin edges, bluffs on every board
#: and a show array drawn at random (its reveal order read off the table,
#: drawn at a temperature, and its discard drawn at a temperature)
READS_BOLD = dataclasses.replace(get_strategy(
    "learned", bet_margin_r0=-0.2, bet_margin_r12=0.0, raise_margin_r34=0.3, call_factor_r12=0.5,
    call_factor_r34=2.0, bluff_hidden=0.05, bluff_weak=0.2, bluff_draw=0.3, bluff_strong=0.1,
), show=(0.5, *np.random.default_rng(36).normal(0.0, 1.0, SHOW_ARRAY_SIZE - 3), 1.0,
          0.6))  # fmt: skip


def _mixes(n: int) -> list[list]:
    mixed = ["learned", "random-pass", BLUFFER, READS_BOLD, LEARNED_BOLD, LOOSE, "call-down"]
    return [
        ["random"] * n,
        [BLUFFER] * n,
        ["sensible"] * n,
        mixed[:n] if n > 2 else [LEARNED_BOLD, READS_BOLD],
    ]


def _engine_row(game, n: int) -> dict:
    result = game.result
    folds = [0] * n  # records number betting rounds from 1 (0: never folded)
    passed: list[list[int]] = [[] for _ in range(n)]
    discards: list[tuple[int, ...]] = [()] * n
    for event in game.history.events:
        if event["type"] == "action" and event["action"] == "fold":
            folds[event["seat"]] = event["round"] + 1  # history JSON counts from 0
        elif event["type"] == "pass_commit":
            passed[event["seat"]].extend(event["cards"])
        elif event["type"] == "discard_commit":
            discards[event["seat"]] = tuple(event["discard"])
    values = [-1] * n
    lows = [-1] * n
    for hand in result.hands:
        values[hand.seat] = hand.value
        lows[hand.seat] = hand.low_value
    hilo = {}
    if game.rules.hilo_showdown:
        shown = set(h.seat for h in result.hands)
        hilo = {
            "declarations": tuple(
                d if s in shown else -1 for s, d in enumerate(result.declarations)
            ),
            "lows": tuple(lows),
        }
    return {
        "deck": tuple(game.deck[: 7 * n]),
        "net": tuple(result.net),
        "pot": result.pot,
        "showdown": not result.ended_early,
        "winners": tuple(sorted(result.winners)),
        "folds": tuple(folds),
        "passed": tuple(tuple(p) for p in passed),
        "hands": tuple(tuple(game.hand(s)) for s in range(n)),
        "discards": tuple(discards),
        "values": tuple(values),
        **hilo,
    }


def _columns(records) -> dict[str, np.ndarray]:
    """The records' columns as arrays, in deal then seat order, read once: a
    frame's every column access copies its ``attrs`` (the model statement),
    which cost these tests more than the two engines they compare."""
    records = records.sort_values("deal", kind="stable")
    columns = {name: records[name].to_numpy() for name in records.columns}
    for name in ("category", "win_category"):
        columns[name] = records[name].astype(object).to_numpy()
    if "declaration" in records:
        columns["declaration"] = records["declaration"].cat.codes.to_numpy()
    return columns


def _cards(columns: dict, rows: slice, group: str, width: int) -> tuple[tuple[int, ...], ...]:
    """Per seat, the cards of one card group of a deal's records (-1: none)."""
    block = np.stack([columns[f"{group}_{j}"][rows] for j in range(width)], axis=1)
    return tuple(tuple(int(c) for c in row if c >= 0) for row in block)


def _deck(columns: dict, rows: slice, n: int) -> tuple[int, ...]:
    """The deal's first 7n cards in deal order, from each seat's dealt cards (R5)."""
    dealer = int(columns["dealer"][rows][0])
    dealt = np.stack([columns[f"dealt_{j}"][rows] for j in range(7)], axis=1)
    return tuple(int(dealt[(dealer + 1 + k % n) % n, k // n]) for k in range(7 * n))


def _hilo_fields(columns: dict, rows: slice) -> dict:
    """Declarations (-1: none) and low values of a hi-lo deal's records (R22, R23)."""
    if "declaration" not in columns:
        return {}
    return {
        "declarations": tuple(int(c) for c in columns["declaration"][rows]),
        "lows": tuple(int(v) for v in columns["low_value"][rows]),
    }


def _sim_rows(records, n: int) -> list[dict]:
    """One dict per deal, from the records' rows (one per seat, in seat order),
    with each seat's showdown category and the deal's winning ones."""
    columns = _columns(records)
    deals = columns["deal"]
    assert len(deals) % n == 0
    rows = []
    for start in range(0, len(deals), n):
        at = slice(start, start + n)
        # one deal's n rows together, in seat order, each deal once
        assert (deals[at] == deals[start]).all()
        assert start == 0 or deals[start] > deals[start - 1]
        assert columns["seat"][at].tolist() == list(range(n))
        winner = columns["winner"][at].astype(bool)
        rows.append({
            "deal": int(deals[start]),
            "dealer": int(columns["dealer"][start]),
            "deck": _deck(columns, at, n),
            "net": tuple(int(v) for v in columns["net"][at]),
            "pot": int(columns["pot"][start]),
            "showdown": bool(columns["showdown"][start]),
            "winners": tuple(int(s) for s in columns["seat"][at][winner]),
            "folds": tuple(int(v) for v in columns["fold_round"][at]),
            "passed": _cards(columns, at, "passed", 6),
            "hands": _cards(columns, at, "hand", 7),
            "discards": _cards(columns, at, "discard", 2),
            "values": tuple(int(v) for v in columns["value"][at]),
            **_hilo_fields(columns, at),
            "categories": [None if pd.isna(c) else c for c in columns["category"][at]],
            "win_categories": {"none" if pd.isna(c) else c for c in columns["win_category"][at]},
        })  # fmt: skip
    return rows


def _expected_categories(expected: dict) -> tuple[list[str | None], str | None]:
    """Each seat's showdown category and the winning one, from the engine's values."""
    seats = [None if v < 0 else CATEGORY_KEYS[category(v)] for v in expected["values"]]
    if not expected["showdown"]:
        return seats, None
    return seats, CATEGORY_KEYS[category(max(expected["values"]))]


RULE_SETS = [Rules(players=p) for p in range(2, 8)] + [Rules.bicycle(p) for p in range(2, 8)]
HILO_RULE_SETS = [Rules.hilo(p) for p in range(2, 8)]


def _check_agreement(rules: Rules, deals: int, seed_offset: int) -> None:
    n = rules.players
    checked = 0
    folds = showdowns = 0
    for m, strategies in enumerate(_mixes(n)):
        seed = 1000 * n + 10 * m + seed_offset
        result = simulate(rules, strategies, deals, seed=seed, dealer=m % n,
                          records=True, progress=False)  # fmt: skip
        records = result.records
        for row in _sim_rows(records, n):
            game = play_deal(rules, strategies, key=result.key, deal_index=row["deal"],
                             dealer=row["dealer"])  # fmt: skip
            expected = _engine_row(game, n)
            got = {k: row[k] for k in expected}
            assert got == expected, f"{rules.name} n={n} mix {m} deal {row['deal']}: " + ", ".join(
                f"{k}: sim {got[k]} engine {expected[k]}" for k in expected if got[k] != expected[k]
            )
            seats, winning = _expected_categories(expected)
            assert row["categories"] == seats
            assert row["win_categories"] == {winning or "none"}
            checked += 1
            folds += sum(f > 0 for f in expected["folds"])
            showdowns += expected["showdown"]
    assert checked == 4 * deals
    # the mixes exercise both endings: folds (R17) and showdowns (R10)
    assert 0 < showdowns < checked
    assert folds > 0


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.name}-{r.players}")
def test_simulator_matches_engine_deal_by_deal(rules: Rules) -> None:
    _check_agreement(rules, DEALS_PER_CASE, 0 if rules.discard else 5)


@pytest.mark.slow
@pytest.mark.parametrize("rules", HILO_RULE_SETS, ids=lambda r: f"{r.name}-{r.players}")
def test_simulator_matches_engine_deal_by_deal_hilo(rules: Rules) -> None:
    # declarations (every built-in, "random" drawing from its stream), low
    # values and the split of every showdown pot (R21-R26)
    _check_agreement(rules, HILO_DEALS_PER_CASE, 7)


def test_hilo_agreement_meets_every_declaration() -> None:
    # the hi-lo cases see every declaration, a split pot and a failed swing
    result = simulate(Rules.hilo(4), "random", 400, seed=4007, records=True, progress=False)
    rec = result.records
    assert {"high", "low", "both"} <= set(rec["declaration"].dropna())
    assert float(result.swing_fail_rate.sum()) > 0
    high_half = rec.groupby(["deal"])["high_share"].sum()
    assert (high_half == 0.5).any()  # a pot split between a high and a low winner


def test_agreement_covers_twenty_thousand_deals() -> None:
    assert len(RULE_SETS) * 4 * DEALS_PER_CASE >= 20_000


def test_records_replay_with_fixed_cards() -> None:
    # fixed starting hands: the recorded deck replays in the engine (R5 order)
    rules = Rules(players=4)
    fixed = {1: "As Ad Ah Kc Kd 2s 3s", 3: "7c 8c 9c"}
    result = simulate(rules, "sensible", 60, seed=3, fixed=fixed, records=True, progress=False)
    n = rules.players
    rows = _sim_rows(result.records, n)
    assert len(rows) == 60
    for row in rows:
        dealer = row["dealer"]
        deck = row["deck"]
        hand1 = [deck[k] for k in range(7 * n) if (dealer + 1 + k) % n == 1]
        assert hand1 == [51, 49, 50, 44, 45, 3, 7]  # As Ad Ah Kc Kd 2s 3s
        hand3 = [deck[k] for k in range(7 * n) if (dealer + 1 + k) % n == 3]
        assert hand3[:3] == [20, 24, 28]  # 7c 8c 9c
        game = play_deal(rules, ["sensible"] * n, deck=list(deck), key=result.key,
                         deal_index=row["deal"], dealer=dealer)  # fmt: skip
        assert tuple(game.result.net) == row["net"]
        assert len(set(deck)) == 28
