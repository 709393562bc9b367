#!/usr/bin/env python3
"""Session 35: SPSA over the search's hidden margin options (options.rs `Margins`), in self-play.

Each iteration draws a random sign per parameter, plays PAIRS game pairs (random openings, both
colours) between theta+c*delta and theta-c*delta with `bastion match --nodes NODES --json`, and moves
theta by r*c*(W-L)*delta, where W-L is the plus side's wins minus losses. One JSON line per iteration
goes to LOG; a restart resumes from its last line, so the run can be stopped and continued.

Usage: python3 spsa35.py BINARY OPENINGS.epd LOG [MINUTES]
Settings (environment): NODES (30000), PAIRS (4), R (0.015), SEED (3501).
The result is the mean of theta over the second half of the iterations (printed at the end).
"""
import json
import os
import random
import subprocess
import sys
import time

# name: (start, c, min, max) -- start and the range mirror `Margins` in options.rs (hidden options cannot
# be listed over UCI, and the engine refuses values outside its ranges); c about a tenth of a sensible range.
PARAMS = {
    "RazorBase": (200, 40, 0, 1000),
    "RazorMul": (250, 40, 0, 1000),
    "RfpMul": (90, 12, 10, 500),
    "NmpMargin": (150, 30, -500, 1000),
    "NmpEvalDiv": (200, 30, 20, 2000),
    "FutilityBase": (110, 20, 0, 1000),
    "FutilityMul": (100, 15, 10, 1000),
    "HistPrune": (4000, 600, 100, 50000),
    "SeeQuiet": (20, 4, 0, 500),
    "SeeCapture": (90, 15, 0, 1000),
    "SingularDouble": (25, 6, 0, 500),
    "LmrHistDiv": (6000, 900, 500, 50000),
}


def clamp(name, x):
    _, _, lo, hi = PARAMS[name]
    return min(hi, max(lo, x))


def play(binary, openings, plus, minus, nodes, pairs, rng, workdir):
    book = os.path.join(workdir, "spsa-open.epd")
    with open(book, "w") as f:
        f.writelines(rng.sample(openings, pairs))
    def engine(name, theta):
        return ["--engine", f"name={name}", f"cmd={binary}", *(f"option.{k}={round(v)}" for k, v in theta.items())]
    cmd = [binary, "match", *engine("plus", plus), *engine("minus", minus), "--nodes", str(nodes),
           "--games", str(2 * pairs), "--concurrency", "2", "--openings", book, "--repeat",
           "--resign-score", "800", "--resign-moves", "4", "--draw-score", "8", "--draw-moves", "10",
           "--max-moves", "200", "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    report = json.loads(out[: out.rindex("}") + 1])
    if report["faults"]:
        raise SystemExit(f"faults in a batch: {report['faults']}")
    return report["wins"], report["draws"], report["losses"]


def main():
    binary, openings_file, log = sys.argv[1], sys.argv[2], sys.argv[3]
    minutes = float(sys.argv[4]) if len(sys.argv) > 4 else 60.0
    nodes = int(os.environ.get("NODES", 30000))
    pairs = int(os.environ.get("PAIRS", 4))
    r = float(os.environ.get("R", 0.015))
    seed = int(os.environ.get("SEED", 3501))
    openings = open(openings_file).readlines()
    theta = {k: float(v[0]) for k, v in PARAMS.items()}
    k = 0
    history = []
    if os.path.exists(log):
        for line in open(log):
            rec = json.loads(line)
            history.append(rec["theta"])
            theta, k = rec["theta"], rec["k"]
    rng = random.Random(seed * 100003 + k)
    workdir = os.path.dirname(os.path.abspath(log))
    end = time.time() + 60 * minutes
    while time.time() < end:
        k += 1
        delta = {n: rng.choice((-1, 1)) for n in PARAMS}
        plus = {n: clamp(n, theta[n] + PARAMS[n][1] * delta[n]) for n in PARAMS}
        minus = {n: clamp(n, theta[n] - PARAMS[n][1] * delta[n]) for n in PARAMS}
        w, d, l = play(binary, openings, plus, minus, nodes, pairs, rng, workdir)
        theta = {n: clamp(n, theta[n] + r * PARAMS[n][1] * (w - l) * delta[n]) for n in PARAMS}
        history.append(theta)
        with open(log, "a") as f:
            f.write(json.dumps({"k": k, "w": w, "d": d, "l": l, "delta": delta, "theta": theta}) + "\n")
    half = history[len(history) // 2:]
    mean = {n: sum(t[n] for t in half) / len(half) for n in PARAMS}
    print(f"{k} iterations; mean of the last {len(half)}:")
    for n in PARAMS:
        print(f"  {n:15} {PARAMS[n][0]:>6} -> {mean[n]:8.1f}  (c {PARAMS[n][1]})")
    print("options: " + " ".join(f"option.{n}={round(v)}" for n, v in mean.items()))


if __name__ == "__main__":
    main()
