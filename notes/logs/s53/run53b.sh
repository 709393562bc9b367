# Session 53, second batch (rule53b.md). Run from the repository root after run53.sh.
S=notes/logs/s53/sp53.sh
DIR=/work/data/s53 B=bastion-c2 TAG=lmrcont2 OPTS="option.LmrCont2=true" bash $S
DIR=/work/data/s53 B=bastion-c2 TAG=cutnode2 OPTS="option.CutNodeLmr2=true" bash $S
DIR=/work/data/s53 B=bastion-c2 TAG=conthist4-60k OPTS="option.ContHist4=true" NODES=60000 bash $S
