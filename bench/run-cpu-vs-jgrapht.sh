#!/usr/bin/env bash
# Builds the bench module and runs the CPU-engine-vs-JGraphT benchmark (see docs/benchmarks.md).
#   bench/run-cpu-vs-jgrapht.sh [--runs 5] [--warmup 2] [--random-vertices N] [--random-edges M] [--seed S] ...
# Environment: FRONTIER_BUILD_DIR (default target), BENCH_HEAP (default 16g), MVN_FLAGS (e.g. -o),
# FRONTIER_DATASETS (the real-graph folder; default ../shared/datasets beside the repository).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${FRONTIER_BUILD_DIR:-target}"
mvn -q ${MVN_FLAGS:-} -Dfrontier.build.dir="$build_dir" -Dmaven.test.skip=true -pl bench -am package
jar="bench/$build_dir/frontier-bench-0.1.0-SNAPSHOT.jar"
cp="$jar:$(cat "bench/$build_dir/runtime-classpath.txt")"
exec java -Xmx"${BENCH_HEAP:-16g}" -Xss16m -cp "$cp" org.frontiergraph.bench.CpuVsJGraphT "$@"
