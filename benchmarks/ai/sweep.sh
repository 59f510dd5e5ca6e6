#!/usr/bin/env bash
# Small design sweeps used while building the search core (each line is one compare.py run).
# Usage: benchmarks/ai/sweep.sh solo|duel [DEALS] [SPEC]   (from the repository root, PYTHONPATH=src)
set -euo pipefail
PY=${PY:-python}
OUT=${OUT:-benchmarks/ai/out}
DEALS=${2:-10}
SPEC=${3:-mcts:iters=200}
TAG=${TAG:-}
GAMES=${GAMES:-farmers-finances tiny-farms tiny-towns farmerama farmini}
mkdir -p "$OUT"
BASE="ismcts:iters=200,depth=5"
case "$1" in
  solo)
    for game in $GAMES; do
      nice -n 10 $PY benchmarks/ai/compare.py --game "$game" --players 1 --deals "$DEALS" \
        --agents "$BASE" "$SPEC" > "$OUT/sweep-solo-$game$TAG.md"
    done ;;
  duel)
    for game in $GAMES; do
      nice -n 10 $PY benchmarks/ai/compare.py --game "$game" --players 2 --deals "$DEALS" \
        --agents "$SPEC" "$BASE" > "$OUT/sweep-duel-$game$TAG.md"
    done ;;
esac
