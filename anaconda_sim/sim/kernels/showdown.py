"""Kernels of the showdown model: choices scored on common random numbers.

The model (used when nobody bets or folds): the hero sits at seat 0 of an
``n``-seat table, its left neighbour at seat 1, its right neighbour at seat
``n - 1``. Each opponent is dealt seven cards from the cards the hero has not
seen and passes three to its left by its own strategy (R7); the hero's
packet goes to seat 1 and the hero receives seat ``n - 1``'s packet. After
the pass each opponent keeps five cards by its strategy (R8) and the best
hand wins (R10, R18); ties split the pot (R19). The value of a choice is the
hero's expected share of the pot.

Helpers are inlined: a call of a compiled function counts references to
every array it is passed, and counting on arrays that all threads share
(strategies, choices) makes the cores fight over one cache line.

Every choice of one deal is scored on the same opponents' cards, passes and
random numbers (common random numbers); a deal's numbers come from its own
streams of :mod:`anaconda_sim.rng`, so results do not depend on batch size or
thread count. Each kernel fills one row per deal; the public layer
accumulates sums and cross-products batch by batch.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from numba import types

from ..._numba import argument_type, borrow, jit, keep, run_chunks
from ...hands.evaluator import eval5, eval7, value_category
from ...limits import DECK_SIZE, HAND_SIZE
from ...rng import (
    STREAM_DECK,
    STREAM_RECEIVED,
    STREAM_RIGHT_FOUR,
    STREAM_SEAT,
    card_bit,
    deal_cards,
    rand_below,
    stream_state,
)
from ...stats import SHARE_SCALE
from ...strategies.dispatch import (
    builtin_pass,
    decision_jobs,
    passes_exactly,
    showdown_value,
)
from ...strategies.kinds import kernel_extras
from ...table import views as V
from ...warmup import CompileJob, compile_on_all_cores
from ..layout import HERO, LEFT, RIGHT_DRAWN, RIGHT_POSTERIOR, c_array


@jit(inline="always")
def _set_cards(own, first, second, n_second):
    """own's hand := first (4 cards) + second[:n_second]."""
    for i in range(4):
        own[V.O_CARDS + i] = first[i]
    for i in range(n_second):
        own[V.O_CARDS + 4 + i] = second[i]
    own[V.O_NCARDS] = 4 + n_second


def right_fours(pub, kind, params, known_mask, received):
    """Every four unseen cards with which seat ``pub[P_PLAYERS] - 1`` of
    built-in strategy ``kind``, holding them and ``received``, passes exactly
    the three ``received`` cards.

    The unseen cards are those outside ``known_mask``. Returns the accepted
    fours (an ``int8`` array of shape ``(m, 4)``, ascending cards, in
    lexicographic order) and the number of fours tried. Meant for
    deterministic passes (the pass is run once per four, with a fixed
    random state).
    """
    return _right_fours(pub, kind, params, known_mask, received,
                        *kernel_extras(bool(pub[V.P_HILO]), [kind], params))  # fmt: skip


@jit
def _right_fours(pub, kind, params, known_mask, received, with_hilo, with_learned):
    """:func:`right_fours` (``with_hilo``, ``with_learned``: its table's
    :func:`~anaconda_sim.strategies.kernel_extras`)."""
    available = np.empty(DECK_SIZE, dtype=np.int64)
    m = 0
    for card in range(DECK_SIZE):
        if (known_mask & card_bit(card)) == np.uint64(0):
            available[m] = card
            m += 1
    tried = m * (m - 1) * (m - 2) * (m - 3) // 24
    out = np.empty((tried, 4), dtype=np.int8)
    own = np.full(V.OWN_SIZE, -1, dtype=np.int32)
    own[V.O_SEAT] = pub[V.P_PLAYERS] - 1
    own[V.O_NCARDS] = HAND_SIZE
    for i in range(3):
        own[V.O_CARDS + 4 + i] = received[i]
    chosen = np.empty(HAND_SIZE, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    count = 0
    for a in range(m):
        own[V.O_CARDS] = available[a]
        for b in range(a + 1, m):
            own[V.O_CARDS + 1] = available[b]
            for c in range(b + 1, m):
                own[V.O_CARDS + 2] = available[c]
                for d in range(c + 1, m):
                    own[V.O_CARDS + 3] = available[d]
                    if passes_exactly(kind, pub, own, params, rng, chosen, received,
                                       with_hilo, with_learned):  # fmt: skip
                        out[count, 0] = available[a]
                        out[count, 1] = available[b]
                        out[count, 2] = available[c]
                        out[count, 3] = available[d]
                        count += 1
    return out[:count].copy(), tried


@jit(standalone=True)
def opponents_after_pass(
    key, deal, players, pub, kinds, params, known_mask, right_forced, fours, hero_unknown,
    held, owns, kept, packets, states, dealt, hand, chosen, deck_state, with_hilo, with_learned,
):  # fmt: skip
    """Deal the opponents, make their passes and apply the fixed part of the pass.

    Fills ``kept[s]`` (4 kept cards), ``packets[s]`` (3 passed cards) and
    ``states[s]`` (decision streams after the pass) for every opponent.
    The first ``hero_unknown`` cards drawn are cards of the hero the caller
    did not name (a packet it passed, its discards): they are removed from
    the deck and returned (a view of the caller's scratch array ``dealt``,
    52 cards; ``hand`` and ``chosen`` hold 7, ``deck_state`` is a
    ``uint64[1]``). ``right_forced[0] >= 0`` forces seat ``players - 1``'s
    packet; then, when ``fours`` has rows (:func:`right_sevens`: a kept four
    and the packet passed with it, columns 0-3 and 4-6), the seat's seven are
    one row of ``fours`` drawn uniformly (stream ``STREAM_RIGHT_FOUR`` of the
    deal), its packet that row's (``right_forced`` only says that a packet
    is forced), and everything else is dealt from the cards left.

    ``right_forced[0] == RIGHT_POSTERIOR``: the packet the hero received is
    unknown, and the right neighbour's packet and kept four are drawn from
    their posterior (:func:`_right_from_posterior`) among the hero's seven
    held cards ``held`` (its unknown ones, ``-1`` and last, are the last of
    its ``hero_unknown`` cards drawn: its discards).
    """
    posterior = right_forced[0] == RIGHT_POSTERIOR
    forced = right_forced[0] >= 0 or posterior
    conditioned = right_forced[0] >= 0 and fours.shape[0] > 0
    total = hero_unknown + HAND_SIZE * (players - 1) - (3 if forced else 0)
    mask = known_mask
    row = 0
    if conditioned:
        deck_state[0] = stream_state(key, deal, STREAM_RIGHT_FOUR)
        row = rand_below(deck_state, fours.shape[0])
        for i in range(4):
            mask |= card_bit(np.int64(fours[row, i]))
        total -= 4
    deck_state[0] = stream_state(key, deal, STREAM_DECK)
    if posterior:
        # the hero's unknown cards first: its discards may be what it received
        mask |= deal_cards(deck_state, mask, hero_unknown, dealt)
        right = players - 1
        mask |= _right_from_posterior(
            key, deal, pub, kinds[right], params[right], owns[right], mask, held, dealt,
            hero_unknown, chosen, kept[right], packets[right], with_hilo, with_learned,
        )  # fmt: skip
        deal_cards(deck_state, mask, total - 4 - hero_unknown, dealt[hero_unknown:])
    else:
        deal_cards(deck_state, mask, total, dealt)
    pos = hero_unknown
    for seat in range(1, players):
        states[seat, 0] = stream_state(key, deal, STREAM_SEAT + seat)
        own = owns[seat]
        if forced and seat == players - 1:
            for i in range(4):
                if conditioned:
                    hand[i] = fours[row, i]
                elif posterior:
                    hand[i] = kept[seat, i]
                else:
                    hand[i] = dealt[pos]
                    pos += 1
            for i in range(3):
                if conditioned:
                    card = fours[row, 4 + i]
                elif posterior:
                    card = packets[seat, i]
                else:
                    card = right_forced[i]
                hand[4 + i] = card
                chosen[i] = card
        else:
            for i in range(HAND_SIZE):
                hand[i] = dealt[pos]
                pos += 1
            for i in range(HAND_SIZE):
                own[V.O_CARDS + i] = hand[i]
            own[V.O_NCARDS] = HAND_SIZE
            builtin_pass(kinds[seat], pub, own, params[seat], states[seat], chosen,
                         with_hilo, with_learned)
        k = 0
        for i in range(7):
            card = hand[i]
            if card != chosen[0] and card != chosen[1] and card != chosen[2]:
                kept[seat, k] = card
                k += 1
        for i in range(3):
            packets[seat, i] = chosen[i]
    return dealt[:hero_unknown]


#: the 35 threes of seven positions, in lexicographic order
TRIPLES_OF_SEVEN = np.array(list(itertools.combinations(range(7), 3)), dtype=np.int64)
#: tries of :func:`_right_from_posterior` before it gives up (a packet the
#: strategy passes with about one four in two hundred is found in a few hundred)
POSTERIOR_TRIES = 4096


@jit(standalone=True)
def _right_from_posterior(
    key, deal, pub, kind, params, own, mask, held, dealt, hero_unknown, chosen, four, packet,
    with_hilo, with_learned,
):  # fmt: skip
    """The right neighbour's kept four and packet when the packet the hero
    received is unknown: drawn from their posterior by rejection.

    Before the pass every three of the hero's seven held cards is equally
    likely to be the packet it received, and the neighbour's kept four are
    four unseen cards, every four equally likely; the neighbour passed that
    three by its strategy. So a uniform three of ``held`` and a uniform four
    of the cards outside ``mask`` (stream ``STREAM_RIGHT_FOUR``) are kept
    when the strategy, holding the seven, passes exactly that three: the
    accepted pair is a draw from the posterior (a packet the strategy rarely
    passes is rarely the one it passed). After :data:`POSTERIOR_TRIES`
    refusals the last pair is kept (the neighbour unconditioned).

    Writes ``four`` and ``packet``; returns the mask of the four. ``dealt``
    holds the hero's ``hero_unknown`` drawn cards; ``dealt[hero_unknown:]``
    is scratch. Meant for deterministic passes (decided with a fixed random
    state), as :func:`right_fours`.
    """
    known = 0
    while known < 7 and held[known] >= 0:
        known += 1
    first_unknown = hero_unknown - (7 - known)  # the hero's discards: its last draws
    available = dealt[hero_unknown:]
    m = 0
    for card in range(DECK_SIZE):
        if (mask & card_bit(card)) == np.uint64(0):
            available[m] = card
            m += 1
    state = np.empty(1, dtype=np.uint64)
    state[0] = stream_state(key, deal, STREAM_RIGHT_FOUR)
    decide = np.zeros(1, dtype=np.uint64)
    own[V.O_NCARDS] = 7
    for _ in range(POSTERIOR_TRIES):
        t = rand_below(state, TRIPLES_OF_SEVEN.shape[0])
        for i in range(3):
            at = TRIPLES_OF_SEVEN[t, i]
            packet[i] = held[at] if at < known else dealt[first_unknown + at - known]
        for i in range(4):  # a partial Fisher-Yates shuffle of the available cards
            j = i + rand_below(state, m - i)
            card = available[j]
            available[j] = available[i]
            available[i] = card
            four[i] = card
        for i in range(4):
            own[V.O_CARDS + i] = four[i]
        for i in range(3):
            own[V.O_CARDS + 4 + i] = packet[i]
        if passes_exactly(kind, pub, own, params, decide, chosen, packet, with_hilo,
                           with_learned):  # fmt: skip
            break
    four_mask = np.uint64(0)
    for i in range(4):
        four_mask |= card_bit(four[i])
    return four_mask


#: deals per prange task: scratch arrays are allocated once per chunk
CHUNK = 64


@jit
def _scratch(players):
    """One thread's scratch arrays for a chunk of deals of the pass model:
    seat rows, kept cards, packets, decision streams, a discard buffer, and
    the dealing buffers of :func:`opponents_after_pass`."""
    return (
        np.empty((players, V.OWN_SIZE), dtype=np.int32),
        np.empty((players, 4), dtype=np.int64),
        np.empty((players, 3), dtype=np.int64),
        np.empty((players, 1), dtype=np.uint64),
        np.empty(HAND_SIZE, dtype=np.int64),
        np.empty(DECK_SIZE, dtype=np.int64),
        np.empty(HAND_SIZE, dtype=np.int64),
        np.empty(HAND_SIZE, dtype=np.int64),
        np.empty(1, dtype=np.uint64),
    )


@jit(inline="always")
def _reset_rows(owns, players):
    for seat in range(players):
        owns[seat, :] = -1
        owns[seat, V.O_SEAT] = seat


@jit(standalone=True)
def _fixed_opponents_best(
    players, pub, kinds, params, owns, kept, packets, states, scratch, with_hilo, with_learned
):
    """Best value and its count among seats 2..n-1, whose hands do not depend on the hero."""
    best = np.int64(-1)
    count = 0
    for seat in range(2, players):
        own = owns[seat]
        _set_cards(own, kept[seat], packets[seat - 1], 3)
        value = showdown_value(kinds[seat], own, states[seat], scratch)
        if value > best:
            best = value
            count = 1
        elif value == best:
            count += 1
    return best, count


@jit(inline="always")
def _shares(hero_value, left_value, best_fixed, count_fixed):
    """Pot shares of the hero and its left neighbour, in exact units of 1/SHARE_SCALE."""
    top = max(hero_value, max(left_value, best_fixed))
    count = count_fixed if best_fixed == top else 0
    if hero_value == top:
        count += 1
    if left_value == top:
        count += 1
    hero_share = SHARE_SCALE // count if hero_value == top else 0
    left_share = SHARE_SCALE // count if left_value == top else 0
    return hero_share, left_share


def pass_choices_batch(
    key, deal_start, n_deals, players, pub, kinds, params, known, hero7, choices,
    shares, left_shares, categories,
):  # fmt: skip
    """Score the hero's pass choices (rows of ``choices``, 3 cards each).

    The hero keeps its best five after the pass. ``known`` is the mask of
    cards no opponent is dealt (the hero's seven and any dead cards). Writes,
    per deal ``i`` and choice ``k``: the hero's pot share, the left
    neighbour's pot share, and the hero's final category.
    """
    args = (
        key, deal_start, n_deals, players, pub, kinds, params, known, hero7, choices, shares,
        left_shares, categories, *kernel_extras(bool(pub[V.P_HILO]), kinds, params, n_deals),
    )  # fmt: skip
    compile_on_all_cores(_model_jobs(_pass_choices_batch_chunks, args), "the showdown kernels")
    run_chunks(_pass_choices_batch_chunks, (n_deals + CHUNK - 1) // CHUNK, *args)


def _model_jobs(driver: Any, args: tuple[Any, ...]) -> list[CompileJob]:
    """What a first call of ``driver`` on ``args`` (its own after the chunk
    bounds, the table's two kernel extras last) compiles, as jobs for
    :func:`~anaconda_sim.warmup.compile_on_all_cores`: the built-in pass (the
    model needs no discard but the random one:
    :func:`~anaconda_sim.strategies.dispatch.showdown_value`), the opponents'
    deal and pass, the fixed opponents' showdown and, claimed last, the
    driver. The heaviest go first, to both cores at
    once; the driver, which waits for every other (a process compiling a
    kernel that another is compiling waits for it and loads it), is left
    small enough to come last."""
    t = tuple(argument_type(a) for a in args)
    passes = [job for job in decision_jobs(*args[-2:]) if job[0] is builtin_pass]
    return [*passes, *_opponent_jobs(*t[-2:]),
            (driver, (types.int64, types.int64, *t), 0.5)]  # fmt: skip


def _opponent_jobs(with_hilo: Any, with_learned: Any) -> list[CompileJob]:
    """:func:`opponents_after_pass` and :func:`_fixed_opponents_best` as the
    model drivers call them (``with_hilo``, ``with_learned``: the numba types
    of the table's kernel extras), with their weights (about their compile
    seconds, callees not compiled by another job included)."""
    i64, u64 = types.int64, types.uint64
    pub, kinds, params = c_array(types.int32, 1), c_array(i64, 1), c_array(types.float64, 2)
    owns, cards, states = c_array(types.int32, 2), c_array(i64, 2), c_array(u64, 2)
    row = c_array(i64, 1)
    opponents = (u64, i64, i64, pub, kinds, params, u64, row, c_array(types.int8, 2), i64, row,
                 owns, cards, cards, states, row, row, row, c_array(u64, 1), with_hilo,
                 with_learned)  # fmt: skip
    fixed = (i64, pub, kinds, params, owns, cards, cards, states, row, with_hilo, with_learned)
    return [(opponents_after_pass, opponents, 4.0), (_fixed_opponents_best, fixed, 1.2)]


@jit
def _pass_choices_batch_chunks(
    first_chunk, stop_chunk, key, deal_start, n_deals, players, pub, kinds, params, known, hero7,
    choices,
    shares, left_shares, categories, with_hilo, with_learned,
):  # fmt: skip
    """Chunks ``first_chunk .. stop_chunk - 1`` of :func:`pass_choices_batch`."""
    n_choices = choices.shape[0]
    for chunk in range(first_chunk, stop_chunk):
        owns_, kept_, packets_, states_, scratch_, dealt_, hand_, chosen_, deck_state_ = (
            _scratch(players)
        )
        # borrowed (uncounted) views: the helpers called per deal pay no
        # reference counts; the originals live until keep() below
        owns, kept, packets = borrow(owns_), borrow(kept_), borrow(packets_)
        states, scratch, dealt = borrow(states_), borrow(scratch_), borrow(dealt_)
        hand, chosen, deck_state = borrow(hand_), borrow(chosen_), borrow(deck_state_)
        no_force = np.full(3, -1, dtype=np.int64)
        no_fours = np.empty((0, 7), dtype=np.int8)
        no_held = np.full(7, -1, dtype=np.int64)
        hero_kept = np.empty(4, dtype=np.int64)
        # arrays every thread reads, borrowed: no shared reference counts
        pub_, kinds_, params_ = borrow(pub), borrow(kinds), borrow(params)
        hero7_, choices_ = borrow(hero7), borrow(choices)
        for i in range(chunk * CHUNK, min(n_deals, (chunk + 1) * CHUNK)):
            _pass_choices_deal(
                key, deal_start + i, i, players, pub_, kinds_, params_, known, hero7_, choices_,
                n_choices, shares, left_shares, categories, owns, kept, packets, states,
                scratch, no_force, no_fours, no_held, hero_kept, dealt, hand, chosen, deck_state,
                with_hilo, with_learned,
            )  # fmt: skip
        keep(owns_, kept_, packets_, states_, scratch_, dealt_)
        keep(hand_, chosen_, deck_state_, owns_, owns_, owns_)


@jit(inline="always")
def _pass_choices_deal(
    key, deal, i, players, pub, kinds, params, known, hero7, choices, n_choices, shares,
    left_shares, categories, owns, kept, packets, states, scratch, no_force, no_fours, no_held,
    hero_kept, dealt, hand, chosen, deck_state, with_hilo, with_learned,
):  # fmt: skip
    """Row ``i`` of :func:`pass_choices_batch` (deal ``deal``)."""
    _reset_rows(owns, players)
    opponents_after_pass(
        key, deal, players, pub, kinds, params, known, no_force, no_fours, 0, no_held,
        owns, kept, packets, states, dealt, hand, chosen, deck_state, with_hilo, with_learned,
    )  # fmt: skip
    best_fixed, count_fixed = _fixed_opponents_best(
        players, pub, kinds, params, owns, kept, packets, states, scratch, with_hilo, with_learned
    )
    received = packets[players - 1]
    left = owns[LEFT]
    left_state = states[LEFT, 0]
    for k in range(n_choices):
        j = 0
        for c in range(7):
            card = hero7[c]
            if card != choices[k, 0] and card != choices[k, 1] and card != choices[k, 2]:
                hero_kept[j] = card
                j += 1
        hero_value = eval7(
            hero_kept[0], hero_kept[1], hero_kept[2], hero_kept[3],
            received[0], received[1], received[2],
        )  # fmt: skip
        # with two players seat 1 is both neighbours: the same rule holds
        _set_cards(left, kept[LEFT], choices[k], 3)
        states[LEFT, 0] = left_state  # same random numbers for every choice
        left_value = showdown_value(kinds[LEFT], left, states[LEFT], scratch)
        hero_share, left_share = _shares(hero_value, left_value, best_fixed, count_fixed)
        shares[i, k] = hero_share
        left_shares[i, k] = left_share
        categories[i, k] = value_category(hero_value)


def keep_choices_batch(
    key, deal_start, n_deals, players, pub, kinds, params, known_mask, hero_packet,
    right_forced, fours, random_right_from, dead_count, choices, shares, categories,
):  # fmt: skip
    """Score the hero's final five (rows of ``choices``, 5 cards each).

    The opponents' hands follow the pass model with the hero's packet to seat
    1 fixed (``hero_packet``, or 3 unseen cards dealt per deal when
    ``hero_packet[0] < 0``) and seat ``n - 1``'s packet to the hero forced
    (``right_forced``; when ``right_forced[0] == RIGHT_DRAWN`` three cards
    drawn per deal from ``random_right_from``, the hero's known held cards;
    when it is ``RIGHT_POSTERIOR``, the packet and the neighbour's four drawn
    from their posterior among those cards and the hero's unknown discards).
    ``fours``: the right neighbour's possible kept fours given a forced
    packet (rows: a four and the packet), or no rows: no condition.
    ``dead_count`` unseen cards are removed per deal (the hero's unknown
    discards).
    """
    args = (
        key, deal_start, n_deals, players, pub, kinds, params, known_mask, hero_packet,
        right_forced, fours, random_right_from, dead_count, choices, shares, categories,
        *kernel_extras(bool(pub[V.P_HILO]), kinds, params, n_deals),
    )  # fmt: skip
    compile_on_all_cores(_model_jobs(_keep_choices_batch_chunks, args), "the showdown kernels")
    run_chunks(_keep_choices_batch_chunks, (n_deals + CHUNK - 1) // CHUNK, *args)


@jit
def _keep_choices_batch_chunks(
    first_chunk, stop_chunk, key, deal_start, n_deals, players, pub, kinds, params, known_mask,
    hero_packet,
    right_forced, fours, random_right_from, dead_count, choices, shares, categories,
    with_hilo, with_learned,
):  # fmt: skip
    """Chunks ``first_chunk .. stop_chunk - 1`` of :func:`keep_choices_batch`."""
    n_choices = choices.shape[0]
    from_mask = ~_mask_of(random_right_from)
    random_right = right_forced[0] == RIGHT_DRAWN and random_right_from.shape[0] > 0
    # the hero's seven held cards, its unknown ones (-1) last
    held = np.full(7, -1, dtype=np.int64)
    for j in range(min(7, random_right_from.shape[0])):
        held[j] = random_right_from[j]
    for chunk in range(first_chunk, stop_chunk):
        owns_, kept_, packets_, states_, scratch_, dealt_, hand_, chosen_, deck_state_ = (
            _scratch(players)
        )
        # borrowed (uncounted) views: the helpers called per deal pay no
        # reference counts; the originals live until keep() below
        owns, kept, packets = borrow(owns_), borrow(kept_), borrow(packets_)
        states, scratch, dealt = borrow(states_), borrow(scratch_), borrow(dealt_)
        hand, chosen, deck_state = borrow(hand_), borrow(chosen_), borrow(deck_state_)
        forced = right_forced.copy()
        # arrays every thread reads, borrowed: no shared reference counts
        pub_, kinds_, params_ = borrow(pub), borrow(kinds), borrow(params)
        choices_, hero_packet_ = borrow(choices), borrow(hero_packet)
        fours_ = borrow(fours)
        for i in range(chunk * CHUNK, min(n_deals, (chunk + 1) * CHUNK)):
            deal = deal_start + i
            _reset_rows(owns, players)
            if random_right:
                # which three of the hero's cards came from the right: unknown, so uniform
                deck_state[0] = stream_state(key, deal, STREAM_RECEIVED)
                deal_cards(deck_state, from_mask, 3, forced)
            unknown = (3 if hero_packet_[0] < 0 else 0) + dead_count
            hero_cards = opponents_after_pass(
                key, deal, players, pub_, kinds_, params_, known_mask, forced, fours_, unknown,
                held, owns, kept, packets, states, dealt, hand, chosen, deck_state,
                with_hilo, with_learned,
            )  # fmt: skip
            for j in range(3):
                packets[HERO, j] = hero_packet_[j] if hero_packet_[0] >= 0 else hero_cards[j]
            best_fixed, count_fixed = _fixed_opponents_best(
                players, pub_, kinds_, params_, owns, kept, packets, states, scratch,
                with_hilo, with_learned
            )
            left = owns[LEFT]
            _set_cards(left, kept[LEFT], packets[HERO], 3)
            left_value = showdown_value(kinds_[LEFT], left, states[LEFT], scratch)
            for k in range(n_choices):
                hero_value = eval5(choices_[k, 0], choices_[k, 1], choices_[k, 2], choices_[k, 3],
                                   choices_[k, 4])  # fmt: skip
                hero_share, _ = _shares(hero_value, left_value, best_fixed, count_fixed)
                shares[i, k] = hero_share
                categories[i, k] = value_category(hero_value)
        keep(owns_, kept_, packets_, states_, scratch_, dealt_)
        keep(hand_, chosen_, deck_state_, owns_, owns_, owns_)


@jit
def _mask_of(cards):
    mask = np.uint64(0)
    for i in range(cards.shape[0]):
        mask |= card_bit(cards[i])
    return mask
