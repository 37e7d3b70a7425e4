"""declare_values: the hi-lo declaration (R22-R25) scored from the discard on.

The twin plays the same deals through the reference engine: the kernel's
pass model gives the opponents' hands and packets, the engine plays the
discard, the reveal rounds, the declarations and the split with the hero's
reveal order and declaration forced.
"""

from __future__ import annotations

import numpy as np
import pytest

from anaconda_sim.analysis import declare_values, reveal_opponents
from anaconda_sim.cards import CardError, mask_from_cards, parse_cards
from anaconda_sim.game import views as V
from anaconda_sim.game.engine import Game, Phase, deck_for_hands
from anaconda_sim.game.play import Bot, run_game
from anaconda_sim.game.rules import Rules
from anaconda_sim.hands.declare import DECLARE_NAMES
from anaconda_sim.rng import STREAM_SEAT, root_key, stream_state
from anaconda_sim.strategies import get_strategy

WHEEL = "5♠ 4♥ 3♦ 2♣ A♠"
KINGS_FULL = "K♠ K♥ K♦ Q♣ Q♠"


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"hand": "5♠ 4♥ 3♦ 2♣"}, CardError, "has 4 cards; it needs 5"),
        ({"rules": "pagat"}, ValueError, "models the hi-lo declaration (R21-R26) only"),
        ({"rules": Rules.hilo(5)}, ValueError, "differ from Rules.hilo(4)"),
        ({"rules": Rules(players=4)}, ValueError, "differ from Rules.hilo(4)"),
        ({"order": "5♠ 4♥ 3♦ 2♣ K♠"}, ValueError, "is not an order of the hand's five"),
        ({"players": 8}, ValueError, "outside 2..7"),
        ({"opponents": "nobody"}, ValueError, "unknown strategy 'nobody'"),
        ({"deals": 1}, ValueError, "deals=1 must be an int >= 2"),
        ({"deals": 10, "precision": 0.1}, ValueError, "give deals= or precision=, not both"),
        ({"betting": "yes"}, TypeError, "betting='yes' must be True or False"),
    ],
)
def test_declare_bad_input(kwargs, error, message):
    args = {"hand": WHEEL, "players": 4, **kwargs}
    with pytest.raises(error, match=__import__("re").escape(message)):
        declare_values(args.pop("hand"), args.pop("players"), **args)


def test_declare_same_seed_same_table_with_the_model_stated():
    a = declare_values(WHEEL, 3, deals=300, seed=4, batch_size=64)
    b = declare_values(WHEEL, 3, deals=300, seed=4, batch_size=1000)
    assert a.equals(b)
    assert sorted(a["declare"]) == ["both", "high", "low"]
    assert a.columns[:8].tolist() == ["declare", "rank", "value", "se", "ci_low", "ci_high",
                                      "diff_vs_best", "diff_se"]  # fmt: skip
    assert {"high_share", "low_share", "swing_failed", "p_best"} <= set(a.columns)
    attrs = a.attrs
    assert attrs["rules"] == "hi-lo" and attrs["analysis"] == "declare"
    assert attrs["value_unit"] == "chips per deal" and attrs["deals"] == 300
    assert attrs["seed"] == 4 and attrs["betting"] is True
    assert attrs["function"] == "anaconda_sim.declare_values"
    # one-sided declarations never fail a swing, and take only their half
    rows = a.set_index("declare")
    assert rows.loc["high", "swing_failed"] == rows.loc["low", "swing_failed"] == 0
    assert rows.loc["high", "low_share"] == rows.loc["low", "high_share"] == 0
    # the rest of the share is the pots won before the declaration (every
    # rival folded), the same whatever the hero would have declared
    early = rows["share"] - rows["high_share"] - rows["low_share"]
    assert np.allclose(early, early.iloc[0]) and early.iloc[0] >= 0


def _below_best(table, declaration: str) -> None:
    row = table.set_index("declare").loc[declaration]
    assert row["diff_vs_best"] < -3 * row["diff_se"], table


@pytest.mark.parametrize("betting", [True, False])
def test_R23_a_wheel_declares_low_and_a_full_house_high(betting):
    wheel = declare_values(WHEEL, 4, deals=1500, seed=21, betting=betting)
    assert wheel.iloc[0]["declare"] in ("low", "both")
    _below_best(wheel, "high")
    kings = declare_values(KINGS_FULL, 4, deals=1500, seed=21, betting=betting)
    assert kings.iloc[0]["declare"] == "high"
    _below_best(kings, "low")
    _below_best(kings, "both")
    assert kings.attrs["value_unit"] == ("chips per deal" if betting else "pot share")


class _ForcedHero(Bot):
    """The hero: its strategy bets; its discard, order and declaration are forced."""

    def __init__(self, strategy, dead, order, declaration):
        super().__init__(strategy)
        self.dead, self.order, self.declaration = dead, order, declaration

    def choose_discard(self, obs):
        return list(self.dead), list(self.order)

    def choose_declaration(self, obs):
        return self.declaration


def _engine_values(hand: str, players: int, seed: int, deals: int) -> np.ndarray:
    """Mean net chips per declaration, deal by deal through the engine."""
    from anaconda_sim.analysis.driver import pub_at_pass
    from anaconda_sim.sim.kernels.showdown import opponents_after_pass
    n, key, five = players, root_key(seed), parse_cards(hand)
    hero, opponent = get_strategy("sensible"), reveal_opponents()
    seats = [hero, *[opponent] * (n - 1)]
    kinds = np.array([s.kind for s in seats], dtype=np.int64)
    params = np.stack([s.param_array() for s in seats])
    dealer = n - 1
    rules = Rules.hilo(n)
    totals = np.zeros(3)
    for deal in range(deals):
        owns = np.full((n, V.OWN_SIZE), -1, dtype=np.int32)
        owns[:, V.O_SEAT] = np.arange(n)
        kept = np.empty((n, 4), dtype=np.int64)
        packets = np.empty((n, 3), dtype=np.int64)
        states = np.empty((n, 1), dtype=np.uint64)
        extra = opponents_after_pass(
            key, deal, n, pub_at_pass(n, "hi-lo"), kinds, params, mask_from_cards(five),
            np.array(five[:3], dtype=np.int64), np.zeros((0, 4), dtype=np.int8), 5,
            owns, kept, packets, states,
            np.empty(52, dtype=np.int64), np.empty(7, dtype=np.int64),
            np.empty(7, dtype=np.int64), np.empty(1, dtype=np.uint64),
        ).tolist()  # fmt: skip
        packets[0] = extra[:3]
        dead = extra[3:5]
        before_pass = [five[3:] + dead + extra[:3]]
        before_pass += [kept[s].tolist() + packets[s].tolist() for s in range(1, n)]
        for d in range(3):
            game = Game(rules, dealer=dealer, deck=deck_for_hands(before_pass, dealer=dealer))
            # betting rounds 1 and 2 checked around, the passes of the model
            while game.phase is not Phase.DISCARD:
                if game.phase is Phase.PASS:
                    for seat in range(n):
                        game.commit_pass(seat, packets[seat].tolist())
                else:
                    game.check()
            deal_states = [np.array([stream_state(key, deal, STREAM_SEAT)], dtype=np.uint64)]
            deal_states += [states[s].copy() for s in range(1, n)]
            players_ = [_ForcedHero(hero, dead, five, d), *[opponent] * (n - 1)]
            players_[0].begin_deal(0, deal_states[0])
            run_game(game, players_, deal_states)
            totals[d] += game.result.net[0]
    return totals / deals


def test_declare_values_agree_with_the_engine_deal_by_deal():
    deals = 200
    table = declare_values(WHEEL, 3, deals=deals, seed=17, progress=False)
    engine = _engine_values(WHEEL, 3, 17, deals)
    values = table.set_index("declare").loc[list(DECLARE_NAMES), "value"].to_numpy()
    assert values == pytest.approx(engine, abs=1e-12)


def test_the_reveal_order_is_recorded_and_played():
    a = declare_values(WHEEL, 3, deals=300, seed=5)
    b = declare_values(WHEEL, 3, order="A♠ 2♣ 3♦ 4♥ 5♠", deals=300, seed=5)
    assert a.attrs["order"] == "5♠ 4♥ 3♦ 2♣ A♠" and b.attrs["order"] == "A♠ 2♣ 3♦ 4♥ 5♠"
    assert a.attrs["hand"] == b.attrs["hand"] == WHEEL
    # without betting the order changes nothing: the bots declare on their own cards
    c = declare_values(WHEEL, 3, deals=300, seed=5, betting=False).set_index("declare")
    d = declare_values(WHEEL, 3, order="A♠ 2♣ 3♦ 4♥ 5♠", deals=300, seed=5,
                       betting=False).set_index("declare")  # fmt: skip
    assert c["value"].equals(d["value"])
