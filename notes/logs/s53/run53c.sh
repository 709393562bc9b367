# Session 53, third batch (rule53c.md). Run from the repository root after run53b.sh.
DIR=/work/data/s53 B=bastion-c2 TAG=hindsight-60k OPTS="option.Hindsight=true" NODES=60000 \
  bash notes/logs/s53/sp53.sh
