# Session 47 (rule47c.md): bench nps of the PGO build before and after the refresh through the
# update kernel, three runs each, alternating, with the pool paused (SIGSTOP) while they run.
P=$(pgrep -f "tune --generate" | head -1)
[ -n "$P" ] && kill -STOP $P
sleep 2
for i in 1 2 3; do
  for b in bastion-pgo-fused bastion-pgo-refresh; do
    echo "$b $(/work/data/s47/$b bench 2>&1 | grep -E '^(nodes|nps)' | tr -s ' ' | paste -sd' ')"
  done
done
[ -n "$P" ] && kill -CONT $P
