# Session 29: side-by-side A/B, c11 (built in) against n2 (c11 fine-tuned on sessions 25-28's lines,
# train29.sh), each against Stockfish 2850 at 10+0.1, openings 231-280 with both colours, one game
# at a time per arm (2 cores in all), through session 25's script. Needs /work/data/s29/open231-280.epd:
#   sed -n 231,280p ../shared/data/openings.epd > /work/data/s29/open231-280.epd
DIR=/work/data/s29 OPENINGS=open231-280.epd TAG=ab29 CAND_PGN=cand bash /work/main/notes/logs/s25/ab25.sh "$1"
