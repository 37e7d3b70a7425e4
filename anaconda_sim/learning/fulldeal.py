"""The full-deal best response: one seat re-optimises every decision of a deal.

:func:`full_deal_exploitability` (``exploitability(..., decisions="all")``)
plays each situation twice on the same deck and the same random streams:
once with every seat playing the strategy, once with one seat (the
deviator) choosing, at each of its decisions (every betting action, the
pass, the discard and then the reveal order), the choice with the highest
value in :func:`~anaconda_sim.spots.action_values` given everything it has
seen so far, the others playing the strategy.

Two estimates of the deviator's gain per situation, each unbiased for it:

- ``realised``: the deviator's net chips in the second play minus the
  first. Once the deviator changes a pass the rest of the deal differs, so
  its spread includes the game's own.
- ``advantage``: at each decision where the deviator left the strategy,
  the value of its choice minus the strategy's own, re-valued by
  :func:`~anaconda_sim.spots.action_values` on fresh posterior draws and
  continuations (the draws that chose it are not reused), summed over the
  deal; 0 where it kept the strategy's choice. By the performance
  difference identity (Kakade and Langford 2002), the expected sum along
  the deviator's own play of each choice's advantage under the strategy
  is the deviating strategy's gain; the estimate rests on the posterior
  sampler being right (the tests check it against exact enumeration) and
  its spread is only that of the advantages: in ``data/full_deal_exploitability.csv``
  a standard deviation of 2-10 chips a situation against 3-16 for the
  realised gain: 1.3-6 times fewer situations for the same standard error
  (the fewest where a few large betting changes make most of the gain).

What it bounds: the deviator's choices form one strategy (a *local best
response*: at each decision it best responds assuming the strategy for
its own later decisions and the rivals' posterior given what they did).
Its expected gain is a lower bound on the strategy's exploitability by one
seat, and a tighter one than a one-decision deviation: the one-decision
deviation that changes only the pass (or only the discard, or only the
order) is among the choices the local best response can make at that
decision, so at equal precision its gain is at least as large; the realised
gains here are unbiased for the deviating strategy actually played (no
winner's curse: nothing is selected on the deals that measure it). Where
the rivals' posterior cannot be sampled (``unsampled``: evidence too
strong for the samplers' budget), the deviator plays the strategy's own
choice, so the bound is looser there, never wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..cards import format_cards
from ..game.engine import Action, Game, Phase, deck_from_seed
from ..game.play import play_deal
from ..hands.classes import FAMILIES, class_ids, hand_classes
from ..progress import progress_bar
from ..provenance import table_model
from ..rng import STREAM_SEAT, SeedLike, new_state, root_key
from ..spots import ImpossibleSpotError, action_values
from ..stats import estimate
from ..strategies.common import intent_to_action
from ..strategies.spec import Strategy
from ..table.rules import Rules

__all__ = ["FULL_DEAL_DEFINITION", "full_deal_exploitability", "pool_summaries"]

FULL_DEAL_DEFINITION = (
    "mean gain in net chips per deal of one seat that re-optimises every decision of the deal "
    "(each betting action, the pass, the discard, the reveal order) by its action values "
    "against a field playing the strategy (local best response), over the same deals and "
    "random streams played by the strategy: a lower bound on the strategy's exploitability"
)

#: the decisions of a deal, in the order rows report them
DECISIONS = ("bet", "pass", "discard", "order")


@dataclass
class _Deviation:
    """What the deviator did at one decision."""

    decision: str
    changed: bool
    estimate: float  # value of the chosen choice minus the strategy's own, from the table
    unsampled: bool = False  # no posterior draw found: the strategy's own choice was played
    # the same difference on independent draws (0 where the choice is the strategy's own)
    advantage: float = 0.0


#: offset of the re-valuing tables' seeds from the screening ones: a deal has
#: far fewer than 250 decisions of the deviator, so no two tables share a seed
_REVALUE = 500


def _revalued(
    game: Game, seat: int, strategy: Strategy, values: dict[str, Any], chosen: str, own: str,
) -> float:  # fmt: skip
    """The chosen choice's value minus the strategy's own on fresh posterior
    draws and continuations: unbiased for the advantage of the choice, as
    the draws that screened it are not reused (no winner's curse)."""
    table = action_values(game, strategy, hero=strategy,
                          **{**values, "seed": values["seed"] + _REVALUE})  # fmt: skip
    return _value_of(table, chosen) - _value_of(table, own)


def _own_choice(strategy: Strategy, game: Game, seat: int, state: np.ndarray) -> Any:
    """The strategy's own decision at the game's current state."""
    pub, own = game.seat_views(seat)
    if game.phase is Phase.BETTING:
        return Action(int(intent_to_action(pub, own, strategy.decide_bet(pub, own, state))))
    if game.phase is Phase.PASS:
        return sorted(int(c) for c in strategy.decide_pass(pub, own, state))
    discard, order = strategy.decide_discard(pub, own, state)
    return [int(c) for c in discard], [int(c) for c in order]


def _value_of(table: pd.DataFrame, label: str) -> float:
    return float(table.loc[table["choice"] == label, "value"].iloc[0])


def _deviate(
    game: Game, seat: int, strategy: Strategy, state: np.ndarray, deals: int, seed: int,
    chains: int, log: list[_Deviation],
) -> None:  # fmt: skip
    """The deviator's move at the current state: the best choice by its action
    values; the strategy's own where the rivals' posterior cannot be sampled
    (the deviating strategy is still a strategy: it deviates less)."""
    own = _own_choice(strategy, game, seat, state)
    try:
        _best_response(game, seat, strategy, own, deals, seed, chains, log)
    except ImpossibleSpotError:
        name = {Phase.BETTING: "bet", Phase.PASS: "pass"}.get(game.phase, "discard")
        log.append(_Deviation(name, False, float("nan"), unsampled=True))
        if game.phase is Phase.BETTING:
            game.act(seat, own)
        elif game.phase is Phase.PASS:
            game.commit_pass(seat, own)
        else:
            game.commit_discard(seat, *own)


def _pick(table: pd.DataFrame, own_row: int) -> int:
    """The row the deviator plays: the best, or the strategy's own where it
    screened as high (a tie is no reason to leave the strategy)."""
    values = table["value"].to_numpy()
    return own_row if values[own_row] >= values[0] else 0


def _best_response(
    game: Game, seat: int, strategy: Strategy, own: Any, deals: int, seed: int, chains: int,
    log: list[_Deviation],
) -> None:  # fmt: skip
    """:func:`_deviate` where the posterior can be sampled."""
    values = {"deals": deals, "seed": seed, "chains": chains, "unicode": False, "seat": seat}
    if game.phase in (Phase.BETTING, Phase.PASS):
        table = action_values(game, strategy, hero=strategy, **values)
        labels = [" ".join(sorted(label.split())) for label in table["choice"]]
        own_label = (Action(int(own)).label if game.phase is Phase.BETTING
                     else format_cards(own))  # fmt: skip
        own_row = labels.index(" ".join(sorted(own_label.split())))
        row = _pick(table, own_row)
        chosen, own_label = table["choice"].iloc[row], table["choice"].iloc[own_row]
        advantage = 0.0
        if row != own_row:
            advantage = _revalued(game, seat, strategy, values, chosen, own_label)
        log.append(_Deviation(
            "bet" if game.phase is Phase.BETTING else "pass", row != own_row,
            float(table["value"].iloc[row] - table["value"].iloc[own_row]), advantage=advantage,
        ))  # fmt: skip
        if game.phase is Phase.BETTING:
            game.act(seat, chosen)
        else:
            game.commit_pass(seat, chosen)
        return
    # the discard (each five shown hiding its most telling card), then its order
    own_discard, own_order = own
    table = action_values(game, strategy, hero=strategy, decision="discard", **values)
    own_row = [set(label.split()) for label in table["choice"]].index(
        set(format_cards(own_discard).split())
    )
    row = _pick(table, own_row)
    dropped = table["choice"].iloc[row].split()
    keep = [c for c in game.hand(seat) if format_cards([c]) not in dropped]
    orders = action_values(game, strategy, hero=strategy, decision="order", keep=keep,
                           **{**values, "seed": values["seed"] + 1})  # fmt: skip
    own_order_label = format_cards(own_order)
    same_keep = row == own_row
    order_row = _pick(orders, orders["choice"].tolist().index(own_order_label)) if same_keep else 0
    best_order = orders["choice"].iloc[order_row]
    # the discard and its order are one move: its advantage is the pair's, on
    # fresh draws (the same for both fives: common random numbers), counted
    # under the discard when the five changed and under the order when only
    # the order did
    advantage = 0.0
    if not (same_keep and best_order == own_order_label):
        fresh = {**values, "seed": values["seed"] + _REVALUE + 1}
        mine = action_values(game, strategy, hero=strategy, decision="order", keep=keep, **fresh)
        theirs = mine if same_keep else action_values(
            game, strategy, hero=strategy, decision="order", keep=list(own_order), **fresh)
        advantage = _value_of(mine, best_order) - _value_of(theirs, own_order_label)
    log.append(_Deviation("discard", not same_keep, float(table["value"].iloc[row]
                                                          - table["value"].iloc[own_row]),
                          advantage=0.0 if same_keep else advantage))  # fmt: skip
    if same_keep:
        log.append(_Deviation("order", best_order != own_order_label,
                              float(orders["value"].iloc[order_row]
                                    - _value_of(orders, own_order_label)),
                              advantage=advantage))  # fmt: skip
    else:  # the strategy keeps another five: its order is not a choice of this five
        log.append(_Deviation("order", True, float("nan")))
    game.commit_discard(seat, dropped, best_order.split())


def _play_deviating(
    rules: Rules, strategy: Strategy, deck: list[int], dealer: int, seat: int, key: np.uint64,
    index: int, deals: int, seed: int, chains: int,
) -> tuple[int, list[_Deviation]]:  # fmt: skip
    """The deviator's net chips in deal ``index`` and what it did at each decision."""
    n = rules.players
    game = Game(rules, dealer=dealer, deck=deck, deal_index=index)
    states = [new_state(key, index, STREAM_SEAT + s) for s in range(n)]
    log: list[_Deviation] = []
    decision = 0
    while not game.is_over:
        if game.phase is Phase.BETTING:
            actor = game.to_act
            if actor == seat:
                _deviate(game, seat, strategy, states[seat], deals, seed + 2 * decision, chains,
                         log)  # fmt: skip
                decision += 1
            else:
                game.act(actor, _own_choice(strategy, game, actor, states[actor]))
            continue
        # a pass or discard: every seat decides from views that show no commit
        order = [(dealer + 1 + k) % n for k in range(n)]
        waiting = [s for s in order if not game.folded[s]]
        chosen = {s: _own_choice(strategy, game, s, states[s]) for s in waiting if s != seat}
        phase = game.phase
        if seat in waiting:
            _deviate(game, seat, strategy, states[seat], deals, seed + 2 * decision, chains, log)
            decision += 1
        for s in waiting:
            if s == seat:
                continue
            if phase is Phase.PASS:
                game.commit_pass(s, chosen[s])
            else:
                game.commit_discard(s, *chosen[s])
    assert game.result is not None
    return int(game.result.net[seat]), log


def full_deal_exploitability(
    strategy: Strategy, players: int, *, hands: int, deals: int, seed: SeedLike,
    by: str | None, chains: int = 8, progress: bool | None = None, first: int = 0,
) -> pd.DataFrame:  # fmt: skip
    """See :func:`~anaconda_sim.learning.exploitability` with ``decisions="all"``.

    ``first``: the index of the first situation measured (situations
    ``first .. first + hands - 1``; each is drawn from the seed and its index
    alone), so that a measurement is extended by the situations after it and
    the two summaries pooled (:func:`pool_summaries`) into the one a single
    run over all of them gives."""
    if first < 0:
        raise ValueError(f"first={first} must be 0 or more (the index of a situation)")
    with progress_bar(hands, "full-deal exploitability", unit="situation",
                      enabled=progress) as bar:  # fmt: skip
        return _full_deal(strategy, players, hands=hands, deals=deals, seed=seed, by=by,
                          chains=chains, bar=bar, first=first)  # fmt: skip


def _full_deal(
    strategy: Strategy, players: int, *, hands: int, deals: int, seed: SeedLike,
    by: str | None, chains: int, bar: Any, first: int = 0,
) -> pd.DataFrame:  # fmt: skip
    """The situations of :func:`full_deal_exploitability`, each counted on ``bar``."""
    rules = Rules(players=players)
    key = root_key(seed)
    base = int(np.random.SeedSequence([int(key), 0xF011]).generate_state(1)[0])
    rows = []
    for i in range(first, first + hands):
        seat = i % players
        dealer = (i // players) % players
        deck = deck_from_seed(key=key, deal_index=i)
        plain = play_deal(rules, [strategy] * players, deck=deck, dealer=dealer, key=key,
                          deal_index=i)  # fmt: skip
        assert plain.result is not None
        net, log = _play_deviating(rules, strategy, deck, dealer, seat, key, i, deals,
                                   (base + 1000 * i) % (1 << 62), chains)  # fmt: skip
        dealt = plain.history.events[0]["hands"][seat]
        row: dict[str, Any] = {
            "situation": i, "seat": seat, "dealt": format_cards(dealt),
            "class_id": int(class_ids(np.array([dealt], dtype=np.int64))[0]),
            "value": net - int(plain.result.net[seat]), "strategy_net": int(plain.result.net[seat]),
            "deviator_net": net, "advantage": float(sum(d.advantage for d in log)),
            "decisions": len(log),
            "deviations": sum(d.changed for d in log),
            "unsampled": sum(d.unsampled for d in log),
        }  # fmt: skip
        for name in DECISIONS:
            mine = [d for d in log if d.decision == name]
            row[f"changed_{name}"] = sum(d.changed for d in mine)
            row[f"estimate_{name}"] = float(np.nansum([d.estimate for d in mine]))
            row[f"advantage_{name}"] = float(sum(d.advantage for d in mine))
        rows.append(row)
        bar.update(1)
    per = pd.DataFrame(rows)
    classes = hand_classes()
    per["family"] = classes.set_index("class_id").loc[per["class_id"], "family"].to_numpy()
    per["class"] = classes.set_index("class_id").loc[per["class_id"], "name"].to_numpy()
    if by == "situation":
        table = per
    else:
        table = _summarise(per, by)
    table.attrs.update(table_model(
        "exploitability", "exploitability", players=players, rules="pagat", betting=True,
        seed=seed, strategy=strategy.spec(), hands=hands, deals=deals, decisions=["all"], by=by,
        first_situation=first,
        situations="uniform random deals, the deviating seat rotating round the table",
        definition=FULL_DEAL_DEFINITION, chains=chains,
    ))  # fmt: skip
    return table


def _summarise(per: pd.DataFrame, by: str | None) -> pd.DataFrame:
    """Two unbiased estimates of the deviating strategy's gain (decision
    ``"all"``): ``realised``, the paired difference of the two plays' net
    chips, and ``advantage``, the sum over the deviator's decisions of its
    choice's value minus the strategy's own, re-valued on fresh draws; then,
    per kind of decision, its share of the advantage."""
    groups = [(None, per)] if by is None else list(per.groupby(by, sort=False))
    out = []
    for label, part in groups:
        n = len(part)
        extra = {} if by is None else {by: label}
        for kind, column in (("realised", "value"), ("advantage", "advantage")):
            value = part[column].to_numpy(dtype=float)
            out.append({"decision": "all", **extra, **estimate(value.mean(), _se(value)),
                        "situations": n, "unit": "chips per deal", "kind": kind,
                        "changed": float(part["deviations"].mean()),
                        "unsampled": float(part["unsampled"].mean())})  # fmt: skip
        for name in DECISIONS:
            gain = part[f"advantage_{name}"].to_numpy(dtype=float)
            out.append({"decision": name, **extra, **estimate(gain.mean(), _se(gain)),
                        "situations": n, "unit": "chips per deal", "kind": "advantage",
                        "changed": float(part[f"changed_{name}"].mean())})  # fmt: skip
    table = pd.DataFrame(out)
    if by == "family":
        rank = {f: i for i, f in enumerate(FAMILIES)}
        table = table.sort_values("family", key=lambda s: s.map(rank), kind="stable")
    return table.reset_index(drop=True)


def pool_summaries(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    """The summary (rows of ``decision``, ``kind``; ``by=None``) of the
    situations of two summaries of disjoint situations of one strategy and
    table size, ``a`` and ``b`` (each with ``value``, ``se``, ``situations``
    and the means ``changed``, ``unsampled``): the same numbers, up to
    rounding, as one summary of all of them. A mean is the count-weighted
    mean; a standard error comes from the pooled sample variance, each
    part's variance (``se**2 * situations``) plus its mean's spread about
    the pooled mean. Other columns are ``a``'s (``seconds``, where both
    have it, is summed).

    Examples
    --------
    >>> import pandas as pd
    >>> x = pd.Series([1.0, 2.0, 4.0, 7.0])
    >>> def part(v):
    ...     return pd.DataFrame({"decision": ["all"], "kind": ["advantage"],
    ...                          "value": [v.mean()], "se": [v.std() / len(v) ** 0.5],
    ...                          "situations": [len(v)]})
    >>> pooled = pool_summaries(part(x[:2]), part(x[2:]))
    >>> bool(abs(pooled["value"].iloc[0] - x.mean()) < 1e-12)
    True
    >>> bool(abs(pooled["se"].iloc[0] - x.std() / 2) < 1e-12)
    True
    """
    keys = ["decision", "kind"]
    right = b.set_index(keys)
    out = a.copy()
    for i, row in a.iterrows():
        other = right.loc[tuple(row[k] for k in keys)]
        n1, n2 = int(row["situations"]), int(other["situations"])
        n = n1 + n2
        m1, m2 = float(row["value"]), float(other["value"])
        mean = (n1 * m1 + n2 * m2) / n
        var1, var2 = float(row["se"]) ** 2 * n1, float(other["se"]) ** 2 * n2
        squares = (n1 - 1) * var1 + (n2 - 1) * var2 + n1 * n2 / n * (m1 - m2) ** 2
        out.loc[i, "value"] = mean
        out.loc[i, "se"] = float(np.sqrt(squares / (n - 1) / n))
        out.loc[i, "situations"] = n
        for column in ("changed", "unsampled"):
            if column in a.columns and pd.notna(row[column]) and pd.notna(other[column]):
                out.loc[i, column] = (n1 * float(row[column]) + n2 * float(other[column])) / n
        if "seconds" in a.columns and "seconds" in b.columns:
            out.loc[i, "seconds"] = float(row["seconds"]) + float(other["seconds"])
    if "ci_low" in out.columns and "ci_high" in out.columns:
        interval = estimate(out["value"], out["se"])
        out["ci_low"], out["ci_high"] = interval["ci_low"], interval["ci_high"]
    return out


def _se(values: np.ndarray) -> float:
    return float(values.std(ddof=1) / np.sqrt(len(values))) if len(values) > 1 else float("nan")
