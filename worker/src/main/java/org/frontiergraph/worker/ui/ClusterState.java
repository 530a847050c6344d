package org.frontiergraph.worker.ui;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToIntFunction;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.WorkerGraph;
import org.frontiergraph.schema.WorkerPartition;
import org.frontiergraph.schema.WorkerStatus;

/**
 * The cluster as the status topic tells it (docs/contract.md, "WorkerStatus"), folded from its records in any order:
 * each worker's latest {@link WorkerStatus} (readiness, partitions with lag, graphs held), and the
 * {@link GraphStatus} records published after it (a version that became current, a graph dropped), which count until
 * that worker's next status. A worker silent for more than {@link #STALE_INTERVALS} of its intervals is shown as
 * silent and its graphs are left out (it stopped, or lost the cluster: its partitions went to others); after
 * {@link #FORGET_INTERVALS} it is forgotten. A graph listed by two workers (its partition just moved) is shown once,
 * from the more recent report.
 */
final class ClusterState {
    static final int STALE_INTERVALS = 3;
    static final int FORGET_INTERVALS = 30;

    private final long defaultIntervalMs;
    private final Map<String, WorkerStatus> workers = new HashMap<>();
    /** Per worker, per graph: the latest GraphStatus newer than the worker's latest WorkerStatus. */
    private final Map<String, Map<String, GraphStatus>> later = new HashMap<>();

    /** {@code defaultIntervalMs}: the interval of a worker whose status does not say (this worker's). */
    ClusterState(long defaultIntervalMs) {
        this.defaultIntervalMs = defaultIntervalMs;
    }

    synchronized void accept(WorkerStatus s) {
        WorkerStatus prev = workers.get(s.getWorker());
        if (prev != null && prev.getTimestampMs() > s.getTimestampMs()) return;
        workers.put(s.getWorker(), s);
        Map<String, GraphStatus> l = later.get(s.getWorker());
        if (l != null) l.values().removeIf(g -> g.getTimestampMs() <= s.getTimestampMs());
    }

    synchronized void accept(GraphStatus g) {
        String state = g.getState().name();
        if (!state.equals("LOADED") && !state.equals("DROPPED")) return;   // other states change nothing held
        WorkerStatus w = workers.get(g.getWorker());
        if (w != null && g.getTimestampMs() <= w.getTimestampMs()) return;
        later.computeIfAbsent(g.getWorker(), k -> new HashMap<>())
                .merge(g.getGraphId(), g, (a, b) -> b.getTimestampMs() >= a.getTimestampMs() ? b : a);
    }

    /**
     * The workers (by name) and the graphs of the live ones (by graph id), as the page shows them at {@code nowMs};
     * {@code partitionOf} places a graph only a GraphStatus told of (-1: unknown).
     */
    synchronized Map<String, Object> view(long nowMs, ToIntFunction<String> partitionOf) {
        forget(nowMs);
        List<Map<String, Object>> workerRows = new ArrayList<>();
        Map<String, Row> graphs = new TreeMap<>();
        List<String> names = new ArrayList<>(workers.keySet());
        later.keySet().stream().filter(n -> !workers.containsKey(n)).forEach(names::add);
        names.sort(Comparator.naturalOrder());
        for (String name : names) {
            WorkerStatus s = workers.get(name);
            Map<String, GraphStatus> newer = later.getOrDefault(name, Map.of());
            long heard = Math.max(s == null ? 0 : s.getTimestampMs(),
                    newer.values().stream().mapToLong(GraphStatus::getTimestampMs).max().orElse(0));
            boolean silent = nowMs - heard > STALE_INTERVALS * interval(s);
            Map<String, Row> held = new TreeMap<>();
            if (s != null) {
                for (WorkerGraph g : s.getGraphs()) {
                    held.put(g.getGraphId(), new Row(g.getGraphId(), g.getVersion(), g.getVertexCount(), g.getEdgeCount(),
                            g.getBackend(), g.getResidentBytes(), g.getPartition(), name, s.getTimestampMs()));
                }
            }
            for (GraphStatus g : newer.values()) {
                if (g.getState().name().equals("DROPPED")) {
                    held.remove(g.getGraphId());
                } else {
                    Row before = held.get(g.getGraphId());
                    int partition = before != null ? before.partition() : partitionOf.applyAsInt(g.getGraphId());
                    held.put(g.getGraphId(), new Row(g.getGraphId(), g.getVersion(), g.getVertexCount(), g.getEdgeCount(),
                            g.getBackend(), g.getResidentBytes(), partition, name, g.getTimestampMs()));
                }
            }
            if (!silent) {
                held.values().forEach(r -> graphs.merge(r.graphId(), r, (a, b) -> b.reportedMs() > a.reportedMs() ? b : a));
            }
            workerRows.add(workerRow(name, s, held.size(), heard, silent, nowMs));
        }
        List<Map<String, Object>> graphRows = new ArrayList<>();
        for (Row r : graphs.values()) graphRows.add(r.toMap(nowMs));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("workers", workerRows);
        out.put("graphs", graphRows);
        return out;
    }

    private static Map<String, Object> workerRow(String name, WorkerStatus s, int graphs, long heard, boolean silent, long nowMs) {
        Map<String, Object> w = new LinkedHashMap<>();
        w.put("worker", name);
        w.put("state", s == null ? "" : s.getState());
        w.put("ready", s != null && s.getReady() && !silent);
        w.put("silent", silent);
        w.put("heardMsAgo", nowMs - heard);
        w.put("heard", VersionLabel.age(nowMs - heard));
        List<Map<String, Object>> partitions = new ArrayList<>();
        if (s != null) {
            for (WorkerPartition p : s.getPartitions()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("partition", p.getPartition());
                m.put("lag", p.getLag());
                m.put("rebuilding", p.getRebuilding());
                partitions.add(m);
            }
        }
        w.put("partitions", partitions);
        w.put("graphs", graphs);
        w.put("graphsOmitted", s == null ? 0 : s.getGraphsOmitted());
        return w;
    }

    private long interval(WorkerStatus s) {
        return s != null && s.getIntervalMs() > 0 ? s.getIntervalMs() : defaultIntervalMs;
    }

    /** Drops the workers silent for more than {@link #FORGET_INTERVALS} intervals, and what was told of them. */
    private void forget(long nowMs) {
        workers.values().removeIf(s -> nowMs - s.getTimestampMs() > FORGET_INTERVALS * interval(s));
        later.entrySet().removeIf(e -> !workers.containsKey(e.getKey()) && e.getValue().values().stream()
                .allMatch(g -> nowMs - g.getTimestampMs() > FORGET_INTERVALS * defaultIntervalMs));
    }

    /** A graph as the cluster reports it, and when that report was made. */
    private record Row(String graphId, long version, int vertices, long edges, String backend, long residentBytes,
                       int partition, String worker, long reportedMs) {
        Map<String, Object> toMap(long nowMs) {
            Map<String, Object> g = new LinkedHashMap<>();
            g.put("graphId", graphId);
            g.put("version", version);
            g.put("versionLabel", VersionLabel.of(version, nowMs));
            g.put("vertices", vertices);
            g.put("edges", edges);
            g.put("backend", backend);
            g.put("residentBytes", residentBytes);
            g.put("partition", partition);
            g.put("worker", worker);
            return g;
        }
    }
}
