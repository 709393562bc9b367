# Session 26: side-by-side A/B, c11 (built in) against a candidate ($1, a file in /work/data/s26),
# each against Stockfish 2850, openings 131-180 with both colours, one game at a time per arm
# (2 cores in all), through session 25's script. Run with /work/data/s26/open131-180.epd in place.
DIR=/work/data/s26 OPENINGS=open131-180.epd TAG=ab26 CAND_PGN=cand bash /work/main/notes/logs/s25/ab25.sh "$1"
