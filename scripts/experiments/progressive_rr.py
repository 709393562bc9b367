#!/usr/bin/env python3
"""Round robin of Progressive-chess player configurations, as in Janko 2015 (Tables 4.1,
5.2, 5.3): every pair plays `bastion progressive selfplay`, and each player's share of won
games among its decided games is reported with a 95 % error bar (the measure of Figs. 4.9,
5.5 and 5.6).

Each pair's result is kept in OUT/rr-A-B.json; a rerun plays only the missing pairs.

Usage: progressive_rr.py --bastion B --out DIR --time 0.3 --games 60 \
           --player coverage=heuristic=coverage --player baseline=heuristic=baseline ... \
           [--svg PLOT.svg]
"""

import argparse
import itertools
import json
import math
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bastion", default="target/release/bastion")
    ap.add_argument("--out", required=True)
    ap.add_argument("--time", type=float, default=0.3, help="seconds a turn")
    ap.add_argument("--games", type=int, default=40, help="games a pair (colours alternate)")
    ap.add_argument("--seed", type=int, default=1, help="first seed; pair k uses seed + 1000 k")
    ap.add_argument("--player", action="append", required=True, help="NAME=CONFIG (selfplay's key=value,...)")
    ap.add_argument("--svg", help="also draw each player's share of decided games won as a bar chart")
    args = ap.parse_args()

    players = []
    for p in args.player:
        name, _, config = p.partition("=")
        players.append((name, config))
    os.makedirs(args.out, exist_ok=True)

    tally = {name: [0, 0, 0] for name, _ in players}  # wins, draws, losses
    rows = []
    for k, ((na, ca), (nb, cb)) in enumerate(itertools.combinations(players, 2)):
        path = os.path.join(args.out, f"rr-{na}-{nb}.json")
        if not (os.path.exists(path) and os.path.getsize(path) > 0):
            cmd = [args.bastion, "progressive", "selfplay", "--games", str(args.games), "--time", str(args.time),
                   "--variant-a", ca, "--variant-b", cb, "--seed", str(args.seed + 1000 * k), "--json"]
            print(f"playing {na} against {nb}: {' '.join(cmd)}", file=sys.stderr, flush=True)
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            with open(path + ".part", "w") as f:
                f.write(out)
            os.replace(path + ".part", path)
        with open(path) as f:
            s = json.load(f)["stats"]
        w, d, l = s["wins"], s["draws"], s["losses"]
        tally[na][0] += w; tally[na][1] += d; tally[na][2] += l
        tally[nb][0] += l; tally[nb][1] += d; tally[nb][2] += w
        rows.append((na, nb, w, d, l))

    print(f"Round robin, {args.games} games a pair, {args.time} s a turn\n")
    print("| A | B | A +/=/- |\n|---|---|---|")
    for na, nb, w, d, l in rows:
        print(f"| {na} | {nb} | {w}/{d}/{l} |")
    print("\n| player | games | +/=/- | won of decided games |\n|---|---|---|---|")
    labels, shares = [], []
    for name, _ in players:
        w, d, l = tally[name]
        dec = w + l
        p = w / dec if dec else 0.0
        err = 1.96 * math.sqrt(p * (1 - p) / dec) if dec else 0.0
        print(f"| {name} | {w + d + l} | {w}/{d}/{l} | {100 * p:.1f} % ± {100 * err:.1f} % |")
        labels.append(f"{name} (± {100 * err:.0f} %)")
        shares.append(round(100 * p, 1))
    if args.svg:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from summarize import svg_bars

        svg_bars(args.svg, f"Round robin, {args.games} games a pair, {args.time:g} s a turn: won of decided games",
                 labels, shares, reference=50, xlabel="% of decided games won", origin=0)


if __name__ == "__main__":
    main()
