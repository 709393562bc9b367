#!/usr/bin/env python3
"""Turn the raw outputs of run_all.sh into the Markdown tables of docs/experiments.md and
draw the SVG plots (no dependencies beyond the standard library).

  scripts/experiments/summarize.py ablation OUT/ablation-250k [--svg ablation.svg]
  scripts/experiments/summarize.py pair OUT/etc-wac-d5-d9.jsonl base etc
  scripts/experiments/summarize.py krk OUT/krk-d10.jsonl
  scripts/experiments/summarize.py fortress OUT/fortress-*.json
  scripts/experiments/summarize.py suites OUT
  scripts/experiments/summarize.py progressive OUT [--svg prog.svg]
"""
import argparse
import glob
import json
import os
import statistics
from collections import defaultdict


# --- SVG ------------------------------------------------------------------------------------

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]


def esc(text):
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg_bars(path, title, labels, values, reference=None, xlabel="", origin=None):
    """Horizontal bar chart: one bar per label; a dashed line at `reference`; the axis starts
    at `origin` if given, else a little below the smallest value."""
    row, left, width = 18, 330, 360
    height = 50 + row * len(labels) + 30
    lo = min(values + ([reference] if reference is not None else []))
    hi = max(values + ([reference] if reference is not None else []))
    lo = max(0, lo - (hi - lo) * 0.15 - 1) if origin is None else origin
    scale = width / (hi - lo or 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 60}" height="{height}" '
           'font-family="sans-serif" font-size="12">',
           f'<rect width="100%" height="100%" fill="white"/>',
           f'<text x="10" y="20" font-size="14">{esc(title)}</text>']
    for i, (label, value) in enumerate(zip(labels, values)):
        y = 40 + i * row
        out.append(f'<text x="{left - 6}" y="{y + 12}" text-anchor="end">{esc(label)}</text>')
        w = (value - lo) * scale
        out.append(f'<rect x="{left}" y="{y + 2}" width="{w:.1f}" height="{row - 4}" fill="{PALETTE[0]}"/>')
        out.append(f'<text x="{left + w + 4:.1f}" y="{y + 12}">{value:g}</text>')
    if reference is not None:
        x = left + (reference - lo) * scale
        out.append(f'<line x1="{x:.1f}" y1="36" x2="{x:.1f}" y2="{40 + row * len(labels)}" '
                   'stroke="black" stroke-dasharray="4,3"/>')
    out.append(f'<text x="{left}" y="{height - 8}">{esc(xlabel)} (axis starts at {lo:g})</text>')
    out.append("</svg>")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(out))


def svg_lines(path, title, xs, series, xlabel, ylabel, log_y=False):
    """Line chart: series is [(name, [y per x])]."""
    import math
    W, H, L, B, T = 640, 400, 70, 50, 40
    pw, ph = W - L - 150, H - T - B
    ys = [y for _, vals in series for y in vals if y is not None]
    f = (lambda v: math.log10(max(v, 1e-3))) if log_y else (lambda v: v)
    lo, hi = min(map(f, ys)), max(map(f, ys))
    if hi == lo:
        hi = lo + 1
    xmin, xmax = min(xs), max(xs)
    X = lambda x: L + (x - xmin) / ((xmax - xmin) or 1) * pw
    Y = lambda y: T + ph - (f(y) - lo) / (hi - lo) * ph
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{L}" y="20" font-size="14">{esc(title)}</text>',
           f'<line x1="{L}" y1="{T + ph}" x2="{L + pw}" y2="{T + ph}" stroke="black"/>',
           f'<line x1="{L}" y1="{T}" x2="{L}" y2="{T + ph}" stroke="black"/>',
           f'<text x="{L + pw / 2}" y="{H - 10}" text-anchor="middle">{esc(xlabel)}</text>',
           f'<text x="14" y="{T + ph / 2}" transform="rotate(-90 14 {T + ph / 2})" text-anchor="middle">{esc(ylabel)}</text>']
    for x in xs:
        out.append(f'<text x="{X(x):.1f}" y="{T + ph + 16}" text-anchor="middle">{x}</text>')
    for k in range(5):
        v = lo + (hi - lo) * k / 4
        shown = 10 ** v if log_y else v
        out.append(f'<text x="{L - 6}" y="{T + ph - ph * k / 4 + 4:.1f}" text-anchor="end">{shown:.3g}</text>')
    for i, (name, vals) in enumerate(series):
        color = PALETTE[i % len(PALETTE)]
        pts = " ".join(f"{X(x):.1f},{Y(y):.1f}" for x, y in zip(xs, vals) if y is not None)
        out.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="2"/>')
        out.append(f'<text x="{L + pw + 10}" y="{T + 14 + 16 * i}" fill="{color}">{esc(name)}</text>')
    out.append("</svg>")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(out))


# --- tables ---------------------------------------------------------------------------------

def load_epd_run(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def non_mate_depths(run):
    return [r["depth"] for r in run["results"]
            if r.get("depth") is not None and not str(r.get("score", "")).startswith("#")]


# Row labels of the ablation, in the order of the table (the file names are the options set).
ABLATION_ROWS = {
    "default": "all defaults",
    "Aspiration=false": "no aspiration windows",
    "NullMove=false": "no null move",
    "LateMoveReductions=false": "no late-move reductions",
    "LateMovePruning=false": "no late-move pruning",
    "Futility=false": "no futility pruning",
    "ReverseFutility=false": "no reverse futility",
    "Razoring=false": "no razoring",
    "SEEPruning=false": "no SEE pruning",
    "CheckExtension=false": "no check extension",
    "SingularExtension=false": "no singular extension",
    "CheckExtension=false+SingularExtension=false": "no extensions (check, singular)",
    "InternalIterativeReduction=false": "no internal iterative reduction",
    "Killers=false": "no killer moves",
    "History=false": "no history heuristic",
    "Killers=false+History=false": "no killers, no history",
    "CounterMoves=false": "no counter moves",
    "QSearchChecks=false": "no quiet checks in quiescence",
    "EnhancedTTCutoff=true": "+ enhanced transposition cutoff",
    "AdaptiveDepthControl=true": "+ Adaptive Depth Control (beside LMR)",
    "AdaptiveDepthControl=true+LateMoveReductions=false": "ADC instead of LMR",
    "plain": "plain PVS + TT + quiescence (every switch above off)",
    "plain+NullMove": "plain + null move",
    "NullMoveReduction=2": "null move at a fixed R = 2",
    "NullMoveReduction=3": "null move at a fixed R = 3",
    "NullMoveReduction=4": "null move at a fixed R = 4",
    "TranspositionTable=false+InternalIterativeReduction=false": "no transposition table (and no IIR)",
    # The thesis's columns on the plain search.
    "plain+TT=false": "plain, no table (the thesis's αβ)",
    "plain+R2+TT=false": "plain + R = 2, no table",
    "plain+R2": "plain + R = 2",
    "plain+R3+TT=false": "plain + R = 3, no table",
    "plain+R3": "plain + R = 3",
    "plain+R4+TT=false": "plain + R = 4, no table",
    "plain+R4": "plain + R = 4",
}


def ablation(args):
    found = {os.path.basename(p)[:-5]: load_epd_run(p)
             for p in sorted(glob.glob(os.path.join(args.dir, "*.json")))}
    order = [n for n in ABLATION_ROWS if n in found] + sorted(n for n in found if n not in ABLATION_ROWS)
    runs = {n: found[n] for n in order}
    base = runs.pop("default")
    solved = lambda run: {r["id"] for r in run["results"] if r["solved"]}
    base_set = solved(base)
    print("| configuration | options | WAC solved | Δ | gained / lost | mean depth (non-mate) | median depth (non-mate) |")
    print("|---|---|---|---|---|---|---|")
    labels, values = [], []
    for name, run in [("default", base)] + list(runs.items()):
        s = solved(run)
        d = non_mate_depths(run)
        opts = "—" if name == "default" else ("see `ablation.sh`" if name.startswith("plain")
                                              else "`" + name.replace("+", "`, `") + "`")
        name = ABLATION_ROWS.get(name, name)
        print(f"| {name} | {opts} | {len(s)} | {len(s) - len(base_set):+d} | {len(s - base_set)} / "
              f"{len(base_set - s)} | {statistics.mean(d):.1f} | {statistics.median(d):g} |")
        labels.append(name)
        values.append(len(s))
    if args.svg:
        svg_bars(args.svg, f"WAC solved at {base['nodes']:,} nodes a position, one switch changed",
                 labels, values, reference=len(base_set), xlabel="positions solved of 300")


def pair(args):
    rows = defaultdict(dict)
    with open(args.file, encoding="utf-8") as handle:
        for line in handle:
            r = json.loads(line)
            rows[(r["depth"], r["id"])][r["config"]] = r
    by_depth = defaultdict(list)
    for (depth, ident), configs in rows.items():
        if args.a in configs and args.b in configs:
            by_depth[depth].append((configs[args.a], configs[args.b]))
    print(f"| depth | positions | nodes {args.a} | nodes {args.b} | Δ nodes | positions with fewer / more nodes | best move differs | score differs |")
    print("|---|---|---|---|---|---|---|---|")
    changed = []
    for depth in sorted(by_depth):
        pairs = by_depth[depth]
        na = sum(a["nodes"] for a, _ in pairs)
        nb = sum(b["nodes"] for _, b in pairs)
        fewer = sum(b["nodes"] < a["nodes"] for a, b in pairs)
        more = sum(b["nodes"] > a["nodes"] for a, b in pairs)
        moves = [(a, b) for a, b in pairs if a["move"] != b["move"]]
        scores = sum(a["score"] != b["score"] for a, b in pairs)
        changed += moves
        print(f"| {depth} | {len(pairs)} | {na:,} | {nb:,} | {100 * (nb - na) / na:+.1f} % | "
              f"{fewer} / {more} | {len(moves)} | {scores} |")
    if args.list and changed:
        print()
        for a, b in changed:
            print(f"- depth {a['depth']} {a['id']} ({a['bm']}) `{a['fen']}`: {args.a} {a['move']} "
                  f"{a['score']} ({a['nodes']:,} nodes), {args.b} {b['move']} {b['score']} ({b['nodes']:,} nodes)")


def krk(args):
    for path in args.files:
        with open(path, encoding="utf-8") as handle:
            lines = [json.loads(l) for l in handle]
        summary = lines[-1]
        games = lines[:-1]
        outcomes = defaultdict(int)
        for g in games:
            outcomes[g["outcome"]] += 1
        optimal = [g["optimal"] for g in games if g.get("optimal") is not None]
        print(f"{path}: {json.dumps(summary)}")
        print(f"  outcomes: {dict(outcomes)}; mean optimal moves to mate {statistics.mean(optimal):.2f}"
              if optimal else f"  outcomes: {dict(outcomes)}")


def suites(args):
    rows = defaultdict(dict)
    for path in sorted(glob.glob(os.path.join(args.dir, "suite-*.json"))):
        name = os.path.basename(path)[len("suite-"):-5]
        suite, engine, budget = name.rsplit("-", 2)
        try:
            run = load_epd_run(path)
        except ValueError:  # a run still in progress
            continue
        rows[(suite, budget)][engine] = f"{run['solved']}/{run['positions']}"
    print("| suite | nodes a position | Bastion | Stockfish 15.1 | Ethereal 12 |")
    print("|---|---|---|---|---|")
    for (suite, budget), engines in sorted(rows.items()):
        print(f"| {suite} | {budget} | {engines.get('bastion', '—')} | {engines.get('stockfish', '—')} | "
              f"{engines.get('ethereal', '—')} |")


def progressive(args):
    runs = {}
    for path in sorted(glob.glob(os.path.join(args.dir, "prog-*.json"))):
        try:
            runs[os.path.basename(path)[5:-5]] = load_epd_run(path)
        except ValueError:  # a run still in progress
            continue
    lengths = sorted({int(k) for run in runs.values() for k in run["by_series_length"]})
    print("| variant | " + " | ".join(str(n) for n in lengths) + " | found | under 1 s |")
    print("|---|" + "---|" * (len(lengths) + 2))
    for name, run in runs.items():
        per = run["by_series_length"]
        found = sum(v["found"] for v in per.values())
        under = sum(v["under_1s"] for v in per.values())
        total = sum(v["positions"] for v in per.values())
        cells = " | ".join(f"{per[str(n)]['mean_ms']:.0f}" for n in lengths)
        print(f"| {name} | {cells} | {found}/{total} | {under} |")
    if args.svg:
        for variant in ("astar", "best-first"):
            series = [(name.split("-", 1)[1] if variant == "astar" else name[len("best-first-"):],
                       [runs[name]["by_series_length"][str(n)]["mean_ms"] for n in lengths])
                      for name in runs if name.startswith(variant + "-")]
            if not series:
                continue
            svg_lines(f"{args.svg}-{variant}.svg",
                      f"Mate finder, {variant}: mean time by series length (failures count as the limit)",
                      lengths, series, "series length", "mean time (ms, log scale)", log_y=True)


def fortress(args):
    def text(ev):
        if ev is None:
            return ""
        return f"#{ev['mate']}" if "mate" in ev else f"{ev['cp'] / 100:+.2f}"
    for path in args.files:
        with open(path, encoding="utf-8") as handle:
            run = json.load(handle)
        best = run["curves"][0] if run["curves"] else None
        by_depth = {e["depth"]: e["eval"] for e in run["principal"]}
        depths = sorted(by_depth)
        print(f"{os.path.basename(path)}: {run['engine']}, verdict {run['verdict']} "
              f"({run['evidence'].get('basis')}; curves alone: {run['curve_verdict']}), "
              f"best move {best['san'] if best else '-'}, {run['elapsed_ms'] / 1000:.1f} s")
        print("| depth | " + " | ".join(str(d) for d in depths) + " |")
        print("|---|" + "---|" * len(depths))
        print("| best line | " + " | ".join(text(by_depth[d]) for d in depths) + " |")
        times = {t["depth"]: t["ms"] for t in run["times"]}
        print("| ms to depth | " + " | ".join(str(times.get(d, "")) for d in depths) + " |")
        print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("ablation"); p.add_argument("dir"); p.add_argument("--svg")
    p.set_defaults(func=ablation)
    p = sub.add_parser("pair"); p.add_argument("file"); p.add_argument("a"); p.add_argument("b")
    p.add_argument("--list", action="store_true", help="list the positions whose best move differs")
    p.set_defaults(func=pair)
    p = sub.add_parser("krk"); p.add_argument("files", nargs="+"); p.set_defaults(func=krk)
    p = sub.add_parser("fortress"); p.add_argument("files", nargs="+"); p.set_defaults(func=fortress)
    p = sub.add_parser("suites"); p.add_argument("dir"); p.set_defaults(func=suites)
    p = sub.add_parser("progressive"); p.add_argument("dir"); p.add_argument("--svg", help="file prefix")
    p.set_defaults(func=progressive)
    args = ap.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
