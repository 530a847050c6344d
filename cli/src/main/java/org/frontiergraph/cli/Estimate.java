package org.frontiergraph.cli;

import java.io.PrintStream;
import java.util.Locale;
import org.frontiergraph.kernels.Algorithms;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Implementation;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.gpu.GpuAlgorithm;
import org.frontiergraph.kernels.graph.CsrAssembly;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.registry.HeapBudget;

/**
 * {@code ./frontier load --estimate FILE}: what a graph file will take on a worker, before anything is published, as
 * Neo4j GDS's {@code .estimate} procedures do. Host bytes follow the worker's memory model ({@link HeapBudget}): the
 * build's peak, which the worker checks against its heap budget before it buffers the snapshot, and what it holds once
 * loaded (the CSR and its query caches); device bytes are what the GPU engine allocates for it at load (the CSR, with
 * int32 weights where they are integral, and the launchers opened with every graph). The graph is built here, with
 * the worker's builder, so the counts are those after the storage policy.
 *
 * @param buildPeakBytes     heap the worker's admission check asks for ({@link HeapBudget#buildBytes}); it fits when
 *                           this is within the budget less the reserve
 * @param hostResidentBytes  the CSR the worker keeps on the host (also for a graph held on the GPU)
 * @param hostHeldBytes      the CSR with its query caches: what the budget counts as held once loaded
 * @param deviceBytes        the GPU engine's allocation at load (a GPU worker also keeps 256 MiB free in reserve)
 */
record Estimate(int vertices, long inputEdges, boolean directed, long edges, long arcs, long buildPeakBytes,
                long hostResidentBytes, long hostHeldBytes, long deviceBytes, long heapBytes, double budgetFraction,
                long budgetBytes, long reservedBytes) {

    /** Edges a chunk of the local build holds (as the client's snapshot chunks, larger). */
    private static final int CHUNK_EDGES = 1 << 20;

    static Estimate of(LoadedGraph g, long heapBytes, FrontierConfig config) {
        EdgeList e = g.edges();
        CsrGraph csr = build(e);
        long device = DeviceCsr.bytesFor(csr);
        for (AlgorithmSpec<?, ?> a : Algorithms.ALL) {
            for (Implementation<?, ?> impl : a.implementations()) {
                if (impl instanceof GpuAlgorithm<?, ?> gpu && gpu.atLoad()) device += gpu.deviceBytes(csr);
            }
        }
        long budget = (long) (heapBytes * config.getHeapBudgetFraction());
        return new Estimate(e.vertexCount(), e.size(), e.directed(), csr.edgeCount(), csr.arcs(),
                HeapBudget.buildBytes(e.vertexCount(), e.size(), e.directed()), csr.bytes(),
                csr.bytes() + HeapBudget.cacheBytes(csr.bytes(), csr.edgeCount(), csr.directed()), device, heapBytes,
                config.getHeapBudgetFraction(), budget, HeapBudget.alwaysReserved(config));
    }

    /** The CSR as a worker builds it from the snapshot's chunks. */
    private static CsrGraph build(EdgeList e) {
        CsrAssembly a = new CsrAssembly(e.vertexCount(), e.directed(), 0);
        int[] s = e.sourcesArray(), t = e.targetsArray();
        double[] w = e.weightsArray();
        for (int at = 0, k = 0; at < e.size(); at += CHUNK_EDGES, k++) {
            int to = Math.min(e.size(), at + CHUNK_EDGES);
            a.add(k, a.decode(java.nio.IntBuffer.wrap(s, at, to - at), java.nio.IntBuffer.wrap(t, at, to - at),
                    java.nio.DoubleBuffer.wrap(w, at, to - at)));
        }
        return a.build();
    }

    /** Whether a worker with this heap admits the graph when it holds nothing else. */
    boolean fits() {
        return buildPeakBytes <= budgetBytes - reservedBytes;
    }

    /** A heap size as {@code -Xmx} takes it: bytes, or a number with k, m, g or t (powers of 1024). */
    static final class HeapSize implements picocli.CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            int unit = "kmgt".indexOf(v.isEmpty() ? ' ' : v.charAt(v.length() - 1));
            try {
                long n = Long.parseLong(unit < 0 ? v : v.substring(0, v.length() - 1));
                if (n <= 0) throw new NumberFormatException();
                return Math.multiplyExact(n, 1L << (10 * (unit + 1)));
            } catch (NumberFormatException | ArithmeticException e) {
                throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not a heap size (e.g. 32g, 512m or bytes)");
            }
        }
    }

    /** One JSON object, a field a line. */
    void print(PrintStream out) {
        out.printf(Locale.ROOT, "{\"vertices\": %d, \"inputEdges\": %d, \"directed\": %b, \"edges\": %d, \"arcs\": %d,%n",
                vertices, inputEdges, directed, edges, arcs);
        out.printf(Locale.ROOT, " \"hostBuildPeakBytes\": %d, \"hostResidentBytes\": %d, \"hostHeldBytes\": %d, \"deviceBytes\": %d,%n",
                buildPeakBytes, hostResidentBytes, hostHeldBytes, deviceBytes);
        out.printf(Locale.ROOT, " \"heapBytes\": %d, \"heapBudgetFraction\": %.2f, \"heapBudgetBytes\": %d, \"reservedBytes\": %d, \"fits\": %b}%n",
                heapBytes, budgetFraction, budgetBytes, reservedBytes, fits());
        out.flush();
    }
}
