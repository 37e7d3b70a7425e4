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

from typing import Any

import numpy as np
from numba import types

from ..._numba import argument_type, jit
from ...limits import DISCARD_SIZE, HAND_SIZE, KEPT_SIZE
from ...rng import STREAM_DECK, STREAM_SEAT, rand_below, rand_float, stream_state
from ...strategies.dispatch import forget_cards
from ...table import views as V
from ...warmup import CompileJob
from ..layout import (
    C_BET,
    C_FORCE,
    C_HERO,
    C_N,
    C_NPASSES,
    DEC_CACHE,
    DEC_CACHE_END,
    DEC_OUT,
    DEC_SIZE,
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
    c_array,
)
from . import deal as D
from .deal import (
    apply_bet_action,
    betting_loop,
    decide_discard,
    decide_pass,
    play_from_discard,
    play_reveals,
    reset_results,
    seat_bet_action,
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

#: a recorded decision whose likelihood does not depend on the hidden cards
#: (a uniformly random pass, discard or order; a bet read off the public
#: table): a constant factor of the posterior, so it is not checked. Its
#: ``d_kind`` is the decision's ``V.D_*`` code plus this offset.
FREE = 10


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
    r, first_view, last_view, views, five, cfg, kinds, params, states, cbet, cpass, cdiscard,
    exposed, n_exposed, d_seat, d_kind, d_view, d_action, d_pub, owns, dec, force_row,
    forced_pass, res, with_hilo, with_learned,
):  # fmt: skip
    """-1 if rival ``r``'s strategy, on the candidate views ``views[v]``
    (``VIEW_*``; cards, then packets), takes every recorded decision of
    ``r`` taken on views ``first_view .. last_view``; else the index of the
    first decision it does not take. The kept five it chose at the discard
    go into ``five`` (then the two discards). The dealt seven are seen in
    a random order (a dealt hand's order is random, R5, and a strategy may
    break ties by hand position): a 0/1 estimate, like a random choice."""
    n_dec = d_seat.shape[0]
    view_now = -1
    empty = np.full(PACKET, -1, dtype=np.int64)
    dealt = np.empty(HAND_SIZE, dtype=np.int64)
    for m in range(n_dec):
        v = d_view[m]
        if d_seat[m] != r or v < first_view or v > last_view:
            continue
        if v != view_now:
            # what the seat holds changed (a pass, a discard): its cached
            # strength goes, as in the deal kernels
            forget_cards(dec[r, DEC_CACHE:DEC_CACHE_END])
            view_now = v
            if v == VIEW_DEALT:
                # the engine holds a dealt seven in deal order, uniformly random
                # given the cards: a strategy that breaks ties by hand position
                # ("learned"'s pass) decides on a random order here too, so the
                # check is an unbiased 0/1 estimate of the likelihood averaged
                # over orders (drawn afresh, as a strategy's random decisions)
                _shuffled(views[0, :HAND_SIZE], dealt, states[STREAM_SEAT + r])
                _set_view(owns, r, dealt, HAND_SIZE, empty, empty, empty)
            elif v == VIEW_PASSED:
                _set_view(owns, r, views[1, :HAND_SIZE], HAND_SIZE, views[1, 7:10],
                          views[1, 10:13], empty)  # fmt: skip
            else:
                _set_view(owns, r, five[:KEPT_SIZE], KEPT_SIZE, views[1, 7:10], views[1, 10:13],
                          five[KEPT_SIZE:])  # fmt: skip
        # shared by every thread, read only: it holds the betting summary of
        # its whole log (spots.state), which the learned bet would else write
        pub = d_pub[m]
        kind = d_kind[m]
        if kind >= FREE:
            if kind == FREE + V.D_DISCARD:
                _uniform_five(r, views[1], exposed, n_exposed, five, states[STREAM_SEAT + r])
            continue
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
def _shuffled(cards, out, rng):
    """``cards`` in a uniformly random order, into ``out``."""
    k = cards.shape[0]
    for t in range(k):
        out[t] = cards[t]
    for t in range(k - 1):
        u = t + rand_below(rng, k - t)
        card = out[u]
        out[u] = out[t]
        out[t] = card


@jit(inline="always")
def _uniform_five(r, seven, exposed, n_exposed, five, rng):
    """A uniformly random discard and reveal order of ``seven`` that shows
    rival ``r``'s exposed cards first, into ``five`` (then the discards)."""
    k = n_exposed[r]
    rest = np.empty(HAND_SIZE, dtype=np.int64)
    m = 0
    for t in range(HAND_SIZE):
        if not _in(exposed[r], k, seven[t]):
            rest[m] = seven[t]
            m += 1
    for t in range(m):
        u = t + rand_below(rng, m - t)
        card = rest[u]
        rest[u] = rest[t]
        rest[t] = card
    for t in range(k):
        five[t] = exposed[r, t]
    for t in range(KEPT_SIZE - k):
        five[k + t] = rest[t]
    for t in range(DISCARD_SIZE):
        five[KEPT_SIZE + t] = rest[KEPT_SIZE - k + t]


@jit(inline="always")
def _split(views, seven, passed, i, j, k):
    """``views`` for the split of ``seven`` (the cards held after the pass)
    in which cards ``i < j < k`` are the packet received."""
    a = 0
    for t in range(HAND_SIZE):
        card = seven[t]
        if t == i or t == j or t == k:
            continue
        views[0, a] = card
        views[1, a] = card
        a += 1
    views[1, 4] = seven[i]
    views[1, 5] = seven[j]
    views[1, 6] = seven[k]
    for t in range(PACKET):
        views[0, 4 + t] = passed[t]
        views[1, 7 + t] = passed[t]
        views[1, 10 + t] = views[1, 4 + t]


@jit(inline="always")
def _draw_seven(r, state, pool, npool, source, hero, hero_pass, exposed, n_exposed, seven):
    """The cards rival ``r`` held after the pass, uniform given what is fixed
    (what it showed; the hero's packet when the hero passed to it), into
    ``seven``: with the hero's packet, the packet is ``seven[4:7]``. Returns
    the number of cards taken from the pool (at the front of ``pool``)."""
    k = n_exposed[r]
    if source[r] != hero:
        for j in range(k):
            seven[j] = exposed[r, j]
        _draw(state, pool, npool, seven, k, HAND_SIZE - k)
        return HAND_SIZE - k
    na = 0
    for j in range(k):
        if not _in(hero_pass, PACKET, exposed[r, j]):
            seven[na] = exposed[r, j]
            na += 1
    _draw(state, pool, npool, seven, na, 4 - na)
    for j in range(PACKET):
        seven[4 + j] = hero_pass[j]
    return 4 - na


@jit
def _candidate_weight(
    r, state, seven, passed, views, best_views, five, best_five, split_free, fails,
    cfg, kinds, params, states, cbet, cpass, cdiscard, reached, source, hero, exposed,
    n_exposed, d_seat, d_kind, d_view, d_action, d_pub, owns, dec, force_row, forced_pass, res,
    with_hilo, with_learned, consistent,
):  # fmt: skip
    """The likelihood weight of one candidate of rival ``r`` (cards in
    ``seven``): 0 or 1 for a seat that never passed or that received the
    hero's packet; else the share of the 35 ways of splitting its seven into
    its own four and the packet it received under which its strategy takes
    every recorded decision (summed over the splits rather than drawn: the
    same expectation, less variance). One consistent split, uniformly, goes
    into ``best_views``/``best_five``; failures are counted in ``fails``."""
    if reached[r] == REACHED_DEAL:
        for j in range(HAND_SIZE):
            views[0, j] = seven[j]
        failed = consistent(
            r, VIEW_DEALT, VIEW_DEALT, views, five, cfg, kinds, params, states, cbet, cpass,
            cdiscard, exposed, n_exposed, d_seat, d_kind, d_view, d_action, d_pub, owns, dec,
            force_row, forced_pass, res, with_hilo, with_learned,
        )  # fmt: skip
        if failed >= 0:
            fails[failed] += 1
            return 0.0
        for j in range(HAND_SIZE):
            best_views[0, j] = views[0, j]
        return 1.0
    fixed_packet = source[r] == hero
    if split_free or fixed_packet:
        # decisions after the pass read only the held cards: checked once
        _split(views, seven, passed, 4, 5, 6)
        failed = consistent(
            r, VIEW_PASSED, VIEW_KEPT, views, five, cfg, kinds, params, states, cbet, cpass,
            cdiscard, exposed, n_exposed, d_seat, d_kind, d_view, d_action, d_pub, owns, dec,
            force_row, forced_pass, res, with_hilo, with_learned,
        )  # fmt: skip
        if failed >= 0:
            fails[failed] += 1
            return 0.0
    if fixed_packet:
        failed = consistent(
            r, VIEW_DEALT, VIEW_DEALT, views, five, cfg, kinds, params, states, cbet, cpass,
            cdiscard, exposed, n_exposed, d_seat, d_kind, d_view, d_action, d_pub, owns, dec,
            force_row, forced_pass, res, with_hilo, with_learned,
        )  # fmt: skip
        if failed >= 0:
            fails[failed] += 1
            return 0.0
        for a in range(2):
            for j in range(13):
                best_views[a, j] = views[a, j]
        for j in range(HAND_SIZE):
            best_five[j] = five[j]
        return 1.0
    good = 0
    for i in range(HAND_SIZE):
        for j in range(i + 1, HAND_SIZE):
            for k in range(j + 1, HAND_SIZE):
                _split(views, seven, passed, i, j, k)
                # with split-free decisions the later views were checked above
                last = VIEW_DEALT if split_free else VIEW_KEPT
                failed = consistent(
                    r, VIEW_DEALT, last, views, five, cfg, kinds, params, states, cbet, cpass,
                    cdiscard, exposed, n_exposed, d_seat, d_kind, d_view, d_action, d_pub, owns,
                    dec, force_row, forced_pass, res, with_hilo, with_learned,
                )  # fmt: skip
                if failed >= 0:
                    fails[failed] += 1
                    continue
                good += 1
                if rand_below(state, good) == 0:
                    for a in range(2):
                        for t in range(13):
                            best_views[a, t] = views[a, t]
                    for t in range(HAND_SIZE):
                        best_five[t] = five[t]
    return good / 35.0


@jit
def sample_rivals(
    first, stop, key, base, tries, split_free, fallback, cfg, kinds, params, hero, order, reached,
    source,
    target, hero_pass, hero_recv, exposed, n_exposed, unseen,
    d_seat, d_kind, d_view, d_action, d_pub,
    out_cards, out_received, out_passed, out_weight, out_dead, out_rate,
    cbet, cpass, cdiscard, with_hilo, with_learned, _rival_consistent,
):  # fmt: skip
    """Posterior draws ``first .. stop - 1`` (one stream each).

    ``tries[step]``: candidates of the rival drawn at that step of ``order``.
    Outputs per draw ``i`` (row ``i - base``) and seat ``s`` (rivals only):
    ``out_cards[i, s]`` the seven held at the spot (the kept five in reveal
    order, then the two discards, for a seat that discarded),
    ``out_received[i, s]`` and ``out_passed[i, s]`` its packets;
    ``out_weight[i]`` the importance weight (0: no consistent candidate for
    some rival); ``out_dead[i]`` the recorded decision most candidates
    failed at when the weight is 0, else -1; ``out_rate[i, step]`` the
    mean candidate weight of each step reached (NaN after a dead one).
    With ``fallback``, a rival with no consistent candidate gets an
    arbitrary draw (weight 0, the draw goes on): starting states for a walk
    that searches from them."""
    n = cfg[C_N]
    n_dec = d_seat.shape[0]
    owns = np.empty((n, V.OWN_SIZE), dtype=np.int32)
    dec = np.full((n, DEC_SIZE), -1, dtype=np.int64)  # nothing cached
    states = np.empty((STATES_ROWS, 1), dtype=np.uint64)
    res = np.zeros(RES_SIZE, dtype=np.int64)
    force_row = np.full(HAND_SIZE, -1, dtype=np.int64)
    forced_pass = np.full((7, PACKET), -1, dtype=np.int64)
    pool = np.empty(unseen.shape[0], dtype=np.int64)
    seven = np.empty(HAND_SIZE, dtype=np.int64)
    views = np.full((2, 13), -1, dtype=np.int64)
    cand_views = np.full((2, 13), -1, dtype=np.int64)
    best_views = np.full((2, 13), -1, dtype=np.int64)
    five = np.empty(HAND_SIZE, dtype=np.int64)
    cand_five = np.empty(HAND_SIZE, dtype=np.int64)
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
            out_rate[o, step] = np.nan
        for step in range(order.shape[0]):
            r = order[step]
            passed = q_of[target[r]] if reached[r] != REACHED_DEAL else hero_recv
            total = 0.0
            taken = 0
            for m in range(n_dec + 1):
                fails[m] = 0
            for _ in range(tries[step]):
                got = _draw_seven(r, state, pool, npool, source, hero, hero_pass, exposed,
                                  n_exposed, seven) if reached[r] != REACHED_DEAL else HAND_SIZE
                if reached[r] == REACHED_DEAL:
                    _draw(state, pool, npool, seven, 0, HAND_SIZE)
                w = _candidate_weight(
                    r, state, seven, passed, views, cand_views, five, cand_five, split_free,
                    fails, cfg, kinds, params, states, cbet, cpass, cdiscard, reached, source,
                    hero, exposed, n_exposed, d_seat, d_kind, d_view, d_action, d_pub, owns, dec,
                    force_row, forced_pass, res, with_hilo, with_learned, _rival_consistent,
                )  # fmt: skip
                if w == 0.0:
                    continue
                total += w
                # keep one candidate with probability proportional to its weight
                if rand_float(state) * total < w:
                    for a in range(2):
                        for j in range(13):
                            best_views[a, j] = cand_views[a, j]
                    for j in range(HAND_SIZE):
                        best_five[j] = cand_five[j]
                        taken_cards[j] = pool[j]
                    taken = got
            out_rate[o, step] = total / tries[step]
            if total == 0.0 and fallback:
                # an arbitrary draw of this rival (a walk's start, searched from)
                if reached[r] == REACHED_DEAL:
                    _draw(state, pool, npool, seven, 0, HAND_SIZE)
                    taken = HAND_SIZE
                    for j in range(HAND_SIZE):
                        best_views[0, j] = seven[j]
                else:
                    taken = _draw_seven(r, state, pool, npool, source, hero, hero_pass, exposed,
                                        n_exposed, seven)  # fmt: skip
                    _split(best_views, seven, passed, 4, 5, 6)
                    _uniform_five(r, best_views[1], exposed, n_exposed, best_five, state)
                for j in range(HAND_SIZE):
                    taken_cards[j] = pool[j]
                weight = 0.0
                total = 1.0
            elif total == 0.0:
                weight = 0.0
                worst = 0
                for m in range(n_dec):
                    if fails[m] > fails[worst]:
                        worst = m
                out_dead[o] = worst
                break
            weight *= out_rate[o, step]
            npool = _remove(pool, npool, taken_cards, taken)
            if reached[r] == REACHED_DEAL:
                for j in range(HAND_SIZE):
                    out_cards[o, r, j] = best_views[0, j]
                for j in range(PACKET):
                    out_passed[o, r, j] = -1
                    out_received[o, r, j] = -1
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


@jit(inline="always")
def _walk_views(r, post, recv, target, hero, hero_recv, views):
    """Rival ``r``'s views (as :func:`_split` lays them out) from a walk's
    state: its seven after the pass in ``post[r]``, the received ones
    flagged in ``recv[r]``; the packet it passed is what its target
    received (the hero's packet from its right neighbour)."""
    a = 0
    q = 0
    for t in range(HAND_SIZE):
        card = post[r, t]
        if recv[r, t] != 0:
            views[1, 4 + q] = card
            views[1, 10 + q] = card
            q += 1
        else:
            views[0, a] = card
            views[1, a] = card
            a += 1
    to = target[r]
    p = 0
    if to == hero:
        for t in range(PACKET):
            views[0, 4 + t] = hero_recv[t]
            views[1, 7 + t] = hero_recv[t]
    else:
        for t in range(HAND_SIZE):
            if recv[to, t] != 0:
                views[0, 4 + p] = post[to, t]
                views[1, 7 + p] = post[to, t]
                p += 1


@jit
def _walk_check(
    r, post, recv, kept, views, five, target, hero, hero_recv, reached, cfg, kinds, params,
    states, cbet, cpass, cdiscard, exposed, n_exposed, d_seat, d_kind, d_view, d_action, d_pub,
    owns, dec, force_row, forced_pass, res, with_hilo, with_learned, consistent,
):  # fmt: skip
    """Does rival ``r``'s strategy take all its recorded decisions in the
    walk's state? Its kept five (then discards) go into ``kept[r]``."""
    if reached[r] == REACHED_DEAL:
        for t in range(HAND_SIZE):
            views[0, t] = post[r, t]
        last = VIEW_DEALT
    else:
        _walk_views(r, post, recv, target, hero, hero_recv, views)
        last = VIEW_KEPT
    failed = consistent(
        r, VIEW_DEALT, last, views, five, cfg, kinds, params, states, cbet, cpass, cdiscard,
        exposed, n_exposed, d_seat, d_kind, d_view, d_action, d_pub, owns, dec, force_row,
        forced_pass, res, with_hilo, with_learned,
    )  # fmt: skip
    if failed >= 0:
        return False
    if reached[r] == REACHED_DISCARD:
        for t in range(HAND_SIZE):
            kept[r, t] = five[t]
    return True


@jit
def _walk_move(
    state, order, steps, reached, source, fixed, post, recv, kept, saved, pool, npool, free,
    views, five, target, hero, hero_recv, cfg, kinds, params, states, cbet, cpass, cdiscard,
    exposed, n_exposed, d_seat, d_kind, d_view, d_action, d_pub, owns, dec, force_row,
    forced_pass, res, with_hilo, with_learned, moved, bad, total_bad, affected, newbad,
    saved_kept, consistent,
):  # fmt: skip
    """One move of :func:`walk_rivals`'s walk; ``moved[0]``: 1 if kept.
    ``bad[s]``: 1 while rival ``s`` does not take all its recorded decisions
    (only before a walk started at an arbitrary state first reaches a
    consistent one); ``total_bad[0]``: how many."""
    moved[0] = 0
    u = 0
    kind = rand_below(state, 4)
    r = order[rand_below(state, steps)]
    other = -1
    if kind == 3 and reached[r] == REACHED_DEAL:
        kind = 0
    if kind == 3 and source[r] == hero:
        kind = 0
    # the rival and slots the move touches
    nfree = 0
    for t in range(HAND_SIZE):
        if fixed[r, t] == 0:
            free[nfree] = t
            nfree += 1
    touched_recv = False
    if kind <= 1:  # a hidden card for an unseen one
        if nfree == 0 or npool == 0:
            return
        t = free[rand_below(state, nfree)]
        u = rand_below(state, npool)
        for j in range(HAND_SIZE):
            saved[0, 0, j] = post[r, j]
        card = post[r, t]
        post[r, t] = pool[u]
        pool[u] = card
        touched_recv = recv[r, t] != 0
    elif kind == 2:  # hidden cards between two rivals
        if steps < 2 or nfree == 0:
            return
        other = order[rand_below(state, steps - 1)]
        if other == r:
            other = order[steps - 1]
        mfree = 0
        for t2 in range(HAND_SIZE):
            if fixed[other, t2] == 0:
                mfree += 1
        if mfree == 0:
            return
        t = free[rand_below(state, nfree)]
        pick = rand_below(state, mfree)
        t2 = 0
        for j in range(HAND_SIZE):
            if fixed[other, j] == 0:
                if pick == 0:
                    t2 = j
                    break
                pick -= 1
        for j in range(HAND_SIZE):
            saved[0, 0, j] = post[r, j]
            saved[1, 0, j] = post[other, j]
        card = post[r, t]
        post[r, t] = post[other, t2]
        post[other, t2] = card
        touched_recv = recv[r, t] != 0 or recv[other, t2] != 0
    else:  # which of r's seven it received
        t_in = rand_below(state, PACKET)
        t_out = rand_below(state, 4)
        a = -1
        b = -1
        qi = 0
        ai = 0
        for j in range(HAND_SIZE):
            if recv[r, j] != 0:
                if qi == t_in:
                    a = j
                qi += 1
            else:
                if ai == t_out:
                    b = j
                ai += 1
        for j in range(HAND_SIZE):
            saved[0, 1, j] = recv[r, j]
        recv[r, a] = 0
        recv[r, b] = 1
        touched_recv = True
    # who must still take their decisions: the rivals whose cards changed,
    # and the seats whose passed packet did. A move is kept when it leaves no
    # more of them inconsistent than before: in a consistent state (every
    # walk after its start) exactly when all still are
    na = 1
    affected[0] = r
    if other >= 0:
        affected[na] = other
        na += 1
    if touched_recv:
        for x in (r, other):
            if x < 0:
                continue
            giver = source[x]
            if giver != hero and giver >= 0 and not _in(affected, na, giver):
                affected[na] = giver
                na += 1
    before = 0
    for k in range(na):
        before += bad[affected[k]]
        for j in range(HAND_SIZE):
            saved_kept[k, j] = kept[affected[k], j]
    after = 0
    for k in range(na):
        fine = _walk_check(affected[k], post, recv, kept, views, five, target, hero, hero_recv,
                           reached, cfg, kinds, params, states, cbet, cpass, cdiscard, exposed,
                           n_exposed, d_seat, d_kind, d_view, d_action, d_pub, owns, dec,
                           force_row, forced_pass, res, with_hilo, with_learned,
                           consistent)  # fmt: skip
        newbad[k] = 0 if fine else 1
        after += newbad[k]
        if after > before:
            break
    ok = after <= before
    if ok:
        for k in range(na):
            bad[affected[k]] = newbad[k]
        total_bad[0] += after - before
    if ok:
        moved[0] = 1
    else:  # put everything back
        if kind <= 1:
            for j in range(HAND_SIZE):
                if post[r, j] != saved[0, 0, j]:
                    pool[u] = post[r, j]
                post[r, j] = saved[0, 0, j]
        elif kind == 2:
            for j in range(HAND_SIZE):
                post[r, j] = saved[0, 0, j]
                post[other, j] = saved[1, 0, j]
        else:
            for j in range(HAND_SIZE):
                recv[r, j] = saved[0, 1, j]
        for k in range(na):
            for j in range(HAND_SIZE):
                kept[affected[k], j] = saved_kept[k, j]


@jit
def walk_rivals(
    first, stop, key, length, burn, thin, max_search, cfg, kinds, params, hero, order, reached,
    source,
    target, hero_pass, hero_recv, exposed, n_exposed, unseen, start_cards, start_received,
    d_seat, d_kind, d_view, d_action, d_pub,
    out_cards, out_received, out_passed, out_moves,
    cbet, cpass, cdiscard, with_hilo, with_learned, _rival_consistent,
):  # fmt: skip
    """Chains ``first .. stop - 1`` of a Metropolis walk over the rivals'
    hidden cards, each from its starting draw (``start_*[c]``, a draw of
    :func:`sample_rivals` in its layout), ``burn`` moves, then ``length``
    draws ``thin`` moves apart into rows ``c * length ..``.

    The target is the posterior: uniform over the card assignments allowed
    by the cards seen, times the rivals' likelihood of their recorded
    decisions. A move swaps a rival's hidden card with an unseen one, swaps
    hidden cards between two rivals, or swaps which of a rival's seven were
    received; every move is as likely as its reverse, so a move is kept
    exactly when the rivals it touches still take every recorded decision
    (a strategy's random decisions are drawn afresh: the walk is then
    pseudo-marginal, still exact). ``out_moves[c]``: moves kept.

    A starting state need not be consistent (an arbitrary one, when no
    importance draw could be found): until it is, a move is kept when it
    makes no more rivals inconsistent, a search of at most ``max_search``
    moves (``out_moves[c]`` -1 if it found none); the burn-in counts from
    the first consistent state. A negative ``max_search`` says the starts
    are consistent (importance draws, or states a search found): they are
    not checked again."""
    n = cfg[C_N]
    steps = order.shape[0]
    owns = np.empty((n, V.OWN_SIZE), dtype=np.int32)
    dec = np.full((n, DEC_SIZE), -1, dtype=np.int64)  # nothing cached
    states = np.empty((STATES_ROWS, 1), dtype=np.uint64)
    res = np.zeros(RES_SIZE, dtype=np.int64)
    force_row = np.full(HAND_SIZE, -1, dtype=np.int64)
    forced_pass = np.full((7, PACKET), -1, dtype=np.int64)
    views = np.full((2, 13), -1, dtype=np.int64)
    five = np.empty(HAND_SIZE, dtype=np.int64)
    post = np.full((n, HAND_SIZE), -1, dtype=np.int64)
    recv = np.zeros((n, HAND_SIZE), dtype=np.int64)
    fixed = np.zeros((n, HAND_SIZE), dtype=np.int64)
    kept = np.full((n, HAND_SIZE), -1, dtype=np.int64)
    saved = np.empty((2, 2, HAND_SIZE), dtype=np.int64)
    pool = np.empty(unseen.shape[0], dtype=np.int64)
    state = np.empty(1, dtype=np.uint64)
    free = np.empty(HAND_SIZE, dtype=np.int64)
    moved = np.zeros(1, dtype=np.int64)
    bad = np.zeros(n, dtype=np.int64)
    total_bad = np.zeros(1, dtype=np.int64)
    affected = np.full(4, -1, dtype=np.int64)
    newbad = np.zeros(4, dtype=np.int64)
    saved_kept = np.empty((4, HAND_SIZE), dtype=np.int64)
    for c in range(first, stop):
        state[0] = stream_state(key, c, STREAM_DECK)
        for s in range(n):
            states[STREAM_SEAT + s, 0] = stream_state(key, c, STREAM_SEAT + s)
        # the starting state, and the cards left unseen
        npool = 0
        for j in range(unseen.shape[0]):
            card = unseen[j]
            held = False
            for k in range(steps):
                if _in(start_cards[c, order[k]], HAND_SIZE, card):
                    held = True
            if not held:
                pool[npool] = card
                npool += 1
        for k in range(steps):
            r = order[k]
            for t in range(HAND_SIZE):
                card = start_cards[c, r, t]
                post[r, t] = card
                kept[r, t] = card
                recv[r, t] = 1 if reached[r] != REACHED_DEAL and _in(
                    start_received[c, r], PACKET, card) else 0  # fmt: skip
                shown = _in(exposed[r], n_exposed[r], card)
                given = source[r] == hero and _in(hero_pass, PACKET, card)
                fixed[r, t] = 1 if shown or given else 0
        total_bad[0] = 0
        for k in range(steps):
            r = order[k]
            if max_search < 0:
                # consistent starts (each passed a check already): a check
                # drawing random choices afresh could fail where that one
                # passed, and the walk keeps the estimate it has (pseudo-marginal)
                bad[r] = 0
                continue
            fine = _walk_check(r, post, recv, kept, views, five, target, hero, hero_recv,
                               reached, cfg, kinds, params, states, cbet, cpass, cdiscard,
                               exposed, n_exposed, d_seat, d_kind, d_view, d_action, d_pub,
                               owns, dec, force_row, forced_pass, res,
                               with_hilo, with_learned, _rival_consistent)  # fmt: skip
            bad[r] = 0 if fine else 1
            total_bad[0] += bad[r]
        kept_moves = 0
        searched = 0
        since = 0  # moves since the walk was last found consistent from its start
        recorded = 0
        while recorded < length:
            searching = total_bad[0] > 0
            if searching:
                if searched >= max_search:
                    kept_moves = -1
                    break
                searched += 1
            _walk_move(
                state, order, steps, reached, source, fixed, post, recv, kept, saved, pool, npool,
                free, views, five, target, hero, hero_recv, cfg, kinds, params, states, cbet, cpass,
                cdiscard, exposed, n_exposed, d_seat, d_kind, d_view, d_action, d_pub, owns, dec,
                force_row, forced_pass, res, with_hilo, with_learned, moved, bad, total_bad,
                affected, newbad, saved_kept, _rival_consistent,
            )  # fmt: skip
            if not searching:
                kept_moves += moved[0]
            if total_bad[0] > 0:
                continue
            since += 1
            if since > burn and (since - burn) % thin == 0:
                o = c * length + recorded
                recorded += 1
                for k in range(steps):
                    x = order[k]
                    if reached[x] == REACHED_DEAL:
                        for j in range(HAND_SIZE):
                            out_cards[o, x, j] = post[x, j]
                        continue
                    _walk_views(x, post, recv, target, hero, hero_recv, views)
                    for j in range(PACKET):
                        out_received[o, x, j] = views[1, 10 + j]
                        out_passed[o, x, j] = views[1, 7 + j]
                    for j in range(HAND_SIZE):
                        out_cards[o, x, j] = kept[x, j] if reached[x] == REACHED_DISCARD \
                            else views[1, j]  # fmt: skip
        out_moves[c] = kept_moves


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
        D._pass_phase(p, passes[p, PASS_COUNT], passes[p, PASS_DIRECTION], cfg, dealer, pub, owns,
                    kinds, params, states, cpass, dec, force_row, forced_pass, res,
                    with_hilo, with_learned)  # fmt: skip
        rnd += 1
        opener[rnd] = D._first_active_left_of_dealer(pub, n, dealer)
        if D._betting_round(rnd, opener[rnd], cfg, pub, owns, kinds, params, states, cbet, dec,
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
    cbet, cpass, cdiscard, with_hilo, with_learned, _rest_of_deal, continue_round, settle,
):  # fmt: skip
    """Play drawn deals ``first .. stop - 1`` on from the spot, once per row
    of ``choices`` (``SPOT_*`` meaning), the hero's net chips of the whole
    deal into ``out_net[i, k]``. The rest of the deal, the rest of the
    betting round and the showdown are function pointers
    (:func:`play_jobs`: :func:`_rest_of_deal`, :func:`continue_round` and
    :func:`~anaconda_sim.sim.kernels.deal.settle`), compiled apart.

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
    dec = np.full((n, DEC_SIZE), -1, dtype=np.int64)  # nothing cached
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
                    D._close_round(pub, n)
                elif left == 0:
                    D._close_round(pub, n)
                else:
                    ended = continue_round(rnd, D._next_active(pub, n, hero, 1), left, local, pub,
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
            settle(ended, dealer, local, pub, owns, dec, seat_res, res, with_hilo,
                        with_learned)  # fmt: skip
            out_net[i, k] = seat_res[hero, S_NET]


@jit
def continue_round(
    rnd, first, left, cfg, pub, owns, kinds, params, states, cbet, dec, seat_res, with_hilo,
    with_learned,
):  # fmt: skip
    """:func:`~anaconda_sim.sim.kernels.deal.betting_loop` as a kernel of its
    own: the rest of a betting round from seat ``first``, ``left`` seats
    still to act (R13-R17). True if the deal ended (R17)."""
    return betting_loop(rnd, first, left, cfg, pub, owns, kinds, params, states, cbet, dec,
                        seat_res, with_hilo, with_learned)  # fmt: skip


#: rough compile seconds of the spot drivers, their inlined code included
#: (how :func:`~anaconda_sim.sim.spots.compile_spot_kernels` spreads them)
DRIVER_WEIGHTS = {"sample_rivals": 3.8, "walk_rivals": 3.7, "play_spot": 2.0}

#: what the spot kernels' function pointers return (the others return nothing)
POINTER_RETURNS = {
    "_rival_consistent": types.int64, "_rest_of_deal": types.boolean,
    "continue_round": types.boolean,
}  # fmt: skip


def consistency_job(args: tuple[Any, ...]) -> CompileJob:
    """:func:`_rival_consistent` with the argument types :func:`sample_rivals`
    and :func:`walk_rivals` call it with, for the table whose ``cfg, kinds,
    params, exposed, n_exposed, d_seat, d_kind, d_view, d_action, d_pub,
    cbet, cpass, cdiscard, with_hilo, with_learned`` are ``args``: the
    function pointer those kernels take last."""
    (cfg, kinds, params, exposed, n_exposed, d_seat, d_kind, d_view, d_action, d_pub, cbet, cpass,
     cdiscard, with_hilo, with_learned) = (argument_type(a) for a in args)  # fmt: skip
    i64 = types.int64
    ints1, ints2 = c_array(i64, 1), c_array(i64, 2)
    signature = (i64, i64, i64, ints2, ints1, cfg, kinds, params, c_array(types.uint64, 2), cbet,
                 cpass, cdiscard, exposed, n_exposed, d_seat, d_kind, d_view, d_action, d_pub,
                 c_array(types.int32, 2), ints2, ints1, ints2, ints1, with_hilo,
                 with_learned)  # fmt: skip
    return (_rival_consistent, signature, 4.5)


def play_jobs(args: tuple[Any, ...]) -> list[CompileJob]:
    """The function pointers :func:`play_spot` takes last, for the table whose
    ``cfg, passes, kinds, params, cbet, cpass, cdiscard, with_hilo,
    with_learned`` are ``args``: :func:`_rest_of_deal`,
    :func:`continue_round`, :func:`~anaconda_sim.sim.kernels.deal.settle`,
    each with the argument types :func:`play_spot` calls it with."""
    (_, passes, kinds, params, cbet, cpass, cdiscard, with_hilo,
     with_learned) = (argument_type(a) for a in args)  # fmt: skip
    i64 = types.int64
    ints1, ints2 = c_array(i64, 1), c_array(i64, 2)
    pub, owns = c_array(types.int32, 1), c_array(types.int32, 2)
    states = c_array(types.uint64, 2)
    local = c_array(types.int64, 1)  # the kernel's own copy of cfg
    return [
        (_rest_of_deal, (i64, local, i64, passes, pub, owns, kinds, params, states, cbet, cpass,
                         cdiscard, ints2, ints1, ints2, ints2, ints1, ints1, with_hilo,
                         with_learned), 6.5),
        (continue_round, (i64, i64, i64, local, pub, owns, kinds, params, states, cbet, ints2,
                          ints2, with_hilo, with_learned), 1.2),
        (D.settle, (types.boolean, i64, local, pub, owns, ints2, ints2, ints1, with_hilo,
                    with_learned), 0.5),
    ]  # fmt: skip
