"""The hi-lo rules with declarations (docs/rules.md R21-R26), one test per rule,
plus the illegal declarations, the settlement's properties and the histories."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import naive_split_hilo

from anaconda_sim.cards import parse_cards
from anaconda_sim.errors import (
    AlreadyCommittedError,
    GameOverError,
    IllegalActionError,
    InvalidSeatError,
    SeatFoldedError,
    WrongPhaseError,
)
from anaconda_sim.game.engine import Declaration, Game, Phase, deck_for_hands
from anaconda_sim.game.history import History
from anaconda_sim.game.play import RandomPlayer, play_deal
from anaconda_sim.game.replayer import replay, verify
from anaconda_sim.hands.hilo import SWING_FAILED, WON_HIGH, WON_LOW, split_hilo
from anaconda_sim.hands.low import evaluate_low
from anaconda_sim.strategies import builtin_declare, decide_declare, get_strategy
from anaconda_sim.table import views as V
from anaconda_sim.table.rules import HILO, PAGAT, Rules

FILLERS = "Kc Kd Kh Ks Qc Qd Qh Qs Jc Jd Jh Js Tc Td Th Ts 9c 9d 9h 9s".split()


def deal_for_fives(fives: list[str], dealer: int = 0) -> tuple[list[int], list[list[int]]]:
    """A deck after which seat ``s`` can keep exactly ``fives[s]``.

    Each seat is dealt the first four cards of its five, the fifth card of
    its left neighbour's five (which it passes on, R7) and two fillers; it
    passes its last three cards to the left, so it receives its own fifth card.
    """
    parsed = [parse_cards(f, 5) for f in fives]
    n = len(parsed)
    used = {c for f in parsed for c in f}
    fillers = [c for c in parse_cards(" ".join(FILLERS)) if c not in used]
    hands = []
    for s in range(n):
        hands.append([*parsed[s][:4], parsed[(s + 1) % n][4], fillers[2 * s], fillers[2 * s + 1]])
    return deck_for_hands(hands, dealer=dealer), parsed


def play_to_declare(fives: list[str], rules: Rules | None = None, dealer: int = 0) -> Game:
    """Everyone checks every round; each seat ends holding ``fives[s]`` (in that reveal order)."""
    rules = rules or Rules.hilo(len(fives))
    deck, parsed = deal_for_fives(fives, dealer)
    game = Game(rules, dealer=dealer, deck=deck)
    while game.phase not in (Phase.DECLARE, Phase.COMPLETE):
        if game.phase is Phase.BETTING:
            game.check()
        elif game.phase is Phase.PASS:
            for seat in game.waiting_for():
                game.commit_pass(seat, game.hand(seat)[4:7])
        else:
            for seat in game.waiting_for():
                hand = game.hand(seat)
                drop = [c for c in hand if c not in parsed[seat]]
                game.commit_discard(seat, drop, parsed[seat])
    return game


def declare_all(game: Game, declarations: list[str]) -> None:
    for seat, word in enumerate(declarations):
        if not game.folded[seat]:
            game.commit_declare(seat, word)


def everything(game: Game) -> tuple:
    """The full state: snapshot, every seat's observation (arrays included), the history."""
    views = []
    for seat in range(game.players):
        obs = game.observation(seat)
        views.append((obs, obs.pub.tolist(), obs.own.tolist()))
    return game.snapshot(), views, game.history.to_json()


WHEEL = "5c 4d 3h 2s Ac"  # a straight for high, the best low (R18, R23)
EIGHT_LOW = "8h 6c 4s 3d 2c"  # an eight-low, a poor high
QUEENS = "Qc Qd 7h 7s 9c"  # two pair: high
TREYS = "3c 3s 7d 8s 9h"  # a pair of threes


# ------------------------------------------------------------------ R21 --
def test_r21_deal_and_play_are_those_of_the_default_variant():
    """R21: ante, deal, betting, pass, betting, discard, four reveal rounds, as in pagat."""
    fives = [QUEENS, EIGHT_LOW, TREYS]
    hilo = play_to_declare(fives)
    pagat = play_to_declare(fives, rules=Rules(players=3))
    assert HILO.betting_rounds == PAGAT.betting_rounds == 6
    assert hilo.rules.passes == PAGAT.passes
    assert hilo.rules.discard and hilo.rules.progressive_reveal
    # the same events up to the end of the last betting round, where pagat goes to the showdown
    assert hilo.history.events == pagat.history.events[: len(hilo.history.events)]
    assert pagat.history.events[len(hilo.history.events)]["type"] == "showdown"
    assert hilo.history.events[-1]["type"] == "round_end"
    assert hilo.history.events[-1]["round"] == 5


# ------------------------------------------------------------------ R22 --
def test_r22_declaration_after_reveal_round_4_simultaneous_and_secret():
    """R22: after the betting of reveal round 4 every active seat declares in secret;
    nobody sees another's declaration until all are in; no betting follows."""
    game = play_to_declare([QUEENS, EIGHT_LOW, TREYS])
    assert game.phase is Phase.DECLARE
    assert game.revealed == 4
    assert game.stage == V.STAGE_REVEAL + 4
    assert game.waiting_for() == (0, 1, 2)
    assert game.legal_actions() == ()
    before = [game.observation(s) for s in range(3)]
    assert all(o.is_my_turn for o in before)
    assert all(o.pub[V.P_DECLARING] == 1 and o.pub[V.P_HILO] == 1 for o in before)
    game.commit_declare(1, "low")
    # seat 1 sees its own declaration; the others' views are exactly as before
    assert game.observation(1).declaration == V.DECLARE_LOW
    assert game.observation(1).committed
    for seat in (0, 2):
        obs = game.observation(seat)
        assert obs == before[seat]
        assert np.array_equal(obs.pub, before[seat].pub)
        assert np.array_equal(obs.own, before[seat].own)
        assert obs.declarations == (-1, -1, -1)
    assert game.declarations == (-1, -1, -1)
    game.commit_declare(0, Declaration.HIGH)
    game.commit_declare(2, 2)  # a code works as well as a name
    assert game.phase is Phase.COMPLETE
    # revealed at the showdown, to everyone
    final = game.observation(0)
    assert final.declarations == (V.DECLARE_HIGH, V.DECLARE_LOW, V.DECLARE_BOTH)
    assert V.unpack_declarations(int(final.pub[V.P_DECLARED]), 3) == [0, 1, 2]
    assert final.pub[V.P_DECLARING] == 0
    types = [e["type"] for e in game.history.events]
    start = types.index("declare_commit")
    assert types[start:] == ["declare_commit"] * 3 + [
        "declare", "showdown", "low_showdown", "split", *["award"] * types.count("award"), "end",
    ]  # fmt: skip
    assert "action" not in types[types.index("round_end", start - 1) :]


# ------------------------------------------------------------------ R23 --
def test_r23_low_half_goes_to_the_best_ace_to_five_low():
    """R23: aces low, straights and flushes ignored, no qualifier, unpaired beats paired."""
    # the wheel (a straight) beats an eight-low for low
    game = play_to_declare([WHEEL, EIGHT_LOW])
    declare_all(game, ["low", "low"])
    assert game.result.low_winners == (0,)
    assert game.result.payouts == (game.result.pot, 0)
    # no qualifier: a king-high low still wins the low half against a pair
    game = play_to_declare(["Kh Qs Jd 9s 7c", TREYS, QUEENS])
    declare_all(game, ["low", "low", "high"])
    assert game.result.low_winners == (0,)
    assert game.result.high_winners == (2,)
    hands = {h.seat: h for h in game.result.hands}
    assert hands[0].low_value == evaluate_low("Kh Qs Jd 9s 7c")
    assert hands[0].low_description == "K-Q-J-9-7 low"
    assert hands[1].low_description == "Pair of threes, 9-8-7"


# ------------------------------------------------------------------ R24 --
def test_r24_high_half_and_low_half_to_their_declarers():
    """R24: the high half to the best high among high/both, the low half to the best low
    among low/both; a better hand that declared the other side does not count."""
    game = play_to_declare([QUEENS, EIGHT_LOW, WHEEL])
    # the wheel is the best low and the best high (a straight), but declared high only
    declare_all(game, ["low", "high", "high"])
    pot = game.result.pot
    assert game.result.high_winners == (2,)
    assert game.result.low_winners == (0,)  # two queens is the only low declarer
    assert game.result.payouts == (pot // 2, 0, pot - pot // 2)


def test_r24_swinger_scoops_when_winning_both():
    game = play_to_declare([QUEENS, EIGHT_LOW, WHEEL])
    declare_all(game, ["high", "low", "both"])
    assert game.result.failed_swingers == ()
    assert game.result.payouts == (0, 0, game.result.pot)
    assert game.result.high_winners == game.result.low_winners == (2,)
    assert [e["reason"] for e in game.history.events if e["type"] == "award"] == ["high and low"]


def test_r24_failed_swinger_wins_nothing_and_halves_are_decided_again():
    """The eight-low swings: it loses high to the queens, so it wins nothing, and the
    low half goes to the worse low (the pair of threes) of the low declarer."""
    game = play_to_declare([QUEENS, EIGHT_LOW, TREYS])
    declare_all(game, ["high", "both", "low"])
    result = game.result
    assert result.failed_swingers == (1,)
    assert result.payouts[1] == 0
    assert result.high_winners == (0,)
    assert result.low_winners == (2,)
    assert result.payouts == (result.pot - result.pot // 2, 0, result.pot // 2)
    split = next(e for e in game.history.events if e["type"] == "split")
    assert split["failed"] == [1]


def test_r24_swinger_who_ties_a_side_succeeds_and_shares_it():
    game = play_to_declare(["8h 6c 4s 3d 2c", "8d 6s 4h 3h 2d", QUEENS])
    declare_all(game, ["both", "low", "high"])  # seat 0 ties low with seat 1, loses high
    assert game.result.failed_swingers == (0,)
    game = play_to_declare(["8h 6c 4s 3d 2c", "8d 6s 4h 3h 2d", TREYS])
    declare_all(game, ["both", "low", "high"])  # ties low, but loses high to the pair
    assert game.result.failed_swingers == (0,)
    game = play_to_declare(["8h 6c 4s 3d 2c", "8d 6s 4h 3h 2d", "Kh Qs Jd 9s 7c"])
    declare_all(game, ["both", "low", "low"])  # nobody else declares high; low is tied
    result = game.result
    assert result.failed_swingers == ()
    assert result.high_winners == (0,)
    assert result.low_winners == (1, 0)  # clockwise from the dealer's left, as R20
    # pot 3: high half 2 to seat 0; the low half (1 chip) is tied, its odd chip
    # going to the first tied seat clockwise from the dealer's left: seat 1 (R20)
    assert result.payouts == (2, 1, 0)


# ------------------------------------------------------------------ R25 --
def test_r25_uncontested_side_gives_the_whole_pot_to_the_other():
    game = play_to_declare([QUEENS, EIGHT_LOW, TREYS])
    declare_all(game, ["high", "high", "high"])
    assert game.result.payouts == (game.result.pot, 0, 0)
    assert game.result.high_half == game.result.pot
    game = play_to_declare([QUEENS, EIGHT_LOW, TREYS])
    declare_all(game, ["low", "low", "low"])
    assert game.result.payouts == (0, game.result.pot, 0)
    assert game.result.high_half == 0


def test_r25_odd_chip_between_halves_goes_to_high_and_within_a_half_as_r20():
    # three seats: pot 3 antes + 0 bets = 3 (odd): high half 2, low half 1
    game = play_to_declare([QUEENS, EIGHT_LOW, TREYS])
    declare_all(game, ["high", "low", "high"])
    assert game.result.pot == 3
    assert game.result.payouts == (2, 1, 0)
    # a tied low half of 1 chip (pot 3): the odd chip goes to the first tied seat
    # clockwise from the dealer's left (R20); dealer 1 -> seat 2 before seat 0
    game = play_to_declare(["8h 6c 4s 3d 2c", QUEENS, "8d 6s 4h 3h 2d"], dealer=1)
    declare_all(game, ["low", "high", "low"])
    assert game.result.payouts == (0, 2, 1)
    game = play_to_declare(["8h 6c 4s 3d 2c", QUEENS, "8d 6s 4h 3h 2d"], dealer=2)
    declare_all(game, ["low", "high", "low"])
    assert game.result.payouts == (1, 2, 0)


# ------------------------------------------------------------------ R26 --
def test_r26_lone_player_takes_the_pot_without_declaring():
    game = Game(Rules.hilo(3), dealer=0, seed=4)
    game.bet()
    game.fold()
    game.fold()
    assert game.phase is Phase.COMPLETE
    result = game.result
    assert result.ended_early
    assert result.payouts[result.winners[0]] == result.pot
    assert result.declarations == (-1, -1, -1)
    assert not any(e["type"].startswith("declare") for e in game.history.events)


def test_r26_folded_seat_does_not_declare():
    deck, _ = deal_for_fives([QUEENS, EIGHT_LOW, TREYS])
    game = Game(Rules.hilo(3), dealer=0, deck=deck)
    game.bet()  # seat 1
    game.call()  # seat 2
    game.fold()  # seat 0
    while game.phase is not Phase.DECLARE:
        if game.phase is Phase.BETTING:
            game.check()
        elif game.phase is Phase.PASS:
            for seat in game.waiting_for():
                game.commit_pass(seat, game.hand(seat)[:3])
        else:
            for seat in game.waiting_for():
                game.commit_discard(seat, game.hand(seat)[:2])
    assert game.waiting_for() == (1, 2)
    with pytest.raises(SeatFoldedError, match="seat 0 cannot declare: it has folded"):
        game.commit_declare(0, "high")
    game.commit_declare(1, "high")
    game.commit_declare(2, "low")
    assert game.result.declarations == (-1, 0, 1)
    assert sum(game.result.net) == 0


# -------------------------------------------------- illegal declarations --
@pytest.mark.parametrize(
    ("seat", "word", "error", "message"),
    [
        (0, "hi", IllegalActionError, "unknown declaration 'hi'; declare high, low or both"),
        (0, 3, IllegalActionError, "unknown declaration 3"),
        (0, True, IllegalActionError, "unknown declaration True"),
        (0, None, IllegalActionError, "unknown declaration None"),
        (3, "high", InvalidSeatError, "seat 3 is not at the table; seats are 0..2"),
        (-1, "high", InvalidSeatError, "seat -1 is not at the table"),
        ("0", "high", InvalidSeatError, "seat '0' is not a seat number"),
    ],
)
def test_illegal_declaration_is_refused_and_changes_nothing(seat, word, error, message):
    game = play_to_declare([QUEENS, EIGHT_LOW, TREYS])
    game.commit_declare(2, "low")
    before = everything(game)
    with pytest.raises(error, match=message):
        game.commit_declare(seat, word)
    assert everything(game) == before


def test_declaring_twice_is_refused_and_changes_nothing():
    game = play_to_declare([QUEENS, EIGHT_LOW, TREYS])
    game.commit_declare(1, "low")
    before = everything(game)
    with pytest.raises(AlreadyCommittedError, match="seat 1 has already declared"):
        game.commit_declare(1, "high")
    with pytest.raises(AlreadyCommittedError, match="waiting for seats 0, 2"):
        game.commit_declare(1, "low")
    assert everything(game) == before


def test_declaring_at_the_wrong_stage_or_under_other_rules_is_refused():
    game = Game(Rules.hilo(3), dealer=0, seed=1)
    before = everything(game)
    with pytest.raises(WrongPhaseError, match="seat 1 cannot declare: betting round 1 is on"):
        game.commit_declare(1, "high")
    assert everything(game) == before
    pagat = play_to_declare([QUEENS, EIGHT_LOW, TREYS], rules=Rules(players=3))
    assert pagat.phase is Phase.COMPLETE
    before = everything(pagat)
    with pytest.raises(WrongPhaseError, match="the pagat rules have no declaration"):
        pagat.commit_declare(0, "high")
    assert everything(pagat) == before
    mid = Game(Rules(players=3), dealer=0, seed=1)
    before = everything(mid)
    with pytest.raises(WrongPhaseError, match="only the hi-lo rules do"):
        mid.commit_declare(1, "low")
    assert everything(mid) == before
    done = play_to_declare([QUEENS, EIGHT_LOW, TREYS])
    declare_all(done, ["high", "low", "low"])
    before = everything(done)
    with pytest.raises(GameOverError, match="seat 0 cannot declare: the deal is over"):
        done.commit_declare(0, "high")
    assert everything(done) == before


def test_other_moves_are_refused_during_the_declaration():
    game = play_to_declare([QUEENS, EIGHT_LOW, TREYS])
    before = everything(game)
    with pytest.raises(WrongPhaseError, match="the seats are declaring high, low or both"):
        game.act(0, "check")
    with pytest.raises(WrongPhaseError, match="commit with commit_declare"):
        game.commit_pass(0, game.hand(0)[:3])
    with pytest.raises(WrongPhaseError):
        game.commit_discard(0, game.hand(0)[:2])
    assert everything(game) == before


# --------------------------------------------------------- the settlement --
SEATS = st.integers(2, 7)


@st.composite
def showdowns(draw):
    n = draw(SEATS)
    high = draw(st.lists(st.integers(1, 12), min_size=n, max_size=n))  # few values: many ties
    low = draw(st.lists(st.integers(1, 12), min_size=n, max_size=n))
    declarations = draw(st.lists(st.sampled_from(["high", "low", "both"]), min_size=n, max_size=n))
    active = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if not any(active):
        active[draw(st.integers(0, n - 1))] = True
    dealer = draw(st.integers(0, n - 1))
    pot = draw(st.integers(1, 200))
    return high, low, declarations, active, dealer, pot


def _split(high, low, declarations, active, dealer, pot):
    n = len(high)
    codes = np.array([V.DECLARE_NAMES.index(d) for d in declarations], np.int64)
    payout = np.full(n, -7, np.int64)  # overwritten
    flags = np.full(n, -7, np.int64)
    high_half = split_hilo(np.array(high), np.array(low), codes, np.array(active, np.int64),
                           dealer, pot, payout, flags)  # fmt: skip
    return int(high_half), payout.tolist(), flags.tolist()


@settings(max_examples=600, deadline=None)
@given(showdowns())
def test_split_conserves_the_pot_and_matches_the_rule_text_r24_r25(case):
    high, low, declarations, active, dealer, pot = case
    high_half, payout, flags = _split(*case)
    expected, failed = naive_split_hilo(high, low, declarations, active, dealer, pot)
    assert payout == expected
    assert sum(payout) == pot  # every chip of the pot is paid out
    assert all(p >= 0 for p in payout)
    assert [s for s in range(len(high)) if flags[s] & SWING_FAILED] == failed
    for s in failed:  # the failed swinger gets nothing
        assert payout[s] == 0
    for s, p in enumerate(payout):
        if not active[s]:
            assert p == 0 and flags[s] == 0
        if flags[s] & WON_HIGH:
            assert declarations[s] != "low"
        if flags[s] & WON_LOW:
            assert declarations[s] != "high"
        assert (p > 0) <= bool(flags[s] & (WON_HIGH | WON_LOW))
    # R25: the odd chip between the halves goes to the high half
    assert high_half in (0, pot, pot - pot // 2)


def test_split_when_every_swinger_fails_decides_the_halves_among_them():
    """[decision]: two swingers, one best high, the other best low: nobody would be left."""
    high_half, payout, flags = _split([9, 5], [3, 8], ["both", "both"], [True, True], 0, 7)
    assert (high_half, payout) == (4, [4, 3])
    assert flags == [WON_HIGH, WON_LOW]


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 7), st.integers(0, 10_000), st.integers(0, 6))
def test_hilo_deals_conserve_chips_and_replay(players, seed, dealer):
    """Random legal play under the hi-lo rules: chips conserved, histories replay."""
    dealer %= players
    strategies = [random.Random(seed + s).choice(["random", "sensible", "call-down"])
                  for s in range(players)]  # fmt: skip
    strategies[0] = RandomPlayer()
    game = play_deal(Rules.hilo(players), strategies, seed=seed, dealer=dealer)
    result = game.result
    assert sum(result.net) == 0
    assert sum(result.payouts) == result.pot
    for seat in result.failed_swingers:
        assert result.payouts[seat] == 0
    if not result.ended_early:
        assert all((d >= 0) == (not game.folded[s]) for s, d in enumerate(result.declarations))
    again = replay(History.from_json(game.history.to_json()))
    assert again.result == result


# --------------------------------------------------------------- history --
def test_history_round_trip_json_and_text_with_declarations():
    game = play_to_declare([QUEENS, EIGHT_LOW, TREYS])
    declare_all(game, ["high", "both", "low"])
    text = game.history.to_json()
    data = json.loads(text)
    assert data["format"] == 2
    assert data["rules"]["showdown"] == "hi-lo"
    back = verify(History.from_json(text))
    assert back == game.history
    assert replay(back).result == game.result
    shown = back.format()
    assert "-- Declarations (at once): seat 1 both, seat 2 low, seat 0 high" in shown
    assert "seat 1 low: 8-6-4-3-2 low" in shown
    assert "High half 2, low half 1; declared both and won nothing: seat 1" in shown
    assert "Seat 0 wins 2 (high)" in shown
    assert "Seat 2 wins 1 (low)" in shown
    assert [m["type"] for m in back.moves()].count("declare_commit") == 3


def test_history_with_an_edited_declaration_is_refused():
    from anaconda_sim.game.history import HistoryFormatError, ReplayMismatchError

    game = play_to_declare([QUEENS, EIGHT_LOW, TREYS])
    declare_all(game, ["high", "both", "low"])
    data = json.loads(game.history.to_json())
    i = next(i for i, e in enumerate(data["events"]) if e["type"] == "declare_commit")
    data["events"][i]["declaration"] = "middle"
    with pytest.raises(HistoryFormatError, match="declarations are high, low, both"):
        History.from_dict(data)
    data["events"][i]["declaration"] = "low" if data["events"][i]["seat"] != 2 else "high"
    with pytest.raises(ReplayMismatchError):
        verify(History.from_dict(data))


def test_high_only_histories_are_written_and_read_as_before():
    """The rules key ``showdown`` is only written for hi-lo: pagat histories keep their layout."""
    game = play_deal(Rules(players=3), ["sensible"] * 3, seed=3)
    data = json.loads(game.history.to_json())
    assert "showdown" not in data["rules"]
    assert set(data["rules"]) == {"players", "ante", "bet", "max_raises", "reserve", "passes",
                                  "discard", "progressive_reveal", "name"}  # fmt: skip
    assert verify(History.from_dict(data)).rules == Rules(players=3)


# ----------------------------------------------------------------- rules --
def test_rules_preset_and_field():
    assert Rules().showdown == "high"
    assert HILO == Rules.hilo(6) == Rules(showdown="hi-lo", name="hi-lo")
    assert Rules.from_dict(Rules.hilo(3).to_dict()) == Rules.hilo(3)
    assert Rules.hilo(3).with_players(5) == Rules.hilo(5)
    with pytest.raises(ValueError, match="showdown='hilo' is not a showdown"):
        Rules(showdown="hilo")
    # the bicycle shape with declarations: the declaration follows the last betting round
    bicycle = Rules(passes=((3, 1), (2, -1), (1, 1)), discard=False, progressive_reveal=False,
                    showdown="hi-lo", players=3)  # fmt: skip
    game = play_deal(bicycle, ["sensible"] * 3, seed=11)
    assert sum(game.result.net) == 0


# ---------------------------------------------------------- declare bots --
def _own(cards: str) -> np.ndarray:
    own = V.new_own(0)
    parsed = parse_cards(cards)
    own[V.O_NCARDS] = len(parsed)
    own[V.O_CARDS : V.O_CARDS + len(parsed)] = parsed
    return own


@pytest.mark.parametrize(
    ("cards", "declared"),
    [
        (WHEEL, "both"),  # a straight that is the best low
        ("6h 5c 4s 3d 2c", "both"),  # six-high straight, 6-5-4-3-2 low
        ("Ah 3h 4h 6h 2h", "both"),  # a small flush
        ("8h 7c 6s 5d 4c", "high"),  # a straight with only an eight-low
        (QUEENS, "high"),
        (EIGHT_LOW, "low"),
        ("9h 8c 7s 6d 5c", "high"),  # a nine-high straight is a straight first
        ("9h 8c 7s 6d 4c", "low"),  # nine-low, no straight
        ("Th 8c 7s 6d 4c", "high"),  # ten-low: too weak for low
        (TREYS, "high"),
        ("As Ad 2c 3h 4h 5s 6s", "both"),  # seven cards: wheel and six-high straight
    ],
)
def test_builtin_declare_by_strength(cards, declared):
    rng = np.zeros(1, np.uint64)
    own = _own(cards)
    for name in ("sensible", "call-down", "random-pass"):
        code = decide_declare(get_strategy(name), V.new_pub(), own, rng)
        assert V.DECLARE_NAMES[code] == declared
    assert rng[0] == 0  # no random draw


def test_random_declare_draws_uniformly_from_its_stream():
    from anaconda_sim import rng as R
    from anaconda_sim.strategies import KIND_RANDOM

    state = R.new_state(R.root_key(1), 0, 1)
    params = np.zeros(8)
    codes = [int(builtin_declare(KIND_RANDOM, V.new_pub(), _own(QUEENS), params, state))
             for _ in range(3000)]  # fmt: skip
    counts = np.bincount(codes, minlength=3)
    # each code has p = 1/3: within 4 standard errors of 1000
    assert np.all(np.abs(counts - 1000) < 4 * np.sqrt(3000 * (1 / 3) * (2 / 3)))


def test_session_plays_hi_lo_deals_with_bots_and_players():
    """Sessions drive the declaration through play_deal: Strategy objects, Bots, and a
    plain-Python player with its own choose_declaration."""
    from anaconda_sim.game.play import Bot
    from anaconda_sim.game.session import Session

    class AlwaysLow(RandomPlayer):
        name = "always-low"

        def choose_declaration(self, obs):
            assert obs.phase is Phase.DECLARE and obs.is_my_turn
            assert obs.declarations == (-1,) * obs.players  # nothing revealed yet
            return "low"

    session = Session(Rules.hilo(4), ["sensible", Bot("call-down"), AlwaysLow(), "random"],
                      seed=5)  # fmt: skip
    start = sum(session.stacks)
    records = session.run(12)
    assert sum(session.stacks) == start
    declared = [r for r in records if not r.game.result.ended_early]
    assert declared, "some deal reaches the showdown"
    for record in declared:
        result = record.game.result
        if not record.game.folded[2]:
            assert result.declarations[2] == V.DECLARE_LOW
