#!/usr/bin/env bash
# Builds .device/: everything the GPU machine needs to run the GPU tests and the GPU benchmark, which has no Java
# and no Maven: a jlink Java runtime, the kernels jar (with the fatbins), the kernels test classes, the bench jar,
# JCuda (natives without the 24 MB PTX compiler), the JUnit console launcher, the shared datasets and the peers'
# sources (gapbs, ECL-MST: what their builds read, and their licenses; deploy/gpu/peers.sh builds them). < 64 MiB.
# Then, on the GPU machine, from the repository root: deploy/gpu/run.sh, deploy/gpu/peers.sh   (see README)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
bundle="${BUNDLE_DIR:-$root/.device}"   # BUNDLE_DIR: build it elsewhere (a branch's bundle beside main's)
m2="${MAVEN_REPO:-$HOME/.m2/repository}"
jcuda=12.6.0
console=1.14.0

mvn -q -o -Dfrontier.build.dir=target-device -pl kernels,bench -am package -DskipTests
test -f kernels/target-device/classes/cuda/bfs.fatbin || { echo "no fatbins: nvcc missing?" >&2; exit 1; }

console_jar="$m2/org/junit/platform/junit-platform-console-standalone/$console/junit-platform-console-standalone-$console.jar"
[[ -f "$console_jar" ]] || mvn -q dependency:get -Dartifact=org.junit.platform:junit-platform-console-standalone:$console

rm -rf "$bundle/lib" "$bundle/datasets"
mkdir -p "$bundle/lib" "$bundle/datasets"
cp kernels/target-device/frontier-kernels-*-SNAPSHOT.jar kernels/target-device/frontier-kernels-*-tests.jar \
   bench/target-device/frontier-bench-*-SNAPSHOT.jar "$bundle/lib/"
cp "$m2/org/jcuda/jcuda/$jcuda/jcuda-$jcuda.jar" "$console_jar" "$bundle/lib/"
# RepairBench's device part (--parts device --delta-updates 0) runs from this bundle too: the schemas' codec it links
# and what that needs (Avro, Jackson, commons), from the bench's runtime classpath; picocli parses every benchmark's
# command line (BenchCli)
cp schemas/target-device/frontier-schemas-*-SNAPSHOT.jar "$bundle/lib/"
tr ':' '\n' < bench/target-device/runtime-classpath.txt \
  | grep -E '/(avro|jackson-core|jackson-databind|jackson-annotations|commons-compress|commons-lang3|commons-io|slf4j-api|picocli)-[0-9][^/]*\.jar$' \
  | xargs -r cp -t "$bundle/lib/"
# the natives jar minus libJNvPTXCompiler (the driver-API path never loads it)
natives="$m2/org/jcuda/jcuda-natives/$jcuda/jcuda-natives-$jcuda-linux-x86_64.jar"
cp "$natives" "$bundle/lib/"
chmod u+w "$bundle/lib/$(basename "$natives")"
zip -q -d "$bundle/lib/$(basename "$natives")" 'lib/libJNvPTXCompiler*'

datasets="${FRONTIER_DATASETS:-$root/../shared/datasets}"
if [[ -d "$datasets" ]]; then cp "$datasets"/*.gz "$bundle/datasets/"; else echo "no datasets at $datasets" >&2; fi

peers="${FRONTIER_PEERS:-$root/../shared/peers}"
rm -rf "$bundle/peers"
if [[ -d "$peers" ]]; then
  mkdir -p "$bundle/peers/gapbs/test" "$bundle/peers/gapbs/benchmark" "$bundle/peers/ECL-MST"
  cp -r "$peers/gapbs/src" "$peers/gapbs/Makefile" "$peers/gapbs/LICENSE" "$bundle/peers/gapbs/"
  cp "$peers/gapbs/test/test.mk" "$bundle/peers/gapbs/test/"            # included by gapbs's Makefile
  cp "$peers/gapbs/benchmark/bench.mk" "$bundle/peers/gapbs/benchmark/"
  cp -r "$peers/ECL-MST/source" "$peers/ECL-MST/LICENSE" "$bundle/peers/ECL-MST/"
  cp "$peers/README.md" "$bundle/peers/"
  chmod -R u+w "$bundle/peers"
else
  echo "no peers at $peers: deploy/gpu/peers.sh will not run" >&2
fi

if [[ ! -x "$bundle/jre/bin/java" ]]; then
  jlink --add-modules java.base,java.logging,java.management,jdk.unsupported,java.scripting,java.xml,jdk.zipfs \
        --strip-debug --no-header-files --no-man-pages --compress=2 --output "$bundle/jre"
fi
du -sh "$bundle" "$bundle"/*
