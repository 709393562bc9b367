#!/usr/bin/env python3
"""Fails when two top-level modules of a crate depend on each other, directly or in a circle.

A module's edges are the `crate::name` paths (and `super::name` from a top-level file) in its
files outside `#[cfg(test)] mod tests` and comments; submodules count as part of their parent.

Usage: scripts/check-module-cycles.py [CRATES_DIR]   (default: crates)
"""
import os
import re
import sys


def top_modules(src):
    mods = set()
    for entry in os.listdir(src):
        path = os.path.join(src, entry)
        if entry.endswith(".rs") and entry not in ("lib.rs", "main.rs"):
            mods.add(entry[:-3])
        elif os.path.isdir(path) and entry != "bin":
            mods.add(entry)
    return mods


def files_of(src, module):
    base = os.path.join(src, module)
    files = [base + ".rs"] if os.path.isfile(base + ".rs") else []
    if os.path.isdir(base):
        for folder, _, names in os.walk(base):
            files += [os.path.join(folder, n) for n in names if n.endswith(".rs")]
    return files


def edges_of(src, mods):
    edges = {m: set() for m in mods}
    for m in mods:
        for path in files_of(src, m):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            text = re.split(r"#\[cfg\(test\)\]\s*mod tests", text)[0]
            text = re.sub(r"//[^\n]*", "", text)
            names = set(re.findall(r"crate::(\w+)", text))
            for group in re.findall(r"crate::\{([^}]*)\}", text):
                names |= set(re.findall(r"(?:^|[,{\s])(\w+)", group))
            if os.path.dirname(path) == src:
                names |= set(re.findall(r"\bsuper::(\w+)", text))
            edges[m] |= {n for n in names if n in mods and n != m}
    return edges


def cycles(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "crates"
    sys.setrecursionlimit(10000)
    bad = 0
    for crate in sorted(os.listdir(root)):
        src = os.path.join(root, crate, "src")
        if not os.path.isdir(src):
            continue
        edges = edges_of(src, top_modules(src))
        for component in cycles(edges):
            bad += 1
            print(f"{crate}: modules depend on each other in a circle: {', '.join(component)}")
            for m in component:
                print(f"    {m} -> {', '.join(sorted(edges[m] & set(component)))}")
    print(f"module cycles: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
