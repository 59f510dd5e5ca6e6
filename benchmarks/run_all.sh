#!/usr/bin/env bash
# Every number in benchmarks/README.md, in one run (about 40 minutes on 2 cores).
# Usage: benchmarks/run_all.sh [OUT_DIR]      (from the repository root; FT=... to use another farmtable)
# Results: OUT_DIR/*.txt (what each command printed), OUT_DIR/results.sqlite (every game), OUT_DIR/report/.
set -euo pipefail
OUT=${1:-benchmarks/out}
FT=${FT:-.venv/bin/farmtable}
W=${WORKERS:-2}
DB=$OUT/results.sqlite
GAMES="farmerama farmers-finances farmini tiny-farms tiny-towns"
mkdir -p "$OUT"
export COLUMNS=160  # wide tables in the logs

run() {  # run NAME COMMAND...: print, time and log one command
  local name=$1; shift
  echo "\$ farmtable ${*:2}" | tee "$OUT/$name.txt"
  local start=$SECONDS
  "$@" >> "$OUT/$name.txt" 2>&1
  echo "($((SECONDS - start)) s)" | tee -a "$OUT/$name.txt"
}

# (1) speed, one core
run bench "$FT" bench --seconds 5 --iters 200

# (2) 2-player arenas, 100 seat-balanced games each (50 deals x both seatings), fixed seeds
for g in $GAMES; do
  run "greedy-vs-random-$g" "$FT" arena "$g" --agents greedy,random --games 100 --workers "$W" --seed 1 --db "$DB"
done
for g in $GAMES; do
  spec="ismcts:iters=200,depth=5"
  [ "$g" = farmini ] && spec="ismcts:iters=50,depth=5"  # Farmini's heuristic costs ~1.3 ms: fewer iterations
  run "ismcts-vs-greedy-$g" "$FT" arena "$g" --agents "$spec,greedy" --games 100 --workers "$W" --seed 1 --db "$DB"
done

# (3) solo benchmark, every game (all five have solo rules), greedy agent
for g in $GAMES; do
  run "solo-$g" "$FT" solo "$g" --agent greedy --games 100 --workers "$W" --seed 1 --db "$DB"
done
for d in emma-easy emma-medium emma-hard emma-epic; do
  run "solo-tiny-farms-$d" "$FT" solo tiny-farms --agent greedy --variant "$d" --games 100 --workers "$W" --seed 1 --db "$DB"
done

run report "$FT" report "$DB" -o "$OUT/report"
