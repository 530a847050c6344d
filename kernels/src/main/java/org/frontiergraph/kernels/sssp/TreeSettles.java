package org.frontiergraph.kernels.sssp;

import jcuda.driver.CUdeviceptr;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceGraph;

/**
 * The settle step the standing trees' repair borrows from the SSSP launchers of a graph on the GPU
 * ({@code org.frontiergraph.kernels.standing.DeviceTrees}): relaxing keys from a list of seeds to the least fixed
 * point, one tree at a time ({@link AsyncSssp}'s seeded entry points) or several side by side ({@link MultiSssp}'s).
 * What the repair needs of them and nothing more: their seed lists, marks and keys, and the launch.
 */
public final class TreeSettles {
    private TreeSettles() {}

    /** One tree's settle: {@link AsyncSssp}'s seeded run. */
    public interface Alone {
        /** Vertices the launcher was opened for. */
        int vertexCount();

        /** Where the seeds are listed (far list 0: n ints). */
        CUdeviceptr seedList();

        /** The marks of the listed seeds (0 listed, -1 not; one per vertex). */
        CUdeviceptr seedMarks();

        /**
         * Relaxes {@code keys} (n keys of {@code form}) from the seeds listed, their count the u64 at {@code seeds}, to
         * the least fixed point. Queued on the stream.
         */
        void settle(DeviceBuffer keys, CUdeviceptr seeds, KeyForm form, Variant variant);
    }

    /** Several trees' settle in one launch: {@link MultiSssp}'s seeded run over slices of its keys. */
    public interface SideBySide {
        /** Slices a launch holds. */
        int capacity();

        /** Vertices of each slice. */
        int vertexCount();

        /** Slice {@code j}'s n u64 keys. */
        CUdeviceptr keys(int j);

        /** Where slice {@code j}'s seeds are listed (n ints). */
        CUdeviceptr seedList(int j);

        /** Slice {@code j}'s n seed marks. */
        CUdeviceptr seedMarks(int j);

        /**
         * Settles slices 0 to {@code k - 1} from their seeds (slice j's count: the u64 at {@code seeds} + 8 j
         * {@code seedStride} bytes) to the least fixed point of each. Queued on the stream.
         */
        void settle(int k, CUdeviceptr seeds, int seedStride, KeyForm form, Variant variant);
    }

    /** The one-tree settle of {@code dev}'s graph (its asynchronous SSSP launcher, opened now if it is not yet). */
    public static Alone alone(DeviceGraph dev) {
        return (AsyncSssp) dev.launcher(AsyncSssp.IMPLEMENTATION);
    }

    /**
     * The side-by-side settle of {@code dev}'s graph ({@link GpuSsspSummaries}' launches of several sources), or null
     * where it holds fewer than two slices (a graph too large) or another vertex count than the graph.
     */
    public static SideBySide sideBySide(DeviceGraph dev) {
        MultiSssp multi = ((GpuSsspSummaries) dev.launcher(GpuSsspSummaries.IMPLEMENTATION)).multi();
        return multi != null && multi.capacity() >= 2 && multi.vertexCount() == dev.csr().vertexCount ? multi : null;
    }
}
