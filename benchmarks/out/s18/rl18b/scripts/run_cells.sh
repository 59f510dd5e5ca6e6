#!/bin/bash
OUT=/work/wt/rl18b/benchmarks/out/s18/rl18b/cells_pairs.jsonl
: > $OUT
cd /tmp
for i in 1 2 3 4; do
  for side in before after; do
    if [ $side = before ]; then P=/tmp/rl18b-base/src; else P=/work/wt/rl18b/src; fi
    L=$(cut -d' ' -f1-3 /proc/loadavg)
    R=$(PYTHONPATH=$P nice -n 10 /work/main/.venv/bin/python -W ignore /tmp/rl18b/cells.py 4 0.5 $i)
    echo "{\"pair\": $i, \"side\": \"$side\", \"load\": \"$L\", \"cells\": $R}" >> $OUT
  done
done
echo DONE > /tmp/rl18b/cells.done
