package org.frontiergraph.worker.registry;

import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Per graph, the {@code updateId}s of the last {@code frontier.update-dedup-window} updates applied to it, each with
 * the version it produced: an update whose id is held is a retry, refused as DUPLICATE_UPDATE (docs/contract.md,
 * "GraphUpdate"). Not thread-safe: {@link GraphRegistry} calls it under its lock.
 *
 * <p><b>Across snapshot versions.</b> The window is keyed by graph id and carries over a new snapshot version: an
 * update retried after its graph was re-published is still a duplicate. Only the ids of one earlier snapshot's
 * lineage carry over (the lineage that a new snapshot ends; older ones are dropped at that install), and while the
 * window holds any of them {@link #earliestOffset} holds the partition's rebuild start back to that snapshot's first
 * chunk. So a rebuild (restart, rebalance) replays the updates that filled the window through the same path, and
 * refuses the same duplicates as the worker did live. A duplicate of an id carried over from the previous lineage is
 * re-recorded in the current one (moved to the end of the window), as a replay that did not see the older lineage
 * records it when it applies it: the window's ids, and so every later decision, are the same live and rebuilt.
 *
 * <p>Ids of updates that were rejected (invalid, stale base version, unknown graph) are not recorded: a corrected
 * update may be published again under the same id.
 */
final class AppliedUpdates {
    /**
     * An update applied: the version it produced, the first-chunk offset of the snapshot lineage it is recorded in,
     * and where a rebuild must start to make the same decision about it (its own lineage; for a duplicate carried
     * over from an earlier lineage, the pin of the update it repeats).
     */
    record Applied(long version, long lineage, long pin) {}

    /** Bytes a window entry costs on the heap beyond its id's characters (map node, record, string header). */
    static final long ENTRY_BYTES = 120;

    private final int capacity;
    private final Map<String, Window> windows = new HashMap<>();
    private long bytes;

    /** {@code capacity}: ids kept per graph; 0 keeps none (no deduplication). */
    AppliedUpdates(int capacity) {
        this.capacity = Math.max(0, capacity);
    }

    private static final class Window {
        final int partition;
        final LinkedHashMap<String, Applied> ids = new LinkedHashMap<>();
        /** The first-chunk offset of the snapshot the graph's current version grew from. */
        long lineage;
        /** How many held ids pin each offset (a rebuild must start at the smallest). */
        final Pins pins = new Pins();

        Window(int partition, long lineage) {
            this.partition = partition;
            this.lineage = lineage;
        }

        void pin(long offset, int delta) {
            pins.add(offset, delta);
        }
    }

    /**
     * Offsets with how many ids pin each, ascending: a few at a time (the current lineage's, a checkpoint's, the one
     * before), and changed twice an update once the window is full, so kept in two small arrays rather than a map of
     * boxed keys and counts (which allocated both on every update).
     */
    static final class Pins {
        private long[] offsets = new long[4];
        private int[] counts = new int[4];
        private int size;

        /** Adds {@code delta} to the count of {@code offset}; an offset whose count reaches 0 goes. */
        void add(long offset, int delta) {
            int i = 0;
            while (i < size && offsets[i] < offset) i++;
            if (i < size && offsets[i] == offset) {
                counts[i] += delta;
                if (counts[i] == 0) {
                    System.arraycopy(offsets, i + 1, offsets, i, size - i - 1);
                    System.arraycopy(counts, i + 1, counts, i, size - i - 1);
                    size--;
                }
                return;
            }
            if (size == offsets.length) {
                offsets = java.util.Arrays.copyOf(offsets, size * 2);
                counts = java.util.Arrays.copyOf(counts, size * 2);
            }
            System.arraycopy(offsets, i, offsets, i + 1, size - i);
            System.arraycopy(counts, i, counts, i + 1, size - i);
            offsets[i] = offset;
            counts[i] = delta;
            size++;
        }

        boolean isEmpty() { return size == 0; }

        /** The smallest offset held. @throws java.util.NoSuchElementException when none is */
        long firstKey() {
            if (size == 0) throw new java.util.NoSuchElementException();
            return offsets[0];
        }

        void clear() { size = 0; }
    }

    int capacity() { return capacity; }

    /** The update with this id applied to the graph within the window, if any. */
    Optional<Applied> find(String graphId, String updateId) {
        if (updateId == null || updateId.isEmpty()) return Optional.empty();
        Window w = windows.get(graphId);
        return w == null ? Optional.empty() : Optional.ofNullable(w.ids.get(updateId));
    }

    /**
     * A new snapshot version of the graph became current: the ids recorded on the version it replaces carry over,
     * older ones are dropped. The first install creates the graph's window.
     */
    void installed(String graphId, int partition, long lineage) {
        Window w = windows.get(graphId);
        if (w == null) {
            windows.put(graphId, new Window(partition, lineage));
            return;
        }
        for (Iterator<Map.Entry<String, Applied>> it = w.ids.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Applied> e = it.next();
            if (e.getValue().lineage() != w.lineage) {
                it.remove();
                forget(w, e.getKey(), e.getValue());
            }
        }
        w.lineage = lineage;
    }

    /** An update with this id was applied, producing {@code version}; the oldest id goes when the window is full. */
    void applied(String graphId, String updateId, long version) {
        if (capacity == 0 || updateId == null || updateId.isEmpty()) return;
        Window w = windows.get(graphId);
        if (w == null) return;   // a graph is installed before it is updated
        put(w, updateId, new Applied(version, w.lineage, w.lineage));
    }

    /**
     * A duplicate was refused: if the id it repeats was recorded on an earlier lineage, it is recorded again in the
     * current one (keeping the version it produced first and its pin), where a rebuild that replays only the
     * current lineage would record it too, when it applies it.
     */
    void refused(String graphId, String updateId) {
        Window w = windows.get(graphId);
        if (w == null) return;
        Applied a = w.ids.get(updateId);
        if (a == null || a.lineage() == w.lineage) return;
        put(w, updateId, new Applied(a.version(), w.lineage, a.pin()));
    }

    private void put(Window w, String updateId, Applied a) {
        Applied old = w.ids.remove(updateId);
        if (old != null) forget(w, updateId, old);
        w.ids.put(updateId, a);
        bytes += bytes(updateId);
        w.pin(a.pin(), 1);
        while (w.ids.size() > capacity) {
            Iterator<Map.Entry<String, Applied>> it = w.ids.entrySet().iterator();
            Map.Entry<String, Applied> eldest = it.next();
            it.remove();
            forget(w, eldest.getKey(), eldest.getValue());
        }
    }

    private void forget(Window w, String updateId, Applied a) {
        bytes -= bytes(updateId);
        w.pin(a.pin(), -1);
    }

    /**
     * The earliest offset of {@code partition} a rebuild must replay for the windows to be refilled as they are, and
     * their duplicates refused again: the first chunk of an earlier snapshot an update id still held was applied to;
     * Long.MAX_VALUE when none (the current snapshots' own offsets hold the rebuild there already).
     */
    long earliestOffset(int partition) {
        long min = Long.MAX_VALUE;
        for (Window w : windows.values()) {
            if (w.partition == partition && !w.pins.isEmpty()) {
                long first = w.pins.firstKey();
                if (first != w.lineage) min = Math.min(min, first);
            }
        }
        return min;
    }

    /** Forgets the window of a dropped graph: its ids may be applied again to a graph published anew under its id. */
    void forget(String graphId) {
        Window w = windows.remove(graphId);
        if (w != null) for (String id : w.ids.keySet()) bytes -= bytes(id);
    }

    /** The graph's window, oldest id first, each marked as applied on the current lineage or on the one before. */
    java.util.List<WindowEntry> export(String graphId) {
        Window w = windows.get(graphId);
        if (w == null) return java.util.List.of();
        java.util.List<WindowEntry> out = new java.util.ArrayList<>(w.ids.size());
        w.ids.forEach((id, a) -> out.add(new WindowEntry(id, a.version(), a.lineage() == w.lineage)));
        return out;
    }

    /**
     * A checkpoint holds the graph's window (and the updates after it are in the log from {@code from} on): every id
     * held is refilled from there, so each now pins {@code from} rather than the snapshot it was applied on.
     */
    void repin(String graphId, long from) {
        Window w = windows.get(graphId);
        if (w == null) return;
        w.pins.clear();
        for (Map.Entry<String, Applied> e : w.ids.entrySet()) {
            Applied a = e.getValue();
            e.setValue(new Applied(a.version(), a.lineage(), from));
            w.pin(from, 1);
        }
    }

    /**
     * The graph was installed from a checkpoint ({@link #installed} made its window, on the checkpoint's lineage):
     * its ids come back in order, those of the lineage before with a lineage of their own, all pinned at {@code from}
     * (the record after the checkpoint: a rebuild that starts there reads the checkpoint again).
     */
    void restore(String graphId, java.util.List<WindowEntry> entries, long from) {
        Window w = windows.get(graphId);
        if (w == null || capacity == 0) return;
        for (WindowEntry e : entries) {
            put(w, e.updateId(), new Applied(e.version(), e.currentLineage() ? w.lineage : PREVIOUS_LINEAGE, from));
        }
    }

    /** The lineage of restored ids that were applied on the snapshot before the current one (any value but an offset). */
    private static final long PREVIOUS_LINEAGE = Long.MIN_VALUE;

    /** Forgets the windows of graphs of these partitions: a rebuild refills them from the log. */
    void dropPartitions(Collection<Integer> partitions) {
        for (Iterator<Window> it = windows.values().iterator(); it.hasNext(); ) {
            Window w = it.next();
            if (partitions.contains(w.partition)) {
                for (String id : w.ids.keySet()) bytes -= bytes(id);
                it.remove();
            }
        }
    }

    void clear() {
        windows.clear();
        bytes = 0;
    }

    /** Ids held, over every graph. */
    long size() {
        long n = 0;
        for (Window w : windows.values()) n += w.ids.size();
        return n;
    }

    /** Heap the windows hold, roughly. */
    long bytes() { return bytes; }

    private static long bytes(String id) {
        return ENTRY_BYTES + 2L * id.length();
    }
}
