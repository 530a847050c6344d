#!/usr/bin/env bash
# The benchmarks that run from the worker bundle on the GPU machine (no Java there): from the repository root, with
# .device-worker/ built here by deploy/gpu/build-worker-bundle.sh (the xz bundle: jlink runtime, worker, embedded Kafka
# broker, CUDA engine, bench jar; and datasets/USA-road-d.NY.gr.gz beside it, 58 MB in all):
#   deploy/gpu/bundle-bench.sh kafka-bench        [more KafkaBench options]         (= run.sh kafka-bench, kafka-bench.sh)
#   deploy/gpu/bundle-bench.sh repair-bench       [more RepairBench options]        (= run.sh repair-bench)
#   deploy/gpu/bundle-bench.sh subscription-bench [more SubscriptionBench options]  (= run.sh subscription-bench)
#   deploy/gpu/bundle-bench.sh query-path-bench   [more QueryPathBench options]     (= run.sh query-path-bench)
#   deploy/gpu/bundle-bench.sh ingest-bench       [more IngestBench options]        (= run.sh ingest-bench)
#   deploy/gpu/bundle-bench.sh scale-bench        [more ScaleBench options]         (= run.sh scale-bench)
#   deploy/gpu/bundle-bench.sh scale-out-bench    [more ScaleOutBench options]      (= run.sh scale-out-bench)
# Device tool: run(command="deploy/gpu/run.sh repair-bench", carry=[".device-worker"]).
#
# kafka-bench:        org.frontiergraph.bench.kafka.KafkaBench: the embedded broker, one worker and the benchmark in one
#                     JVM; defaults "--graphs ny,kron20 --backend gpu".
# repair-bench:       org.frontiergraph.bench.incremental.RepairBench: incremental repair against recompute on the CPU and
#                     the GPU engine (no Kafka), then DELTA/FULL push bytes through the worker's subscription service in
#                     the same JVM; defaults "--graphs ny,kron20 --backend gpu" (gpu: fails rather than leave the GPU
#                     columns empty). A repaired answer that differs from the recompute stops it with status 1.
# subscription-bench: org.frontiergraph.bench.kafka.SubscriptionBench: 100 DELTA SSSP subscriptions and single-edge
#                     re-weights at 1,000/s for 30 s through the embedded broker and one worker; defaults
#                     "--graph ny --backend gpu".
#
# Unpacks the bundle to $FRONTIER_UNPACK (/tmp/frontier-kbench; again when the archive changed). The table goes to
# $OUT/NAME.md (without $OUT: .device-worker/out; RepairBench and SubscriptionBench append, KafkaBench rewrites it), the
# whole output to NAME.log there, nvidia-smi's view to gpu.txt. Exit status: the benchmark's (0: every check passed;
# 1: a failure, named in the log and under the table; 137: cut off by the timeout, which first asks the JVM for a
# thread dump, in NAME.log, with SIGQUIT, then kills it 10 s later).
# ingest-bench:       org.frontiergraph.bench.worker.IngestBench: a snapshot load stage by stage (client chunking and
#                     encoding, the worker's decoding, assembly, build, residency; publish and fetch through the embedded
#                     broker per codec); defaults "--graphs ny,kron20,kron22 --backend gpu".
# scale-bench:        org.frontiergraph.bench.worker.ScaleBench: Kronecker graphs published with FrontierClient through
#                     the embedded broker to one worker in the same JVM: load time, edges/s, peak heap and RSS, the
#                     worker's host bytes against HeapBudget.buildBytes, BFS/SSSP/MST SUMMARY through Kafka, every
#                     answer verified; defaults "--graphs kron22,kron24,kron25,kron26 --backend gpu", heap 64g.
# scale-out-bench:    org.frontiergraph.bench.kafka.ScaleOutBench: the broker in a JVM of its own (BrokerProcess), one
#                     worker JVM per GPU (CUDA_VISIBLE_DEVICES=i), 12 copies of NY as distinct graph ids, 6,000 BFS/SSSP
#                     SUMMARY queries in flight from 8 producers read by 8 consumers: the load generator alone, then 1
#                     worker, then 2 in the same run; queries/s, their ratio, partitions and graphs per worker, CPU per
#                     process, every answer checked against the CPU engine; defaults "--graph ny --copies 12 --backend gpu
#                     --workers 2 --gpus 2 --producers 8 --readers 8" (a 2-GPU machine: nvidia-h200-x2). The heap is the
#                     load generator's (8g); each worker's is --worker-heap (16g), the broker's --broker-heap (4g).
# Environment, per benchmark (KBENCH_ for kafka-bench, REPAIR_ for repair-bench, SUBSCRIPTION_ for subscription-bench,
# QPATH_ for query-path-bench, INGEST_ for ingest-bench, SCALE_ for scale-bench, SCALEOUT_ for scale-out-bench):
#   *_ARGS (replaces the defaults above; the arguments given to this script are added after them), *_HEAP (-Xmx, 48g;
#   64g for scale-bench, 8g for scale-out-bench),
#   *_TIMEOUT (seconds, 540: inside the device tool's 10 minutes, so that the table and the logs still come back).
#   BENCH_JAVA_OPTS: more JVM options, e.g. -XX:StartFlightRecording=filename=$OUT/bench.jfr,settings=profile
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
name="${1:-}"
heap=48g
case "$name" in
  kafka-bench)        main=org.frontiergraph.bench.kafka.KafkaBench; prefix=KBENCH; defaults="--graphs ny,kron20 --backend gpu" ;;
  repair-bench)       main=org.frontiergraph.bench.incremental.RepairBench; prefix=REPAIR; defaults="--graphs ny,kron20 --backend gpu" ;;
  subscription-bench) main=org.frontiergraph.bench.kafka.SubscriptionBench; prefix=SUBSCRIPTION; defaults="--graph ny --backend gpu" ;;
  query-path-bench)   main=org.frontiergraph.bench.worker.QueryPathBench; prefix=QPATH; defaults="--graphs ny,kron20,kron22 --backend gpu" ;;
  ingest-bench)       main=org.frontiergraph.bench.worker.IngestBench; prefix=INGEST; defaults="--graphs ny,kron20,kron22 --backend gpu" ;;
  scale-bench)        main=org.frontiergraph.bench.worker.ScaleBench; prefix=SCALE; heap=64g
                      defaults="--graphs kron22,kron24,kron25,kron26 --backend gpu" ;;
  scale-out-bench)    main=org.frontiergraph.bench.kafka.ScaleOutBench; prefix=SCALEOUT; heap=8g
                      defaults="--graph ny --copies 12 --backend gpu --workers 2 --gpus 2 --producers 8 --readers 8" ;;
  *) echo "usage: $0 kafka-bench|repair-bench|subscription-bench|query-path-bench|ingest-bench|scale-bench|scale-out-bench [options]" >&2; exit 2 ;;
esac
shift
args_var="${prefix}_ARGS"; heap_var="${prefix}_HEAP"; timeout_var="${prefix}_TIMEOUT"
bundle=.device-worker
archive="$bundle/frontier-worker.tar.xz"
dir="${FRONTIER_UNPACK:-/tmp/frontier-kbench}"
out="${OUT:-$bundle/out}"
mkdir -p "$out"
[[ -f "$archive" ]] || { echo "no $archive: build it with deploy/gpu/build-worker-bundle.sh and carry .device-worker" >&2; exit 2; }

stamp="$(stat -c '%s-%Y' "$archive")"
if [[ ! -x "$dir/frontier/jre/bin/java" || "$(cat "$dir/.stamp" 2>/dev/null)" != "$stamp" ]]; then
  rm -rf "$dir" && mkdir -p "$dir"
  xz -dc "$archive" | tar -C "$dir" -xf - || { echo "unpacking $archive failed" >&2; exit 2; }
  echo "$stamp" > "$dir/.stamp"
fi
if ! ls "$dir"/frontier/lib/frontier-bench-*.jar >/dev/null 2>&1; then
  echo "the bundle has no frontier-bench jar: rebuild it with deploy/gpu/build-worker-bundle.sh" >&2
  exit 2
fi

tmp="$(mktemp -d /tmp/frontier-jcuda.XXXXXX)"   # JCuda unpacks its natives here; the broker's log goes here too
export FRONTIER_DATASETS="$root/$bundle/datasets"
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1 || echo "no nvidia-smi"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB"
  date -u; } | tee "$out/gpu.txt"

read -r -a first <<< "${!args_var:-$defaults}"
args=("${first[@]}" "$@")
read -r -a jvm_opts <<< "${BENCH_JAVA_OPTS:-}"
timeout -s QUIT -k 10 "${!timeout_var:-540}" "$dir/frontier/jre/bin/java" "-Xmx${!heap_var:-$heap}" -Xss16m -Djava.io.tmpdir="$tmp" "${jvm_opts[@]}" \
    -DFRONTIER_DATASETS="$FRONTIER_DATASETS" -Dorg.apache.avro.SERIALIZABLE_PACKAGES=org.frontiergraph.schema \
    -cp "$dir/frontier/lib/*" "$main" "${args[@]}" \
    --out "$out/$name.md" --command "deploy/gpu/run.sh $name with ${main##*.} ${args[*]}" 2>&1 | tee "$out/$name.log"
rc=${PIPESTATUS[0]}
rm -rf "$tmp"
echo "$name: exit $rc; table in $out/$name.md"
exit "$rc"
