# Session 53 (rule53.md): the three candidate switches, one at a time, in this order.
# Run from the repository root.
S=notes/logs/s53/sp53.sh
DIR=/work/data/s53 B=bastion-c TAG=conthist4 OPTS="option.ContHist4=true" bash $S
DIR=/work/data/s53 B=bastion-c TAG=faillow OPTS="option.FailLowBonus=true" bash $S
DIR=/work/data/s53 B=bastion-c TAG=hindsight OPTS="option.Hindsight=true" bash $S
