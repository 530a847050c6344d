package org.frontiergraph.kernels.standing;

import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceTimer;

/**
 * Device time of the phases of one repair call, summed over its trees ({@link DeviceTrees}, with
 * {@link RepairPolicy#phases}), printed to stderr with the call's counters.
 */
final class RepairPhases {
    /** Host steps ({@link #lapHost}): screening, setup (arcs, scratch), launching, waiting and decoding the DELTAs. */
    static final int SCREEN = 0, SETUP = 1, LAUNCH = 2, DECODE = 3;
    final long start = System.nanoTime();
    final DeviceTimer[] timers;
    final long[] nanos = new long[3];
    final long[] host = new long[4];
    long lastHost = start;
    long invalid, seeds, rounds, changed, orphans, shifted;

    RepairPhases(CudaContext context) {
        timers = new DeviceTimer[] {new DeviceTimer(context), new DeviceTimer(context), new DeviceTimer(context)};
    }

    /** Phase {@code i} (0 prepare, 1 settle, 2 finish) starts. */
    void start(int i) {
        timers[i].start();
    }

    void stop(int i) {
        timers[i].stop();
    }

    /** Phase {@code i} ends and the next one starts. */
    void next(int i) {
        stop(i);
        start(i + 1);
    }

    /** After a tree's three launches: waits for them and adds their times. */
    void lap() {
        for (int i = 0; i < 3; i++) nanos[i] += timers[i].elapsedNanos();
    }

    /** Host step {@code step} took the time since the last one ended. */
    void lapHost(int step) {
        long now = System.nanoTime();
        host[step] += now - lastHost;
        lastHost = now;
    }

    /** The counters of the tree whose slots start at {@code at} in {@code c}. */
    void add(long[] c, int at) {
        invalid += RepairCounter.INVALID.of(c, at);
        shifted += RepairCounter.SHIFTED.of(c, at);
        seeds += RepairCounter.SEEDS.of(c, at);
        rounds += RepairCounter.ROUNDS.of(c, at);
        changed += RepairCounter.CHANGED.of(c, at);
        orphans += RepairCounter.ORPHANS.of(c, at);
    }

    void print(int repaired, int trees, int n) {
        long all = System.nanoTime() - start;
        System.err.printf(java.util.Locale.ROOT, "device trees: %d of %d repaired (n %,d): prepare %.3f ms, settle %.3f ms,"
                + " finish %.3f ms; call %.3f ms (host: screen %.3f, setup %.3f, launches and device %.3f, copies back and"
                + " decoding %.3f); invalidated %,d, shifted %,d, seeds %,d, jumping rounds %d, changed %,d, orphans %d%n",
                repaired, trees, n, nanos[0] / 1e6, nanos[1] / 1e6, nanos[2] / 1e6, all / 1e6, host[SCREEN] / 1e6,
                host[SETUP] / 1e6, host[LAUNCH] / 1e6, host[DECODE] / 1e6, invalid, shifted, seeds, rounds, changed, orphans);
        close();
    }

    void close() {
        for (var t : timers) t.close();
    }
}
