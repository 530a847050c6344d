package org.frontiergraph.kernels.generate;

import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.graph.EdgeList;

/**
 * Deterministic parallel generation in blocks, as gapbs {@code generator.h}: edges are cut into blocks of
 * {@link #BLOCK_EDGES}, block b draws from {@code new SplittableRandom(seed * SEED_SPREAD + b)}, so the output depends
 * only on the seed, never on the thread count or schedule. (Plain {@code seed + b} would make seed s + 1's block b
 * equal to seed s's block b + 1, so that graphs of adjacent seeds share most edges; the odd multiplier, unlike
 * SplittableRandom's own gamma, spreads the seeds apart.) Blocks are generated in waves (in parallel) and appended in block
 * order, so the extra memory is one wave's worth.
 */
final class Blocks {
    static final int BLOCK_EDGES = 1 << 16;
    private static final long SEED_SPREAD = 0xD1B54A32D192ED03L;
    private static final int WAVE_BLOCKS = 64;

    /** Fills edges [first, first + count) of one block; {@code first} is the global index of its first edge. */
    interface BlockFiller {
        void fill(SplittableRandom random, long first, int count, int[] src, int[] dst, double[] w);
    }

    private Blocks() {}

    static EdgeList generate(int vertices, boolean directed, long edges, long seed, BlockFiller filler) {
        if (edges < 0 || edges > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("edges must be in 0.." + (Integer.MAX_VALUE - 8) + ", got " + edges);
        }
        EdgeList list = new EdgeList(vertices, directed, (int) edges);
        long blocks = (edges + BLOCK_EDGES - 1) / BLOCK_EDGES;
        for (long wave = 0; wave < blocks; wave += WAVE_BLOCKS) {
            int inWave = (int) Math.min(WAVE_BLOCKS, blocks - wave);
            int[][] src = new int[inWave][], dst = new int[inWave][];
            double[][] w = new double[inWave][];
            final long firstBlock = wave;
            IntStream.range(0, inWave).parallel().forEach(i -> {
                long block = firstBlock + i;
                long first = block * BLOCK_EDGES;
                int count = (int) Math.min(BLOCK_EDGES, edges - first);
                src[i] = new int[count];
                dst[i] = new int[count];
                w[i] = new double[count];
                filler.fill(new SplittableRandom(seed * SEED_SPREAD + block), first, count, src[i], dst[i], w[i]);
            });
            for (int i = 0; i < inWave; i++) {
                for (int k = 0; k < src[i].length; k++) list.add(src[i][k], dst[i][k], w[i][k]);
            }
        }
        return list;
    }
}
