"""One request shape for the analyses: the sampling keywords as one validated
Request or as keywords, the same numbers either way."""

import pandas as pd
import pytest

import anaconda_sim as ac
from anaconda_sim.analysis import registry
from anaconda_sim.analysis.request import Request

HAND = "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣"


@pytest.mark.parametrize(
    ("function", "hand"),
    [(ac.pass_values, HAND), (ac.discard_values, HAND), (ac.equity, HAND),
     (ac.reveal_values, "Q♠ Q♥ Q♦ 9♣ 9♦"), (ac.declare_values, "5♠ 4♥ 3♦ 2♣ A♠")],
)  # fmt: skip
def test_a_request_and_its_keywords_give_the_same_table(function, hand):
    request = Request(deals=300, seed=7, unicode=False, progress=False)
    by_request = function(hand, 3, request=request)
    by_keywords = function(hand, 3, deals=300, seed=7, unicode=False, progress=False)
    pd.testing.assert_frame_equal(by_request, by_keywords)
    assert by_request.attrs == by_keywords.attrs


def test_a_request_is_checked_when_made():
    with pytest.raises(ValueError, match="give deals= or precision=, not both"):
        Request(deals=100, precision=0.01)
    with pytest.raises(ValueError, match="deals=1 is too small"):
        Request(deals=1)
    with pytest.raises(TypeError, match="threads=True must be an int"):
        Request(threads=True)
    with pytest.raises(ValueError, match=r"precision=nan must be a positive standard error"):
        Request(precision=float("nan"))
    assert Request(precision=0.01).limit == Request().max_deals


def test_a_request_and_keywords_together_or_a_misspelt_keyword_are_refused():
    with pytest.raises(TypeError, match="give request= or the sampling keywords"):
        ac.pass_values(HAND, 3, request=Request(deals=100), seed=1)
    with pytest.raises(
        TypeError,
        match="pass_values\\(\\) got an unexpected keyword argument "
        "'deal'; the sampling keywords are deals, precision",
    ):
        ac.pass_values(HAND, 3, deal=100)
    with pytest.raises(TypeError, match=r"must be an anaconda_sim\.analysis\.Request"):
        ac.pass_values(HAND, 3, request={"deals": 100})


def test_the_registry_reads_the_request():
    for kind in registry.KINDS:
        assert list(kind.options)[-len(Request.keywords()) :] == list(Request.keywords())
    assert registry.SAMPLING == Request.keywords()


def test_action_values_takes_the_request_shape_too():
    from anaconda_sim.game import Game
    from anaconda_sim.table.rules import Rules

    game = Game(Rules(players=3), seed=4)
    game.bet()
    by_request = ac.action_values(game, "sensible", request=Request(deals=200, seed=1))
    by_keywords = ac.action_values(game, "sensible", deals=200, seed=1)
    pd.testing.assert_frame_equal(by_request, by_keywords)
    with pytest.raises(ValueError, match="draws a fixed number of deals: give the request deals="
                                         ", not precision"):  # fmt: skip
        ac.action_values(game, "sensible", request=Request(precision=0.5))
    with pytest.raises(TypeError, match="give request= or deals/seed/unicode, not both"):
        ac.action_values(game, "sensible", deals=300, request=Request(deals=200))
