#!/usr/bin/env bash
# On the GPU machine, from the repository root: unpacks .device-worker/frontier-worker.tar.xz (built here by
# deploy/gpu/build-worker-bundle.sh) and runs the CLI with it, e.g.  deploy/gpu/run-worker.sh demo --backend gpu
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${FRONTIER_UNPACK:-/tmp/frontier-worker}"
if [[ ! -x "$dir/frontier/jre/bin/java" ]]; then
  mkdir -p "$dir"
  xz -dc "$root/.device-worker/frontier-worker.tar.xz" | tar -C "$dir" -xf -
fi
tmp="$(mktemp -d /tmp/frontier-jcuda.XXXXXX)"
cd "$root"
exec "$dir/frontier/jre/bin/java" -Xmx16g -Djava.io.tmpdir="$tmp" -cp "$dir/frontier/lib/*" \
  org.frontiergraph.cli.FrontierCli "$@"
