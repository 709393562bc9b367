#!/usr/bin/env python3
"""Mean search depth per engine over game plies 16-60, from `{score/depth time}` comments."""
import gzip, re, sys, collections
sums = collections.defaultdict(lambda: [0, 0])
for path in sys.argv[1:]:
    text = (gzip.open if path.endswith('.gz') else open)(path, 'rt').read()
    for game in re.split(r'\n(?=\[Event )', text):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
        if 'FEN' not in tags:
            continue
        f = tags['FEN'].split()
        ply = (int(f[5]) - 1) * 2 + (f[1] == 'b')
        body = game[game.rfind(']') + 1:]
        for c in re.findall(r'\{([^}]*)\}', body):
            m = re.search(r'/(\d+)', c)
            eng = tags['White'] if ply % 2 == 0 else tags['Black']
            if m and 16 <= ply <= 60:
                sums[eng][0] += int(m.group(1)); sums[eng][1] += 1
            ply += 1
for e, (s, n) in sorted(sums.items()):
    print(f"{e}: mean depth {s / n:.2f} over {n} moves (game plies 16-60)")
