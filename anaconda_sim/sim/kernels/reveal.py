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
numbers (common random numbers). So until an order shows a card another
order does not, the two are the same deal played twice: in each reveal
round only the first order of each revealed prefix is played (its *lead*,
:func:`prefix_leads`), and an order starts its own play, a copy of its
lead's, at the round its prefix first differs (:func:`_lead_plays`): the
120 orders of a kept five play 5 + 20 + 60 + 120 betting rounds a deal
instead of 4 x 120, with the same results.

When every seat is a built-in family under the high rules, the plays are
shared by what is read, deal by deal (:func:`_follow_reads`). A built-in
seat reads the cards a seat has shown only as their exposure bucket
(:func:`~anaconda_sim.strategies.dispatch.shown_read`; "sensible"'s R11
category is a function of it), and the rules read them once more, to find
who opens a reveal round (R11, R12). So an order stays with the play it
shares while, round after round, its cards show the bucket that play's
show and the same seat opens (or the hero has folded): every decision of
the round is then the same. The hero holds the same five in every order,
so every showdown is the same too.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import types

from ..._numba import argument_type, borrow, jit, keep, run_chunks
from ...hands.evaluator import exposed_value4
from ...limits import DECK_SIZE, DISCARD_SIZE, HAND_SIZE, KEPT_SIZE
from ...rng import STREAM_SEAT, card_bit, stream_state
from ...strategies.dispatch import decision_jobs, shown_read
from ...strategies.kinds import (
    kernel_extras,
    reads_only_what_is_shown,
    reads_shown_cards_as_buckets,
)
from ...table import views as V
from ...table.rules import REVEAL_ROUNDS
from ...warmup import CompileJob, linked_driver
from ..layout import (
    C_DEALER,
    C_HILO,
    C_N,
    C_REVEAL,
    DEC_SIZE,
    HERO,
    MAX_ROUNDS,
    R_MISSED,
    R_POT,
    RES_SIZE,
    S_CAT,
    S_FLAGS,
    S_FOLD,
    S_HIGH_SHARE,
    S_LOW_SHARE,
    S_NET,
    S_SHARE,
    SEAT_RES_SIZE,
    STATES_ROWS,
)  # fmt: skip
from .batch import (
    COMPILE_WEIGHTS,
    PLAY_TYPES,
    betting_phase,
    copy_play,
    deals_per_batch,
    declare_phase,
    discard_inline,
    settle_inline,
)
from .deal import append_log, log_entry, nobody_bets, pub_at_deal, reset_results, seat_after
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
    for rnd in range(ROUNDS_BEFORE_DISCARD):
        for i in range(n):
            append_log(pub, log_entry(rnd, seat_after(dealer, i, n), V.A_CHECK))
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
    (``FORCE_ORDER_DECLARE``). Orders that have shown the same cards so far
    share one play (:func:`prefix_leads`), unless the hero is a custom
    strategy, whose bets may read the order of the cards it has not shown
    (:func:`~anaconda_sim.strategies.kinds.reads_only_what_is_shown`); when
    every seat reads shown cards as buckets (:func:`_reads_buckets`), orders
    share a play while everything read of them is the same, deal by deal
    (:func:`_follow_reads`).
    """
    by_reads = _reads_buckets(cfg, kinds)
    leads = (same_five_leads(orders) if by_reads else
             prefix_leads(orders, share_prefixes=reads_only_what_is_shown(int(kinds[HERO]))))
    args = (
        key, deal_start, n_deals, cfg, pass_pub, kinds, params, known_mask, hand5, discards,
        hero_packet, right_forced, fours, orders, leads, by_reads, net, share, opens, opp_folds,
        pots, cats, hilo, cbet, cdiscard, *kernel_extras(bool(cfg[C_HILO]), kinds, params, n_deals),
    )  # fmt: skip
    # the phases are function pointers of the driver (compiled apart, on every core)
    kernel, call_args = linked_driver(_reveal_batch_chunks, args, _phase_jobs(args),
                                      "the reveal kernels",
                                      also=decision_jobs(args[-2], args[-1]))  # fmt: skip
    run_chunks(kernel, (n_deals + CHUNK - 1) // CHUNK, *call_args)


def _phase_jobs(args: tuple[Any, ...]) -> list[CompileJob]:
    """The phase kernels :func:`_reveal_batch_chunks` calls for the arguments
    ``args`` of :func:`reveal_batch`, with the argument types it calls them with."""
    t = [argument_type(a) for a in args]
    (key, deal_start, _, cfg, pass_pub, kinds, params, known_mask, hand5, discards, hero_packet,
     right_forced, fours, orders, leads, by_reads, net, share, opens, opp_folds, pots, cats, hilo,
     cbet, cdiscard, with_hilo, with_learned) = t  # fmt: skip
    i64 = types.int64
    pub, owns, states, dec, seat_res, res, opener, alive = PLAY_TYPES
    ints1, ints2 = types.Array(i64, 1, "C"), types.Array(i64, 2, "C")
    words1, words2 = types.Array(types.uint64, 1, "C"), types.Array(types.uint64, 2, "C")
    jobs: list[CompileJob] = [
        (_start_orders, (key, deal_start, i64, i64, cfg, pass_pub, kinds, params, known_mask,
                         hand5, discards, hero_packet, right_forced, fours, orders, leads,
                         cdiscard,
                         types.Array(types.int32, 2, "C"), ints2, ints2, words2, ints1, ints1,
                         ints1, words1, ints1, ints1, pub, owns, states, dec, seat_res, res,
                         opener, alive, with_hilo, with_learned), 5.5),
        (betting_phase, (i64, i64, i64, i64, types.boolean, cfg, ints1, pub, owns, kinds, params,
                         states, cbet, dec, seat_res, res, opener, alive, with_hilo,
                         with_learned), COMPILE_WEIGHTS["betting_phase"]),
        (_finish_orders, (i64, i64, i64, cfg, pub, owns, dec, seat_res, res, opener, alive, net,
                          share, opens, opp_folds, pots, cats, hilo, ints2, with_hilo,
                          with_learned),
         COMPILE_WEIGHTS["settle_phase"]),
        (_lead_plays, (i64, i64, i64, leads, orders, pub, owns, states, dec, seat_res, res,
                       opener, alive, by_reads, cfg, ints2, ints2), 1.0),
    ]  # fmt: skip
    if args[-2] is not None:  # with_hilo: the declaration is compiled in
        jobs.append((declare_phase, (i64, i64, cfg, ints1, kinds, params, orders, pub, owns,
                                     states, seat_res, res, alive),
                     COMPILE_WEIGHTS["declare_phase"]))  # fmt: skip
    return jobs


@jit
def _reveal_batch_chunks(
    first_chunk, stop_chunk, key, deal_start, n_deals, cfg, pass_pub, kinds, params, known_mask,
    hand5, discards,
    hero_packet, right_forced, fours, orders, leads, by_reads, net, share, opens, opp_folds, pots,
    cats, hilo, cbet, cdiscard, with_hilo, with_learned,
    _start_orders, betting_phase, declare_phase, _finish_orders, _lead_plays,
):  # fmt: skip
    """Chunks ``first_chunk .. stop_chunk - 1`` of :func:`reveal_batch`
    (its phase kernels come last, as function pointers).

    The deals of a chunk go through the phases :func:`~.batch.deals_per_batch`
    at a time, each once per order (a *play*), with the
    batch-major kernels of :mod:`~anaconda_sim.sim.kernels.batch`: the
    start of every play (:func:`_start_orders`), each reveal and its
    betting round (played by the orders that lead their revealed prefix,
    :func:`_lead_plays`), the declaration, the end (:func:`_finish_orders`)."""
    n = cfg[C_N]
    n_orders = orders.shape[0]
    group = deals_per_batch(n_orders)
    size = group * n_orders
    checks_only = nobody_bets(cfg, kinds, n)
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
    for j in range(KEPT_SIZE):
        held_[j] = hand5[j]
    for j in range(DISCARD_SIZE):
        held_[KEPT_SIZE + j] = discards[j]
    pub_ = np.empty((size, V.PUB_SIZE), dtype=np.int32)
    owns_ = np.empty((size, n, V.OWN_SIZE), dtype=np.int32)
    states_ = np.empty((size, STATES_ROWS, 1), dtype=np.uint64)
    # nothing cached: the plays start at the discard, with no decision of the
    # deal made in their rows yet (a deal from its start empties them itself)
    dec_ = np.full((size, n, DEC_SIZE), -1, dtype=np.int64)
    seat_res_ = np.empty((size, n, SEAT_RES_SIZE), dtype=np.int64)
    res_ = np.zeros((size, RES_SIZE), dtype=np.int64)
    opener_ = np.empty((size, MAX_ROUNDS), dtype=np.int64)
    alive_ = np.zeros(size, dtype=np.bool_)
    dealers_ = np.full(group, cfg[C_DEALER], dtype=np.int64)
    # the play each order of a deal shares, and the one it parted from this round
    follow_ = np.empty((group, n_orders), dtype=np.int64)
    reads_ = np.empty((READ_ROWS, n_orders), dtype=np.int64)
    # borrowed (uncounted) views for the phase calls; the originals live
    # until keep() below
    pass_owns, kept, packets = borrow(pass_owns_), borrow(kept_), borrow(packets_)
    pass_states, dealt, hand = borrow(pass_states_), borrow(dealt_), borrow(hand_)
    chosen, deck_state, hero_cards = borrow(chosen_), borrow(deck_state_), borrow(hero_cards_)
    held = borrow(held_)
    pub, owns, states, dec = borrow(pub_), borrow(owns_), borrow(states_), borrow(dec_)
    seat_res, res, opener = borrow(seat_res_), borrow(res_), borrow(opener_)
    alive, dealers = borrow(alive_), borrow(dealers_)
    follow, reads = borrow(follow_), borrow(reads_)
    for chunk in range(first_chunk, stop_chunk):
        start = chunk * CHUNK
        stop = min(n_deals, (chunk + 1) * CHUNK)
        while start < stop:
            m = min(group, stop - start)
            plays = m * n_orders
            _start_orders(key, deal_start, start, m, cfg, pass_pub, kinds, params, known_mask,
                          hand5, discards, hero_packet, right_forced, fours, orders, leads,
                          cdiscard,
                          pass_owns, kept, packets, pass_states, dealt, hand, chosen, deck_state,
                          hero_cards, held, pub, owns, states, dec, seat_res, res, opener, alive,
                          with_hilo, with_learned)  # fmt: skip
            if cfg[C_REVEAL] != 0:
                for r in range(REVEAL_ROUNDS):
                    _lead_plays(r, m, n_orders, leads, orders, pub, owns, states, dec, seat_res,
                                res, opener, alive, by_reads, cfg, follow, reads)  # fmt: skip
                    betting_phase(ROUNDS_BEFORE_DISCARD + r, r, plays, n_orders, checks_only,
                                  cfg, dealers, pub, owns, kinds, params, states, cbet, dec,
                                  seat_res, res, opener, alive, with_hilo,
                                  with_learned)  # fmt: skip
                _lead_plays(REVEAL_ROUNDS, m, n_orders, leads, orders, pub, owns, states, dec,
                            seat_res, res, opener, alive, by_reads, cfg, follow,
                            reads)  # fmt: skip
            if with_hilo is not None:
                if cfg[C_HILO] != 0:
                    declare_phase(plays, n_orders, cfg, dealers, kinds, params, orders, pub, owns,
                                  states, seat_res, res, alive)  # fmt: skip
            _finish_orders(start, plays, n_orders, cfg, pub, owns, dec, seat_res, res, opener,
                           alive, net, share, opens, opp_folds, pots, cats, hilo, follow,
                           with_hilo, with_learned)  # fmt: skip
            start += m
    keep(pass_owns_, kept_, packets_, pass_states_, dealt_, hand_)
    keep(chosen_, deck_state_, hero_cards_, pub_, owns_, states_)
    keep(dec_, seat_res_, res_, opener_, alive_, dealers_)
    keep(held_, follow_, reads_, held_, held_, held_)


@jit
def _start_orders(
    key, deal_start, first, m, cfg, pass_pub, kinds, params, known_mask, hand5, discards,
    hero_packet, right_forced, fours, orders, leads, cdiscard,
    pass_owns, kept, packets, pass_states, dealt, hand, chosen, deck_state, hero_cards, held,
    pub, owns, states, dec, seat_res, res, opener, alive, with_hilo, with_learned,
):  # fmt: skip
    """Rows ``first .. first + m - 1`` of :func:`reveal_batch`: each deal's
    opponents after the pass (the showdown model), then for every order the
    table right after the discard, in play ``i * len(orders) + k``.

    Every seat discards at once (R8), so when an order keeps the same five
    cards as the first one, every other seat's discard and reveal order are
    those of the first order's play: it starts as a copy of that play with
    only the hero's five reordered. The random numbers are the same either
    way (the hero's forced choice draws none), so the results are those of
    playing the discard again. When the first order is missed (the hero does
    not hold its five), every order is played in full. An order that follows
    another in the first reveal round (``leads[0, k] != k``) is not copied
    here: :func:`_lead_plays` copies its lead's play, whole, before it plays
    a round itself."""
    n = cfg[C_N]
    n_orders = orders.shape[0]
    dealer = cfg[C_DEALER]
    packet_unknown = hero_packet[0] < 0
    dead = 2 if discards[0] < 0 else 0
    unknown = (3 if packet_unknown else 0) + dead
    offset = 3 if packet_unknown else 0
    first_five = _five_mask(orders, 0)
    for local in range(m):
        deal = deal_start + first + local
        for seat in range(n):
            for j in range(V.OWN_SIZE):
                pass_owns[seat, j] = -1
            pass_owns[seat, V.O_SEAT] = seat
        hero_extra = opponents_after_pass(
            key, deal, n, pass_pub, kinds, params, known_mask, right_forced, fours, unknown,
            held, pass_owns, kept, packets, pass_states, dealt, hand, chosen, deck_state,
            with_hilo, with_learned,
        )  # fmt: skip
        for j in range(3):
            packets[HERO, j] = hero_extra[j] if packet_unknown else hero_packet[j]
        for j in range(KEPT_SIZE):
            hero_cards[j] = hand5[j]
        for j in range(DISCARD_SIZE):
            hero_cards[KEPT_SIZE + j] = hero_extra[offset + j] if dead else discards[j]
        hero_state = stream_state(key, deal, STREAM_SEAT)
        e0 = local * n_orders
        reusable = False
        for k in range(n_orders):
            e = e0 + k
            alive[e] = True
            if reusable and _five_mask(orders, k) == first_five:
                if cfg[C_REVEAL] == 0 or leads[0, k] == k:
                    copy_play(e0, e, pub, owns, states, dec, seat_res, res, opener)
                    for j in range(KEPT_SIZE):
                        owns[e, HERO, V.O_CARDS + j] = orders[k, j]
                continue
            _views_at_discard(cfg, pub[e], owns[e], hero_cards, kept, packets)
            states[e, STREAM_SEAT, 0] = hero_state
            for seat in range(1, n):
                states[e, STREAM_SEAT + seat, 0] = pass_states[seat, 0]
            reset_results(n, seat_res[e], res[e], opener[e], ROUNDS_BEFORE_DISCARD)
            discard_inline(cfg, dealer, pub[e], owns[e], kinds, params, states[e], cdiscard,
                           dec[e], orders[k], res[e], with_hilo, with_learned)  # fmt: skip
            if k == 0:
                # a missed forced order (the hero does not hold those five)
                # let the hero's own strategy discard: nothing to reorder
                reusable = res[e, R_MISSED] == 0


def _reads_buckets(cfg: np.ndarray, kinds: np.ndarray) -> bool:
    """Whether every decision of a deal of the reveal analysis reads the
    cards a seat has shown only as their bucket
    (:func:`~anaconda_sim.strategies.kinds.reads_shown_cards_as_buckets`),
    but for the rules' opener of a reveal round (R11, R12): every seat a
    built-in family, under the high showdown (the hi-lo declarations and low
    reads are not covered by the bucket)."""
    return bool(cfg[C_HILO] == 0) and all(reads_shown_cards_as_buckets(int(k)) for k in kinds)


def prefix_leads(orders: np.ndarray, share_prefixes: bool = True) -> np.ndarray:
    """The order each order follows in each reveal round: ``leads[r, k]`` is
    the first order (by index) that keeps the same five as order 0, as order
    ``k`` does, and shows the same first ``r + 1`` cards in the same
    sequence; ``k`` itself when it is that first one, or keeps another five,
    or when ``share_prefixes`` is false (then every order is played in full).

    Until reveal ``r``, two orders of one deal with the same lead are the
    same deal on the same random numbers: nobody's decision reads the order
    of cards not yet shown (the built-in strategies read the set of cards
    held and what is exposed), so :func:`_reveal_batch_chunks` plays only
    the lead and copies its play when the order's own prefix first differs.

    Examples
    --------
    >>> orders = np.array([[0, 1, 2, 3, 4], [0, 1, 3, 2, 4], [1, 0, 2, 3, 4]])
    >>> prefix_leads(orders).tolist()
    [[0, 0, 2], [0, 0, 2], [0, 1, 2], [0, 1, 2]]
    >>> prefix_leads(orders, share_prefixes=False)[0].tolist()
    [0, 1, 2]
    """
    n = len(orders)
    leads = np.tile(np.arange(n, dtype=np.int64), (REVEAL_ROUNDS, 1))
    if not share_prefixes or n == 0:
        return leads
    fives = [frozenset(int(c) for c in row[:KEPT_SIZE]) for row in orders]
    for r in range(REVEAL_ROUNDS):
        first: dict[tuple[int, ...], int] = {}
        for k in range(n):
            if fives[k] == fives[0]:
                leads[r, k] = first.setdefault(tuple(int(c) for c in orders[k, : r + 1]), k)
    return leads


def same_five_leads(orders: np.ndarray) -> np.ndarray:
    """The leads (as :func:`prefix_leads` gives them) of plays shared while
    everything read of them is the same (:func:`_follow_reads`): in every
    round, order 0 for each order that keeps order 0's five, else the order
    itself. Before the reveals those orders are one deal; the kernel parts
    them deal by deal.

    Examples
    --------
    >>> same_five_leads(np.array([[0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [5, 1, 2, 3, 4]]))[0].tolist()
    [0, 0, 2]
    """
    n = len(orders)
    leads = np.tile(np.arange(n, dtype=np.int64), (REVEAL_ROUNDS, 1))
    if n == 0:
        return leads
    five = frozenset(int(c) for c in orders[0, :KEPT_SIZE])
    for k in range(n):
        if frozenset(int(c) for c in orders[k, :KEPT_SIZE]) == five:
            leads[:, k] = 0
    return leads


@jit(_nrt=False)
def _lead_plays(rnd, m, n_orders, leads, orders, pub, owns, states, dec, seat_res, res, opener,
                alive, by_reads, cfg, follow, scratch):  # fmt: skip
    """Before reveal round ``rnd`` (0 .. ``REVEAL_ROUNDS - 1``; ``REVEAL_ROUNDS``:
    after the last) of the first ``m`` deals' plays (``n_orders`` each): an
    order that follows another this round (``leads[rnd, k] != k``) sits it
    out, and one that leads it but followed another the round before starts
    its own play as a copy of that one's, with its own order of the hero's
    cards (``orders[k]``); with ``by_reads``, the plays an order follows are
    found deal by deal (:func:`_follow_reads`, its state in ``follow`` and
    ``scratch``). A deal whose first order was missed (every order played in
    full at the discard, :func:`_start_orders`) is left as it is."""
    if by_reads and rnd < REVEAL_ROUNDS:
        _shown_reads(rnd, orders, scratch)
        for k in range(n_orders):
            scratch[_STAMP, k] = -1
    # after the last round an order that still follows another takes its
    # results (_finish_orders), not its play; but a hi-lo play goes on to
    # its own declaration (R22), which forced rows may differ in
    last = rnd == REVEAL_ROUNDS and cfg[C_HILO] == 0
    for i in range(m):
        e0 = i * n_orders
        if res[e0, R_MISSED] != 0:
            for k in range(n_orders):
                follow[i, k] = k  # every order played in full
            continue
        if by_reads:
            _follow_reads(rnd, i, n_orders, leads, orders, pub, owns, states, dec, seat_res, res,
                          opener, alive, cfg, follow, scratch)  # fmt: skip
            continue
        for k in range(n_orders):
            e = e0 + k
            follow[i, k] = k
            if rnd < REVEAL_ROUNDS and leads[rnd, k] != k:
                alive[e] = False  # played by its lead
                continue
            before = leads[rnd - 1, k] if rnd > 0 else k
            if before != k:
                if last:
                    follow[i, k] = before
                    continue
                _take_play(e0 + before, e, k, rnd, orders, pub, owns, states, dec, seat_res, res,
                           opener)  # fmt: skip
                alive[e] = alive[e0 + before]


@jit(inline="always")
def _take_play(source, e, k, rnd, orders, pub, owns, states, dec, seat_res, res, opener):
    """Play ``e`` (order ``k``) becomes a copy of play ``source`` before reveal
    round ``rnd``, with order ``k``'s own order of the hero's cards and its
    own cards on the table (the source may have shown others)."""
    copy_play(source, e, pub, owns, states, dec, seat_res, res, opener)
    for j in range(KEPT_SIZE):
        owns[e, HERO, V.O_CARDS + j] = orders[k, j]
    for j in range(min(rnd, REVEAL_ROUNDS)):
        if pub[e, V.P_EXPOSED + 4 * HERO + j] >= 0:  # shown before the hero folded
            pub[e, V.P_EXPOSED + 4 * HERO + j] = orders[k, j]


#: rows of the scratch of :func:`_follow_reads` (one column an order): the
#: first order that parted from a play this round and the next after one;
#: what an order shows; the rivals' best on a play's table and its stamp
_FIRST_PARTED, _NEXT_PARTED, _VALUE, _BUCKET, _BEST, _BEST_AT, _STAMP = 0, 1, 2, 3, 4, 5, 6
READ_ROWS = 7


@jit(inline="always")
def _follow_reads(rnd, i, n_orders, leads, orders, pub, owns, states, dec, seat_res, res, opener,
                  alive, cfg, follow, scratch):  # fmt: skip
    """:func:`_lead_plays` for deal ``i`` of the batch when every seat reads
    shown cards as buckets (:func:`_reads_buckets`): ``follow[i, k]`` is the
    order whose play order ``k`` shares (``k``: its own); ``scratch`` holds
    what each order shows after the reveal (:func:`_shown_reads`, filled
    before the first deal). Before reveal round ``rnd`` an order stays with
    its play while the round reads the same of its cards as of that play's
    (:func:`_reads_alike`): then every decision of the round is the same,
    and so is the play. One that parts joins the first order that parted
    from the same play this round and reads alike, else starts its own play,
    a copy of the one it parted from (every order that parts was that play
    until now). After the last round every order that still follows one
    takes its results (:func:`_finish_orders`): these tables play the high
    rules, so no declaration follows."""
    e0 = i * n_orders
    if rnd == 0:
        for k in range(n_orders):
            follow[i, k] = leads[0, k]
    stamp = i + 1  # marks the rivals' best found for this deal (reset every round)
    n = cfg[C_N]
    hero_at = (HERO - cfg[C_DEALER] - 1 + 2 * n) % n  # seat_after(dealer, hero_at, n) == HERO
    for k in range(n_orders):
        scratch[_FIRST_PARTED, k] = -1
    for k in range(n_orders):
        lead = follow[i, k]
        if lead == k:
            continue  # its own play goes on
        if rnd == REVEAL_ROUNDS:
            continue  # it takes the results of the play it follows
        e = e0 + k
        alive[e] = False  # played by the play it follows
        p = pub[e0 + lead]
        if p[V.P_FOLDED + HERO] != 0:
            continue  # nobody reads a folded seat's cards
        if scratch[_STAMP, lead] != stamp:
            _rivals_best(rnd, p, owns[e0 + lead], cfg, lead, scratch)
            scratch[_STAMP, lead] = stamp
        if _reads_alike(scratch, lead, k, lead, hero_at):
            continue
        # the orders that parted from the same play this round to play their
        # own, first to last
        joined = k
        j = scratch[_FIRST_PARTED, lead]
        last_parted = -1
        while j >= 0:
            if _reads_alike(scratch, lead, k, j, hero_at):
                joined = j
                break
            last_parted = j
            j = scratch[_NEXT_PARTED, j]
        follow[i, k] = joined
        if joined == k:
            scratch[_NEXT_PARTED, k] = -1
            if last_parted < 0:
                scratch[_FIRST_PARTED, lead] = k
            else:
                scratch[_NEXT_PARTED, last_parted] = k
            _take_play(e0 + lead, e, k, rnd, orders, pub, owns, states, dec, seat_res, res,
                       opener)  # fmt: skip
            alive[e] = alive[e0 + lead]


@jit(inline="always")
def _shown_reads(rnd, orders, scratch):
    """Each order's exposed value (R11) and bucket
    (:func:`~anaconda_sim.strategies.dispatch.shown_read`) once the hero has
    shown its first ``rnd + 1`` cards, into ``scratch``."""
    for k in range(orders.shape[0]):
        c0, c1 = np.int64(orders[k, 0]), np.int64(orders[k, 1])
        c2, c3 = np.int64(orders[k, 2]), np.int64(orders[k, 3])
        scratch[_VALUE, k] = exposed_value4(c0, c1, c2, c3, rnd + 1)
        scratch[_BUCKET, k] = shown_read(c0, c1, c2, c3, rnd + 1)


@jit(inline="always")
def _rivals_best(rnd, p, o, cfg, lead, scratch):
    """The strongest exposed cards among the hero's active rivals once each
    has shown its card ``rnd`` on the table ``p``, ``o`` (R11), and the place
    after the dealer of the first seat that shows them (R12: ties to the
    first clockwise), into ``scratch``'s column ``lead`` (-1, -1: none)."""
    n = cfg[C_N]
    dealer = cfg[C_DEALER]
    best, at = np.int64(-1), np.int64(-1)
    for i in range(n):
        seat = seat_after(dealer, i, n)
        if seat == HERO or p[V.P_FOLDED + seat] != 0:
            continue
        # a seat shows the cards of its row in their order (betting_phase)
        value = exposed_value4(np.int64(o[seat, V.O_CARDS]), np.int64(o[seat, V.O_CARDS + 1]),
                               np.int64(o[seat, V.O_CARDS + 2]),
                               np.int64(o[seat, V.O_CARDS + 3]), rnd + 1)  # fmt: skip
        if value > best:
            best, at = value, i
    scratch[_BEST, lead] = best
    scratch[_BEST_AT, lead] = at


@jit(inline="always")
def _hero_opens(scratch, lead, k, hero_at):
    """Whether the hero opens the round showing order ``k``'s cards against
    the rivals' best in column ``lead`` (R11, R12: strictly stronger, or as
    strong and first clockwise after the dealer, ``hero_at`` its place)."""
    value, best = scratch[_VALUE, k], scratch[_BEST, lead]
    return value > best or (value == best and hero_at < scratch[_BEST_AT, lead])


@jit(inline="always")
def _reads_alike(scratch, lead, k, j, hero_at):
    """Whether the round about to be played reads the same of the hero's
    cards shown as order ``k``'s as shown as order ``j``'s, on the table of
    play ``lead`` (whose rivals' best :func:`_rivals_best` found): one bucket,
    and the same seat opens (``hero_at``: the hero's place after the dealer)."""
    if scratch[_BUCKET, k] != scratch[_BUCKET, j]:
        return False
    return _hero_opens(scratch, lead, k, hero_at) == _hero_opens(scratch, lead, j, hero_at)


@jit(_nrt=False)
def _finish_orders(
    first, plays, n_orders, cfg, pub, owns, dec, seat_res, res, opener, alive, net, share, opens,
    opp_folds, pots, cats, hilo, follow, with_hilo, with_learned,
):  # fmt: skip
    """The end of every play (R10, R17-R20; hi-lo R23-R25) and the hero's
    results into rows ``first ..`` of :func:`reveal_batch`'s outputs; an
    order that still follows another after the last reveal round
    (``follow``, :func:`_lead_plays`) is that order's deal, and takes its
    results."""
    n = cfg[C_N]
    for e in range(plays):
        i = first + e // n_orders
        k = e % n_orders
        lead = follow[e // n_orders, k] if cfg[C_REVEAL] != 0 else k
        if lead != k:
            _same_results(i, k, lead, net, share, opens, opp_folds, pots, cats)
            continue
        settle_inline(not alive[e], cfg[C_DEALER], cfg, pub[e], owns[e], dec[e], seat_res[e],
                      res[e], with_hilo, with_learned)  # fmt: skip
        net[i, k] = seat_res[e, HERO, S_NET]
        share[i, k] = seat_res[e, HERO, S_SHARE]
        pots[i, k] = res[e, R_POT]
        cats[i, k] = seat_res[e, HERO, S_CAT]
        if cfg[C_HILO] != 0:
            hilo[i, k, 0] = seat_res[e, HERO, S_HIGH_SHARE]
            hilo[i, k, 1] = seat_res[e, HERO, S_LOW_SHARE]
            hilo[i, k, 2] = seat_res[e, HERO, S_FLAGS]
        for r in range(REVEAL_ROUNDS):
            opens[i, k, r] = 1 if opener[e, ROUNDS_BEFORE_DISCARD + r] == HERO else 0
            opp_folds[i, k, r] = 0
        for seat in range(1, n):
            fold = seat_res[e, seat, S_FOLD] - ROUNDS_BEFORE_DISCARD
            if fold >= 0:
                opp_folds[i, k, fold] += 1


@jit(inline="always")
def _same_results(i, k, lead, net, share, opens, opp_folds, pots, cats):
    """Order ``k`` of deal row ``i`` takes the results of order ``lead``
    (under the high rules only, :func:`_lead_plays`: no hi-lo results)."""
    net[i, k] = net[i, lead]
    share[i, k] = share[i, lead]
    pots[i, k] = pots[i, lead]
    cats[i, k] = cats[i, lead]
    for r in range(REVEAL_ROUNDS):
        opens[i, k, r] = opens[i, lead, r]
        opp_folds[i, k, r] = opp_folds[i, lead, r]


@jit(inline="always")
def _five_mask(orders, k):
    """The card mask of the five cards of order ``orders[k]``."""
    mask = np.uint64(0)
    for j in range(KEPT_SIZE):
        mask |= card_bit(orders[k, j])
    return mask
