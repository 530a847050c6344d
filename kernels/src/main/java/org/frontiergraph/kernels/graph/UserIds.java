package org.frontiergraph.kernels.graph;

/** How update errors name vertices: as the user does, 0-based ids plus {@code first} (the graph's first vertex id). */
record UserIds(int first, int n) {
    String edge(int u, int v) { return "(" + ((long) u + first) + ", " + ((long) v + first) + ")"; }

    String range() { return first + ".." + ((long) first + n - 1); }
}
