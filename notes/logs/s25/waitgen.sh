while pgrep -f "tune --generate" >/dev/null; do sleep 5; done
bash /work/main/notes/logs/s25/lab25.sh
