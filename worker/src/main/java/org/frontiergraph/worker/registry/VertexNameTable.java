package org.frontiergraph.worker.registry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;

/**
 * The names of a named graph's vertices, in dense id order (position {@code i} is user id {@code firstVertexId + i}),
 * and their ids by name: the snapshot's names, then those each update appended. Like the resident graph it belongs
 * to, one table is shared by the consecutive versions of a snapshot's lineage and grows in place (names are only
 * appended, so every version's ids keep their names); a new snapshot brings a new table. Written by the thread that
 * owns the graph's partition; reads may come from anywhere.
 */
public final class VertexNameTable {
    /** Heap a name costs besides its characters: the String, its array, the map entry, the list slot. */
    static final long BYTES_PER_NAME = 112;

    private final List<String> names;
    private final Map<String, Integer> positions;
    private long chars;

    private VertexNameTable(int expected) {
        this.names = new ArrayList<>(expected);
        this.positions = new HashMap<>(Math.max(16, expected * 4 / 3 + 1));
    }

    /**
     * The table of {@code names} (position order). @throws RejectedException INVALID_SNAPSHOT for an empty or
     * repeated name ({@code what} names the version in the reason)
     */
    public static VertexNameTable of(String[] names, String what) {
        VertexNameTable t = new VertexNameTable(names.length);
        String bad = t.add(Arrays.asList(names));
        if (bad != null) throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, what + ": " + bad);
        return t;
    }

    /** Adds names in order; returns why one cannot be added (nothing is then added), or null. */
    private synchronized String add(List<String> more) {
        String bad = check(more);
        if (bad != null) return bad;
        for (String n : more) {
            positions.put(n, names.size());
            names.add(n);
            chars += n.length();
        }
        return null;
    }

    /** Why {@code more} cannot be appended (an empty name, one already here or repeated among them), or null. */
    public synchronized String check(List<String> more) {
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < more.size(); i++) {
            String n = more.get(i);
            if (n == null || n.isEmpty()) return "vertex name " + i + " is empty";
            Integer at = positions.get(n);
            if (at != null) return "the name '" + n + "' already names vertex position " + at;
            Integer again = seen.put(n, i);
            if (again != null) return "the name '" + n + "' is given twice (names " + again + " and " + i + ")";
        }
        return null;
    }

    /** Appends names checked by {@link #check} (an update's new vertices, once it applied). */
    synchronized void append(List<String> more) {
        String bad = add(more);
        if (bad != null) throw new IllegalStateException(bad);
    }

    /** The dense position (id - firstVertexId) of {@code name}, or -1 when no vertex has it. */
    public synchronized int position(String name) {
        Integer p = positions.get(name);
        return p == null ? -1 : p;
    }

    /** The name at dense position {@code p}. */
    public synchronized String name(int p) {
        return names.get(p);
    }

    public synchronized int size() {
        return names.size();
    }

    /** The names now, in position order: a copy (a checkpoint's). */
    public synchronized String[] snapshot() {
        return names.toArray(new String[0]);
    }

    /** Heap the table holds. */
    public synchronized long bytes() {
        return names.size() * BYTES_PER_NAME + 2 * chars;
    }
}
