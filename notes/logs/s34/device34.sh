# Device run, session 34: relabel moved-on positions at depth 10 on 16 threads.
set -x
nproc; grep -m1 "model name" /proc/cpuinfo
B=.dev/bastion; chmod +x $B
timeout 60 $B bench 2>&1 | tail -3
zcat .dev/src.csv.gz > /tmp/src.csv; wc -l /tmp/src.csv
date
timeout -s INT ${LIMIT:-480} $B nnue label --data /tmp/src.csv --out /tmp/d10.csv --depth 10 --threads $(nproc) > $OUT/label.log 2>&1
echo rc=$?; date; cat $OUT/label.log
wc -l /tmp/d10.csv
cd /tmp && split -l 250000 -d d10.csv part && for p in part*; do gzip -c $p > $OUT/d10-$p.csv.gz; done; ls -la $OUT
