#!/usr/bin/env bash
# Runs, on the GPU machine, from the repository root, with the bundle of deploy/gpu/build-bundle.sh in .device/:
#   deploy/gpu/run.sh [tests|bench|updates|repair|all]   (default all; logs and the benchmark table go to $OUT or .device/out)
# tests: the GPU test suite (every test class tagged "gpu": the GPU contract tests in each algorithm's test package,
#        the seed variants, the GPU runtime tests under org.frontiergraph.kernels.gpu) on seeded random, Kronecker and grid graphs and every dataset in .device/datasets.
#        TEST_CLASSES=a,b runs only those classes; JAVA_OPTS adds JVM options, e.g. a longer standings soak (20 s in the
#        suite): JAVA_OPTS="-Dfrontier.soak.seconds=140 -Dfrontier.soak.divisor=8" TEST_CLASSES=org.frontiergraph.kernels.standing.StandingsSoakGpuTest
# bench: org.frontiergraph.bench.gpu.GpuBench (BENCH_ARGS to override its arguments).
# updates: org.frontiergraph.bench.gpu.UpdateBench (UPDATE_ARGS to override; not part of all).
# repair: org.frontiergraph.bench.incremental.RepairBench's device part from this bundle, without the worker bundle
#        (REPAIR_ARGS, default "--graphs ny --backend gpu --parts device --trees 100 --delta-updates 0": DELTA bytes
#        need the worker, so --delta-updates stays 0 here; not part of all).
# lanes: org.frontiergraph.bench.gpu.LanesBench, N graphs x N threads of SUMMARY queries with lanes on and off
#        (LANES_ARGS to override, default "--graphs ny --copies 1,2,4": summaries, full answers, the host-loop BFS; not part of all).
#   deploy/gpu/run.sh kafka-bench|repair-bench|subscription-bench|query-path-bench|ingest-bench|scale-bench|scale-out-bench [options]
# These run from the worker bundle in .device-worker/ instead (deploy/gpu/build-worker-bundle.sh; carry
# [".device-worker"]) through deploy/gpu/bundle-bench.sh, which says more; none is part of "all". Output: $OUT/NAME.md
# (the table), NAME.log, gpu.txt.
# kafka-bench: org.frontiergraph.bench.kafka.KafkaBench through the embedded Kafka broker and a worker (KBENCH_ARGS,
#        default "--graphs ny,kron20 --backend gpu"; KBENCH_HEAP, KBENCH_TIMEOUT).
# repair-bench: org.frontiergraph.bench.incremental.RepairBench, standing answers repaired vs recomputed on the CPU and
#        the GPU engine, and DELTA vs FULL push bytes (REPAIR_ARGS, default "--graphs ny,kron20 --backend gpu";
#        REPAIR_HEAP, REPAIR_TIMEOUT).
# subscription-bench: org.frontiergraph.bench.kafka.SubscriptionBench, DELTA SSSP subscriptions under single-edge
#        re-weights through Kafka (SUBSCRIPTION_ARGS, default "--graph ny --backend gpu": 100 subscriptions, 1,000
#        re-weights/s for 30 s; SUBSCRIPTION_HEAP, SUBSCRIPTION_TIMEOUT).
# scale-bench: org.frontiergraph.bench.worker.ScaleBench, Kronecker graphs loaded through the embedded broker by one
#        worker (load time, edges/s, peak heap and RSS, host bytes against the model) and asked BFS/SSSP/MST, verified
#        (SCALE_ARGS, default "--graphs kron22,kron24,kron25,kron26 --backend gpu"; SCALE_HEAP, default 64g;
#        SCALE_TIMEOUT, default 540).
# scale-out-bench: org.frontiergraph.bench.kafka.ScaleOutBench on a 2-GPU machine (nvidia-h200-x2): the broker and one
#        worker per GPU in JVMs of their own, 12 copies of NY, the same closed-loop SUMMARY load on 1 then 2 workers,
#        every answer verified (SCALEOUT_ARGS, default "--graph ny --copies 12 --backend gpu --workers 2 --gpus 2
#        --producers 8 --readers 8"; SCALEOUT_HEAP, the load generator's, default 8g; SCALEOUT_TIMEOUT, default 540).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
what="${1:-all}"
case "$what" in
  kafka-bench|repair-bench|subscription-bench|query-path-bench|ingest-bench|scale-bench|scale-out-bench) shift; exec "$root/deploy/gpu/bundle-bench.sh" "$what" "$@" ;;
esac
b="${BUNDLE:-.device}"   # another bundle folder (e.g. a branch's, carried beside .device)
out="${OUT:-$b/out}"
mkdir -p "$out"
tmp="$(mktemp -d /tmp/frontier-jcuda.XXXXXX)"   # JCuda unpacks its natives here
java="$b/jre/bin/java ${JAVA_OPTS:-} -Djava.io.tmpdir=$tmp -DFRONTIER_DATASETS=$root/$b/datasets -Xss16m"
export FRONTIER_DATASETS="$root/$b/datasets"
cp="$(ls $b/lib/*.jar | grep -v console-standalone | tr '\n' ':')"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1 | tee "$out/gpu.txt"
status=0
if [[ "$what" == tests || "$what" == all ]]; then
  # TEST_CLASSES (comma-separated class names) runs only those classes; default: every gpu-tagged class
  select=(--select-package org.frontiergraph.kernels)
  if [[ -n "${TEST_CLASSES:-}" ]]; then
    select=()
    IFS=, read -ra classes <<< "$TEST_CLASSES"
    for c in "${classes[@]}"; do select+=(--select-class "$c"); done
  fi
  timeout "${TEST_TIMEOUT:-300}" $java -Xmx24g -jar $b/lib/junit-platform-console-standalone-*.jar execute \
      --class-path "$cp" "${select[@]}" --include-tag gpu \
      --details=tree --disable-banner --reports-dir "$out/junit" 2>&1 | tee "$out/tests.log"
  status=${PIPESTATUS[0]}
fi
if [[ "$what" == bench || "$what" == all ]]; then
  timeout "${BENCH_TIMEOUT:-420}" $java -Xmx64g -cp "$cp" org.frontiergraph.bench.gpu.GpuBench ${BENCH_ARGS:---out $out/bench.md} 2>&1 \
      | tee "$out/bench.log"
  [[ ${PIPESTATUS[0]} == 0 ]] || status=1
fi
if [[ "$what" == lanes ]]; then
  timeout "${BENCH_TIMEOUT:-420}" $java -Xmx32g -cp "$cp" org.frontiergraph.bench.gpu.LanesBench ${LANES_ARGS:---graphs ny --copies 1,2,4} \
      --out $out/lanes.md 2>&1 | tee "$out/lanes.log"
  [[ ${PIPESTATUS[0]} == 0 ]] || status=1
fi
if [[ "$what" == repair ]]; then
  args="${REPAIR_ARGS:---graphs ny --backend gpu --parts device --trees 100 --delta-updates 0}"
  timeout "${BENCH_TIMEOUT:-420}" $java -Xmx48g -cp "$cp" org.frontiergraph.bench.incremental.RepairBench $args \
      --out $out/repair.md --command "deploy/gpu/run.sh repair with RepairBench $args" 2>&1 | tee "$out/repair.log"
  [[ ${PIPESTATUS[0]} == 0 ]] || status=1
fi
if [[ "$what" == updates ]]; then
  timeout "${BENCH_TIMEOUT:-420}" $java -Xmx64g -cp "$cp" org.frontiergraph.bench.gpu.UpdateBench ${UPDATE_ARGS:---out $out/updates.md} 2>&1 \
      | tee "$out/updates.log"
  [[ ${PIPESTATUS[0]} == 0 ]] || status=1
fi
exit $status
