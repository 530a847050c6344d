package org.frontiergraph.kernels.mst;

/** The MST kernels mark chosen edges as one bit per edge id: the ids of the set bits, ascending. */
final class ChosenEdges {
    private ChosenEdges() {}

    static int[] ids(int[] bits) {
        int count = 0;
        for (int word : bits) count += Integer.bitCount(word);
        int[] ids = new int[count];
        int j = 0;
        for (int i = 0; i < bits.length; i++) {
            int word = bits[i];
            while (word != 0) {
                ids[j++] = 32 * i + Integer.numberOfTrailingZeros(word);
                word &= word - 1;
            }
        }
        return ids;
    }
}
