package org.frontiergraph.kernels.engine;

/**
 * An answer that is a tree from one source: a value and a parent per vertex (SSSP's distances, BFS's hop counts).
 * Values are doubles here ({@code +Inf}: unreached, parent -1; hop counts pass exactly); the parent of the source is
 * the source. The standing answers' repairs ({@code org.frontiergraph.kernels.standing}) read and change a tree answer
 * through this interface alone, on the host and on the device.
 *
 * @param <A> the answer's own type
 */
public interface TreeAnswer<A extends TreeAnswer<A>> {
    int source();

    /** Vertices the answer covers. */
    int vertexCount();

    /** Vertex {@code v}'s value, {@code +Inf} when unreached. */
    double value(int v);

    /** Vertex {@code v}'s parent, -1 when unreached, the source for itself. */
    int parent(int v);

    /** Every vertex's parent (the answer's own array: do not modify). */
    int[] parents();

    /** Every vertex's value as {@link #value} gives it (a copy where the answer holds another type). */
    double[] values();

    /** Sets vertex {@code v}'s value and parent in place ({@code +Inf} and -1: unreached). */
    void set(int v, double value, int parent);

    /** Every arc counts 1 (BFS hops): a repair then queues in FIFO order instead of a heap's. */
    boolean unitWeights();

    /** The answer over {@code n} vertices, the new ones unreached: new arrays, or itself when it covers them already. */
    A grown(int n);

    /** The same arrays with another timing. */
    A withTiming(Timing timing);

    /** Whether vertex {@code v}'s value or parent differs in {@code a} and {@code b} (a vertex beyond an answer: unreached). */
    static boolean differs(TreeAnswer<?> a, TreeAnswer<?> b, int v) {
        double va = v < a.vertexCount() ? a.value(v) : Double.POSITIVE_INFINITY;
        double vb = v < b.vertexCount() ? b.value(v) : Double.POSITIVE_INFINITY;
        int pa = v < a.vertexCount() ? a.parent(v) : -1;
        int pb = v < b.vertexCount() ? b.parent(v) : -1;
        return Double.compare(va, vb) != 0 || pa != pb;
    }
}
