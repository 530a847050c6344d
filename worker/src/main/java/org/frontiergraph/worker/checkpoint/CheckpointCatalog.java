package org.frontiergraph.worker.checkpoint;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.header.Headers;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.checkpoint.CheckpointFormat.Meta;

/**
 * The records of one partition of the checkpoint topic as compaction leaves them (the latest value of each key, a
 * tombstone removing it), read in log order from the beginning or from an offset (where the newest checkpoints of the
 * partition's graphs start, as the last commit named it: {@link #lacks} says whether such a read holds what the
 * rebuild needs), and the checkpoint each graph can be rebuilt from. Not thread-safe.
 */
public final class CheckpointCatalog {
    private record Stored(byte[] value, Headers headers, long offset) {}

    /** Per graph, per slot (0, 1): chunk records by index, subscription records by index, the validity marker. */
    private static final class Slots {
        @SuppressWarnings("unchecked")
        final TreeMap<Integer, Stored>[] chunks = new TreeMap[] {new TreeMap<>(), new TreeMap<>()};
        @SuppressWarnings("unchecked")
        final TreeMap<Integer, Stored>[] subs = new TreeMap[] {new TreeMap<>(), new TreeMap<>()};
        final Stored[] markers = new Stored[2];
    }

    private final Map<String, Stored> latest = new HashMap<>();
    /** The offset the read started at, and whether that was the beginning of the partition. */
    private final long from;
    private final boolean whole;
    /** Records and value bytes read. */
    private long records, bytes;
    /** Where the complete checkpoints {@link #usable} saw start (every slot's, not only the one chosen). */
    private final Set<Long> starts = new HashSet<>();

    /** A catalog of the records read from {@code from}; {@code whole}: from the beginning of the partition. */
    public CheckpointCatalog(long from, boolean whole) {
        this.from = from;
        this.whole = whole;
    }

    /**
     * A graph's usable checkpoint: its slot and chunks, the offset through which it holds, its subscriptions (null:
     * a checkpoint that carries none, whose graph's subscription records are replayed), the chunk keys and the
     * subscription keys each slot holds (those seen, or declared by a chunk 0 when more), the checkpoint-topic offset
     * at which it starts (its first record; -1 where an offset is unknown), and whether a chunk 0 of the graph declares
     * its slots' keys ({@link CheckpointFormat#SLOTS}; one written before they were declared does not).
     */
    public record Found(String graphId, Meta meta, long validThrough, List<byte[]> values, List<Headers> headers,
                        List<CheckpointedSubscriptions.Carried> subscriptions, int[] slotSizes, int[] subSizes, long start,
                        boolean declared) {
        /** The checkpoint itself, decoded. */
        public Checkpoint decode() throws FrontierCodec.MalformedMessageException {
            return CheckpointFormat.decode(graphId, values, headers, validThrough);
        }
    }

    /** A record read at {@code offset}, in log order; {@code value} null: a tombstone. */
    public void add(String key, byte[] value, Headers headers, long offset) {
        records++;
        if (value != null) bytes += value.length;
        if (key == null) return;
        if (value == null) latest.remove(key);
        else latest.put(key, new Stored(value, headers, offset));
    }

    /** The offset the read started at. */
    public long from() {
        return from;
    }

    /** Whether the read started at the beginning of the partition (nothing compaction kept was skipped). */
    public boolean whole() {
        return whole;
    }

    public int size() {
        return latest.size();
    }

    /** Records read (superseded ones and tombstones included). */
    public long records() {
        return records;
    }

    /** Bytes of the values read. */
    public long bytes() {
        return bytes;
    }

    /**
     * Per graph, the newest complete checkpoint that a rebuild resuming at {@code committed} may start from: all its
     * chunks present and of one checkpoint, taken before {@code committed} (a checkpoint taken past the committed
     * offset holds updates whose records will be read again, and queries before it would see a later version).
     * Its {@code validThrough}: the latest offset below {@code committed} through which the graph is known unchanged.
     * Graphs none of whose slots qualify are left out ({@code unusable} gets their ids).
     */
    public Map<String, Found> usable(long committed, List<String> unusable) {
        Map<String, Slots> graphs = new HashMap<>();
        for (Map.Entry<String, Stored> e : latest.entrySet()) {
            String graph = CheckpointFormat.graphOf(e.getKey());
            boolean sub = graph != null && SubscriptionRecords.isKey(e.getKey());
            Meta m = sub ? SubscriptionRecords.meta(e.getValue().headers()) : CheckpointFormat.meta(e.getValue().headers());
            if (graph == null || m == null || m.slot() < 0 || m.slot() > 1) continue;
            Slots s = graphs.computeIfAbsent(graph, g -> new Slots());
            String last = e.getKey().substring(e.getKey().lastIndexOf('/') + 1);
            if (sub) {
                s.subs[m.slot()].put(m.index(), e.getValue());
            } else if (last.equals(CheckpointFormat.VALID_KEY)) {
                s.markers[m.slot()] = e.getValue();
            } else {
                s.chunks[m.slot()].put(m.index(), e.getValue());
            }
        }
        Map<String, Found> found = new HashMap<>();
        for (Map.Entry<String, Slots> e : graphs.entrySet()) {
            Slots s = e.getValue();
            int[] sizes = {keys(s.chunks[0]), keys(s.chunks[1])}, subSizes = {keys(s.subs[0]), keys(s.subs[1])};
            boolean declared = false;
            for (int slot = 0; slot < 2; slot++) {   // what a chunk 0 declares of both slots, where it knew more
                Stored zero = s.chunks[slot].get(0);
                int[] d = zero == null ? null : CheckpointFormat.slots(zero.headers());
                if (d == null) continue;
                declared = true;
                for (int k = 0; k < 2; k++) {
                    sizes[k] = Math.max(sizes[k], d[k]);
                    subSizes[k] = Math.max(subSizes[k], d[2 + k]);
                }
            }
            Found best = null;
            for (int slot = 0; slot < 2; slot++) {
                Found f = complete(e.getKey(), s, slot, committed, sizes, subSizes, declared);
                if (f != null) starts.add(f.start());
                if (f != null && (best == null || f.validThrough() > best.validThrough())) best = f;
            }
            if (best != null) found.put(e.getKey(), best);
            else unusable.add(e.getKey());
        }
        return found;
    }

    /** Indexes a slot's keys may reach: the highest held, plus one. */
    private static int keys(TreeMap<Integer, Stored> held) {
        return held.isEmpty() ? 0 : held.lastKey() + 1;
    }

    /**
     * Why a read that did not start at the beginning ({@link #whole} false) does not hold what a rebuild needs, given
     * what {@link #usable} found and left out: no complete checkpoint starts where it started, fewer graphs have a
     * usable checkpoint than the commit relied on ({@code graphs}: one may have been deleted since, or the offset is
     * wrong), a graph seen has none, or one does not declare its other slot's keys (written before they were
     * declared); null when it holds it. The caller then reads the partition from its beginning.
     */
    public String lacks(int graphs, Map<String, Found> found, List<String> unusable) {
        if (!starts.contains(from)) return "no complete checkpoint starts there";
        if (found.size() < graphs) return found.size() + " graph(s) have a usable checkpoint there, the commit relied on " + graphs;
        if (!unusable.isEmpty()) return "graph(s) " + unusable + " seen there have no usable checkpoint";
        for (Found f : found.values()) {
            if (!f.declared()) return "the checkpoint of graph '" + f.graphId() + "' does not declare its slots' keys";
        }
        return null;
    }

    private static Found complete(String graph, Slots s, int slot, long committed, int[] sizes, int[] subSizes, boolean declared) {
        Stored zero = s.chunks[slot].get(0);
        if (zero == null) return null;
        Meta m = CheckpointFormat.meta(zero.headers());
        if (m.offset() >= committed || m.count() < 1) return null;
        List<byte[]> values = new ArrayList<>(m.count());
        List<Headers> headers = new ArrayList<>(m.count());
        long start = Long.MAX_VALUE;
        for (int i = 0; i < m.count(); i++) {
            Stored c = s.chunks[slot].get(i);
            Meta ci = c == null ? null : CheckpointFormat.meta(c.headers());
            if (ci == null || ci.index() != i || !ci.sameCheckpoint(m)) return null;
            values.add(c.value());
            headers.add(c.headers());
            start = Math.min(start, c.offset());
        }
        List<CheckpointedSubscriptions.Carried> subs = subscriptions(graph, s, slot, m, zero.headers());
        if (subs == null && SubscriptionRecords.count(zero.headers()) >= 0) return null;   // torn: a subscription missing
        for (int j = 0; subs != null && j < subs.size(); j++) start = Math.min(start, s.subs[slot].get(j).offset());
        long valid = m.offset();
        Stored marker = s.markers[slot];
        if (marker != null) {
            Meta mm = CheckpointFormat.meta(marker.headers());
            if (mm != null && mm.sameCheckpoint(m)) valid = Math.max(valid, CheckpointFormat.validThrough(marker.headers()));
        }
        return new Found(graph, m, Math.min(valid, committed - 1), values, headers, subs, sizes.clone(), subSizes.clone(),
                start, declared);
    }

    /** The subscriptions chunk 0 declares, all present and of its checkpoint; null when it declares none or one is missing. */
    private static List<CheckpointedSubscriptions.Carried> subscriptions(String graph, Slots s, int slot, Meta m, Headers chunk0) {
        int count = SubscriptionRecords.count(chunk0);
        if (count < 0) return null;
        List<CheckpointedSubscriptions.Carried> subs = new ArrayList<>(count);
        for (int j = 0; j < count; j++) {
            Stored r = s.subs[slot].get(j);
            CheckpointedSubscriptions.Carried c = r == null ? null : SubscriptionRecords.read(graph, m, count, j, r.value(), r.headers());
            if (c == null) return null;
            subs.add(c);
        }
        return subs;
    }
}
