#!/bin/bash
# before (base snapshot of main 5435969) and after (this branch), alternating, 3 pairs
OUT=/work/wt/rl18b/benchmarks/out/s18/rl18b/bench_pairs.txt
[ "$APPEND" = 1 ] || : > $OUT
cd /tmp
for i in ${PAIRS:-1 2 3}; do
  for side in before after; do
    if [ $side = before ]; then P=/tmp/rl18b-base/src; else P=/work/wt/rl18b/src; fi
    echo "## pair $i $side PYTHONPATH=$P $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT
    PYTHONPATH=$P nice -n 10 /work/main/.venv/bin/python -W ignore -m farmtable.rl.bench --games farmini tiny-towns --rounds 7 --seconds 1 --columns "PZ AEC raw" OpenSpiel 2>&1 | tail -2 >> $OUT
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT
  done
done
echo DONE >> $OUT
