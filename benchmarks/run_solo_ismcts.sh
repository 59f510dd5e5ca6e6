#!/usr/bin/env bash
# The solo benchmark with ISMCTS (after run_all.sh; same OUT_DIR and results file).
# Usage: benchmarks/run_solo_ismcts.sh [OUT_DIR]
set -euo pipefail
OUT=${1:-benchmarks/out}
FT=${FT:-.venv/bin/farmtable}
W=${WORKERS:-2}
DB=$OUT/results.sqlite
mkdir -p "$OUT"
export COLUMNS=160

run() {
  local name=$1; shift
  echo "\$ farmtable ${*:2}" | tee "$OUT/$name.txt"
  local start=$SECONDS
  "$@" >> "$OUT/$name.txt" 2>&1
  echo "($((SECONDS - start)) s)" | tee -a "$OUT/$name.txt"
}

for g in farmers-finances tiny-farms farmerama tiny-towns farmini; do
  spec="ismcts:iters=100,depth=5"
  [ "$g" = farmini ] && spec="ismcts:iters=30,depth=5"
  run "solo-ismcts-$g" "$FT" solo "$g" --agent "$spec" --games 100 --workers "$W" --seed 1 --db "$DB"
done
run "solo-ismcts-tiny-farms-emma-hard" "$FT" solo tiny-farms --agent ismcts:iters=100,depth=5 --variant emma-hard \
  --games 100 --workers "$W" --seed 1 --db "$DB"
run report "$FT" report "$DB" -o "$OUT/report"
