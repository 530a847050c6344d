#!/usr/bin/env bash
# A/B of two builds in one device call, runs alternated: B is the worker bundle in .device-worker/ (this tree,
# deploy/gpu/build-worker-bundle.sh), A the same bundle with its frontier-*.jar replaced by those in $A_JARS (an
# earlier commit's jars, e.g. built with `mvn -Dfrontier.build.dir=target-before -DskipTests -pl clients/java,bench
# -am package` at that commit; a few MB, carried beside the bundle). Third-party jars, the Java runtime and the
# datasets are the bundle's for both, so only Frontier's code differs. A's kernels jar may leave its fatbins out (a few
# MB less to carry) when its CUDA sources are B's: B's fatbins are then put in.
#   A_JARS=.device-before deploy/gpu/ab.sh ROUNDS BENCH [options of the benchmark]
#   e.g. A_JARS=.device-before deploy/gpu/ab.sh 2 subscription-bench --rate 100
# BENCH as deploy/gpu/bundle-bench.sh takes it (subscription-bench, repair-bench, kafka-bench ...), with its *_ARGS
# defaults. Output: $OUT/ab-a-N.log, ab-b-N.log and the benchmarks' tables (A's and B's appended to one file each).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
rounds="${1:?usage: A_JARS=DIR $0 ROUNDS BENCH [options]}"; shift
bench="${1:?usage: A_JARS=DIR $0 ROUNDS BENCH [options]}"; shift
a_jars="${A_JARS:?A_JARS: the folder of the frontier jars of build A}"
out="${OUT:-.device-worker/out}"
mkdir -p "$out"
b_dir=/tmp/frontier-ab-b
a_dir=/tmp/frontier-ab-a
# B unpacked and stamped as bundle-bench.sh would (so it does not unpack again), A a copy with A's Frontier jars
archive=.device-worker/frontier-worker.tar.xz
rm -rf "$b_dir" && mkdir -p "$b_dir"
xz -dc "$archive" | tar -C "$b_dir" -xf - || { echo "unpacking $archive failed" >&2; exit 2; }
stat -c '%s-%Y' "$archive" > "$b_dir/.stamp"
rm -rf "$a_dir" && cp -a "$b_dir" "$a_dir"
rm -f "$a_dir"/frontier/lib/frontier-*.jar
cp "$a_jars"/frontier-*.jar "$a_dir/frontier/lib/"
# A's kernels jar may come without its fatbins (to fit the carry) where the CUDA sources are B's: B's are put in
python3 - "$a_dir"/frontier/lib/frontier-kernels-*[0-9T].jar "$b_dir"/frontier/lib/frontier-kernels-*[0-9T].jar <<'PY'
import sys, zipfile
a, b = sys.argv[1], sys.argv[2]
if not any(n.startswith("cuda/") for n in zipfile.ZipFile(a).namelist()):
    with zipfile.ZipFile(b) as zb, zipfile.ZipFile(a, "a") as za:
        for n in zb.namelist():
            if n.startswith("cuda/"): za.writestr(n, zb.read(n))
PY
status=0
for ((r = 1; r <= rounds; r++)); do
  for side in a b; do
    dir="$a_dir"; [[ $side == b ]] && dir="$b_dir"
    FRONTIER_UNPACK="$dir" OUT="$out/$side" deploy/gpu/bundle-bench.sh "$bench" "$@" > "$out/ab-$side-$r.log" 2>&1 || status=1
    echo "round $r, $side: $(grep -E 'p50|p99' "$out/ab-$side-$r.log" | tail -2 | tr '\n' ' ')"
  done
done
exit $status
