package org.frontiergraph.client;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Dense vertex ids for named vertices (addresses, device names), numbered as a publisher reads them: {@link #id}
 * gives each new name the next id from {@code firstVertexId}, in the order names are first seen; {@link #names} is
 * the list a named snapshot carries ({@link FrontierClient#publishSnapshot(String, long, SnapshotEdges, int, boolean,
 * List, java.util.function.LongConsumer)}; docs/contract.md, "Vertex names"), after which the worker resolves names
 * itself; {@link #name} turns ids back into names for a publisher that keeps the names to itself.
 */
public final class VertexNames {
    private final int firstVertexId;
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> names = new ArrayList<>();

    /** Ids from 0, as {@link FrontierClient#publishSnapshot} takes an edge list's vertices. */
    public VertexNames() {
        this(0);
    }

    public VertexNames(int firstVertexId) {
        this.firstVertexId = firstVertexId;
    }

    /** The id of {@code name}, given the next one when it is new. */
    public int id(String name) {
        Integer id = ids.get(name);
        if (id != null) return id;
        if (names.size() == Integer.MAX_VALUE - firstVertexId) throw new IllegalStateException("more names than int ids");
        int next = firstVertexId + names.size();
        ids.put(name, next);
        names.add(name);
        return next;
    }

    /**
     * The id of a name already numbered (a query's source, a path's target).
     *
     * @throws IllegalArgumentException for a name never numbered
     */
    public int existingId(String name) {
        Integer id = ids.get(name);
        if (id == null) throw new IllegalArgumentException("no vertex named '" + name + "'");
        return id;
    }

    /**
     * The name of an id in an answer.
     *
     * @throws IllegalArgumentException for an id no name was given (or -1: unreachable, none)
     */
    public String name(int id) {
        int i = id - firstVertexId;
        if (i < 0 || i >= names.size()) throw new IllegalArgumentException("no vertex has id " + id);
        return names.get(i);
    }

    /** The names in id order (a copy): a named snapshot's {@code names}. */
    public List<String> names() { return List.copyOf(names); }

    /** How many names are numbered: the graph's vertex count. */
    public int size() { return names.size(); }

    public int firstVertexId() { return firstVertexId; }
}
