"""Every sampling keyword of every analysis, driven with generated bad values:
the answer is a table or one of the documented errors, quickly, never a hang."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import anaconda_sim as ac
from anaconda_sim.cards import CardError

HANDS = {
    "pass_values": "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣",
    "discard_values": "Q♠ Q♥ Q♦ 9♣ 9♦ 8♦ 5♠",
    "equity": "Q♠ Q♥ Q♦ 9♣ 9♦",
    "reveal_values": "Q♠ Q♥ Q♦ 9♣ 9♦",
}
KEYWORDS = ["deals", "precision", "max_deals", "seed", "batch_size", "progress", "unicode",
            "threads", "confirm", "known", "opponents", "players"]  # fmt: skip

weird = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.integers(-3, 60),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.5, 2.5, 1e-300, -0.0]),
    st.text(max_size=6), st.sampled_from(["x", "Qs", "sensible", "", "Qs Qs"]),
    st.lists(st.integers(-2, 60), max_size=4), st.just(object()), st.just(np.int64(7)),
    st.just(np.float64(math.nan)),
)  # fmt: skip


def _call(function: str, keyword: str, value: object):
    kwargs: dict[str, object] = {"deals": 40, "seed": 1, "progress": False}
    if keyword in ("precision", "max_deals"):
        # keep a run short when the value happens to be valid
        kwargs = {"precision": 0.5, "max_deals": 200, "seed": 1, "progress": False}
    players = 4
    if keyword == "players":
        players = value  # type: ignore[assignment]
    else:
        kwargs[keyword] = value
    if keyword == "confirm" and function == "equity":
        kwargs.pop("confirm")  # equity has one row: no confirmation
    if keyword == "deals" and isinstance(value, int) and not isinstance(value, bool):
        if value > 2000:
            kwargs["deals"] = None  # a valid, huge deal count would only be slow
            kwargs.pop("deals")
    if keyword == "batch_size" and value is not None and value in (1, 2, 3):
        kwargs["deals"] = 10
    return getattr(ac, function)(HANDS[function], players, **kwargs)


@pytest.fixture(scope="module", autouse=True)
def _compiled():
    """Compile every kernel first: the time limit below is about hangs, not compilation."""
    for function, hand in HANDS.items():
        getattr(ac, function)(hand, 4, deals=40, seed=1, progress=False)


@pytest.mark.parametrize("function", list(HANDS))
@settings(max_examples=100)
@given(keyword=st.sampled_from(KEYWORDS), value=weird)
def test_bad_keywords_give_a_table_or_a_documented_error(function, keyword, value):
    started = time.perf_counter()
    try:
        table = _call(function, keyword, value)
    except (TypeError, ValueError, CardError) as error:
        message = str(error)
        assert message and len(message) < 400
        assert "Traceback" not in message
    else:
        assert len(table) >= 1 and np.isfinite(table["value"]).all()
    assert time.perf_counter() - started < 60


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: ac.parse_cards(None), CardError, "is not cards"),
        (lambda: ac.simulate(3, "sensible", deals=10, progress="x"), TypeError,
         "progress='x' must be"),
        (lambda: ac.score_choices(3, "sensible", hero=0, kind="pass", choices=[[0, 1, 2]],
                                  deals=10, first_deal=2**63, fixed={0: list(range(7))}),
         ValueError, "too large"),
        (lambda: ac.pass_values(HANDS["pass_values"], 6, batch_size=0), ValueError,
         "batch_size=0 is too small; give batch_size >= 1"),
        (lambda: ac.pass_values(HANDS["pass_values"], 6, precision=0.01,
                                max_deals=float("inf")), TypeError, "max_deals=inf"),
        (lambda: ac.reveal_values(HANDS["reveal_values"], 5, dealer=True), TypeError,
         "dealer=True must be an int, not bool"),
        (lambda: ac.equity(HANDS["equity"], 5, progress="x"), TypeError, "progress='x'"),
        (lambda: ac.pass_values(HANDS["pass_values"], 6, threads=0), ValueError, "threads=0"),
    ],
)  # fmt: skip
def test_named_bad_inputs(call, error, message):
    with pytest.raises(error, match=message):
        call()
