package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.contract.GpuTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Copies to the host and back, all through a lane's two pinned buffers: a few bytes, one piece, exactly two, and
 * many with a partial last one; every element arrives, in place, and a prefix copy reads only the prefix; 64-bit
 * values converted on the way arrive converted. Gathers read the given positions. Skipped without a GPU.
 */
@Tag("gpu")
class DeviceCopiesGpuTest extends GpuTests {
    private static final int STAGE_INTS = PinnedStaging.STAGE_BYTES / 4;

    @ParameterizedTest
    @ValueSource(ints = {1, 1000, 262_144, 262_145, STAGE_INTS, 2 * STAGE_INTS, 5 * STAGE_INTS + 12_345})
    void intsArriveWholeAndInPlace(int count) {
        int[] data = new SplittableRandom(count).ints(count).toArray();
        CudaContext c = gpu.context();
        int[] back = c.call(() -> {
            try (DeviceBuffer b = DeviceBuffer.of(c, new AtomicLong(), data)) {
                int[] into = new int[count];
                b.download(into);
                int[] prefix = new int[count / 2];
                b.download(prefix);
                for (int i = 0; i < prefix.length; i++) assertEquals(data[i], prefix[i], "prefix element " + i);
                int[] tail = new int[count - count / 3];
                b.download(count / 3, tail);
                for (int i = 0; i < tail.length; i++) assertEquals(data[count / 3 + i], tail[i], "tail element " + i);
                int[] picks = {0, count - 1, count / 2, count / 3, 0};
                int[] gathered = Gather.ints(c, new AtomicLong(), b, picks);
                for (int i = 0; i < picks.length; i++) assertEquals(data[picks[i]], gathered[i], "gathered " + picks[i]);
                return into;
            }
        });
        assertArrayEquals(data, back);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 131_072, STAGE_INTS / 2, STAGE_INTS / 2 + 1, 3 * STAGE_INTS + 7})
    void longsArriveWholeAndInPlace(int count) {
        long[] data = new SplittableRandom(count).longs(count).toArray();
        int[] halves = new int[2 * count];
        for (int i = 0; i < count; i++) {   // uploaded as two ints each, little-endian
            halves[2 * i] = (int) data[i];
            halves[2 * i + 1] = (int) (data[i] >>> 32);
        }
        CudaContext c = gpu.context();
        long[] back = c.call(() -> {
            try (DeviceBuffer b = DeviceBuffer.of(c, new AtomicLong(), halves)) {
                long[] into = new long[count];
                b.download(into);
                double[] converted = new double[count];
                b.download(converted, k -> (double) (k >>> 11));   // converted as they arrive, no long[] between
                for (int i = 0; i < count; i++) assertEquals((double) (data[i] >>> 11), converted[i], 0.0, "converted " + i);
                int[] picks = {count - 1, 0, count / 2};
                long[] gathered = Gather.longs(c, new AtomicLong(), b, picks);
                for (int i = 0; i < picks.length; i++) assertEquals(data[picks[i]], gathered[i], "gathered " + picks[i]);
                return into;
            }
        });
        assertArrayEquals(data, back);
    }
}
