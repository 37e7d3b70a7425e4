"""The engine twin of the analyses that start at the discard: the kernel's
pass model deals the opponents and makes their passes; the reference engine
then plays the deal from the discard on (betting rounds 1 and 2 checked
around), so an analysis's numbers can be replayed deal by deal."""

from __future__ import annotations

import numpy as np

from anaconda_sim.analysis.driver import pub_at_pass
from anaconda_sim.cards import mask_from_cards
from anaconda_sim.game.engine import Game, Phase, deck_for_hands
from anaconda_sim.rng import STREAM_SEAT, stream_state
from anaconda_sim.table import views as V

NO_FOURS = np.zeros((0, 4), dtype=np.int8)  # the right neighbour unconditioned


def model_pass(key, deal: int, n: int, rules: str, seats, known: list[int],
               right_forced: list[int], hero_unknown: int, held=None):  # fmt: skip
    """One deal of the pass model: ``(kept, packets, states, hero_cards)`` —
    every opponent's four kept cards, every packet (the hero's row unset),
    the opponents' decision streams after the pass, and the ``hero_unknown``
    cards of the hero drawn first. ``held``: the hero's seven held cards,
    unknown ones ``-1`` and last (needed when ``right_forced`` is
    ``RIGHT_POSTERIOR``)."""
    from anaconda_sim.sim.kernels.showdown import opponents_after_pass
    from anaconda_sim.strategies import kernel_extras

    pub = pub_at_pass(n, rules)
    kinds = np.array([s.kind for s in seats], dtype=np.int64)
    params = np.stack([s.param_array(n) for s in seats])
    owns = np.full((n, V.OWN_SIZE), -1, dtype=np.int32)
    owns[:, V.O_SEAT] = np.arange(n)
    kept = np.empty((n, 4), dtype=np.int64)
    packets = np.empty((n, 3), dtype=np.int64)
    states = np.empty((n, 1), dtype=np.uint64)
    hero_cards = opponents_after_pass(
        key, deal, n, pub, kinds, params, mask_from_cards(known),
        np.array(right_forced, dtype=np.int64), NO_FOURS, hero_unknown,
        np.array(held if held is not None else [-1] * 7, dtype=np.int64), owns, kept, packets,
        states, np.empty(52, dtype=np.int64), np.empty(7, dtype=np.int64),
        np.empty(7, dtype=np.int64), np.empty(1, dtype=np.uint64),
        *kernel_extras(bool(pub[V.P_HILO]), kinds),
    ).tolist()  # fmt: skip
    return kept, packets, states, hero_cards


def game_at_discard(rules, hero_before_pass: list[int], kept, packets) -> Game:
    """The engine at the discard: the hero's and the opponents' hands before
    the pass, the model's packets passed, rounds 1 and 2 checked around; the
    dealer is the last seat."""
    n = rules.players
    before_pass = [hero_before_pass]
    before_pass += [kept[s].tolist() + packets[s].tolist() for s in range(1, n)]
    game = Game(rules, dealer=n - 1, deck=deck_for_hands(before_pass, dealer=n - 1))
    while game.phase is not Phase.DISCARD:
        if game.phase is Phase.PASS:
            for seat in range(n):
                game.commit_pass(seat, packets[seat].tolist())
        else:
            game.check()
    return game


def deal_states(key, deal: int, states) -> list[np.ndarray]:
    """Every seat's decision stream from the discard on: the hero's own stream
    of the deal, the opponents' as the pass model left them."""
    hero = np.array([stream_state(key, deal, STREAM_SEAT)], dtype=np.uint64)
    return [hero, *(states[s].copy() for s in range(1, len(states)))]
