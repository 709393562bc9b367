# Session 32: q4 is q3's run (n2, all31 = 25.6 M lines, lr 1e-4, left-right mirroring) for 20 epochs
# instead of 10. q3's validation loss was still falling by about 0.3 % an epoch when its learning
# rate dropped at epoch 7 (train-q3.log); 20 epochs give 12 at 1e-4, 6 at 1e-5 and 2 at 1e-6.
# train31.sh does the run (in /work/data/s31); gate with gate31-lib.sh's ev.
LIST='q4 ../s29/n2.nnue all31 20 0.0001 --mirror-files' bash /work/main/notes/logs/s31/train31.sh
