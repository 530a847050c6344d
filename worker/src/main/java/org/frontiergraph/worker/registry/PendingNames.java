package org.frontiergraph.worker.registry;

import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;

/**
 * The names of a named snapshot version being assembled: each chunk's slice ({@code names} from {@code namesOffset})
 * is put in place as it arrives; the complete version must name every vertex once ({@link #table}).
 */
final class PendingNames {
    private final String[] names;
    private int filled;

    PendingNames(int vertexCount) {
        this.names = new String[vertexCount];
    }

    /**
     * Heap a chunk's names take while pending. @throws RejectedException INVALID_SNAPSHOT when the chunk's names do
     * not fit the graph's header ({@code named} false, or positions outside 0 .. vertexCount-1)
     */
    static long bytes(GraphSnapshotChunk c) {
        long b = 0;
        for (CharSequence n : c.getNames()) b += VertexNameTable.BYTES_PER_NAME + 2L * n.length();
        if (!c.getNames().isEmpty() && !c.getNamed()) {
            throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, where(c) + " carries names but its graph is not named (named=false)");
        }
        long end = (long) c.getNamesOffset() + c.getNames().size();
        if (!c.getNames().isEmpty() && (c.getNamesOffset() < 0 || end > c.getVertexCount())) {
            throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, where(c) + " names positions " + c.getNamesOffset() + " .. "
                    + (end - 1) + ", outside the graph's " + c.getVertexCount() + " vertices");
        }
        return b;
    }

    /** Puts the chunk's names in place. @throws RejectedException INVALID_SNAPSHOT for a position named twice */
    void add(GraphSnapshotChunk c) {
        int at = c.getNamesOffset();
        for (CharSequence n : c.getNames()) {
            if (names[at] != null) {
                throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, where(c) + " names vertex position " + at
                        + " again (chunks must name each vertex once)");
            }
            names[at++] = n.toString();
            filled++;
        }
    }

    /** The version's name table. @throws RejectedException INVALID_SNAPSHOT when a vertex has no name or names repeat */
    VertexNameTable table(String graphId, long version) {
        String what = "version " + version + " of graph '" + graphId + "'";
        if (filled != names.length) {
            int missing = 0;
            while (names[missing] != null) missing++;
            throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, what + " is named but its chunks name " + filled + " of its "
                    + names.length + " vertices (position " + missing + " has no name)");
        }
        return VertexNameTable.of(names, what);
    }

    private static String where(GraphSnapshotChunk c) {
        return "snapshot chunk " + c.getChunkIndex() + " of version " + c.getVersion() + " of graph '" + c.getGraphId() + "'";
    }
}
