"""The full-deal best response: one seat re-optimises every decision of a deal.

:func:`full_deal_exploitability` (``exploitability(..., decisions="all")``)
plays each situation twice on the same deck and the same random streams:
once with every seat playing the strategy, once with one seat (the
deviator) choosing, at each of its decisions (every betting action, the
pass, the discard and then the reveal order), the choice with the highest
value in :func:`~anaconda_sim.spots.action_values` given everything it has
seen so far, the others playing the strategy. The gain of the situation is
the deviator's net chips in the second play minus the first.

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

__all__ = ["FULL_DEAL_DEFINITION", "full_deal_exploitability"]

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


def _best_response(
    game: Game, seat: int, strategy: Strategy, own: Any, deals: int, seed: int, chains: int,
    log: list[_Deviation],
) -> None:  # fmt: skip
    """:func:`_deviate` where the posterior can be sampled."""
    values = {"deals": deals, "seed": seed, "chains": chains, "unicode": False, "seat": seat}
    if game.phase is Phase.BETTING:
        table = action_values(game, strategy, hero=strategy, **values)
        best = table["choice"].iloc[0]
        own_label = Action(int(own)).label
        log.append(_Deviation("bet", best != own_label, _value_of(table, best)
                              - _value_of(table, own_label)))  # fmt: skip
        game.act(seat, best)
        return
    if game.phase is Phase.PASS:
        table = action_values(game, strategy, hero=strategy, **values)
        best = table["choice"].iloc[0]
        own_label = format_cards(own)
        ordered = [" ".join(sorted(label.split())) for label in table["choice"]]
        own_row = ordered.index(" ".join(sorted(own_label.split())))
        log.append(_Deviation("pass", own_row != 0, float(table["value"].iloc[0]
                                                          - table["value"].iloc[own_row])))
        game.commit_pass(seat, best)
        return
    # the discard (each five shown hiding its most telling card), then its order
    own_discard, own_order = own
    table = action_values(game, strategy, hero=strategy, decision="discard", **values)
    best = table["choice"].iloc[0]
    own_row = [set(label.split()) for label in table["choice"]].index(
        set(format_cards(own_discard).split())
    )
    log.append(_Deviation("discard", own_row != 0, float(table["value"].iloc[0]
                                                         - table["value"].iloc[own_row])))
    dropped = best.split()
    keep = [c for c in game.hand(seat) if format_cards([c]) not in dropped]
    orders = action_values(game, strategy, hero=strategy, decision="order", keep=keep,
                           **{**values, "seed": seed + 1})  # fmt: skip
    best_order = orders["choice"].iloc[0]
    if set(format_cards(own_order).split()) == set(format_cards(keep).split()):
        own_value = _value_of(orders, format_cards(own_order))
        log.append(_Deviation("order", best_order != format_cards(own_order),
                              float(orders["value"].iloc[0]) - own_value))  # fmt: skip
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
    by: str | None, chains: int = 8, progress: bool | None = None,
) -> pd.DataFrame:  # fmt: skip
    """See :func:`~anaconda_sim.learning.exploitability` with ``decisions="all"``."""
    with progress_bar(hands, "full-deal exploitability", unit="situation",
                      enabled=progress) as bar:  # fmt: skip
        return _full_deal(strategy, players, hands=hands, deals=deals, seed=seed, by=by,
                          chains=chains, bar=bar)  # fmt: skip


def _full_deal(
    strategy: Strategy, players: int, *, hands: int, deals: int, seed: SeedLike,
    by: str | None, chains: int, bar: Any,
) -> pd.DataFrame:  # fmt: skip
    """The situations of :func:`full_deal_exploitability`, each counted on ``bar``."""
    rules = Rules(players=players)
    key = root_key(seed)
    base = int(np.random.SeedSequence([int(key), 0xF011]).generate_state(1)[0])
    rows = []
    for i in range(hands):
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
            "deviator_net": net, "decisions": len(log),
            "deviations": sum(d.changed for d in log),
            "unsampled": sum(d.unsampled for d in log),
        }  # fmt: skip
        for name in DECISIONS:
            mine = [d for d in log if d.decision == name]
            row[f"changed_{name}"] = sum(d.changed for d in mine)
            row[f"estimate_{name}"] = float(np.nansum([d.estimate for d in mine]))
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
        situations="uniform random deals, the deviating seat rotating round the table",
        definition=FULL_DEAL_DEFINITION, chains=chains,
    ))  # fmt: skip
    return table


def _summarise(per: pd.DataFrame, by: str | None) -> pd.DataFrame:
    """The realised gain (decision ``"all"``) and, per decision, the gain its
    action-value tables estimate (``estimate``: the chosen choice's value
    minus the strategy's own, summed over the deal's decisions of that kind;
    screened on the same draws that chose it, so biased upwards)."""
    groups = [(None, per)] if by is None else list(per.groupby(by, sort=False))
    out = []
    for label, part in groups:
        n = len(part)
        extra = {} if by is None else {by: label}
        value = part["value"].to_numpy(dtype=float)
        out.append({"decision": "all", **extra, **estimate(value.mean(), _se(value)),
                    "situations": n, "unit": "chips per deal", "kind": "realised",
                    "changed": float(part["deviations"].mean()),
                    "unsampled": float(part["unsampled"].mean())})  # fmt: skip
        for name in DECISIONS:
            est = part[f"estimate_{name}"].to_numpy(dtype=float)
            out.append({"decision": name, **extra, **estimate(est.mean(), _se(est)),
                        "situations": n, "unit": "chips per deal", "kind": "estimate",
                        "changed": float(part[f"changed_{name}"].mean())})  # fmt: skip
    table = pd.DataFrame(out)
    if by == "family":
        rank = {f: i for i, f in enumerate(FAMILIES)}
        table = table.sort_values("family", key=lambda s: s.map(rank), kind="stable")
    return table.reset_index(drop=True)


def _se(values: np.ndarray) -> float:
    return float(values.std(ddof=1) / np.sqrt(len(values))) if len(values) > 1 else float("nan")
