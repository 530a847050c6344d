package org.frontiergraph.kernels.graph;

import java.lang.ref.WeakReference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * The edits applied to one {@link MutableGraph}, in order, each with a sequence number: the one record of what
 * changed that every copy following the graph reads. A reader (the device copy, a standing answer, the MST edge
 * lists beside it) registers a {@link Cursor} and derives what it needs from the entries past it
 * ({@link Changes}): the edges touched ({@link Changes#edges()}, for repairs and for a device copy that applies edits
 * itself), the merges ({@link Changes#merges()}, for a copy that moves its rows on the device) and the arcs
 * re-weighted in place ({@link Changes#reweighted()}, for a copy that scatters weights).
 *
 * <p>Two kinds of entry: an {@link Applied} update (its vertex count before, its endpoint pairs, and the base arcs it
 * re-weighted in place) and a {@link Merge} of the overlay into a new base (which holds the old base). Arcs and merges
 * are recorded only while a cursor asks for {@link Detail#VERSIONS}; nothing is recorded while no cursor is open.
 *
 * <p>Memory is bounded: entries every cursor has passed are dropped when a cursor moves; beyond
 * {@link #MAX_MERGES} merges (each holds an old base) or more bytes of edits than the graph's own size, the oldest
 * entries are dropped too, and a cursor that had not read them gets {@link Changes#restart()}: it starts over from
 * the current version (a device copy reloads, a standing answer is recomputed); the same holds for a reader that
 * had no cursor (reading takes one, and a new cursor starts at the end). {@link #bytes()} counts every entry
 * (old bases included) in {@link MutableGraph#bytes()}. A reader closes its cursor when it goes; one dropped without
 * closing stops holding entries once it is garbage (the log holds cursors weakly). Thread-safe; the graph appends
 * under its own lock.
 */
public final class ChangeLog {
    /** What a cursor reads: the edges touched only, or also the arcs re-weighted in place and the merges. */
    public enum Detail { EDGES, VERSIONS }

    /** Merges kept for a cursor that has not read them; beyond this it starts over (old bases are not kept alive). */
    public static final int MAX_MERGES = 4;
    /** The least edit bytes kept for a lagging cursor, whatever the graph's size. */
    static final long MIN_EDIT_BYTES = 1 << 20;

    /** An entry of the log. */
    public sealed interface Entry permits Applied, Merge {
        /** Bytes it holds. */
        long bytes();
    }

    /**
     * One applied update: the vertex count before it, the endpoints of the edges it removed, re-weighted or added
     * (self-loops left out: they are not stored), and, for {@link Detail#VERSIONS} cursors, the arcs of the base it
     * re-weighted in place ({@code arcs} null with {@code allArcs}: so many that copying every weight is cheaper).
     * {@code structural}: it removed or added edges or vertices (not only re-weights: an edge added again at a lower
     * weight is a re-weight).
     */
    public record Applied(int vertexCountBefore, int vertexCountAfter, boolean structural, int[] u, int[] v, int[] arcs,
                          boolean allArcs)
            implements Entry {
        @Override
        public long bytes() {
            return 48 + 4L * (u.length + v.length) + (arcs == null ? 0 : 4L * arcs.length);
        }
    }

    /**
     * One merge: {@code after} is {@code before} with the rows {@code touchedRows} (sorted; new vertices' rows among
     * them when they have arcs) rebuilt; every other row holds the same arcs in the same order, shifted. A device
     * copy of {@code before} becomes one of {@code after} by moving the untouched rows and writing the touched
     * ones, without the whole graph crossing the bus.
     */
    public record Merge(CsrGraph before, CsrGraph after, int[] touchedRows, EdgeMoves edges) implements Entry {
        @Override
        public long bytes() {
            long moves = edges == null ? 0 : 4L * edges.runs().length + 20L * edges.addedIds().length;
            return 48 + before.bytes() + 4L * touchedRows.length + moves;
        }
    }

    /**
     * How the edge ids of an undirected graph move in a merge (null for directed graphs): runs (from, to, length)
     * of old ids kept, in order, and the new ids of the added edges (sorted, with their endpoints and weights). An
     * edge-indexed copy (the MST edge list, on the host and on the device) follows by moving the runs and writing
     * the added edges.
     */
    public record EdgeMoves(int[] runs, int[] addedIds, long[] addedKeys, double[] addedWeights) {
        static EdgeMoves of(int oldSize, int[] removed, int[] addedIds, long[] addedKeys, double[] addedWeights) {
            int[] runs = new int[48];
            int size = 0;
            for (int o = 0, nw = 0, r = 0, a = 0; o < oldSize; ) {
                if (r < removed.length && removed[r] == o) { o++; r++; continue; }
                if (a < addedIds.length && addedIds[a] == nw) { nw++; a++; continue; }
                int len = (r < removed.length ? removed[r] : oldSize) - o;
                if (a < addedIds.length) len = Math.min(len, addedIds[a] - nw);
                if (size + 3 > runs.length) runs = Arrays.copyOf(runs, 2 * runs.length);
                runs[size++] = o;
                runs[size++] = nw;
                runs[size++] = len;
                o += len;
                nw += len;
            }
            return new EdgeMoves(Arrays.copyOf(runs, size), addedIds, addedKeys, addedWeights);
        }
    }

    /** Arcs re-weighted in place, for a device copy to scatter; {@code all}: copy every weight instead. */
    public record WeightChanges(int[] arcs, boolean all) {
        public static final WeightChanges ALL = new WeightChanges(new int[0], true);
        public static final WeightChanges NONE = new WeightChanges(new int[0], false);

        public boolean isEmpty() { return !all && arcs.length == 0; }
    }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private final List<WeakReference<Cursor>> cursors = new ArrayList<>();
    /** The sequence number of the first entry held (entries before it were dropped). */
    private long first;
    private long bytes, editBytes;
    private int merges;
    private int vertexCount;
    /** Arcs of the current base, and the edit bytes kept for a lagging cursor (at least the base's own bytes). */
    private long arcCount, limitBytes;

    ChangeLog(CsrGraph base) {
        this.vertexCount = base.vertexCount();
        onBase(base);
    }

    private void onBase(CsrGraph base) {
        arcCount = base.arcs();
        limitBytes = Math.max(MIN_EDIT_BYTES, base.wide() ? 16 * arcCount : base.bytes());   // wide: about its arrays' bytes
    }

    /**
     * A cursor at the end of the log: it reads the entries appended from now on. Close it when the reader goes
     * (an open cursor keeps entries it has not read).
     */
    public synchronized Cursor cursor(Detail detail) {
        Cursor c = new Cursor(detail, end());
        cursors.add(new WeakReference<>(c));
        return c;
    }

    /** The sequence number the next entry gets. */
    public synchronized long end() { return first + entries.size(); }

    /** Bytes the entries hold (old bases of merges included). */
    public synchronized long bytes() { return bytes; }

    /** Whether an open cursor reads re-weighted arcs and merges. */
    synchronized boolean recordingVersions() {
        boolean versions = false;
        for (int i = 0; i < cursors.size(); ) {   // asked per update: builds no list
            Cursor c = cursors.get(i).get();
            if (c == null) {
                cursors.remove(i);
            } else {
                versions |= c.detail == Detail.VERSIONS;
                i++;
            }
        }
        return versions;
    }

    /** Whether no cursor is open (those collected unclosed are forgotten here); builds no list. */
    private boolean noLiveCursor() {
        while (!cursors.isEmpty()) {
            if (cursors.get(0).get() != null) return false;
            cursors.remove(0);
        }
        return true;
    }

    /** The open cursors (those collected unclosed are forgotten here). */
    private List<Cursor> live() {
        List<Cursor> out = new ArrayList<>(cursors.size());
        for (Iterator<WeakReference<Cursor>> it = cursors.iterator(); it.hasNext(); ) {
            Cursor c = it.next().get();
            if (c == null) it.remove();
            else out.add(c);
        }
        return out;
    }

    /** Most arcs an update lists before it counts as re-weighting all (copying every weight is then cheaper). */
    synchronized int maxListedArcs() {
        return (int) Math.max(1024, arcCount / 8);
    }

    /** Appends an applied update; {@code arcs} null unless a cursor reads versions. */
    synchronized void applied(int before, int after, boolean structural, EdgeEdits e, int[] arcs, boolean allArcs) {
        vertexCount = after;
        if (noLiveCursor()) {
            trim();
            return;
        }
        Pairs p = new Pairs();
        p.add(e.removeU(), e.removeV());
        p.add(e.reweightU(), e.reweightV());
        p.add(e.addU(), e.addV());
        append(new Applied(before, after, structural, p.u(), p.v(), arcs, allArcs));
    }

    /** Appends a merge into {@code m.after()}, the new base. */
    synchronized void merged(Merge m) {
        onBase(m.after());
        if (!recordingVersions()) return;
        merges++;
        append(m);
    }

    private void append(Entry e) {
        entries.addLast(e);
        bytes += e.bytes();
        if (e instanceof Applied) editBytes += e.bytes();
        while (merges > MAX_MERGES || editBytes > limitBytes) dropFirst();
    }

    private void dropFirst() {
        Entry e = entries.removeFirst();
        first++;
        bytes -= e.bytes();
        if (e instanceof Merge) merges--;
        else editBytes -= e.bytes();
    }

    /** Drops the entries every cursor has passed. */
    private void trim() {
        long least = end();
        for (Cursor c : live()) least = Math.min(least, c.at);
        while (first < least) dropFirst();
    }

    /**
     * A reader's place in the log. {@link #read()} hands the entries since the last read and moves past them;
     * {@link #close()} unregisters it. Used by one reader at a time.
     */
    public final class Cursor implements AutoCloseable {
        private final Detail detail;
        private long at;
        private boolean closed;

        private Cursor(Detail detail, long at) {
            this.detail = detail;
            this.at = at;
        }

        /** The sequence number of the next entry this cursor reads. */
        public long position() {
            synchronized (ChangeLog.this) {
                return at;
            }
        }

        /**
         * What changed since the last read (or since the cursor was made), then moves to the end of the log. When the
         * log dropped entries this cursor had not read, the answer says {@link Changes#restart()}.
         */
        public Changes read() {
            synchronized (ChangeLog.this) {
                if (closed) throw new IllegalStateException("the cursor is closed");
                long end = end();
                boolean lost = at < first;
                List<Entry> since = lost ? List.of() : List.copyOf(new ArrayList<>(entries).subList((int) (at - first), entries.size()));
                at = end;
                trim();
                return new Changes(since, lost, vertexCount, (int) Math.max(1024, arcCount / 8));
            }
        }

        @Override
        public void close() {
            synchronized (ChangeLog.this) {
                if (closed) return;
                closed = true;
                cursors.removeIf(r -> r.get() == this || r.get() == null);
                trim();
            }
        }
    }

    /** The endpoint pairs of an update, self-loops left out (they are not stored). */
    private static final class Pairs {
        private int[] u = new int[16], v = new int[16];
        private int count;

        void add(int[] as, int[] bs) {
            for (int i = 0; i < as.length; i++) {
                if (as[i] == bs[i]) continue;
                if (count == u.length) {
                    u = Arrays.copyOf(u, count * 2);
                    v = Arrays.copyOf(v, count * 2);
                }
                u[count] = as[i];
                v[count++] = bs[i];
            }
        }

        int[] u() { return Arrays.copyOf(u, count); }

        int[] v() { return Arrays.copyOf(v, count); }
    }
}
