#!/usr/bin/env bash
# Farmini 2 players: one seat-balanced comparison run as chunks of DEALS deals (default 10; one after another),
# each to its own raw file, so that whatever finished can be merged with compare.py --from-raw.
#   benchmarks/ai/fm_chunks.sh TAG "SPEC_A" "SPEC_B" SEED1 SEED2 ...
# e.g. benchmarks/ai/fm_chunks.sh duel200a "farmini-duel:time=0.2" easy 2000 2020 2040 2060 2080
set -euo pipefail
cd "$(dirname "$0")/../.."
tag=$1 a=$2 b=$3
shift 3
out=benchmarks/ai/out/s10/fm
mkdir -p "$out"
for seed in "$@"; do
  PYTHONPATH=$PWD/src nice -n 10 /work/main/.venv/bin/python benchmarks/ai/compare.py --game farmini \
    --players 2 --deals "${DEALS:-10}" --seed "$seed" --workers 1 --agents "$a" "$b" \
    --raw "$out/${tag}_$seed.jsonl" > "$out/${tag}_$seed.txt" 2>&1
done
