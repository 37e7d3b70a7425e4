"""declare_values: the hi-lo declaration (R22-R25) scored from the discard on.

The twin plays the same deals through the reference engine: the kernel's
pass model gives the opponents' hands and packets, the engine plays the
discard, the reveal rounds, the declarations and the split with the hero's
reveal order and declaration forced.
"""

from __future__ import annotations

import numpy as np
import pytest
from engine_at_discard import deal_states, game_at_discard, model_pass

from anaconda_sim.analysis import declare_values, reveal_opponents
from anaconda_sim.cards import CardError, parse_cards
from anaconda_sim.game.play import Bot, run_game
from anaconda_sim.hands.declare import DECLARE_NAMES
from anaconda_sim.rng import root_key
from anaconda_sim.sim.layout import RIGHT_POSTERIOR
from anaconda_sim.strategies import get_strategy
from anaconda_sim.table.rules import Rules

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
        ({"players": 8}, ValueError, "is played by 2 to 7 players"),
        ({"opponents": "nobody"}, ValueError, "unknown strategy 'nobody'"),
        ({"deals": 1}, ValueError, "deals=1 is too small; give deals >= 2"),
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


def _engine_values(hand: str, players: int, seed: int, deals: int, opponent) -> np.ndarray:
    """Mean net chips per declaration, deal by deal through the engine, against
    ``opponent`` at every other seat."""
    n, key, five = players, root_key(seed), parse_cards(hand)
    hero, opponent = get_strategy("sensible"), get_strategy(opponent)
    seats = [hero, *[opponent] * (n - 1)]
    rules = Rules.hilo(n)
    totals = np.zeros(3)
    for deal in range(deals):
        # the packet the hero received is unknown: drawn with the right
        # neighbour's four from their posterior, as the model does
        kept, packets, states, extra = model_pass(key, deal, n, "hi-lo", seats, five,
                                                  [RIGHT_POSTERIOR] * 3, 5, [*five, -1, -1])
        packets[0] = extra[:3]
        dead = extra[3:5]
        for d in range(3):
            # the hero held its five and two discards after the pass, three of
            # them from its right neighbour (the packet the model drew)
            received = packets[n - 1].tolist()
            before = [c for c in five + dead if c not in received] + extra[:3]
            game = game_at_discard(rules, before, kept, packets)
            deal_states_ = deal_states(key, deal, states)
            players_ = [_ForcedHero(hero, dead, five, d), *[opponent] * (n - 1)]
            players_[0].begin_deal(0, deal_states_[0])
            run_game(game, players_, deal_states_)
            totals[d] += game.result.net[0]
    return totals / deals


@pytest.mark.parametrize("opponents", [None, reveal_opponents()], ids=["default", "reveal"])
def test_declare_values_agree_with_the_engine_deal_by_deal(opponents):
    """``None``: the default opponents, "learned"."""
    deals = 200
    given = {} if opponents is None else {"opponents": opponents}
    table = declare_values(WHEEL, 3, deals=deals, seed=17, progress=False, **given)
    field = opponents or get_strategy("learned")
    assert table.attrs["opponents"] == [field.spec()] * 2
    engine = _engine_values(WHEEL, 3, 17, deals, field)
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
