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
exec "$(cd "$(dirname "$0")" && pwd)/bundle-bench.sh" kafka-bench "$@"
