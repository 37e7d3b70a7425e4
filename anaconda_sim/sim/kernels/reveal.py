"""Kernel of the reveal-order analysis: deals started at the discard.

The opponents' hands after the pass come from the showdown model of
:mod:`anaconda_sim.sim.kernels.showdown` (each opponent dealt seven unseen cards,
passing three to its left by its strategy; the hero's packet and the packet
it received are honoured; a named received packet conditions the right
neighbour's kept four, see :func:`~anaconda_sim.sim.kernels.showdown.right_fours`).
The deal then goes on exactly as in the batch
simulator from the discard (R8): every seat discards and orders by its
strategy except the hero, whose reveal order is the choice being scored;
four reveals each followed by betting (R9, R11-R17); showdown (R10,
R18-R20). Betting rounds 1 and 2 are taken as checked around, so the pot
at the discard holds the antes only.

Every order of one deal is played on the same cards and the same random
numbers (common random numbers).
"""

from __future__ import annotations

import numpy as np

from ..._numba import borrow, jit, keep, run_chunks
from ...limits import DECK_SIZE, DISCARD_SIZE, HAND_SIZE, KEPT_SIZE
from ...rng import STREAM_SEAT, card_bit, stream_state
from ...strategies.kinds import kernel_extras
from ...table import views as V
from ..layout import (
    C_DEALER,
    C_HILO,
    C_N,
    C_REVEAL,
    HERO,
    R_MISSED,
    R_POT,
    S_CAT,
    S_FLAGS,
    S_FOLD,
    S_HIGH_SHARE,
    S_LOW_SHARE,
    S_NET,
    S_SHARE,
)  # fmt: skip
from .deal import (
    deal_table,
    declare_phase,
    discard_phase,
    log_entry,
    play_reveals,
    pub_at_deal,
    reset_results,
    seat_after,
    settle,
)
from .showdown import CHUNK, opponents_after_pass

#: betting rounds before the discard in the default rules (after the deal, after the pass)
ROUNDS_BEFORE_DISCARD = 2


@jit
def _views_at_discard(cfg, pub, owns, hero_cards, kept, packets):
    """Views as a real deal has them at the discard when rounds 1-2 were checked around."""
    n = cfg[C_N]
    dealer = cfg[C_DEALER]
    pub_at_deal(cfg, dealer, pub)
    pub[V.P_STAGE] = 1  # after the pass
    length = 0
    for rnd in range(ROUNDS_BEFORE_DISCARD):
        for i in range(n):
            seat = seat_after(dealer, i, n)
            pub[V.P_LOG + length] = log_entry(rnd, seat, V.A_CHECK)
            length += 1
    pub[V.P_LOG_LEN] = length
    for seat in range(n):
        own = owns[seat]
        own[:] = -1
        own[V.O_SEAT] = seat
        own[V.O_NCARDS] = HAND_SIZE
        own[V.O_NPASSED] = 3
        own[V.O_NRECEIVED] = 3
        source = (seat - 1 + n) % n
        for j in range(3):
            own[V.O_PASSED + j] = packets[seat, j]
            own[V.O_RECEIVED + j] = packets[source, j]
        if seat == HERO:
            for j in range(HAND_SIZE):
                own[V.O_CARDS + j] = hero_cards[j]
        else:
            for j in range(4):
                own[V.O_CARDS + j] = kept[seat, j]
            for j in range(3):
                own[V.O_CARDS + 4 + j] = packets[source, j]


def reveal_batch(
    key, deal_start, n_deals, cfg, pass_pub, kinds, params, known_mask, hand5, discards,
    hero_packet, right_forced, fours, orders, net, share, opens, opp_folds, pots, cats, hilo,
    cbet, cdiscard,
):  # fmt: skip
    """Play every reveal order of ``orders`` on deals ``deal_start ..``.

    Per deal ``i`` and order ``k`` it writes the hero's net chips, its pot
    share (1/SHARE_SCALE), whether it opened each reveal round, the opponents'
    folds in each reveal round, the final pot and the hero's final category
    (-1 without a showdown). Under a hi-lo showdown (``cfg[C_HILO]``) it also
    writes ``hilo[i, k]``: the hero's high-half and low-half shares
    (1/SHARE_SCALE) and its :mod:`~anaconda_sim.hands.hilo` flags; ``hilo``
    may be empty otherwise.

    ``fours``: the right neighbour's possible kept fours given the packet
    ``right_forced`` (:func:`~anaconda_sim.sim.kernels.showdown.right_fours`),
    or no rows: no condition.

    The hero's forced choice ``orders[k]`` is its reveal order
    (``FORCE_ORDER``), or that order then its declaration
    (``FORCE_ORDER_DECLARE``).
    """
    run_chunks(
        _reveal_batch_chunks, (n_deals + CHUNK - 1) // CHUNK, key, deal_start, n_deals, cfg,
        pass_pub, kinds, params, known_mask, hand5, discards, hero_packet, right_forced, fours,
        orders, net, share, opens, opp_folds, pots, cats, hilo, cbet, cdiscard,
        *kernel_extras(bool(cfg[C_HILO]), kinds),
    )  # fmt: skip


@jit
def _reveal_batch_chunks(
    first_chunk, stop_chunk, key, deal_start, n_deals, cfg, pass_pub, kinds, params, known_mask,
    hand5, discards,
    hero_packet, right_forced, fours, orders, net, share, opens, opp_folds, pots, cats, hilo,
    cbet, cdiscard, with_hilo, with_learned,
):  # fmt: skip
    """Chunks ``first_chunk .. stop_chunk - 1`` of :func:`reveal_batch`."""
    n = cfg[C_N]
    for chunk in range(first_chunk, stop_chunk):
        pass_owns_ = np.empty((n, V.OWN_SIZE), dtype=np.int32)
        kept_ = np.empty((n, 4), dtype=np.int64)
        packets_ = np.empty((n, 3), dtype=np.int64)
        pass_states_ = np.empty((n, 1), dtype=np.uint64)
        dealt_ = np.empty(DECK_SIZE, dtype=np.int64)
        hand_ = np.empty(HAND_SIZE, dtype=np.int64)
        chosen_ = np.empty(HAND_SIZE, dtype=np.int64)
        deck_state_ = np.empty(1, dtype=np.uint64)
        hero_cards_ = np.empty(HAND_SIZE, dtype=np.int64)
        # the hero's seven held cards, its unknown discards (-1) last
        held_ = np.empty(HAND_SIZE, dtype=np.int64)
        held_[:KEPT_SIZE] = hand5
        held_[KEPT_SIZE:] = discards
        pub_, owns_, states_, dec_, seat_res_, res_, opener_ = deal_table(n)
        saved = deal_table(n)  # the table after the first order's discard
        # the per-order kernels are called about a thousand times per deal:
        # borrowed (uncounted) views spare each call its reference counts;
        # the originals live until keep() below
        pass_owns, kept, packets = borrow(pass_owns_), borrow(kept_), borrow(packets_)
        pass_states, dealt, hand = borrow(pass_states_), borrow(dealt_), borrow(hand_)
        chosen, deck_state, hero_cards = borrow(chosen_), borrow(deck_state_), borrow(hero_cards_)
        held = borrow(held_)
        pub, owns, states, dec = borrow(pub_), borrow(owns_), borrow(states_), borrow(dec_)
        seat_res, res, opener = borrow(seat_res_), borrow(res_), borrow(opener_)
        after_discard = (borrow(saved[0]), borrow(saved[1]), borrow(saved[2]), borrow(saved[3]),
                         borrow(saved[4]), borrow(saved[5]), borrow(saved[6]))  # fmt: skip
        # arrays every thread reads or writes by row, borrowed: reference
        # counts on shared arrays would make the cores fight over cache lines
        cfg_, pass_pub_ = borrow(cfg), borrow(pass_pub)
        kinds_, params_ = borrow(kinds), borrow(params)
        hand5_, discards_, hero_packet_ = borrow(hand5), borrow(discards), borrow(hero_packet)
        right_forced_, orders_, fours_ = borrow(right_forced), borrow(orders), borrow(fours)
        net_, share_, opens_ = borrow(net), borrow(share), borrow(opens)
        opp_folds_, pots_, cats_ = borrow(opp_folds), borrow(pots), borrow(cats)
        hilo_ = borrow(hilo)
        for i in range(chunk * CHUNK, min(n_deals, (chunk + 1) * CHUNK)):
            _reveal_deal(
                key, deal_start + i, i, cfg_, pass_pub_, kinds_, params_, known_mask, hand5_,
                discards_, hero_packet_, right_forced_, fours_, orders_, net_, share_, opens_,
                opp_folds_, pots_, cats_, hilo_, cbet, cdiscard, pass_owns, kept, packets,
                pass_states, dealt, hand, chosen, deck_state, hero_cards, held, pub, owns, states,
                dec, seat_res, res, opener, after_discard, with_hilo, with_learned,
            )  # fmt: skip
        keep(pass_owns_, kept_, packets_, pass_states_, dealt_, hand_)
        keep(chosen_, deck_state_, hero_cards_, pub_, owns_, states_)
        keep(dec_, seat_res_, res_, opener_, saved[0], saved[1])
        keep(saved[2], saved[3], saved[4], saved[5], saved[6], held_)


@jit
def _reveal_deal(
    key, deal, i, cfg, pass_pub, kinds, params, known_mask, hand5, discards, hero_packet,
    right_forced, fours, orders, net, share, opens, opp_folds, pots, cats, hilo, cbet, cdiscard,
    pass_owns, kept, packets, pass_states, dealt, hand, chosen, deck_state, hero_cards, held,
    pub, owns, states, dec, seat_res, res, opener, after_discard, with_hilo, with_learned,
):  # fmt: skip
    """Row ``i`` of :func:`reveal_batch`: every order on deal ``deal``.

    Every seat discards at once (R8), so when an order keeps the same five
    cards as the first one, every other seat's discard and reveal order are
    those of the first order's deal: the table right after the first
    discard is kept (``after_discard``, a tuple of copies of ``pub``,
    ``owns``, ``states``, ``dec``, ``seat_res``, ``res``, ``opener``) and
    the order starts from it with only the hero's five reordered. The
    random numbers are the same either way (the hero's forced choice draws
    none), so the results are those of playing the discard again. When the
    first order is missed (the hero does not hold its five), every order is
    played in full."""
    n = cfg[C_N]
    for seat in range(n):
        pass_owns[seat, :] = -1
        pass_owns[seat, V.O_SEAT] = seat
    packet_unknown = hero_packet[0] < 0
    dead = 2 if discards[0] < 0 else 0
    unknown = (3 if packet_unknown else 0) + dead
    hero_extra = opponents_after_pass(
        key, deal, n, pass_pub, kinds, params, known_mask, right_forced, fours, unknown,
        held, pass_owns, kept, packets, pass_states, dealt, hand, chosen, deck_state,
        with_hilo, with_learned,
    )  # fmt: skip
    offset = 3 if packet_unknown else 0
    for j in range(3):
        packets[HERO, j] = hero_extra[j] if packet_unknown else hero_packet[j]
    for j in range(KEPT_SIZE):
        hero_cards[j] = hand5[j]
    for j in range(DISCARD_SIZE):
        hero_cards[KEPT_SIZE + j] = hero_extra[offset + j] if dead else discards[j]
    hero_state = stream_state(key, deal, STREAM_SEAT)
    first_five = _five_mask(orders, 0)
    reusable = False
    for k in range(orders.shape[0]):
        if reusable and _five_mask(orders, k) == first_five:
            _restore(after_discard, pub, owns, states, dec, seat_res, res, opener)
            for j in range(KEPT_SIZE):
                owns[HERO, V.O_CARDS + j] = orders[k, j]
        else:
            _views_at_discard(cfg, pub, owns, hero_cards, kept, packets)
            states[STREAM_SEAT, 0] = hero_state
            for seat in range(1, n):
                states[STREAM_SEAT + seat, 0] = pass_states[seat, 0]
            reset_results(n, seat_res, res, opener, ROUNDS_BEFORE_DISCARD)
            discard_phase(cfg, cfg[C_DEALER], pub, owns, kinds, params, states, cdiscard, dec,
                           orders[k], res, with_hilo, with_learned)  # fmt: skip
            if k == 0:
                _restore((pub, owns, states, dec, seat_res, res, opener), *after_discard)
                # a missed forced order (the hero does not hold those five)
                # let the hero's own strategy discard: nothing to reorder
                reusable = res[R_MISSED] == 0
        ended = False
        if cfg[C_REVEAL] != 0:
            ended = play_reveals(ROUNDS_BEFORE_DISCARD - 1, cfg[C_DEALER], cfg, kinds, params,
                                 pub, owns, states, dec, seat_res, res, opener, cbet,
                                 with_hilo, with_learned)  # fmt: skip
        if with_hilo is not None:
            if not ended and cfg[C_HILO] != 0:
                declare_phase(cfg[C_DEALER], cfg, kinds, params, orders[k], pub, owns, states,
                              seat_res, res)  # fmt: skip
        settle(ended, cfg[C_DEALER], cfg, pub, owns, dec, seat_res, res, with_hilo, with_learned)
        net[i, k] = seat_res[HERO, S_NET]
        share[i, k] = seat_res[HERO, S_SHARE]
        pots[i, k] = res[R_POT]
        cats[i, k] = seat_res[HERO, S_CAT]
        if cfg[C_HILO] != 0:
            hilo[i, k, 0] = seat_res[HERO, S_HIGH_SHARE]
            hilo[i, k, 1] = seat_res[HERO, S_LOW_SHARE]
            hilo[i, k, 2] = seat_res[HERO, S_FLAGS]
        for r in range(4):
            opens[i, k, r] = 1 if opener[ROUNDS_BEFORE_DISCARD + r] == HERO else 0
            opp_folds[i, k, r] = 0
        for seat in range(1, n):
            fold = seat_res[seat, S_FOLD] - ROUNDS_BEFORE_DISCARD
            if fold >= 0:
                opp_folds[i, k, fold] += 1


@jit(inline="always")
def _five_mask(orders, k):
    """The card mask of the five cards of order ``orders[k]``."""
    mask = np.uint64(0)
    for j in range(KEPT_SIZE):
        mask |= card_bit(orders[k, j])
    return mask


@jit
def _restore(source, pub, owns, states, dec, seat_res, res, opener):
    """Copy the seven arrays of the tuple ``source`` into the arrays given
    (element loops: a whole-array copy compiles numba's shape checks)."""
    pub_, owns_, states_, dec_, seat_res_, res_, opener_ = source
    for j in range(pub.shape[0]):
        pub[j] = pub_[j]
    for s in range(owns.shape[0]):
        for j in range(owns.shape[1]):
            owns[s, j] = owns_[s, j]
        for j in range(dec.shape[1]):
            dec[s, j] = dec_[s, j]
        for j in range(seat_res.shape[1]):
            seat_res[s, j] = seat_res_[s, j]
    for r in range(states.shape[0]):
        states[r, 0] = states_[r, 0]
    for j in range(res.shape[0]):
        res[j] = res_[j]
    for j in range(opener.shape[0]):
        opener[j] = opener_[j]
