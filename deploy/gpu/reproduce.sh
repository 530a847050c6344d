#!/usr/bin/env bash
# Runs, on the GPU machine, from the repository root, with the bundle of deploy/gpu/build-bundle.sh in .device/,
# the seed-paper reproduction (org.frontiergraph.bench.repro.Paper000Prim, Paper003Sssp, Paper004Harish):
#   deploy/gpu/reproduce.sh repro 000|003|004|all [--quick] [more harness arguments, e.g. --budget-s 200 --runs 5]
# CSVs (one per figure/table, long form x,series,value,note), a markdown fragment per paper (paperNNN.md), the
# logs and nvidia-smi's view of the GPU go to $OUT (or .device/out/repro). Plot them off the GPU machine with
# org.frontiergraph.bench.repro.Plots (see docs/reproduction.md). Per-paper wall limits: REPRO_TIMEOUT_000/003/004.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
[[ "${1:-}" == repro ]] && shift
which="${1:-all}"; shift || true
b="${REPRO_BUNDLE:-.device}"
out="${OUT:-$b/out/repro}"
mkdir -p "$out"
tmp="$(mktemp -d /tmp/frontier-jcuda.XXXXXX)"
export FRONTIER_DATASETS="$root/$b/datasets"
java="$b/jre/bin/java -Djava.io.tmpdir=$tmp -DFRONTIER_DATASETS=$FRONTIER_DATASETS -Xss16m -Xmx${REPRO_HEAP:-96g}"
cp="$(ls $b/lib/*.jar | grep -v console-standalone | tr '\n' ':')"
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB"
  date -u; } 2>&1 | tee "$out/gpu.txt"
status=0
run_paper() {  # paper main-class default-timeout
  local p=$1 cls=$2 lim=$3 var="REPRO_TIMEOUT_$1"; shift 3
  echo "=== paper $p ($cls), limit ${!var:-$lim} s"
  timeout "${!var:-$lim}" $java -cp "$cp" "org.frontiergraph.bench.repro.$cls" --out "$out" "$@" 2>&1 | tee "$out/paper$p.log"
  local rc=${PIPESTATUS[0]}
  echo "=== paper $p exit $rc"
  [[ $rc == 0 ]] || status=1
}
args=("$@")
case "$which" in
  000) run_paper 000 Paper000Prim 120 "${args[@]}" ;;
  003) run_paper 003 Paper003Sssp 330 "${args[@]}" ;;
  004) run_paper 004 Paper004Harish 400 "${args[@]}" ;;
  all) run_paper 000 Paper000Prim 120 "${args[@]}"
       run_paper 003 Paper003Sssp 330 "${args[@]}"
       run_paper 004 Paper004Harish 400 "${args[@]}" ;;
  *) echo "usage: $0 repro 000|003|004|all [--quick] [harness args]" >&2; exit 2 ;;
esac
exit $status
