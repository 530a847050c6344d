#!/usr/bin/env bash
# Builds target-repro/bundle/ (git-ignored by target-*/): what deploy/gpu/reproduce.sh needs on the GPU machine for the
# seed-paper reproduction, apart from .device/ so that it does not disturb the GPU test bundle: a jlink Java runtime
# (copied from .device/jre when present), the kernels jar (with the fatbins), the bench jar and picocli, JCuda (natives without
# the PTX compiler) and the USA-road-d.NY road graph (Table 1 of 004). About 50 MiB. Carry it with the run:
#   run(command="REPRO_BUNDLE=target-repro/bundle deploy/gpu/reproduce.sh repro all", carry=["target-repro/bundle"])
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
bundle="$root/target-repro/bundle"
m2="${MAVEN_REPO:-$HOME/.m2/repository}"
jcuda=12.6.0

mvn -q -o -Dfrontier.build.dir=target-repro -Dmaven.test.skip=true -pl schemas,kernels,bench -am package
test -f kernels/target-repro/classes/cuda/sssp_da2cf.fatbin || { echo "no fatbins: nvcc missing?" >&2; exit 1; }

rm -rf "$bundle/lib" "$bundle/datasets"
mkdir -p "$bundle/lib" "$bundle/datasets"
cp kernels/target-repro/frontier-kernels-*-SNAPSHOT.jar bench/target-repro/frontier-bench-*-SNAPSHOT.jar "$bundle/lib/"
cp "$m2/org/jcuda/jcuda/$jcuda/jcuda-$jcuda.jar" "$bundle/lib/"
# picocli parses the mains' command lines (BenchCli)
tr ':' '\n' < bench/target-repro/runtime-classpath.txt | grep -E '/picocli-[0-9][^/]*\.jar$' | xargs -r cp -t "$bundle/lib/"
natives="$m2/org/jcuda/jcuda-natives/$jcuda/jcuda-natives-$jcuda-linux-x86_64.jar"
cp "$natives" "$bundle/lib/"
chmod u+w "$bundle/lib/$(basename "$natives")"
zip -q -d "$bundle/lib/$(basename "$natives")" 'lib/libJNvPTXCompiler*' || true
datasets="${FRONTIER_DATASETS:-$root/../shared/datasets}"
cp "$datasets/USA-road-d.NY.gr.gz" "$bundle/datasets/" || echo "no USA-road-d.NY.gr.gz in $datasets" >&2
if [[ ! -x "$bundle/jre/bin/java" ]]; then
  if [[ -x "$root/.device/jre/bin/java" ]]; then cp -r "$root/.device/jre" "$bundle/jre"
  else jlink --add-modules java.base,java.logging,java.management,jdk.unsupported,java.scripting,java.xml,jdk.zipfs \
             --strip-debug --no-header-files --no-man-pages --compress=2 --output "$bundle/jre"; fi
fi
du -sh "$bundle" "$bundle"/*
