# Session 46 (rule46.md, measure 2): bench of the exp-512 PGO build (n2 padded to 512 units)
# against the shipped 256 PGO build, alternating, 3 runs each, nothing else running.
A=/work/data/s44/bastion-pgo
B=/work/data/s46/bastion-512-pgo
for i in 1 2 3; do
  for b in $A $B; do
    echo "$b $($b bench 2>&1 | grep -Ei 'nodes|nps' | tr '\n' ' ')"
  done
done
