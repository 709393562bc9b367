# Session 33: k3 is k1's run with the pull scaled by the learning rate (bastion-s33b: the same
# build with `--king-bucket-pull` falling with the rate). k1's fixed pull outweighed the steps once
# the rate dropped at epoch 7, and its losses rose from there (train-k1.log).
B=../bastion-s33b DONE=train33b LIST='k3 ../s29/n2.nnue all31 10 0.0001 --mirror-files --king-bucket-pull 0.0001' \
  bash /work/main/notes/logs/s33/train33.sh
