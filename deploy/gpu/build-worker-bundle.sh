#!/usr/bin/env bash
# Builds .device-worker/frontier-worker.tar.xz: the CLI and the whole worker (embedded Kafka broker, Micronaut, CPU
# and GPU engines) and the bench jar (KafkaBench, RepairBench, SubscriptionBench, QueryPathBench) with a jlink Java
# runtime, for the GPU machine, which has no Java; and .device-worker/datasets/ (USA-road-d.NY, for the benchmarks).
# Natives for other platforms are
# stripped from the jars (zstd-jni, snappy, JCuda's unused PTX compiler) and the archive is xz-compressed so that
# both fit the device tool's 64 MiB carry. On the GPU machine, from the repository root:
#   deploy/gpu/run-worker.sh demo --backend gpu      (the demo through Kafka, answered by the GPU backend)
#   deploy/gpu/run.sh kafka-bench                    (KafkaBench through the embedded broker, see bundle-bench.sh)
#   deploy/gpu/run.sh repair-bench                   (RepairBench: incremental repair vs recompute, CPU and GPU engine)
#   deploy/gpu/run.sh subscription-bench             (SubscriptionBench: DELTA subscriptions through the embedded broker)
#   deploy/gpu/run.sh scale-bench                    (ScaleBench: kron22..kron26 loaded by one worker, memory, answers)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
out="$root/.device-worker"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

[[ "${SKIP_BUILD:-}" == 1 ]] || mvn -q -B -Dfrontier.build.dir=target-wbundle -DskipTests -pl cli,bench -am package
mkdir -p "$stage/frontier/lib"
cp cli/target-wbundle/frontier-cli-*-SNAPSHOT.jar cli/target-wbundle/lib/*.jar "$stage/frontier/lib/"
# the bench jar alone: KafkaBench, RepairBench, SubscriptionBench and QueryPathBench need nothing beyond the CLI's
# closure (not JGraphT, XChart)
cp bench/target-wbundle/frontier-bench-*-SNAPSHOT.jar "$stage/frontier/lib/"
strip_natives() {  # jar, patterns to delete...
  local jar="$stage/frontier/lib/$1"; shift
  [[ -f "$jar" ]] || return 0
  chmod u+w "$jar"
  zip -q -d "$jar" "$@" >/dev/null || true
}
for j in $(cd "$stage/frontier/lib" && ls zstd-jni-*.jar 2>/dev/null); do
  strip_natives "$j" 'darwin/*' 'freebsd/*' 'win/*' 'linux/aarch64/*' 'linux/arm/*' 'linux/ppc64/*' 'linux/ppc64le/*' \
      'linux/s390x/*' 'linux/mips64/*' 'linux/loongarch64/*' 'linux/i386/*' 'linux/riscv64/*' 'aix/*'
done
for j in $(cd "$stage/frontier/lib" && ls snappy-java-*.jar 2>/dev/null); do
  strip_natives "$j" 'org/xerial/snappy/native/Mac/*' 'org/xerial/snappy/native/Windows/*' 'org/xerial/snappy/native/AIX/*' \
      'org/xerial/snappy/native/SunOS/*' 'org/xerial/snappy/native/FreeBSD/*' 'org/xerial/snappy/native/Linux/a*' \
      'org/xerial/snappy/native/Linux/p*' 'org/xerial/snappy/native/Linux/s*' 'org/xerial/snappy/native/Linux/x86/*' \
      'org/xerial/snappy/native/Linux/riscv64/*' 'org/xerial/snappy/native/Linux/loongarch64/*'
done
for j in $(cd "$stage/frontier/lib" && ls jcuda-natives-*.jar 2>/dev/null); do strip_natives "$j" 'lib/libJNvPTXCompiler*'; done

# store the jars uncompressed: xz over raw class files compresses far better than over deflated jars
for j in "$stage"/frontier/lib/*.jar; do
  d="$(mktemp -d)"; (cd "$d" && unzip -q "$j" && rm "$j" && zip -q -0 -r -X "$j" .); rm -rf "$d"
done

jlink --add-modules java.base,java.compiler,java.desktop,java.naming,java.security.jgss,java.security.sasl,java.sql,jdk.jfr,jdk.management,jdk.unsupported,java.xml,java.logging,java.net.http,jdk.crypto.ec,jdk.zipfs,java.instrument,java.rmi,java.scripting \
      --strip-debug --no-header-files --no-man-pages --compress=2 --output "$stage/frontier/jre"
mkdir -p "$out"
tar -C "$stage" -cf - frontier | xz -9 -T2 > "$out/frontier-worker.tar.xz"
# KafkaBench's road graph, beside the archive (gzip already): FRONTIER_DATASETS=.device-worker/datasets there
datasets="${FRONTIER_DATASETS:-$root/../shared/datasets}"
rm -rf "$out/datasets"
mkdir -p "$out/datasets"
cp "$datasets/USA-road-d.NY.gr.gz" "$out/datasets/" || echo "no USA-road-d.NY.gr.gz in $datasets: KafkaBench's ny will be skipped" >&2
chmod -R u+w "$out/datasets"
ls -l "$out/frontier-worker.tar.xz" "$out/datasets"
du -sh "$out"
