package org.frontiergraph.kernels.graph;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The entries of a {@link ChangeLog} a cursor read at once, and what a reader derives from them: the edges touched
 * ({@link #edges()}), the merges ({@link #merges()}), the arcs re-weighted in place, numbered in the last version
 * ({@link #reweighted()}). {@link #restart()}: the log no longer held what the cursor had not read; the reader starts
 * over from the graph's current version, and the derived views are not available.
 */
public final class Changes {
    private final List<ChangeLog.Entry> entries;
    private final boolean restart;
    private final int vertexCount;
    private final int maxListedArcs;
    /** Whether the graph's current version is wide: its re-weighted arcs are listed as longs. */
    private final boolean wide;
    /** {@link #edges()}, once asked for. */
    private ChangedEdges edges;

    Changes(List<ChangeLog.Entry> entries, boolean restart, int vertexCount, int maxListedArcs, boolean wide) {
        this.entries = entries;
        this.restart = restart;
        this.vertexCount = vertexCount;
        this.maxListedArcs = maxListedArcs;
        this.wide = wide;
    }

    /** Whether the reader must start over: entries it had not read were dropped (it fell too far behind). */
    public boolean restart() { return restart; }

    /** These changes followed by {@code later} (read by the same cursor after these). */
    public Changes then(Changes later) {
        if (restart || later.restart) return new Changes(List.of(), true, later.vertexCount, later.maxListedArcs, later.wide);
        List<ChangeLog.Entry> all = new ArrayList<>(entries);
        all.addAll(later.entries);
        return new Changes(List.copyOf(all), false, later.vertexCount, later.maxListedArcs, later.wide);
    }

    /**
     * The edges the updates touched and the vertex count before the first of them (see {@link ChangedEdges}):
     * what a repair or a device copy that applies edits itself reads.
     */
    public ChangedEdges edges() {
        requireComplete();
        if (edges == null) edges = concatenated();
        return edges;
    }

    private ChangedEdges concatenated() {
        int before = vertexCount, count = 0;
        boolean seen = false;
        for (ChangeLog.Entry e : entries) {
            if (!(e instanceof ChangeLog.Applied a)) continue;
            if (!seen) before = a.vertexCountBefore();
            seen = true;
            count += a.u().length;
        }
        int[] u = new int[count], v = new int[count];
        int at = 0;
        for (ChangeLog.Entry e : entries) {
            if (!(e instanceof ChangeLog.Applied a)) continue;
            System.arraycopy(a.u(), 0, u, at, a.u().length);
            System.arraycopy(a.v(), 0, v, at, a.v().length);
            at += a.u().length;
        }
        return new ChangedEdges(before, u, v);
    }

    /** Whether the arcs changed: an update removed or added edges or vertices, or a merge was read. */
    public boolean structural() {
        requireComplete();
        for (ChangeLog.Entry e : entries) {
            if (e instanceof ChangeLog.Merge || e instanceof ChangeLog.Applied a && a.structural()) return true;
        }
        return false;
    }

    /** The merges, oldest first. */
    public List<ChangeLog.Merge> merges() {
        requireComplete();
        List<ChangeLog.Merge> out = new ArrayList<>();
        for (ChangeLog.Entry e : entries) if (e instanceof ChangeLog.Merge m) out.add(m);
        return out;
    }

    /**
     * The arcs re-weighted in place, numbered in the version after the last merge read (their new weights are in the
     * graph), or {@code all} when so many changed that copying every weight is cheaper. Arcs re-weighted before a
     * merge are renumbered across it: shifted in untouched rows, found again in touched ones (a removed arc is
     * dropped); copies that take touched rows whole get them twice, harmlessly, copies indexed by edge (the MST edge
     * list) need them all. Only for a cursor that reads {@link ChangeLog.Detail#VERSIONS}. A wide graph's arcs are
     * {@link ChangeLog.WeightChanges#wideArcs()}.
     */
    public ChangeLog.WeightChanges reweighted() {
        requireComplete();
        long[] arcs = new long[16];
        int count = 0;
        for (ChangeLog.Entry e : entries) {
            if (e instanceof ChangeLog.Applied a) {
                if (a.allArcs()) return ChangeLog.WeightChanges.ALL;
                int listed = a.arcs() != null ? a.arcs().length : a.wideArcs() != null ? a.wideArcs().length : -1;
                if (listed < 0) continue;
                if (count + listed > maxListedArcs) return ChangeLog.WeightChanges.ALL;
                if (count + listed > arcs.length) arcs = Arrays.copyOf(arcs, Math.max(2 * arcs.length, count + listed));
                if (a.wideArcs() != null) {
                    System.arraycopy(a.wideArcs(), 0, arcs, count, listed);
                } else {
                    for (int i = 0; i < listed; i++) arcs[count + i] = a.arcs()[i];
                }
                count += listed;
            } else if (e instanceof ChangeLog.Merge m) {
                count = renumber(arcs, count, m);
            }
        }
        if (count == 0) return ChangeLog.WeightChanges.NONE;
        if (wide) return ChangeLog.WeightChanges.wide(Arrays.copyOf(arcs, count));
        int[] narrow = new int[count];
        for (int i = 0; i < count; i++) narrow[i] = (int) arcs[i];
        return new ChangeLog.WeightChanges(narrow, false);
    }

    /** Arcs of {@code m.before()} renumbered into {@code m.after()} in place; returns how many remain. */
    private static int renumber(long[] arcs, int count, ChangeLog.Merge m) {
        CsrGraph old = m.before(), next = m.after();
        int[] rows = m.touchedRows();
        int kept = 0;
        for (int i = 0; i < count; i++) {
            long arc = arcs[i];
            int u = old.sourceOf(arc);
            long now = Arrays.binarySearch(rows, u) >= 0 ? next.findArcLong(u, old.targetAt(arc))
                    : arc - old.rowStartLong(u) + next.rowStartLong(u);
            if (now >= 0) arcs[kept++] = now;
        }
        return kept;
    }

    private void requireComplete() {
        if (restart) throw new IllegalStateException("the log dropped changes this reader had not read: start over");
    }
}
