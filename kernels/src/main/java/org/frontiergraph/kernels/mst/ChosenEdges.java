package org.frontiergraph.kernels.mst;

/**
 * The MST kernels mark chosen edges as one bit per edge id: the ids of the set bits, ascending (gathered in pieces on
 * the cores side by side for large graphs).
 */
final class ChosenEdges {
    private ChosenEdges() {}

    /** Words of bits per piece when the ids are gathered on the cores side by side. */
    private static final int PIECE_WORDS = 1 << 12;

    static int[] ids(int[] bits) {
        int pieces = (bits.length + PIECE_WORDS - 1) / PIECE_WORDS;
        int[] start = new int[pieces + 1];
        java.util.stream.IntStream range = java.util.stream.IntStream.range(0, pieces);
        (pieces > 1 ? range.parallel() : range).forEach(p -> {
            int count = 0;
            for (int i = p * PIECE_WORDS, end = Math.min(bits.length, i + PIECE_WORDS); i < end; i++) {
                count += Integer.bitCount(bits[i]);
            }
            start[p + 1] = count;
        });
        for (int p = 0; p < pieces; p++) start[p + 1] += start[p];
        int[] ids = new int[start[pieces]];
        range = java.util.stream.IntStream.range(0, pieces);
        (pieces > 1 ? range.parallel() : range).forEach(p -> {
            int j = start[p];
            for (int i = p * PIECE_WORDS, end = Math.min(bits.length, i + PIECE_WORDS); i < end; i++) {
                int word = bits[i];
                while (word != 0) {
                    ids[j++] = 32 * i + Integer.numberOfTrailingZeros(word);
                    word &= word - 1;
                }
            }
        });
        return ids;
    }
}
