#!/bin/sh
# Session 10 main run: the Hard candidate against the Normal duel, chunks of 20 deals (40 games).
cd /work/wt/fr10 && export PYTHONPATH=$PWD/src
for seed in 2000 2020 2040 2060 2080; do
  nice -n 10 /work/main/.venv/bin/python benchmarks/ai/compare.py --game farmerama --players 2 --deals 20 \
    --seed $seed --workers 1 --agents "farmerama-duel:time=0.5,temp=0.5,refine=3" "farmerama-duel:time=0.2,temp=0.5" \
    --raw benchmarks/ai/fr_s10/hard-refine3-vs-normal-$seed.jsonl
done
