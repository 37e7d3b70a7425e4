"""Kernels of spots (private; the public layer is :mod:`anaconda_sim.sim.spots`).

A spot is a decision of one seat (the hero) in a deal under way. Two
kernels answer it:

* :func:`sample_rivals` draws the rivals' hidden cards from their posterior
  given everything the hero has seen: every card shown, the packets the hero
  passed and received, and every decision each rival made under its stated
  strategy. It is sequential importance sampling with exact weights: the
  rivals are drawn one after the other, each from the cards still unseen,
  ``tries`` candidates a rival; a candidate is consistent when the rival's
  strategy, replayed on the candidate's views (the same views, functions
  and decision order as the deal kernels), takes every decision the rival
  took. One consistent candidate is kept, and the deal's weight is
  multiplied by the share of consistent candidates: an unbiased estimate of
  the rival's likelihood, so the weighted draws are a proper sample of the
  posterior for deterministic and randomised strategies alike.
* :func:`play_spot` plays each drawn deal on from the spot once per choice
  of the hero (common random numbers: the same streams for every choice),
  with the deal kernels' own phase functions, and returns the hero's net
  chips of the whole deal.

The posterior is exact, not approximate, because of how the cards are
parametrised: a seat that passed holds four cards of its own deal ``A``
and the packet ``Q`` it received; its dealt seven were ``A`` plus the packet
it passed, which is the packet its target received. A uniform deal makes
every assignment of the unseen cards to these slots equally likely, and
drawing the rivals in pass order backwards from the hero's right neighbour
(whose passed packet the hero holds) makes each rival's likelihood depend
only on cards already drawn.

Nothing here validates its input: the public layer does.
"""

from __future__ import annotations

import numpy as np

from ..._numba import jit
from ...limits import DISCARD_SIZE, HAND_SIZE, KEPT_SIZE
from ...rng import STREAM_DECK, STREAM_SEAT, rand_below, stream_state
from ...table import views as V
from ..layout import (
    C_BET,
    C_FORCE,
    C_HERO,
    C_N,
    C_NPASSES,
    DEC_OUT,
    DEC_SIZE,
    DEC_STRENGTH,
    DEC_VALUE,
    FORCE_DISCARD,
    FORCE_NONE,
    FORCE_ORDER,
    MAX_ROUNDS,
    PASS_COUNT,
    PASS_DIRECTION,
    RES_SIZE,
    S_NET,
    SEAT_RES_SIZE,
    STATES_ROWS,
)
from .deal import (
    _betting_round,
    _close_round,
    _first_active_left_of_dealer,
    _next_active,
    _pass_phase,
    apply_bet_action,
    betting_loop,
    decide_discard,
    decide_pass,
    play_from_discard,
    play_reveals,
    reset_results,
    seat_bet_action,
    settle,
)

#: how far a seat got in the deal before the spot
REACHED_DEAL = 0  # holds its dealt seven (folded before the pass, or no pass yet)
REACHED_PASS = 1  # passed and received (holds seven)
REACHED_DISCARD = 2  # discarded two and ordered its kept five

#: the own view a recorded decision was taken on
VIEW_DEALT = 0
VIEW_PASSED = 1
VIEW_KEPT = 2

#: what the hero decides at the spot
SPOT_BET = 0  # fold, check or call, bet or raise; choices[k, 0] is the A_* code
SPOT_PASS = 1  # the packet of the first pass; choices[k, 0:3]
SPOT_DISCARD = 2  # two discards then the kept five in reveal order; choices[k, 0:7]
SPOT_ORDER = 3  # the kept five in reveal order; choices[k, 0:5]

PACKET = 3  # cards in the one pass the spots support


@jit(inline="always")
def _in(cards, count, card):
    for j in range(count):
        if cards[j] == card:
            return True
    return False


@jit(inline="always")
def _draw(state, pool, npool, out, start, count):
    """``count`` distinct cards of ``pool[:npool]`` into ``out[start:]``
    (a partial shuffle of the pool's front; the pool stays the same set)."""
    for j in range(count):
        t = j + rand_below(state, npool - j)
        card = pool[t]
        pool[t] = pool[j]
        pool[j] = card
        out[start + j] = card


@jit(inline="always")
def _remove(pool, npool, cards, count):
    """Take ``cards[:count]`` (those in the pool) out of ``pool[:npool]``;
    returns the new size."""
    for j in range(count):
        for t in range(npool):
            if pool[t] == cards[j]:
                npool -= 1
                pool[t] = pool[npool]
                pool[npool] = cards[j]
                break
    return npool


@jit(inline="always")
def _set_view(owns, seat, cards, ncards, passed, received, discards):
    """Seat ``seat``'s own view: ``ncards`` held cards, the packets (``None``
    rows are empty), the discards."""
    for j in range(V.OWN_SIZE):
        owns[seat, j] = -1
    owns[seat, V.O_SEAT] = seat
    owns[seat, V.O_NCARDS] = ncards
    for j in range(ncards):
        owns[seat, V.O_CARDS + j] = cards[j]
    if passed[0] >= 0:
        owns[seat, V.O_NPASSED] = PACKET
        owns[seat, V.O_NRECEIVED] = PACKET
        for j in range(PACKET):
            owns[seat, V.O_PASSED + j] = passed[j]
            owns[seat, V.O_RECEIVED + j] = received[j]
    else:
        owns[seat, V.O_NPASSED] = 0
        owns[seat, V.O_NRECEIVED] = 0
    if discards[0] >= 0:
        owns[seat, V.O_DISCARDS] = discards[0]
        owns[seat, V.O_DISCARDS + 1] = discards[1]


@jit
def _rival_consistent(
    r, views, five, cfg, kinds, params, states, cbet, cpass, cdiscard, exposed, n_exposed,
    d_seat, d_kind, d_view, d_action, d_pub, owns, dec, force_row, forced_pass, res,
    with_hilo, with_learned,
):  # fmt: skip
    """-1 if rival ``r``'s strategy, on the candidate views ``views[v]``
    (``VIEW_*``; cards, then packets), takes every recorded decision of
    ``r``; else the index of the first decision it does not take. The kept
    five it chose at the discard go into ``five`` (then the two discards)."""
    n_dec = d_seat.shape[0]
    view_now = -1
    empty = np.full(PACKET, -1, dtype=np.int64)
    for m in range(n_dec):
        if d_seat[m] != r:
            continue
        v = d_view[m]
        if v != view_now:
            # what the seat holds changed (a pass, a discard): its cached
            # strength goes, as in the deal kernels
            dec[r, DEC_STRENGTH] = -1
            view_now = v
            if v == VIEW_DEALT:
                _set_view(owns, r, views[0, :HAND_SIZE], HAND_SIZE, empty, empty, empty)
            elif v == VIEW_PASSED:
                _set_view(owns, r, views[1, :HAND_SIZE], HAND_SIZE, views[1, 7:10],
                          views[1, 10:13], empty)  # fmt: skip
            else:
                _set_view(owns, r, five[:KEPT_SIZE], KEPT_SIZE, views[1, 7:10], views[1, 10:13],
                          five[KEPT_SIZE:])  # fmt: skip
        pub = d_pub[m]
        kind = d_kind[m]
        if kind == V.D_BET:
            action = seat_bet_action(r, cfg, pub, owns, kinds, params, states, cbet, dec,
                                     with_hilo, with_learned)  # fmt: skip
            if action != d_action[m]:
                return m
        elif kind == V.D_PASS:
            decide_pass(0, PACKET, r, cfg, pub, owns, kinds, params, states, cpass, dec,
                        force_row, forced_pass, res, with_hilo, with_learned)  # fmt: skip
            for j in range(PACKET):
                if not _in(views[1, 7:10], PACKET, dec[r, DEC_OUT + j]):
                    return m
        else:  # the discard: the kept five in reveal order must show what r showed
            decide_discard(r, cfg, pub, owns, kinds, params, states, cdiscard, dec, force_row,
                           res, with_hilo, with_learned)  # fmt: skip
            for j in range(n_exposed[r]):
                if dec[r, DEC_OUT + V.OUT_FIVE + j] != exposed[r, j]:
                    return m
            for j in range(KEPT_SIZE):
                five[j] = dec[r, DEC_OUT + V.OUT_FIVE + j]
            for j in range(DISCARD_SIZE):
                five[KEPT_SIZE + j] = dec[r, DEC_OUT + V.OUT_DISCARDS + j]
    return -1


@jit(inline="always")
def _candidate(r, state, pool, npool, reached, source, hero, hero_pass, exposed, n_exposed,
               passed, views):  # fmt: skip
    """One candidate of rival ``r``'s hidden cards, uniform given what is
    fixed, into ``views``: ``views[0]`` its dealt seven; ``views[1]`` the
    seven it held after the pass (its own four ``A``, then the packet ``Q``
    it received), the packet it passed, the packet it received. ``passed``
    is the packet it passed (known: drawn with its target). Returns the
    number of cards taken from the pool (at the front of ``pool``)."""
    k = n_exposed[r]
    if reached[r] == REACHED_DEAL:
        _draw(state, pool, npool, views[0], 0, HAND_SIZE)
        return HAND_SIZE
    own_four = np.empty(HAND_SIZE, dtype=np.int64)
    packet = np.empty(PACKET, dtype=np.int64)
    taken = 0
    if source[r] == hero:
        # it received the hero's packet: the rest of what it shows is its own
        na = 0
        for j in range(k):
            if not _in(hero_pass, PACKET, exposed[r, j]):
                own_four[na] = exposed[r, j]
                na += 1
        taken = 4 - na
        _draw(state, pool, npool, own_four, na, taken)
        for j in range(PACKET):
            packet[j] = hero_pass[j]
    else:
        seven = np.empty(HAND_SIZE, dtype=np.int64)
        for j in range(k):
            seven[j] = exposed[r, j]
        taken = HAND_SIZE - k
        _draw(state, pool, npool, seven, k, taken)
        # which three of the seven it received: uniform
        for j in range(PACKET):
            t = j + rand_below(state, HAND_SIZE - j)
            card = seven[t]
            seven[t] = seven[j]
            seven[j] = card
        for j in range(PACKET):
            packet[j] = seven[j]
        for j in range(4):
            own_four[j] = seven[PACKET + j]
    for j in range(4):
        views[0, j] = own_four[j]
        views[1, j] = own_four[j]
    for j in range(PACKET):
        views[0, 4 + j] = passed[j]
        views[1, 4 + j] = packet[j]
        views[1, 7 + j] = passed[j]
        views[1, 10 + j] = packet[j]
    return taken


@jit
def sample_rivals(
    first, stop, key, base, tries, cfg, kinds, params, hero, order, reached, source, target,
    hero_pass, hero_recv, exposed, n_exposed, unseen,
    d_seat, d_kind, d_view, d_action, d_pub,
    out_cards, out_received, out_passed, out_weight, out_dead,
    cbet, cpass, cdiscard, with_hilo, with_learned,
):  # fmt: skip
    """Posterior draws ``first .. stop - 1`` (one stream each).

    Outputs per draw ``i`` and seat ``s`` (rivals only): ``out_cards[o, s]``
    the seven held at the spot (the kept five in reveal order, then the two
    discards, for a seat that discarded), ``out_received[o, s]`` and
    ``out_passed[o, s]`` its packets; ``out_weight[o]`` the importance
    weight (0: no consistent candidate for some rival); ``out_dead[o]`` the
    recorded decision most candidates failed at when the weight is 0, else
    -1. Draw ``i`` goes into row ``i - base``."""
    n = cfg[C_N]
    n_dec = d_seat.shape[0]
    owns = np.empty((n, V.OWN_SIZE), dtype=np.int32)
    dec = np.empty((n, DEC_SIZE), dtype=np.int64)
    states = np.empty((STATES_ROWS, 1), dtype=np.uint64)
    res = np.zeros(RES_SIZE, dtype=np.int64)
    force_row = np.full(HAND_SIZE, -1, dtype=np.int64)
    forced_pass = np.full((7, PACKET), -1, dtype=np.int64)
    pool = np.empty(unseen.shape[0], dtype=np.int64)
    views = np.empty((2, 13), dtype=np.int64)
    best_views = np.empty((2, 13), dtype=np.int64)
    five = np.empty(HAND_SIZE, dtype=np.int64)
    best_five = np.empty(HAND_SIZE, dtype=np.int64)
    taken_cards = np.empty(HAND_SIZE, dtype=np.int64)
    q_of = np.full((n, PACKET), -1, dtype=np.int64)
    fails = np.zeros(n_dec + 1, dtype=np.int64)
    state = np.empty(1, dtype=np.uint64)
    for i in range(first, stop):
        o = i - base
        state[0] = stream_state(key, i, STREAM_DECK)
        for s in range(n):
            states[STREAM_SEAT + s, 0] = stream_state(key, i, STREAM_SEAT + s)
        for j in range(unseen.shape[0]):
            pool[j] = unseen[j]
        npool = unseen.shape[0]
        for j in range(PACKET):
            q_of[hero, j] = hero_recv[j]
        weight = 1.0
        out_dead[o] = -1
        for step in range(order.shape[0]):
            r = order[step]
            passed = q_of[target[r]] if reached[r] != REACHED_DEAL else hero_recv
            accepted = 0
            taken = 0
            for m in range(n_dec + 1):
                fails[m] = 0
            for _ in range(tries):
                got = _candidate(r, state, pool, npool, reached, source, hero, hero_pass,
                                 exposed, n_exposed, passed, views)  # fmt: skip
                failed = _rival_consistent(
                    r, views, five, cfg, kinds, params, states, cbet, cpass, cdiscard, exposed,
                    n_exposed, d_seat, d_kind, d_view, d_action, d_pub, owns, dec, force_row,
                    forced_pass, res, with_hilo, with_learned,
                )  # fmt: skip
                if failed >= 0:
                    fails[failed] += 1
                    continue
                accepted += 1
                # keep one consistent candidate, uniformly (reservoir of one)
                if rand_below(state, accepted) == 0:
                    for a in range(2):
                        for j in range(13):
                            best_views[a, j] = views[a, j]
                    for j in range(HAND_SIZE):
                        best_five[j] = five[j]
                        taken_cards[j] = pool[j]
                    taken = got
            if accepted == 0:
                weight = 0.0
                worst = 0
                for m in range(n_dec):
                    if fails[m] > fails[worst]:
                        worst = m
                out_dead[o] = worst
                break
            weight *= accepted / tries
            npool = _remove(pool, npool, taken_cards, taken)
            if reached[r] == REACHED_DEAL:
                for j in range(HAND_SIZE):
                    out_cards[o, r, j] = best_views[0, j]
                    out_passed[o, r, j % PACKET] = -1
                    out_received[o, r, j % PACKET] = -1
                continue
            for j in range(PACKET):
                q_of[r, j] = best_views[1, 10 + j]
                out_received[o, r, j] = best_views[1, 10 + j]
                out_passed[o, r, j] = best_views[1, 7 + j]
            if reached[r] == REACHED_DISCARD:
                for j in range(HAND_SIZE):
                    out_cards[o, r, j] = best_five[j]
            else:
                for j in range(HAND_SIZE):
                    out_cards[o, r, j] = best_views[1, j]
        out_weight[o] = weight


@jit
def _rest_of_deal(
    done, cfg, dealer, passes, pub, owns, kinds, params, states, cbet, cpass, cdiscard, dec,
    force_row, forced_pass, seat_res, res, opener, with_hilo, with_learned,
):  # fmt: skip
    """The deal on from the end of betting round ``done`` (R7-R17): the
    passes left, the discard, the reveals left, and their betting rounds.
    Returns True if it ended early (R17)."""
    n = cfg[C_N]
    npasses = cfg[C_NPASSES]
    rnd = done
    p = done
    while p < npasses:
        _pass_phase(p, passes[p, PASS_COUNT], passes[p, PASS_DIRECTION], cfg, dealer, pub, owns,
                    kinds, params, states, cpass, dec, force_row, forced_pass, res,
                    with_hilo, with_learned)  # fmt: skip
        rnd += 1
        opener[rnd] = _first_active_left_of_dealer(pub, n, dealer)
        if _betting_round(rnd, opener[rnd], cfg, pub, owns, kinds, params, states, cbet, dec,
                          seat_res, res, with_hilo, with_learned):  # fmt: skip
            return True
        p += 1
    if rnd == npasses:
        return play_from_discard(rnd, dealer, cfg, kinds, params, force_row, pub, owns, states,
                                 dec, seat_res, res, opener, cbet, cdiscard,
                                 with_hilo, with_learned)  # fmt: skip
    return play_reveals(rnd, dealer, cfg, kinds, params, pub, owns, states, dec, seat_res, res,
                        opener, cbet, with_hilo, with_learned)  # fmt: skip


@jit
def play_spot(
    first, stop, key, cfg, passes, kinds, params, spot_kind, hero, pending, spot_pub, hero_own,
    reached, cards, received, passed, choices, out_net,
    cbet, cpass, cdiscard, with_hilo, with_learned,
):  # fmt: skip
    """Play drawn deals ``first .. stop - 1`` on from the spot, once per row
    of ``choices`` (``SPOT_*`` meaning), the hero's net chips of the whole
    deal into ``out_net[i, k]``.

    ``cards``, ``received``, ``passed``: the draws of :func:`sample_rivals`
    (the hero's rows are ignored: ``hero_own`` is its view). ``pending``:
    seats still to act in the current betting round, the hero included.
    Every choice of a draw plays on the same random streams (stream ``1 +
    s`` of draw ``i`` for seat ``s``)."""
    n = cfg[C_N]
    dealer = spot_pub[V.P_DEALER]
    pub = np.empty(V.PUB_SIZE, dtype=np.int32)
    owns = np.empty((n, V.OWN_SIZE), dtype=np.int32)
    states = np.empty((STATES_ROWS, 1), dtype=np.uint64)
    dec = np.empty((n, DEC_SIZE), dtype=np.int64)
    seat_res = np.empty((n, SEAT_RES_SIZE), dtype=np.int64)
    res = np.zeros(RES_SIZE, dtype=np.int64)
    opener = np.empty(MAX_ROUNDS, dtype=np.int64)
    force_row = np.full(HAND_SIZE, -1, dtype=np.int64)
    forced_pass = np.full((7, PACKET), -1, dtype=np.int64)
    local = cfg.copy()
    local[C_HERO] = hero
    local[C_FORCE] = FORCE_NONE
    if spot_kind == SPOT_DISCARD:
        local[C_FORCE] = FORCE_DISCARD
    elif spot_kind == SPOT_ORDER:
        local[C_FORCE] = FORCE_ORDER
    empty = np.full(PACKET, -1, dtype=np.int64)
    for i in range(first, stop):
        for k in range(choices.shape[0]):
            for j in range(V.PUB_SIZE):
                pub[j] = spot_pub[j]
            for s in range(n):
                if s == hero:
                    for j in range(V.OWN_SIZE):
                        owns[s, j] = hero_own[j]
                elif reached[s] == REACHED_DEAL:
                    _set_view(owns, s, cards[i, s], HAND_SIZE, empty, empty, empty)
                elif reached[s] == REACHED_PASS:
                    _set_view(owns, s, cards[i, s], HAND_SIZE, passed[i, s], received[i, s],
                              empty)  # fmt: skip
                else:
                    _set_view(owns, s, cards[i, s, :KEPT_SIZE], KEPT_SIZE, passed[i, s],
                              received[i, s], cards[i, s, KEPT_SIZE:])  # fmt: skip
                for j in range(DEC_SIZE):
                    dec[s, j] = -1
                dec[s, DEC_VALUE] = -1
                states[STREAM_SEAT + s, 0] = stream_state(key, i, STREAM_SEAT + s)
            reset_results(n, seat_res, res, opener, 0)
            for s in range(7):
                forced_pass[s, 0] = -1
            ended = False
            if spot_kind == SPOT_BET:
                rnd = pub[V.P_ROUND]
                left = apply_bet_action(rnd, hero, choices[k, 0], pending, local[C_BET], pub,
                                        seat_res)  # fmt: skip
                if pub[V.P_ACTIVE] == 1:
                    ended = True
                    _close_round(pub, n)
                elif left == 0:
                    _close_round(pub, n)
                else:
                    ended = betting_loop(rnd, _next_active(pub, n, hero, 1), left, local, pub,
                                         owns, kinds, params, states, cbet, dec, seat_res,
                                         with_hilo, with_learned)  # fmt: skip
                if not ended:
                    ended = _rest_of_deal(rnd, local, dealer, passes, pub, owns, kinds, params,
                                          states, cbet, cpass, cdiscard, dec, force_row,
                                          forced_pass, seat_res, res, opener,
                                          with_hilo, with_learned)  # fmt: skip
            elif spot_kind == SPOT_PASS:
                for j in range(PACKET):
                    forced_pass[hero, j] = choices[k, j]
                ended = _rest_of_deal(0, local, dealer, passes, pub, owns, kinds, params, states,
                                      cbet, cpass, cdiscard, dec, force_row, forced_pass,
                                      seat_res, res, opener, with_hilo, with_learned)  # fmt: skip
            else:
                for j in range(HAND_SIZE):
                    force_row[j] = choices[k, j]
                ended = _rest_of_deal(local[C_NPASSES], local, dealer, passes, pub, owns, kinds,
                                      params, states, cbet, cpass, cdiscard, dec, force_row,
                                      forced_pass, seat_res, res, opener,
                                      with_hilo, with_learned)  # fmt: skip
            settle(ended, dealer, local, pub, owns, dec, seat_res, res, with_hilo, with_learned)
            out_net[i, k] = seat_res[hero, S_NET]
