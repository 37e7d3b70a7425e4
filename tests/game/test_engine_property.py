"""Random legal play over thousands of deals, with illegal moves thrown in."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from anaconda_sim.errors import GameError
from anaconda_sim.game.engine import Action, Game, Phase
from anaconda_sim.game.history import History
from anaconda_sim.game.replayer import replay
from anaconda_sim.table.rules import Rules

PRESETS = st.sampled_from(["pagat", "bicycle"])


def make_rules(preset: str, players: int) -> Rules:
    return Rules.pagat(players) if preset == "pagat" else Rules.bicycle(players)


def legal_move(game: Game, rand: random.Random) -> None:
    """Make one random legal move."""
    if game.phase is Phase.BETTING:
        game.act(game.to_act, rand.choice(game.legal_actions()))
    elif game.phase is Phase.PASS:
        seat = rand.choice(game.waiting_for())
        count = game.rules.passes[game.pass_index][0]
        game.commit_pass(seat, rand.sample(game.hand(seat), count))
    else:
        seat = rand.choice(game.waiting_for())
        hand = game.hand(seat)
        discard = rand.sample(hand, 2)
        kept = [c for c in hand if c not in discard]
        game.commit_discard(seat, discard, rand.sample(kept, 5))


def illegal_move(game: Game, rand: random.Random) -> None:
    """Attempt one move that the rules forbid now (it must raise GameError)."""
    n = game.players
    options = []
    if game.phase is Phase.BETTING:
        others = [s for s in range(n) if s != game.to_act]
        options.append(lambda: game.act(rand.choice(others), rand.choice(list(Action))))
        wrong = [a for a in Action if a not in game.legal_actions()]
        options.append(lambda: game.act(game.to_act, rand.choice(wrong)))
        options.append(lambda: game.commit_pass(game.to_act, game.hand(game.to_act)[:3]))
        options.append(lambda: game.commit_discard(game.to_act, game.hand(game.to_act)[:2]))
    elif game.phase in (Phase.PASS, Phase.DISCARD):
        seat = rand.randrange(n)
        hand = game.hand(seat)
        foreign = [c for c in range(52) if c not in hand]
        size = game.rules.passes[game.pass_index][0] if game.phase is Phase.PASS else 2
        commit = game.commit_pass if game.phase is Phase.PASS else game.commit_discard
        options.append(lambda: commit(seat, [*rand.sample(hand, size - 1), rand.choice(foreign)]))
        options.append(lambda: commit(seat, rand.sample(hand, size + 1)))
        options.append(lambda: commit(seat, [hand[0]] * (size + 1)))  # a repeated card
        options.append(lambda: game.act(seat, rand.choice(list(Action))))
        folded = [s for s in range(n) if game.folded[s]]
        if folded:
            options.append(lambda: commit(folded[0], game.hand(folded[0])[:size]))
        done = [s for s in range(n) if game.has_committed(s)]
        if done:
            options.append(lambda: commit(done[0], game.hand(done[0])[:size]))
        if game.phase is Phase.DISCARD:
            kept = hand[2:]
            options.append(lambda: commit(seat, hand[:2], [*kept[:4], hand[0]]))
    else:
        options.append(lambda: game.act(rand.randrange(n), rand.choice(list(Action))))
        options.append(lambda: game.commit_pass(0, game.hand(0)[:1]))
    before = game.snapshot()
    try:
        rand.choice(options)()
    except GameError:
        pass
    else:  # pragma: no cover - would be a bug
        raise AssertionError("an illegal move was accepted")
    assert game.snapshot() == before


def check_finished(game: Game) -> None:
    result = game.result
    assert result is not None and game.phase is Phase.COMPLETE
    assert sum(result.net) == 0  # chips conserved
    assert result.pot == sum(result.invested) == sum(result.payouts)
    assert all(not game.folded[w] for w in result.winners)  # R16
    assert max(result.invested) <= game.rules.reserve  # R4: nobody can be all-in
    if result.ended_early:
        assert len(game.active_seats) == 1 and result.winners == game.active_seats
    else:
        best = max(h.value for h in result.hands)
        assert {h.seat for h in result.hands if h.value == best} == set(result.winners)
        assert {h.seat for h in result.hands} == set(game.active_seats)
        shares = [result.payouts[w] for w in result.winners]
        assert max(shares) - min(shares) <= 1  # R19, R20
    text = game.history.to_json()
    again = replay(History.from_json(text))
    assert again.snapshot() == game.snapshot()
    assert again.result == result
    assert again.history.to_json() == text


@pytest.mark.slow
@settings(max_examples=250, deadline=None)
@given(
    preset=PRESETS,
    players=st.integers(2, 7),
    seed=st.integers(0, 2**32),
    rand=st.randoms(use_true_random=False),
)
def test_random_legal_play_conserves_chips_and_replays(
    preset: str, players: int, seed: int, rand: random.Random
) -> None:
    rules = make_rules(preset, players)
    for deal in range(8):  # 2,000 deals in all
        game = Game(rules, dealer=rand.randrange(players), seed=seed, deal_index=deal)
        while game.phase is not Phase.COMPLETE:
            legal_move(game, rand)
        check_finished(game)


@settings(max_examples=150, deadline=None)
@example(preset="bicycle", players=4, seed=0, rand=random.Random(1))
@given(
    preset=PRESETS,
    players=st.integers(2, 7),
    seed=st.integers(0, 2**32),
    rand=st.randoms(use_true_random=False),
)
def test_illegal_moves_are_refused_and_change_nothing(
    preset: str, players: int, seed: int, rand: random.Random
) -> None:
    game = Game(make_rules(preset, players), dealer=rand.randrange(players), seed=seed)
    while game.phase is not Phase.COMPLETE:
        if rand.random() < 0.4:
            illegal_move(game, rand)
        legal_move(game, rand)
    illegal_move(game, rand)
    check_finished(game)
