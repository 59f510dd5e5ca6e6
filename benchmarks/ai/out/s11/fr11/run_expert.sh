#!/bin/sh
# The Expert candidate against Hard, deals from 2005 on (deals 2000-2004: the pilot file), one process.
# Run from WT; the code is a snapshot of commit 93bbbf9 (Farmerama code as at fc62b82) (git archive to /tmp/fr11_snap); stopped at the deadline, summarised with --from-raw.
X="farmerama-duel:time=1.0,temp=0.5,deep=1,level=2,refine=10"
H="farmerama-duel:time=0.5,temp=0.5,deep=1"
export PYTHONPATH=/tmp/fr11_snap/src
O=benchmarks/ai/out/s11/fr11
for s in 2005 2015 2025 2035 2045 2055 2065 2075 2085 2095; do
  nice -n 10 /work/main/.venv/bin/python benchmarks/ai/compare.py --game farmerama --players 2 --deals 10 --seed $s \
    --workers 1 --agents "$X" "$H" --raw $O/expert-vs-hard-$s.jsonl > $O/expert-vs-hard-$s.txt 2>&1
done
