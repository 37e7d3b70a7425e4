"""Regenerate the shipped learned parameters:
``python -m anaconda_sim.learning anaconda_sim/strategies/learned/data/learned.json``.

Runs :func:`anaconda_sim.learning.learn` at each table size (checkpoints
under ``--work``, so an interrupted run resumes) and writes one JSON file:
per table size the parameters, the win table and the learning history,
with the command and settings that made them.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from .fit import learn


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m anaconda_sim.learning",
                                     description=__doc__.splitlines()[0])  # fmt: skip
    parser.add_argument("out", type=Path, help="the JSON file to write")
    parser.add_argument("--players", default="2,3,4,5,6,7", help="table sizes (comma list)")
    parser.add_argument("--iterations", type=int, default=6)
    parser.add_argument("--situations", type=int, default=200)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--bet-deals", type=int, default=20_000)
    parser.add_argument("--table-deals", type=int, default=50_000)
    parser.add_argument("--eval-hands", type=int, default=200)
    parser.add_argument("--eval-deals", type=int, default=1000)
    parser.add_argument("--order-situations", type=int, default=60)
    parser.add_argument("--order-deals", type=int, default=400)
    parser.add_argument("--pass-bet-situations", type=int, default=60)
    parser.add_argument("--pass-bet-deals", type=int, default=400)
    parser.add_argument("--strangers", default="sensible",
                        help="strategies that sit in one seat of the betting search's field "
                        "(comma list; 'none' for self-play only)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--work", type=Path, default=Path("results/learned"),
                        help="folder of the per-table-size checkpoints (resume)")  # fmt: skip
    args = parser.parse_args(argv)
    try:
        sizes = [int(p) for p in args.players.split(",")]
    except ValueError:
        parser.error(f"--players {args.players!r} must be a comma list of table sizes")
    strangers = [] if args.strangers == "none" else args.strangers.split(",")
    command = "python -m anaconda_sim.learning " + " ".join(
        shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:])
    )
    tables = {}
    for players in sizes:
        result = learn(players, iterations=args.iterations, situations=args.situations,
                       deals=args.deals, bet_deals=args.bet_deals,
                       table_deals=args.table_deals, eval_hands=args.eval_hands,
                       order_situations=args.order_situations, order_deals=args.order_deals,
                       pass_bet_situations=args.pass_bet_situations,
                       pass_bet_deals=args.pass_bet_deals, strangers=strangers,
                       eval_deals=args.eval_deals, seed=args.seed,
                       checkpoint=args.work / f"players-{players}.json")  # fmt: skip
        tables[str(players)] = {
            "params": result.params,
            "win_table": [float(x) for x in result.win_table],
            "iterations": len(result.history),
            "history": result.history.to_dict("records"),
        }
    data = {
        "description": "Parameters of the 'learned' strategy family by table size, learned by "
        "iterated best response (anaconda_sim.learning.learn)",
        "command": command,
        "settings": {k: v for k, v in vars(args).items() if k not in ("out", "work")},
        "players": tables,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"learned parameters written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
