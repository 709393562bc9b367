#!/bin/bash
# waits for the KRPKR job, then generates the 4-man set and the commonest 5-man endings of the SF games
cd /work/data/tb
while pgrep -f "tb gen KRPKR" >/dev/null; do sleep 5; done
B=/work/data/s44/bastion-pgo
$B tb gen --all 4 --dir /work/data/tb --threads 2 > gen-all4.log 2>&1
for e in KRPKP KPPKP KRKPP KBPKP KQPKQ KBPKB KNPKP KQPKP KNPKB KQBKP KQPPK KRBPK KQRBK KRKNP KQKRP KQQPK KBNKR KQBPK KQPKR KRNKR KRPPK; do
  echo "$(date +%T) $e" >> queue.log
  $B tb gen $e --dir /work/data/tb --threads 2 > gen-$e.log 2>&1
done
echo "$(date +%T) done" >> queue.log
