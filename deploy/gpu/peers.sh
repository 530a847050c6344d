#!/usr/bin/env bash
# Frontier against the peers (gapbs BFS, SSSP and CC, ECL-MST), side by side, in ONE call on the GPU machine, from the
# repository root, with the bundle of deploy/gpu/build-bundle.sh in .device/ (the peers' sources in .device/peers/):
#   deploy/gpu/peers.sh        the table on stdout and in $OUT/peers.md; $OUT/peers.log (all of stdout),
#                              $OUT/peer-logs.txt (every peer's own output), $OUT/gpu.txt
# 1. builds gapbs bfs, sssp and cc (unmodified), gapbs-check-{bfs,sssp} (gapbs's kernel and verifier
#    on given sources, writing the answer), gapbs-check-cc (gapbs's Afforest and CCVerifier, writing the labels), ECL-MST with the CUDA 13 printf fix of shared/peers/README.md and
#    ecl-mst-runs (its GPU MST run several times on one upload of the file, then its own Kruskal check and the MST);
# 2. PeerBench frontier: builds each graph as GpuBench does, writes it as .sg/.wsg/.egr, picks GpuBench's sources,
#    times Frontier's BFS, SSSP, MST and CC and writes Frontier's answers;
# 3. for each graph and source: gapbs bfs -f g.sg -r S -n TRIALS, gapbs sssp -f g.wsg -r S -n TRIALS -d DELTA
#    (GAP's deltas: 2 for Kronecker/uniform, 50000 for road graphs); gapbs cc -f g.sg -n 4*TRIALS;
#    ecl-mst-runs g.egr RUNS; the check programs on the first CHECK sources, gapbs-check-cc once;
# 4. PeerBench compare: checks that the answers agree and prints the ratio table (exit status 1 when they do not).
# Environment: PEERS_GRAPHS (ny,kron22,uniform22; GpuBench's names: kronSCALE, uniformSCALE, gridSIDE and the datasets
#   ny, rome99, luxembourg, enron, facebook), PEERS_SOURCES (16), PEERS_CHECK (2), PEERS_TRIALS (4),
#   PEERS_MST_RUNS (ECL-MST runs in one process, the first excluded from the median: 8; 0 = its serial Kruskal only,
#   for trying this without a GPU), PEERS_BUDGET (seconds: peer runs are cut off after it, so that the table is
#   still printed inside the device tool's 10 minutes; 500), PEERS_ENGINE (gpu; cpu to try the pipeline without a
#   GPU), PEERS_ARCH (sm_90), PEERS_WORK (scratch folder; default a new one in /tmp, removed at the end unless
#   PEERS_KEEP=1), PEERS_HEAP (64g), JAVA and PEERS_CP (another Java and class path than the bundle's, to run it
#   off the GPU machine), PEERS_SRC (the peers' sources: .device/peers, else ../shared/peers).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
b=.device
out="${OUT:-$b/out}"
mkdir -p "$out"
graphs="${PEERS_GRAPHS:-ny,kron22,uniform22}"
sources="${PEERS_SOURCES:-16}"
check="${PEERS_CHECK:-2}"
trials="${PEERS_TRIALS:-4}"
mst_runs="${PEERS_MST_RUNS:-8}"
budget="${PEERS_BUDGET:-500}"
engine="${PEERS_ENGINE:-gpu}"
arch="${PEERS_ARCH:-sm_90}"
src="${PEERS_SRC:-$b/peers}"
[[ -d "$src/gapbs" ]] || src="$root/../shared/peers"
work="${PEERS_WORK:-$(mktemp -d /tmp/frontier-peers.XXXXXX)}"
bin="$work/bin"
java="${JAVA:-$b/jre/bin/java}"
cp="${PEERS_CP:-$(ls $b/lib/*.jar 2>/dev/null | grep -v console-standalone | tr '\n' ':')}"
export FRONTIER_DATASETS="${FRONTIER_DATASETS:-$root/$b/datasets}"

# the C++ around the peers' own code: their kernels and verifiers are called as they are, nothing is copied
write_wrappers() {
  cat > "$bin/gapbs_check.cc" <<'EOF'
// gapbs-check-{bfs,sssp}: gapbs's own kernel (DOBFS from bfs.cc, DeltaStep from sssp.cc, included unmodified with
// their main renamed) run once per source on the given file, checked by gapbs's own verifier, and its answer written
// for PeerReport: OUTDIR/gapbs-bfs-S.i32 (the depth of each vertex in gapbs's BFS tree) or OUTDIR/gapbs-sssp-S.i32
// (its distances), int32 little-endian, -1 unreached.
//   gapbs-check-bfs  GRAPH.sg  OUTDIR SOURCE...
//   gapbs-check-sssp GRAPH.wsg OUTDIR DELTA SOURCE...
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#define main gapbs_main
#ifdef CHECK_BFS
#include "bfs.cc"
#else
#include "sssp.cc"
#endif
#undef main

static bool Write(const std::string &file, const std::vector<int32_t> &values) {
  FILE *f = fopen(file.c_str(), "wb");
  if (f == nullptr) return false;
  size_t n = fwrite(values.data(), sizeof(int32_t), values.size(), f);
  return fclose(f) == 0 && n == values.size();
}

#ifdef CHECK_BFS
// Depth of every vertex in the parent tree (-1 unreached); false when the tree does not lead back to the source.
static bool Depths(const pvector<NodeID> &parent, NodeID source, std::vector<int32_t> &depth) {
  const int64_t n = parent.size();
  depth.assign(n, -2);
  depth[source] = 0;
  std::vector<NodeID> path;
  for (int64_t v = 0; v < n; v++) {
    if (parent[v] < 0) { depth[v] = -1; continue; }
    NodeID u = v;
    path.clear();
    while (depth[u] == -2) {
      path.push_back(u);
      u = parent[u];
      if (u < 0 || static_cast<int64_t>(path.size()) > n) return false;
    }
    if (depth[u] < 0) return false;
    int32_t d = depth[u];
    for (auto it = path.rbegin(); it != path.rend(); ++it) depth[*it] = ++d;
  }
  return true;
}
#endif

int main(int argc, char *argv[]) {
#ifdef CHECK_BFS
  const int first = 3;
#else
  const int first = 4;
#endif
  if (argc <= first) {
    fprintf(stderr, "usage: %s GRAPH OUTDIR %sSOURCE...\n", argv[0], first == 4 ? "DELTA " : "");
    return 2;
  }
  char *args[] = {argv[0], const_cast<char *>("-f"), argv[1], nullptr};
  CLBase cli(3, args, "gapbs check");
  if (!cli.ParseArgs()) return 2;
  std::string out = argv[2];
  int status = 0;
#ifdef CHECK_BFS
  Builder b(cli);
  Graph g = b.MakeGraph();
#else
  WeightedBuilder b(cli);
  WGraph g = b.MakeGraph();
  const WeightT delta = atoi(argv[3]);
#endif
  for (int i = first; i < argc; i++) {
    const NodeID source = atoi(argv[i]);
    Timer t;
    std::vector<int32_t> answer(g.num_nodes());
#ifdef CHECK_BFS
    const char *kind = "bfs";
    t.Start();
    pvector<NodeID> parent = DOBFS(g, source);
    t.Stop();
    bool ok = BFSVerifier(g, source, parent);
    if (!Depths(parent, source, answer)) {
      printf("bfs source %d: the parent tree does not lead back to the source\n", source);
      ok = false;
    }
#else
    const char *kind = "sssp";
    t.Start();
    pvector<WeightT> dist = DeltaStep(g, source, delta);
    t.Stop();
    bool ok = SSSPVerifier(g, source, dist);
    for (int64_t v = 0; v < g.num_nodes(); v++) answer[v] = dist[v] == kDistInf ? -1 : dist[v];
#endif
    int64_t reached = 0;
    for (int32_t a : answer) reached += a >= 0;
    std::string file = out + "/gapbs-" + kind + "-" + std::to_string(source) + ".i32";
    if (!Write(file, answer)) {
      printf("%s source %d: cannot write %s\n", kind, source, file.c_str());
      ok = false;
    }
    printf("%s source %d: %.5f s, reached %ld, gapbs verifier %s\n", kind, source, t.Seconds(),
           static_cast<long>(reached), ok ? "PASS" : "FAIL");
    if (!ok) status = 1;
  }
  return status;
}
EOF
  cat > "$bin/gapbs_check_cc.cc" <<'EOF'
// gapbs-check-cc: gapbs's own Afforest (cc.cc, included unmodified with its main renamed) run once on the given file,
// checked by gapbs's own CCVerifier, and its labels written for PeerReport: OUTDIR/gapbs-cc.i32, each vertex's
// label renamed to the smallest vertex of its component (int32 little-endian), as Frontier labels components.
//   gapbs-check-cc GRAPH.sg OUTDIR
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>
#define main gapbs_main
#include "cc.cc"
#undef main

int main(int argc, char *argv[]) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s GRAPH.sg OUTDIR\n", argv[0]);
    return 2;
  }
  char *args[] = {argv[0], const_cast<char *>("-f"), argv[1], nullptr};
  CLBase cli(3, args, "gapbs check cc");
  if (!cli.ParseArgs()) return 2;
  Builder b(cli);
  Graph g = b.MakeGraph();
  Timer t;
  t.Start();
  pvector<NodeID> comp = Afforest(g);
  t.Stop();
  bool ok = CCVerifier(g, comp);
  const int64_t n = g.num_nodes();
  std::vector<int32_t> smallest(n, -1), labels(n);
  int64_t components = 0;
  for (int64_t v = 0; v < n; v++) {
    if (smallest[comp[v]] < 0) { smallest[comp[v]] = v; components++; }
    labels[v] = smallest[comp[v]];
  }
  std::string file = std::string(argv[2]) + "/gapbs-cc.i32";
  FILE *f = fopen(file.c_str(), "wb");
  if (f == nullptr || fwrite(labels.data(), sizeof(int32_t), n, f) != static_cast<size_t>(n) || fclose(f) != 0) {
    printf("cc: cannot write %s\n", file.c_str());
    ok = false;
  }
  printf("cc: %.5f s, %ld components, gapbs verifier %s\n", t.Seconds(), static_cast<long>(components),
         ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
EOF
  cat > "$bin/ecl_mst_runs.cu" <<'EOF'
// ecl-mst-runs: ECL-MST's own GPU MST (gpuMST of ECL-MST_10.cu, unmodified but for the CUDA 13 printf fix, included
// with its main renamed) run RUNS times on one .egr read once: each run prints ECL-MST's "Dev" time (its kernels,
// after the upload, before the copy-back). Then ECL-MST's serial Kruskal check of the last run ("all good") and that
// MST: its weight, edge count and an order-free hash of its edges (u < v), which PeerBench computes the same way
// over Frontier's MST.
//   ecl-mst-runs GRAPH.egr RUNS      (RUNS = 0: no GPU, the serial Kruskal's MST only, to try it without a GPU)
#define main ecl_mst_main
#include "ECL-MST_10.cu"
#undef main

static unsigned long long Mix(unsigned long long z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static void PrintMst(const ECLgraph& g, const bool* const inMST)
{
  unsigned long long weight = 0, edges = 0, sum = 0;
  for (int u = 0; u < g.nodes; u++) {
    for (int j = g.nindex[u]; j < g.nindex[u + 1]; j++) {
      if (inMST[j]) {  // ECL-MST marks the arc u->v with u < v
        weight += g.eweight[j];
        edges++;
        sum += Mix((((unsigned long long)u) << 32) | (unsigned int)g.nlist[j]);
      }
    }
  }
  printf("MST weight: %llu\nMST edges: %llu\nMST hash: %llu\n", weight, edges, sum);
}

int main(int argc, char* argv[])
{
  if (argc != 3) {fprintf(stderr, "usage: %s GRAPH.egr RUNS\n", argv[0]); return 2;}
  const int runs = atoi(argv[2]);
  ECLgraph g = readECLgraph(argv[1]);
  printf("input: %s, %d nodes, %d arcs\n", argv[1], g.nodes, g.edges);
  if (g.eweight == NULL) {fprintf(stderr, "ERROR: %s has no weights\n", argv[1]); return 2;}
  if (runs == 0) {
    bool* const cpuMSTedges = cpuMST(g);
    PrintMst(g, cpuMSTedges);
    freeECLgraph(g);
    delete [] cpuMSTedges;
    return 0;
  }
  cudaSetDevice(Device);
  cudaDeviceProp deviceProp;
  cudaGetDeviceProperties(&deviceProp, Device);
  printf("GPU: %s with %d SMs\n", deviceProp.name, deviceProp.multiProcessorCount);
  fflush(stdout);

  // ECL-MST's main's choice of code path and threshold, as it is there
  const int avg_deg = g.edges / g.nodes;
  int threshold = INT_MAX;
  if (avg_deg >= 4) {
    int sorted_weights [20];
    const int num_samples = std::min(g.edges, 20);
    for (int i = 0; i < num_samples; i++) sorted_weights[i] = g.eweight[(hash(i) % g.edges)];
    std::sort(sorted_weights, sorted_weights + num_samples);
    threshold = sorted_weights[std::min(19, (int)(3.0 * g.nodes * num_samples / g.edges))];
  }
  bool* gpuMSTedges = NULL;
  for (int r = 0; r < runs; r++) {
    delete [] gpuMSTedges;
    gpuMSTedges = avg_deg >= 4 ? gpuMST<true>(g, threshold) : gpuMST<false>(g, INT_MAX);
    fflush(stdout);
  }
  bool* const cpuMSTedges = cpuMST(g);
  verify(g, cpuMSTedges, gpuMSTedges);
  PrintMst(g, gpuMSTedges);
  freeECLgraph(g);
  delete [] gpuMSTedges;
  delete [] cpuMSTedges;
  return 0;
}
EOF
}

# a subshell: its failures stop the build, not the script
build_peers() (
  rm -rf "$bin" && mkdir -p "$bin" && cp -r "$src/gapbs" "$src/ECL-MST" "$bin/" && chmod -R u+w "$bin" || exit 1
  # CUDA 13 removed cudaDeviceProp::clockRate and memoryClockRate (shared/peers/README.md)
  sed -i 's/ (%.1f MHz and %.1f MHz)//; s/, deviceProp.clockRate \* 0.001, deviceProp.memoryClockRate \* 0.001//' \
      "$bin/ECL-MST/source/ECL-MST_10.cu" || exit 1
  write_wrappers || exit 1
  flags="-std=c++11 -O3 -Wall -fopenmp -I $bin/gapbs/src"
  pids=()
  make -s -C "$bin/gapbs" -j16 bfs sssp cc & pids+=($!)
  g++ $flags -DCHECK_BFS "$bin/gapbs_check.cc" -o "$bin/gapbs-check-bfs" & pids+=($!)
  g++ $flags "$bin/gapbs_check.cc" -o "$bin/gapbs-check-sssp" & pids+=($!)
  g++ $flags "$bin/gapbs_check_cc.cc" -o "$bin/gapbs-check-cc" & pids+=($!)
  if command -v nvcc >/dev/null; then
    nvcc -O3 -arch="$arch" -I "$bin/ECL-MST/source" "$bin/ecl_mst_runs.cu" -o "$bin/ecl-mst-runs" & pids+=($!)
  else
    echo "no nvcc: ECL-MST not built"
  fi
  failed=0
  for p in "${pids[@]}"; do wait "$p" || failed=1; done
  exit $failed
)

# runs a peer with its output in LOG, unless the budget is spent (then returns 99); the budget bounds its time too
peer() {
  local log="$1"; shift
  local left=$(( budget - SECONDS ))
  if (( left < 10 )); then
    echo "skipped: budget of ${budget}s spent: $*" | tee -a "$log"
    return 99
  fi
  timeout "$left" "$@" >> "$log" 2>&1
  local rc=$?
  (( rc == 0 )) || echo "exit $rc: $*" | tee -a "$log"
  return $rc
}

run_peers() {
  local g d s
  while read -r g; do
    [[ -n "$g" ]] || continue
    d="$work/$g"
    local SOURCES CHECK DELTA
    source "$d/graph.env"
    echo "== $g: gapbs bfs and sssp on $(wc -w <<<"$SOURCES") sources, -n $trials, delta $DELTA"
    for s in $SOURCES; do
      peer "$d/gapbs-bfs-$s.log" "$bin/gapbs/bfs" -f "$d/g.sg" -r "$s" -n "$trials"
      (( $? == 99 )) && break
    done
    for s in $SOURCES; do
      peer "$d/gapbs-sssp-$s.log" "$bin/gapbs/sssp" -f "$d/g.wsg" -r "$s" -n "$trials" -d "$DELTA"
      (( $? == 99 )) && break
    done
    echo "== $g: gapbs cc -n $(( 4 * trials ))"
    peer "$d/gapbs-cc.log" "$bin/gapbs/cc" -f "$d/g.sg" -n "$(( 4 * trials ))"
    echo "== $g: ecl-mst-runs ($mst_runs runs)"
    if [[ -x "$bin/ecl-mst-runs" ]]; then
      peer "$d/ecl-mst.log" "$bin/ecl-mst-runs" "$d/g.egr" "$mst_runs"
    else
      echo "ecl-mst-runs was not built" > "$d/ecl-mst.log"
    fi
    echo "== $g: gapbs's answers from $CHECK (gapbs-check-bfs, gapbs-check-sssp)"
    peer "$d/gapbs-check.log" "$bin/gapbs-check-bfs" "$d/g.sg" "$d" $CHECK
    peer "$d/gapbs-check.log" "$bin/gapbs-check-sssp" "$d/g.wsg" "$d" "$DELTA" $CHECK
    peer "$d/gapbs-check.log" "$bin/gapbs-check-cc" "$d/g.sg" "$d"
    grep -h "gapbs verifier" "$d/gapbs-check.log"
    rm -f "$d/g.sg" "$d/g.wsg" "$d/g.egr"
  done < "$work/graphs.txt"
}

# every peer's own output, for the record
collect_logs() {
  local g f
  {
    echo "### build"; cat "$work/build.log"
    [[ -f "$work/graphs.txt" ]] && while read -r g; do
      [[ -n "$g" ]] || continue
      for f in "$work/$g"/*.properties "$work/$g"/*.env "$work/$g"/*.log; do
        [[ -f "$f" ]] && { echo "### $g/$(basename "$f")"; cat "$f"; }
      done
    done < "$work/graphs.txt"
  } > "$out/peer-logs.txt" 2>&1
}

main() {
  echo "peers.sh: graphs $graphs, $sources sources ($check checked), gapbs -n $trials, ECL-MST $mst_runs runs," \
       "budget ${budget}s, engine $engine, work $work, peers from $src"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1 | tee "$out/gpu.txt"
  echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  mkdir -p "$work"
  # built first, not beside the Frontier step: a busy host would slow Frontier's kernel launches
  if ! build_peers > "$work/build.log" 2>&1; then
    echo "== building the peers FAILED:"; cat "$work/build.log"
  fi
  echo "== peers built in $SECONDS s"
  local tmp; tmp="$(mktemp -d /tmp/frontier-jcuda.XXXXXX)"   # JCuda unpacks its natives here
  local jvm=("$java" "-Djava.io.tmpdir=$tmp" "-DFRONTIER_DATASETS=$FRONTIER_DATASETS" -Xss16m
             "-Xmx${PEERS_HEAP:-64g}" -cp "$cp" org.frontiergraph.bench.peers.PeerBench)
  echo "== Frontier: PeerBench frontier"
  timeout "$(( budget - SECONDS ))" "${jvm[@]}" frontier --work "$work" --graphs "$graphs" --sources "$sources" --check "$check" \
      --engine "$engine"
  local frontier_rc=$?
  echo "== Frontier done at $SECONDS s"
  [[ -f "$work/graphs.txt" ]] && run_peers
  echo "== compare ($SECONDS s since the start)"
  "${jvm[@]}" compare --work "$work" --out "$out/peers.md" --trials "$trials" \
      --command "deploy/gpu/peers.sh (PEERS_GRAPHS=$graphs PEERS_SOURCES=$sources PEERS_CHECK=$check PEERS_TRIALS=$trials PEERS_MST_RUNS=$mst_runs)"
  local rc=$?
  collect_logs
  rm -rf "$tmp"
  [[ "${PEERS_KEEP:-0}" == 1 ]] || rm -rf "$work"
  echo "peers.sh: done in $SECONDS s"
  (( frontier_rc == 0 )) || rc=1
  return $rc
}

main 2>&1 | tee "$out/peers.log"
exit "${PIPESTATUS[0]}"
