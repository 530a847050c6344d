#!/usr/bin/env bash
# KafkaBench on the GPU machine (no Java there): from the repository root, with .device-worker/ built here by
# deploy/gpu/build-worker-bundle.sh (the xz bundle: jlink runtime, worker, embedded Kafka broker, bench jar; and
# datasets/USA-road-d.NY.gr.gz beside it, 58 MB in all):
#   deploy/gpu/kafka-bench.sh [more KafkaBench options]        (deploy/gpu/run.sh kafka-bench [...] is the same)
# Device tool: run(command="deploy/gpu/run.sh kafka-bench", carry=[".device-worker"]).
# Unpacks the bundle to $FRONTIER_UNPACK (/tmp/frontier-kbench; again when the archive changed) and runs
# org.frontiergraph.bench.kafka.KafkaBench in one JVM: the embedded broker, one worker and the benchmark, by default
# on ny and kron20 with the GPU backend. The table goes to $OUT/kafka-bench.md (without $OUT: .device-worker/out), the
# whole output to kafka-bench.log there, nvidia-smi's view to gpu.txt. Exit status: KafkaBench's (0: every answer
# right; 1: a failure, listed under the table; 124: cut off by KBENCH_TIMEOUT).
# Environment: KBENCH_ARGS (replaces the defaults "--graphs ny,kron20 --backend gpu"; the arguments of this script
#   are added after them), KBENCH_HEAP (-Xmx, 48g), KBENCH_TIMEOUT (seconds, 540: inside the device tool's 10 minutes,
#   so that the table and the logs still come back).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
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

read -r -a defaults <<< "${KBENCH_ARGS:---graphs ny,kron20 --backend gpu}"
args=("${defaults[@]}" "$@")
timeout "${KBENCH_TIMEOUT:-540}" "$dir/frontier/jre/bin/java" "-Xmx${KBENCH_HEAP:-48g}" -Xss16m -Djava.io.tmpdir="$tmp" \
    -DFRONTIER_DATASETS="$FRONTIER_DATASETS" -Dorg.apache.avro.SERIALIZABLE_PACKAGES=org.frontiergraph.schema \
    -cp "$dir/frontier/lib/*" org.frontiergraph.bench.kafka.KafkaBench "${args[@]}" \
    --out "$out/kafka-bench.md" --command "deploy/gpu/kafka-bench.sh with KafkaBench ${args[*]}" 2>&1 | tee "$out/kafka-bench.log"
rc=${PIPESTATUS[0]}
rm -rf "$tmp"
echo "kafka-bench.sh: exit $rc; table in $out/kafka-bench.md"
exit "$rc"
