package org.frontiergraph.kernels.generate.seeds;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.graph.EdgeList;

/**
 * The reseed-per-block scheme of {@code generate/Blocks} (gapbs {@code generator.h}) for the seed-paper generators,
 * which work per vertex as well as per edge: items (vertices or edges) 0..count-1 are cut into blocks, block b of
 * phase p draws from its own {@link SplittableRandom} whose seed is a function of (seed, phase, b) only, so the output
 * depends on the seed and never on the thread count or schedule. Blocks run in parallel in waves and are appended in
 * block order. Unlike {@code Blocks} (seed + block), the stream seed is mixed, so that seeds 1 and 2 share no block.
 */
final class SeededBlocks {
    private static final int WAVE_BLOCKS = 64;

    /** Appends the edges of items [first, first + count) to {@code out}, drawing only from {@code random}. */
    interface Filler {
        void fill(SplittableRandom random, long first, int count, EdgeList out);
    }

    private SeededBlocks() {}

    /** The random stream of block {@code block} of phase {@code phase}: a function of its arguments only. */
    static SplittableRandom stream(long seed, long phase, long block) {
        return new SplittableRandom(mix(mix(seed ^ 0x9E3779B97F4A7C15L * (phase + 1)) + block));
    }

    /** Runs {@code filler} over items [0, items) in blocks of {@code blockSize} and appends the edges to {@code out}. */
    static void generate(EdgeList out, long items, int blockSize, long seed, long phase, Filler filler) {
        long blocks = (items + blockSize - 1) / blockSize;
        for (long wave = 0; wave < blocks; wave += WAVE_BLOCKS) {
            int inWave = (int) Math.min(WAVE_BLOCKS, blocks - wave);
            EdgeList[] parts = new EdgeList[inWave];
            final long firstBlock = wave;
            IntStream.range(0, inWave).parallel().forEach(i -> {
                long block = firstBlock + i;
                long first = block * blockSize;
                int count = (int) Math.min(blockSize, items - first);
                parts[i] = new EdgeList(out.vertexCount(), out.directed(), count);
                filler.fill(stream(seed, phase, block), first, count, parts[i]);
            });
            for (EdgeList part : parts) append(out, part);
        }
    }

    static void append(EdgeList out, EdgeList part) {
        int[] s = part.sourcesArray(), t = part.targetsArray();
        double[] w = part.weightsArray();
        for (int k = 0, m = part.size(); k < m; k++) out.add(s[k], t[k], w[k]);
    }

    /**
     * Makes the undirected simple edge list {@code e} free of repeated pairs, keeping its size: each repeat of an
     * earlier pair {u,v} (in list order) is replaced by a fresh uniform pair drawn by {@code redraw} from the stream
     * of (seed, phase, index) until the pair is new. Sequential but touches only the repeats, so it is deterministic
     * and cheap when the graph is sparse. Self-loops must already be excluded by the generator and by {@code redraw}.
     */
    static void replaceRepeatedPairs(EdgeList e, long seed, long phase, PairDrawer redraw) {
        int m = e.size();
        int[] s = e.sourcesArray(), t = e.targetsArray();
        long[] sorted = new long[m];
        for (int i = 0; i < m; i++) sorted[i] = key(s[i], t[i]);
        Arrays.parallelSort(sorted);
        boolean anyRepeat = false;
        for (int i = 1; i < m && !anyRepeat; i++) anyRepeat = sorted[i] == sorted[i - 1];
        if (!anyRepeat) return;
        // keys seen at least twice; walk the list in order and redraw every occurrence after the first
        java.util.HashSet<Long> repeated = new java.util.HashSet<>();
        for (int i = 1; i < m; i++) if (sorted[i] == sorted[i - 1]) repeated.add(sorted[i]);
        java.util.HashSet<Long> seen = new java.util.HashSet<>();
        java.util.HashSet<Long> added = new java.util.HashSet<>();
        int[] pair = new int[2];
        for (int i = 0; i < m; i++) {
            long k = key(s[i], t[i]);
            if (!repeated.contains(k) || seen.add(k)) continue;
            SplittableRandom r = stream(seed, phase, i);
            long fresh;
            do {
                redraw.draw(r, pair);
                fresh = key(pair[0], pair[1]);
            } while (Arrays.binarySearch(sorted, fresh) >= 0 || added.contains(fresh));
            added.add(fresh);
            s[i] = pair[0];
            t[i] = pair[1];
        }
    }

    /** Draws one candidate pair (u != v) into {@code out[0]}, {@code out[1]}. */
    interface PairDrawer {
        void draw(SplittableRandom random, int[] out);
    }

    /** The undirected pair {a, b} as one long. */
    static long key(int a, int b) {
        return a < b ? ((long) a << 32) | b : ((long) b << 32) | a;
    }

    /** Stafford's variant 13 of the MurmurHash3 finalizer (as SplittableRandom's own mix64). */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * Chooses {@code k} distinct vertices of 0..n-1 other than {@code excluded} (Floyd's sampling), uniformly, into
     * {@code out[0..k)}. {@code marks} is scratch of length n, all false on entry and on return (may be null when
     * k is small: a linear scan then checks repeats).
     */
    static void sampleDistinct(SplittableRandom r, int n, int excluded, int k, int[] out, boolean[] marks) {
        int size = n - 1; // candidates 0..n-2, mapped past 'excluded'
        int c = 0;
        for (int j = size - k; j < size; j++) {
            int x = map(r.nextInt(j + 1), excluded);
            if (contains(out, c, x, marks)) x = map(j, excluded);
            out[c++] = x;
            if (marks != null) marks[x] = true;
        }
        if (marks != null) for (int i = 0; i < k; i++) marks[out[i]] = false;
    }

    private static int map(int candidate, int excluded) {
        return candidate < excluded ? candidate : candidate + 1;
    }

    private static boolean contains(int[] out, int count, int x, boolean[] marks) {
        if (marks != null) return marks[x];
        for (int i = 0; i < count; i++) if (out[i] == x) return true;
        return false;
    }
}
