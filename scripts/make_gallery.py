"""Draw the README gallery: three charts as PNG files in ``docs/gallery/``.

Usage::

    .venv/bin/python scripts/make_gallery.py              # full size (15 s to a minute)
    .venv/bin/python scripts/make_gallery.py --quick --out /tmp/gallery   # small, for a smoke test

Charts (each seeded, so a rerun draws the same numbers):

* ``pass_values.png``: the 35 passes of the rules' worked example, Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣, at six
  players (``pass_values``, showdown model, against the default opponents: ``"learned"``), best
  12 with 95% intervals and paired differences;
* ``reveal_orders.png``: the 120 reveal orders of its full house Q♠ Q♥ Q♦ 9♣ 9♦ at five players
  against opponents who keep calling with a pair but fold to exposed cards that beat them
  (``reveal_values`` with betting): the hidden × first-card heatmap and the best orders;
* ``equity_by_players.png``: showdown equity at the deal by hand family and table size, from
  the shipped class sweep ``data/class_equity_summary.csv`` (or, without it, of three hands
  computed with ``equity`` in the same model: hero ``call-down``, ``random-pass`` opponents).

The PNGs are stored with a 256-colour palette to keep the repository small.
"""

from __future__ import annotations

import argparse
import sys
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKED = "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣"
FULL_HOUSE = "Q♠ Q♥ Q♦ 9♣ 9♦"
FAMILIES = ["high card", "pair", "two pair", "three pair", "trips", "full house", "quads"]
# one colour per family, weakest to strongest (Okabe-Ito; no yellow, which is faint on white)
FAMILY_COLORS = dict(zip(FAMILIES, ["#8C8C8C", "#56B4E9", "#0072B2", "#009E73", "#E69F00",
                                    "#D55E00", "#CC79A7"], strict=True))  # fmt: skip
SEED = 2026


def save_png(fig, path: Path, dpi: int = 110) -> Path:
    """Save ``fig`` as a palette PNG (much smaller than full colour, same look for charts)."""
    from PIL import Image

    raw = BytesIO()
    fig.savefig(raw, format="png", dpi=dpi, bbox_inches="tight", facecolor="white")
    image = Image.open(raw).convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, format="png", optimize=True)
    return path


def pass_chart(deals: int):
    import anaconda_sim as ac
    from anaconda_sim.output import plots
    table = ac.pass_values(WORKED, 6, deals=deals, seed=SEED, progress=False)
    return plots.plot_pass_values(table, top=12)


def reveal_chart(deals: int):
    import anaconda_sim as ac
    from anaconda_sim.output import plots
    from anaconda_sim.strategies import get_strategy

    table = ac.reveal_values(
        FULL_HOUSE, 5, deals=deals, seed=SEED, progress=False,
        hero=get_strategy("sensible", aggressive_at=2, continue_late=1),
        opponents=get_strategy("sensible", continue_late=1),
    )  # fmt: skip
    table.attrs["title"] = "Which order to reveal (opponents call with a pair, respect exposure)"
    return plots.plot_reveal_values(table, top=12)


def _weighted(summary):
    import numpy as np
    import pandas as pd

    rows = []
    for (family, players), group in summary.groupby(["family", "players"]):
        w = group["class_probability"] / group["class_probability"].sum()
        rows.append({"label": family, "players": players, "equity": (w * group["equity"]).sum(),
                     "se": np.sqrt((w**2 * group["se"] ** 2).sum())})  # fmt: skip
    return pd.DataFrame(rows)


def equity_chart(deals: int):
    import pandas as pd
    from matplotlib.figure import Figure

    import anaconda_sim as ac
    from anaconda_sim.output import plots
    summary_file = ROOT / "data" / "class_equity_summary.csv"
    if summary_file.exists():
        frame = _weighted(pd.read_csv(summary_file))
        frame.attrs = {"title": "Showdown equity at the deal by starting-hand family "
                                "(shipped sweep of 1,813 classes)",
                       "hero": "call-down", "opponents": ["random-pass"]}  # fmt: skip
        order = FAMILIES
    else:
        hands = [WORKED, "A♥ J♥ 8♥ 5♥ K♣ 9♠ 2♦", "K♠ K♥ 7♣ 7♦ J♠ 4♥ 2♣"]
        frame = pd.concat([
            ac.equity(hand, n, hero="call-down", opponents="random-pass", deals=deals,
                      seed=SEED, progress=False).assign(label=hand)
            for hand in hands
            for n in range(2, 8)
        ], ignore_index=True)  # fmt: skip
        frame.attrs = {"title": "Showdown equity at the deal", "deals": deals,
                       "hero": "call-down", "opponents": ["random-pass"]}
        order = hands
    fig = Figure(figsize=(9.0, 5.2), layout="constrained")
    ax = fig.add_subplot()
    plots.plot_equity(frame, ax=ax)
    for container in ax.containers:  # recolour the lines by family
        color = FAMILY_COLORS.get(container.get_label())
        if color:
            line, caps, bars = container.lines
            for artist in (line, *caps):
                artist.set(color=color, markeredgecolor=color, markerfacecolor=color)
            for artist in bars:
                artist.set_color(color)
    handles, labels = ax.get_legend_handles_labels()
    rank = {label: i for i, label in enumerate(order)}
    keep = sorted(range(len(labels)), key=lambda i: rank.get(labels[i], -1))
    ax.legend([handles[i] for i in keep], [labels[i] for i in keep], fontsize=9,
              loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)  # fmt: skip
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "gallery",
                        help="folder of the PNG files (default: docs/gallery)")  # fmt: skip
    parser.add_argument("--quick", action="store_true", help="small sample sizes (smoke test)")
    args = parser.parse_args(argv)
    sizes = {"pass": 2_000, "reveal": 300, "equity": 2_000} if args.quick else {
        "pass": 200_000, "reveal": 20_000, "equity": 50_000}  # fmt: skip
    charts = [
        ("pass_values.png", lambda: pass_chart(sizes["pass"])),
        ("reveal_orders.png", lambda: reveal_chart(sizes["reveal"])),
        ("equity_by_players.png", lambda: equity_chart(sizes["equity"])),
    ]
    for name, make in charts:
        start = time.perf_counter()
        path = save_png(make(), args.out / name)
        seconds, size = time.perf_counter() - start, path.stat().st_size / 1024
        print(f"{path}: {seconds:5.1f} s, {size:4.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
