"""The reference engine against docs/rules.md, one test (at least) per rule R3-R20."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pytest

from anaconda_sim.cards import format_cards, parse_cards
from anaconda_sim.errors import IllegalActionError, WrongPhaseError
from anaconda_sim.game.engine import Action, Game, Phase, deck_for_hands
from anaconda_sim.hands import evaluator
from anaconda_sim.table import views as V
from anaconda_sim.table.rules import Rules


# ------------------------------------------------------------------ helpers --
def passive(game: Game) -> Action:
    """Check when possible, else call."""
    return Action.CHECK if Action.CHECK in game.legal_actions() else Action.CALL


def finish_round(game: Game, policy: Callable[[Game], Action] = passive) -> None:
    """Play the current betting round to its end."""
    start = game.betting_round
    while game.phase is Phase.BETTING and game.betting_round == start:
        game.act(game.to_act, policy(game))


def pass_last(game: Game, count: int | None = None) -> None:
    """Every active seat passes the last cards of its hand, in hand order."""
    count = count or game.rules.passes[game.pass_index][0]
    for seat in game.waiting_for():
        game.commit_pass(seat, game.hand(seat)[-count:])


def discard_to(game: Game, keep: Mapping[int, str]) -> None:
    """Each active seat keeps the five cards given (in reveal order)."""
    for seat in game.waiting_for():
        order = parse_cards(keep[seat])
        discard = [c for c in game.hand(seat) if c not in order]
        game.commit_discard(seat, discard, order)


def play_out(game: Game, keep: Mapping[int, str] | None = None) -> None:
    """Call down to the end, passing last cards and discarding to ``keep``
    (default: the best five)."""
    while game.phase is not Phase.COMPLETE:
        if game.phase is Phase.BETTING:
            finish_round(game)
        elif game.phase is Phase.PASS:
            pass_last(game)
        elif keep is not None:
            discard_to(game, keep)
        else:
            for seat in game.waiting_for():
                five, rest = evaluator.best_five(game.hand(seat))
                game.commit_discard(seat, rest, five)


def dealt(hands: Sequence[str], dealer: int = 0, rules: Rules | None = None) -> Game:
    rules = rules or Rules(players=len(hands))
    return Game(rules, dealer=dealer, deck=deck_for_hands(hands, dealer))


# --------------------------------------------------------------------- R3 --
def test_R3_antes_bet_and_raise_sizes() -> None:
    game = Game(Rules(players=4), dealer=0, seed=1)
    assert game.pot == 4 and game.invested == (1, 1, 1, 1)
    game.bet()  # seat 1
    game.raise_()  # seat 2 puts in 2
    game.call()  # seat 3 puts in 2
    assert game.invested == (1, 2, 3, 3)
    assert game.pot == 9


def test_R3_cap_stops_fourth_raise() -> None:
    game = Game(Rules(players=3), dealer=0, seed=1)
    game.bet()
    game.raise_()
    game.raise_()
    game.raise_()  # one bet and three raises
    assert game.level == 4
    assert game.legal_actions() == (Action.FOLD, Action.CALL)
    before = game.snapshot()
    with pytest.raises(IllegalActionError, match="cap of 4 bets and raises is reached"):
        game.raise_()
    assert game.snapshot() == before
    game.call()
    game.call()
    assert game.invested == (5, 5, 5)  # at most 4 chips per player per round
    assert game.phase is Phase.PASS


# --------------------------------------------------------------------- R4 --
def test_R4_reserve_covers_the_most_a_seat_can_lose() -> None:
    assert Rules().reserve == 25 == 1 + 6 * 4
    with pytest.raises(ValueError, match="reserve=24 is too small"):
        Rules(reserve=24)
    # fewer betting rounds need a smaller reserve: 1 + 1 round x 4
    assert Rules(reserve=5, passes=(), progressive_reveal=False).reserve == 5
    with pytest.raises(ValueError, match="reserve=16 is too small"):
        Rules(reserve=16, passes=((3, 1), (2, -1), (1, 1)), discard=False, progressive_reveal=False)


# --------------------------------------------------------------------- R5 --
@pytest.mark.parametrize("dealer", [0, 2, 4])
def test_R5_deal_order_starts_left_of_dealer(dealer: int) -> None:
    deck = list(range(52))
    game = Game(Rules(players=5), dealer=dealer, deck=deck)
    for k in range(35):
        seat = (dealer + 1 + k) % 5
        assert game.hand(seat)[k // 5] == deck[k]
    # undealt cards play no part
    held = {c for s in range(5) for c in game.hand(s)}
    assert held == set(range(35))


def test_R5_seven_players_use_49_cards() -> None:
    game = Game(Rules(players=7), seed=4)
    assert sum(len(game.hand(s)) for s in range(7)) == 49


# --------------------------------------------------------------------- R7 --
def test_R7_pass_is_simultaneous_and_goes_left() -> None:
    game = Game(Rules(players=3), dealer=0, deck=list(range(52)))
    finish_round(game)
    assert game.phase is Phase.PASS
    hands = [game.hand(s) for s in range(3)]
    game.commit_pass(1, hands[1][:3])
    # nothing moves before every active seat has committed
    assert game.hand(2) == hands[2] and game.hand(1) == hands[1]
    game.commit_pass(0, hands[0][4:])
    game.commit_pass(2, [hands[2][6], hands[2][0], hands[2][3]])
    # HAND ORDER: kept cards in previous order, then the received in listed order
    assert game.hand(2) == [hands[2][1], hands[2][2], hands[2][4], hands[2][5], *hands[1][:3]]
    assert game.hand(0) == [*hands[0][:4], hands[2][6], hands[2][0], hands[2][3]]
    assert game.hand(1) == hands[1][3:] + hands[0][4:]
    assert game.phase is Phase.BETTING and game.to_act == 1


def test_R7_pass_skips_folded_players() -> None:
    game = Game(Rules(players=4), dealer=3, deck=list(range(52)))
    game.bet()  # seat 0
    game.fold()  # seat 1 folds
    game.call()
    game.call()
    assert game.phase is Phase.PASS and game.waiting_for() == (0, 2, 3)
    packets = {s: game.hand(s)[:3] for s in (0, 2, 3)}
    for seat, packet in packets.items():
        game.commit_pass(seat, packet)
    assert game.hand(2)[4:] == packets[0]  # seat 0 -> seat 2, skipping folded seat 1
    assert game.hand(3)[4:] == packets[2]
    assert game.hand(0)[4:] == packets[3]


def test_R7_two_players_swap() -> None:
    game = Game(Rules(players=2), dealer=0, deck=list(range(52)))
    finish_round(game)
    a, b = game.hand(0)[:3], game.hand(1)[:3]
    game.commit_pass(0, a)
    game.commit_pass(1, b)
    assert game.hand(0)[4:] == b and game.hand(1)[4:] == a


def test_R7_two_active_of_five_swap() -> None:
    game = Game(Rules(players=5), dealer=0, deck=list(range(52)))
    game.bet()  # seat 1
    game.fold()
    game.call()  # seat 3
    game.fold()
    game.fold()
    assert game.waiting_for() == (1, 3)
    a, b = game.hand(1)[:3], game.hand(3)[:3]
    game.commit_pass(3, b)
    game.commit_pass(1, a)
    assert game.hand(1)[4:] == b and game.hand(3)[4:] == a


def test_R7_bicycle_passes_right_then_left() -> None:
    game = Game(Rules.bicycle(3), dealer=0, deck=list(range(52)))
    finish_round(game)
    pass_last(game)  # 3 to the left
    finish_round(game)
    assert game.rules.passes[game.pass_index] == (2, -1)
    packets = {s: game.hand(s)[:2] for s in range(3)}
    for seat, packet in packets.items():
        game.commit_pass(seat, packet)
    # to the right: seat s's packet goes to seat s - 1
    assert game.hand(0)[5:] == packets[1]
    assert game.hand(1)[5:] == packets[2]
    assert game.hand(2)[5:] == packets[0]


# --------------------------------------------------------------------- R8 --
def test_R8_order_is_fixed_and_followed_by_reveals() -> None:
    game = Game(Rules(players=2), dealer=0, seed=3)
    finish_round(game)
    pass_last(game)
    finish_round(game)
    assert game.phase is Phase.DISCARD
    orders = {}
    for seat in (0, 1):
        hand = game.hand(seat)
        orders[seat] = [hand[6], hand[2], hand[0], hand[5], hand[3]]
        game.commit_discard(seat, [hand[1], hand[4]], orders[seat])
    assert game.hand(0) == orders[0] and game.hand(1) == orders[1]
    with pytest.raises(WrongPhaseError):
        game.commit_discard(0, orders[0][:2], orders[0][2:])
    for r in range(4):
        for seat in (0, 1):
            assert game.exposed(seat) == orders[seat][: r + 1]
        finish_round(game)
    assert game.result is not None
    assert {h.seat: list(h.cards) for h in game.result.hands} == orders


# ----------------------------------------------------------------- R9, R10 --
def test_R9_R10_reveal_flow_and_no_betting_after_fifth_card() -> None:
    game = Game(Rules(players=3), dealer=1, seed=8)
    finish_round(game)
    pass_last(game)
    finish_round(game)
    assert game.stage == 1
    play_out_reveals = []
    for seat in game.waiting_for():
        five, rest = evaluator.best_five(game.hand(seat))
        game.commit_discard(seat, rest, five)
    for r in range(1, 5):
        assert game.phase is Phase.BETTING
        assert game.stage == V.STAGE_REVEAL + r and game.revealed == r
        assert game.betting_round == 1 + r
        assert all(len(game.exposed(s)) == r for s in range(3))
        pub, _ = game.seat_views(0)
        assert pub[V.P_REVEALED] == r
        play_out_reveals.append(game.betting_round)
        finish_round(game)
    assert play_out_reveals == [2, 3, 4, 5]
    assert game.phase is Phase.COMPLETE  # no round after the fifth card
    assert len(game.result.hands) == 3
    kinds = [e["type"] for e in game.history.events]
    assert kinds.count("round") == 6 == game.rules.betting_rounds
    assert kinds.count("reveal") == 4


# ---------------------------------------------------------------- R11, R12 --
def test_R11_R12_opener_best_exposed_with_tiebreak() -> None:
    # After the pass (each seat passes its last three to the left), seat s holds
    # its first four cards plus seat s-1's last three.
    hands = [
        "Kc Kd 2h 3h 4s 5s 6s",  # seat 0: shows K K
        "Qc Qd 2s 3s 4h 5h 6h",  # seat 1: shows Q Q
        "Ac 9d 2c 3c 4d 5d 6d",  # seat 2: shows A 9
        "Kh Ks 2d 3d 7c 8c 9c",  # seat 3: shows K K as well
    ]
    game = dealt(hands, dealer=1)
    assert game.to_act == 2  # round 1: first active left of the dealer
    finish_round(game)
    pass_last(game)
    finish_round(game)
    keep = {s: format_cards(game.hand(s)[:4] + game.hand(s)[4:5]) for s in range(4)}
    discard_to(game, keep)
    # reveal 1: K, Q, A, K -> the ace opens (no pair: highest card)
    assert [game.exposed(s)[0] for s in range(4)] == parse_cards("Kc Qc Ac Kh")
    assert game.to_act == 2
    finish_round(game)
    # reveal 2: KK, QQ, A9, KK -> tie between seats 0 and 3; the first clockwise
    # after the dealer (seat 1) is seat 3 (order 2, 3, 0)
    assert game.to_act == 3
    pub, _ = game.seat_views(3)
    assert pub[V.P_OPENER] == 3 and pub[V.P_TO_ACT] == 3


def test_R11_two_pair_beats_pair_of_aces_and_flush_draws_count_for_nothing() -> None:
    hands = [
        "Ah Ad 2c 3c 4s 5s 6s",  # shows A A 2 3
        "7c 7d 8c 8d 4h 5h 6h",  # shows 7 7 8 8: two pair opens
        "9h Th Jh Qh 4d 5d 6d",  # four hearts in a row: worth nothing
    ]
    game = dealt(hands, dealer=0)
    finish_round(game)
    pass_last(game)
    finish_round(game)
    discard_to(game, {s: format_cards(game.hand(s)[:5]) for s in range(3)})
    for _ in range(3):
        finish_round(game)
    assert game.revealed == 4
    assert game.to_act == 1


# --------------------------------------------------------------------- R13 --
def test_R13_options_with_and_without_a_bet() -> None:
    game = Game(Rules(players=3), seed=2)
    assert game.legal_actions() == (Action.CHECK, Action.BET)
    with pytest.raises(IllegalActionError, match="no bet is pending"):
        game.fold()
    with pytest.raises(IllegalActionError, match="cannot call"):
        game.call()
    game.bet()
    assert game.legal_actions() == (Action.FOLD, Action.CALL, Action.RAISE)
    with pytest.raises(IllegalActionError, match="faces a bet of 1; legal: fold, call, raise"):
        game.check()


# --------------------------------------------------------------------- R14 --
def test_R14_check_raise_legal() -> None:
    game = Game(Rules(players=3), dealer=0, seed=2)
    game.check()  # seat 1
    game.bet()  # seat 2
    game.call()  # seat 0
    assert game.to_act == 1 and Action.RAISE in game.legal_actions()
    game.raise_()  # seat 1 check-raises
    assert game.to_act == 2 and game.phase is Phase.BETTING
    game.call()
    game.call()
    assert game.phase is Phase.PASS and game.invested == (3, 3, 3)


# --------------------------------------------------------------------- R15 --
def test_R15_all_checks_end_round() -> None:
    game = Game(Rules(players=4), dealer=2, seed=2)
    seats = []
    for _ in range(4):
        seats.append(game.to_act)
        game.check()
    assert seats == [3, 0, 1, 2]
    assert game.phase is Phase.PASS


def test_R15_round_ends_when_everyone_has_answered_the_last_raise() -> None:
    game = Game(Rules(players=4), dealer=0, seed=2)
    game.check()  # 1
    game.bet()  # 2
    game.call()  # 3
    game.raise_()  # 0
    order = []
    while game.phase is Phase.BETTING:
        order.append(game.to_act)
        game.call()
    assert order == [1, 2, 3]


# --------------------------------------------------------------------- R16 --
def test_R16_folded_seat_gets_no_pass_no_reveals_cannot_win() -> None:
    hands = [
        "As Ah Ad Ac Ks Kh Kd",  # seat 0: the best hand, but it folds
        "2c 3d 4h 6s 8c 9d Th",
        "2d 3h 4s 6c 8d 9h Tc",
    ]
    game = dealt(hands, dealer=2)
    game.bet()  # seat 0
    game.raise_()  # seat 1
    game.call()  # seat 2
    game.fold()  # seat 0 folds
    assert game.waiting_for() == (1, 2)
    held = game.hand(0)
    pass_last(game)
    assert game.hand(0) == held  # receives nothing
    assert game.hand(1)[4:] == parse_cards("8d 9h Tc")  # seat 2's packet skips seat 0
    play_out(game)
    assert game.exposed(0) == []
    assert 0 not in game.result.winners and game.result.hand(0) is None
    assert game.result.net[0] == -2


# --------------------------------------------------------------------- R17 --
def test_R17_lone_player_wins_at_once() -> None:
    game = Game(Rules(players=3), dealer=0, seed=5)
    finish_round(game)
    pass_last(game)
    game.bet()  # seat 1
    game.fold()
    game.fold()
    assert game.phase is Phase.COMPLETE
    result = game.result
    assert result.ended_early and result.winners == (1,) and result.hands == ()
    assert result.net == (-1, 2, -1)
    kinds = [e["type"] for e in game.history.events]
    assert "discard_commit" not in kinds and "reveal" not in kinds and "showdown" not in kinds
    assert kinds[-2:] == ["award", "end"]


# --------------------------------------------------------------------- R18 --
@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("5h 4h 3h 2h Ah", "Kd Kc Ks Kh 2c"),  # steel wheel beats quads
        ("6s 5d 4c 3h 2h", "5s 4d 3c 2d Ac"),  # six-high straight beats the wheel
        ("5s 4d 3c 2d Ac", "Qs Qd Qc 7h 2s"),  # the wheel is a straight: beats trips
        ("Qs Qh Qd 9c 9d", "Js Jh Jd Ac Ad"),  # full house: trips first
        ("As Ad 4c 4h 2d", "Ks Kd Qc Qh Jd"),  # two pair: higher pair first
        ("9s 9d 5c 5h Kd", "9h 9c 5d 5s Qd"),  # then the kicker
        ("Ah 9h 7h 4h 2h", "Ks Qs Js Ts 8s"),  # ace-high flush beats king-high flush
        ("2c 2d 5h 7s 9c", "Ac Kd Qh Js 9s"),  # a pair beats high card
    ],
)
def test_R18_ranking_through_showdown(better: str, worse: str) -> None:
    rules = Rules(players=2, passes=(), progressive_reveal=False)
    junk = ["Tc Th", "8d 8h"] if "Tc" not in better + worse else ["3s 6d", "7d 8h"]
    hands = [f"{worse} {junk[0]}", f"{better} {junk[1]}"]
    game = dealt(hands, dealer=1, rules=rules)
    play_out(game, keep={0: worse, 1: better})
    assert game.result.winners == (1,)
    assert game.result.net == (-1, 1)


# --------------------------------------------------------------------- R19 --
def test_R19_split_two_and_three_winners() -> None:
    # every seat keeps 5-6-7-8 and receives a 9 from its right neighbour:
    # three nine-high straights, no flush
    hands = [
        "5c 6d 7h 8s 9c 2c 3d",
        "5d 6h 7s 8c 9d 2d 3h",
        "5h 6s 7c 8d 9h 2h 3s",
    ]
    game = dealt(hands, dealer=0)
    play_out(game)
    assert game.result.winners == (1, 2, 0)
    assert game.result.payouts == (1, 1, 1) and game.result.net == (0, 0, 0)
    assert {h.description for h in game.result.hands} == {"Straight, nine high"}

    # two equal winners and a loser
    hands[0] = "5c 6d 7h 2s 9c Qc Jd"  # seat 0 ends with no straight
    game = dealt(hands, dealer=0)
    play_out(game)
    assert game.result.winners == (1, 2)
    assert game.result.payouts == (0, 2, 1)  # the odd chip: R20
    assert game.result.net == (-1, 1, 0)


# --------------------------------------------------------------------- R20 --
@pytest.mark.parametrize(("dealer", "first"), [(0, 1), (1, 2), (2, 1)])
def test_R20_odd_chips(dealer: int, first: int) -> None:
    # seats 1 and 2 tie, seat 0 folds after one bet: the pot of 5 splits 3 / 2
    rules = Rules(players=3, passes=(), progressive_reveal=False)
    hands = [
        "Ac Ad Ah As Kc 2c 3c",
        "5c 6d 7h 8s 9c 2d 3d",
        "5d 6h 7s 8c 9d 2h 3h",
    ]
    game = dealt(hands, dealer=dealer, rules=rules)
    while game.to_act != 1:
        game.check()
    game.bet()  # seat 1
    while game.phase is Phase.BETTING:
        game.act(game.to_act, "fold" if game.to_act == 0 else "call")
    play_out(game, keep={1: "5c 6d 7h 8s 9c", 2: "5d 6h 7s 8c 9d"})
    assert game.result.pot == 5
    assert sorted(game.result.winners) == [1, 2]
    assert game.result.payouts[first] == 3 and game.result.payouts[3 - first] == 2


def test_R20_remainder_spread_over_three_tied_winners() -> None:
    rules = Rules(players=5, passes=(), progressive_reveal=False)
    hands = [
        "Kc Kd 2c 2d 4h Jc Qs",
        "5c 6d 7h 8s 9c 2h 3h",
        "5d 6h 7s 8c 9d 2s 3s",
        "Ac Ad Ah As Kh 3c 3d",
        "5h 6s 7c 8d 9h 4c 4d",
    ]
    game = dealt(hands, dealer=2, rules=rules)
    # seat 3 opens; seats 1, 2, 4 call a bet; seats 0 and 3 fold
    game.check()  # 3
    game.bet()  # 4
    game.fold()  # 0
    game.call()  # 1
    game.call()  # 2
    game.fold()  # 3
    assert game.phase is Phase.DISCARD and game.pot == 8
    play_out(game, keep={1: "5c 6d 7h 8s 9c", 2: "5d 6h 7s 8c 9d", 4: "5h 6s 7c 8d 9h"})
    # 8 = 3 x 2 + 2: the two left over go to the first tied winners clockwise
    # after the dealer (seat 2): seats 4, then 1
    assert game.result.winners == (4, 1, 2)
    assert game.result.payouts == (0, 3, 2, 0, 3)
    assert sum(game.result.net) == 0


# ---------------------------------------------------------- worked example --
def test_worked_example_full_house_shows_two_pair() -> None:
    # seat 1 holds Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣ and receives Q♦ 9♦ 5♠ from seat 0
    hands = [
        "Kc Kd Ks 7c Q♦ 9♦ 5♠",
        "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣",
        "Ac Ad As Jc Jd Js Th",
    ]
    game = dealt(hands, dealer=2)
    finish_round(game)
    game.commit_pass(0, "Q♦ 9♦ 5♠")
    game.commit_pass(1, "3♠ 4♥ 2♣")
    game.commit_pass(2, "Jc Jd Js")
    assert format_cards(game.hand(1), unicode=True) == "Q♠ Q♥ 9♣ 8♦ Q♦ 9♦ 5♠"
    finish_round(game)
    game.commit_discard(1, "8♦ 5♠", "9♣ Q♠ 9♦ Q♥ Q♦")
    game.commit_discard(0, game.hand(0)[5:], game.hand(0)[:5])
    game.commit_discard(2, game.hand(2)[5:], game.hand(2)[:5])
    for _ in range(3):
        finish_round(game)
    assert format_cards(game.exposed(1), unicode=True) == "9♣ Q♠ 9♦ Q♥"
    assert evaluator.exposed_category(game.exposed(1)) == 2  # two pair showing
    finish_round(game)
    hand = game.result.hand(1)
    assert hand.description == "Full house, queens over nines"
    assert 1 in game.result.winners


def test_phases_in_order_default_rules() -> None:
    game = Game(Rules(players=2), seed=0)
    phases = [game.phase]
    while game.phase is not Phase.COMPLETE:
        if game.phase is Phase.BETTING:
            finish_round(game)
        elif game.phase is Phase.PASS:
            pass_last(game)
        else:
            for seat in game.waiting_for():
                five, rest = evaluator.best_five(game.hand(seat))
                game.commit_discard(seat, rest, five)
        if phases[-1] is not game.phase:
            phases.append(game.phase)
    assert phases == [Phase.BETTING, Phase.PASS, Phase.BETTING, Phase.DISCARD, Phase.BETTING,
                      Phase.COMPLETE]  # fmt: skip
