# Session 47 (rule47.md): session 46's sf46.sh unchanged, its files named sf47-FROM-TO.
# Usage: FROM=61 TO=90 bash sf47.sh
TAG=sf47 exec bash "$(dirname "$(readlink -f "$0")")/../s46/sf46.sh"
