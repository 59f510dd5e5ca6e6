#!/usr/bin/env bash
# The AI benchmarks of benchmarks/AI.md. Every run is a paired comparison on fixed deals
# (benchmarks/ai/compare.py): solo tier tables, Expert against the old baseline, the level
# ladder and the scaling curve. Run from the repository root.
#
#   benchmarks/ai/run.sh solo     [DEALS] [OUT]   # every game's solo table: baseline vs the levels
#   benchmarks/ai/run.sh emma     [DEALS] [OUT]   # Tiny Farms against Farmer Emma, four difficulties
#   benchmarks/ai/run.sh baseline [DEALS] [OUT]   # 2 players: Expert vs ismcts:iters=200,depth=5
#   benchmarks/ai/run.sh ladder   [DEALS] [OUT]   # 2 players: each level vs the one below
#   benchmarks/ai/run.sh scaling  [DEALS] [OUT]   # solo: mcts at 50 / 200 / 800 iterations
#
# DEALS defaults to 200 solo deals; 2-player runs play each deal from both seats, so they default
# to 100 deals = the 200 seat-balanced games.
# Sizes (levels 50 / 200 / 800 iterations, CPU s per 2-player game, session-4 probe): Farmers
# Finances Expert ≈ 3.3 + baseline 1 ≈ 4.3 s (200 games ≈ 15 CPU min); Tiny Farms Expert ≈ 20 s;
# Farmerama ≈ 17 s; Tiny Towns ≈ 46 s; Farmini ≈ 48 s (capped at 1 s a decision). Set WORKERS to
# the cores you can spare; GAMES to a subset (cheapest first is the default order).
set -euo pipefail
WHAT=${1:?solo, emma, baseline, ladder or scaling}
case "$WHAT" in baseline|ladder) DEALS=${2:-100} ;; *) DEALS=${2:-200} ;; esac
OUT=${3:-benchmarks/ai/out}
PY=${PY:-python}
W=${WORKERS:-2}
GAMES=${GAMES:-farmers-finances tiny-farms farmerama tiny-towns farmini}
BASE="ismcts:iters=200,depth=5"
mkdir -p "$OUT"
cmp() { nice -n 10 "$PY" benchmarks/ai/compare.py --deals "$DEALS" --workers "$W" "$@"; }
case "$WHAT" in
  solo)
    for g in $GAMES; do
      cmp --game "$g" --players 1 --agents "$BASE" easy normal hard expert > "$OUT/solo-$g.md"
    done ;;
  emma)
    for v in emma-easy emma-medium emma-hard emma-epic; do
      cmp --game tiny-farms --variant "$v" --players 1 --agents "$BASE" normal expert > "$OUT/solo-tiny-farms-$v.md"
    done ;;
  baseline)
    for g in $GAMES; do
      cmp --game "$g" --players 2 --agents expert "$BASE" > "$OUT/duel-$g-expert-vs-baseline.md"
    done ;;
  ladder)
    for g in $GAMES; do
      for pair in "normal easy" "hard normal" "expert hard"; do
        set -- $pair
        cmp --game "$g" --players 2 --agents "$1" "$2" > "$OUT/duel-$g-$1-vs-$2.md"
      done
    done ;;
  scaling)
    for g in $GAMES; do
      cmp --game "$g" --players 1 --agents "mcts:iters=50" "mcts:iters=200" "mcts:iters=800" > "$OUT/scaling-$g.md"
    done ;;
  *) echo "unknown benchmark '$WHAT': solo, emma, baseline, ladder or scaling" >&2; exit 2 ;;
esac
