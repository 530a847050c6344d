package org.frontiergraph.worker.processing;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.AnswerFields;
import org.frontiergraph.schema.codec.CompactArrays;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.frontiergraph.worker.registry.VertexNameTable;

/**
 * Vertex names in queries, subscriptions and their answers (docs/contract.md, "Vertex names"): a record that names its
 * source or targets is turned into ids against the graph's current version when it is read ({@link #resolve}); the
 * answer of a record that asked by name ({@link #asksByName}) gets, in every chunk, the names of the vertices the
 * chunk mentions ({@code nameIds}, {@code names}). Which subscriptions asked by name is kept here until their END push.
 */
final class VertexNaming {
    private final GraphRegistry registry;
    /** Per graph, the ids of the subscriptions whose pushes carry names. */
    private final Map<String, Set<String>> namedSubscriptions = new ConcurrentHashMap<>();

    VertexNaming(GraphRegistry registry) {
        this.registry = registry;
    }

    static boolean asksByName(GraphQuery q) {
        return q.getWithNames() || q.getSourceName() != null || !q.getTargetNames().isEmpty();
    }

    static boolean asksByName(Subscription s) {
        return s.getWithNames() || s.getSourceName() != null || !s.getTargetNames().isEmpty();
    }

    /** {@code q} with its source and targets in ids. @throws RejectedException see {@link #ids} */
    GraphQuery resolve(GraphQuery q) {
        if (!asksByName(q)) return q;
        String what = "query '" + q.getQueryId() + "'";
        Resolved r = ids(what, q.getGraphId(), q.getSource(), q.getSourceName(), q.getTargets(), q.getTargetNames());
        return GraphQuery.newBuilder(q).setSource(r.source).setTargets(r.targets).build();
    }

    /**
     * {@code s} with its source and targets in ids (a cancel as it is); remembers whether its pushes carry names.
     * @throws RejectedException see {@link #ids}
     */
    Subscription resolve(Subscription s) {
        if (s.getCancel()) {
            forget(s.getGraphId(), s.getSubscriptionId());
            return s;
        }
        if (!asksByName(s)) {
            forget(s.getGraphId(), s.getSubscriptionId());
            return s;
        }
        String what = "subscription '" + s.getSubscriptionId() + "'";
        Resolved r = ids(what, s.getGraphId(), s.getSource(), s.getSourceName(), s.getTargets(), s.getTargetNames());
        namedSubscriptions.computeIfAbsent(s.getGraphId(), g -> ConcurrentHashMap.newKeySet()).add(s.getSubscriptionId());
        return Subscription.newBuilder(s).setSource(r.source).setTargets(r.targets).build();
    }

    private record Resolved(Integer source, List<Integer> targets) {}

    /**
     * The source and targets in ids. @throws RejectedException INVALID_QUERY for a vertex given both by id and by
     * name, UNKNOWN_GRAPH, UNKNOWN_NAME for a name the graph has no vertex of (or a graph loaded without names)
     */
    private Resolved ids(String what, String graphId, Integer source, String sourceName, List<Integer> targets,
                         List<String> targetNames) {
        if (source != null && sourceName != null) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, what + " gives its source both by id (" + source
                    + ") and by name ('" + sourceName + "'): set one of them");
        }
        if (!targets.isEmpty() && !targetNames.isEmpty()) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, what + " gives targets both by id and by name: set one of them");
        }
        GraphEntry e = registry.get(graphId).orElseThrow(() -> new RejectedException(ErrorCode.UNKNOWN_GRAPH,
                what + " on " + registry.whyUnknown(graphId)));
        VertexNameTable names = e.names();
        if (names == null) {
            throw new RejectedException(ErrorCode.UNKNOWN_NAME, what + " asks by name, but graph '" + graphId
                    + "' was loaded without names (version " + e.version() + ")");
        }
        Set<String> unknown = new LinkedHashSet<>();
        Integer s = sourceName == null ? source : Integer.valueOf(id(names, e.firstVertexId(), sourceName, unknown));
        List<Integer> t = targets;
        if (!targetNames.isEmpty()) {
            t = new ArrayList<>(targetNames.size());
            for (String n : targetNames) t.add(id(names, e.firstVertexId(), n, unknown));
        }
        if (!unknown.isEmpty()) {
            List<String> shown = unknown.stream().limit(5).map(n -> "'" + n + "'").toList();
            throw new RejectedException(ErrorCode.UNKNOWN_NAME, what + ": graph '" + graphId + "' version " + e.version()
                    + " has no vertex named " + String.join(", ", shown) + (unknown.size() > 5 ? ", ..." : ""));
        }
        return new Resolved(s, t);
    }

    private static int id(VertexNameTable names, int first, String name, Set<String> unknown) {
        int p = names.position(name);
        if (p < 0) unknown.add(name);
        return first + Math.max(p, 0);
    }

    private void forget(String graphId, String subscriptionId) {
        Set<String> ids = namedSubscriptions.get(graphId);
        if (ids != null && ids.remove(subscriptionId) && ids.isEmpty()) namedSubscriptions.remove(graphId, ids);
    }

    /** The answer to {@code q}: named when it asked by name. */
    List<QueryResult> name(GraphQuery q, List<QueryResult> chunks) {
        if (asksByName(q)) nameAll(q.getGraphId(), chunks);
        return chunks;
    }

    /** Pushes: those of subscriptions that asked by name are named; an END push ends its subscription's entry. */
    List<QueryResult> namePushes(List<QueryResult> pushes) {
        if (namedSubscriptions.isEmpty()) return pushes;
        for (QueryResult r : pushes) {
            Set<String> ids = namedSubscriptions.get(r.getGraphId());
            if (ids == null || !ids.contains(r.getQueryId())) continue;
            nameAll(r.getGraphId(), List.of(r));
            if (r.getReason() == PushReason.END && r.getChunkIndex() == r.getChunkCount() - 1) forget(r.getGraphId(), r.getQueryId());
        }
        return pushes;
    }

    /** Names every chunk against the graph's current names (a graph gone or unnamed leaves them as they are). */
    private void nameAll(String graphId, List<QueryResult> chunks) {
        GraphEntry e = registry.get(graphId).orElse(null);
        if (e == null || e.names() == null) return;
        for (QueryResult c : chunks) name(c, e.names(), e.firstVertexId());
    }

    /**
     * Sets the chunk's {@code nameIds} and {@code names}: the vertices it mentions (docs/contract.md). A compact DELTA
     * push (docs/contract.md, "Compact arrays") is read as it is: its vertex list and id arrays decoded, its other
     * arrays only counted, so its names are those of its plain form.
     */
    static void name(QueryResult c, VertexNameTable names, int first) {
        Ids ids = new Ids();
        if (c.getSource() != null) ids.add(c.getSource());
        ByteBuffer compactList = (ByteBuffer) c.get(CompactArrays.VERTICES);
        int[] listed = compactList != null ? CompactArrays.toInts(compactList, null)
                : c.getVertices() != null ? PackedArrays.toIntArray(c.getVertices()) : null;
        int positions = 0;
        for (AnswerFields.VertexArray a : AnswerFields.VertexArray.values()) positions = Math.max(positions, count(c, a));
        int[] at = null;   // the vertex at each position, for a compact id array relative to its vertices
        for (AnswerFields.VertexArray a : AnswerFields.VertexArray.values()) {
            if (!a.ids) continue;
            if (a.in(c) != null) {
                ids.add(a.in(c));
            } else if (c.get(CompactArrays.field(a)) != null) {
                if (at == null) at = listed != null ? listed : range(c.getFirstVertexId() + c.getOffset(), positions);
                ids.add(CompactArrays.toInts((ByteBuffer) c.get(CompactArrays.field(a)), at));
            }
        }
        if (listed != null) {
            ids.add(listed);
        } else if (c.getRows() != null) {   // APSP: the chunk's rows, and every column
            ids.range(first, names.size());
        } else {
            ids.range(first + c.getOffset(), positions);
        }
        ids.add(c.getMstEdges());
        ids.add(c.getRemovedEdges());
        for (AnswerFields.PushContent p : AnswerFields.PushContent.values()) {
            List<?> records = p.in(c);
            if (records != null) for (Object r : records) ids.add((IndexedRecord) r);
        }
        int[] sorted = ids.sorted(first, first + names.size());
        List<String> named = new ArrayList<>(sorted.length);
        for (int id : sorted) named.add(names.name(id - first));
        c.setNameIds(PackedArrays.pack(sorted));
        c.setNames(named);
    }

    /** The element count of {@code a} in {@code c}, plain or compact (0 when absent). */
    private static int count(QueryResult c, AnswerFields.VertexArray a) {
        ByteBuffer compact = (ByteBuffer) c.get(CompactArrays.field(a));
        return compact != null ? CompactArrays.count(compact) : a.count(c);
    }

    private static int[] range(int from, int count) {
        int[] r = new int[count];
        for (int i = 0; i < count; i++) r[i] = from + i;
        return r;
    }

    /** Vertex ids collected from a chunk's fields. */
    private static final class Ids {
        private int[] ids = new int[16];
        private int n;

        void add(int id) {
            if (n == ids.length) ids = Arrays.copyOf(ids, n * 2);
            ids[n++] = id;
        }

        void add(int[] more) {
            for (int id : more) add(id);
        }

        void add(ByteBuffer packed) {
            IntBuffer b = PackedArrays.ints(packed);
            while (b.hasRemaining()) add(b.get());
        }

        void add(EdgeBatch e) {
            if (e == null) return;
            add(e.getSources());
            add(e.getTargets());
        }

        /** A push content record: its int fields and int32 packed fields are vertex ids. */
        void add(IndexedRecord r) {
            for (Schema.Field f : r.getSchema().getFields()) {
                Object v = r.get(f.pos());
                if (f.schema().getType() == Schema.Type.INT) add((Integer) v);
                else if (f.schema().getType() == Schema.Type.BYTES && !AnswerFields.PushContent.real(f)) add((ByteBuffer) v);
            }
        }

        void range(int from, int count) {
            for (int i = 0; i < count; i++) add(from + i);
        }

        /** The ids in {@code [lo, hi)}, ascending, without repeats. */
        int[] sorted(int lo, int hi) {
            int[] s = Arrays.copyOf(ids, n);
            Arrays.sort(s);
            int k = 0;
            for (int i = 0; i < s.length; i++) {
                if (s[i] < lo || s[i] >= hi || (k > 0 && s[k - 1] == s[i])) continue;
                s[k++] = s[i];
            }
            return Arrays.copyOf(s, k);
        }
    }
}
