package org.frontiergraph.kernels.engine;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

/**
 * Scratch objects (arrays of a graph's size) kept between calls and shared by the threads that run them: a call
 * {@link #take}s one and {@link #give}s it back. Not a thread-local: the common fork-join pool's workers drop their
 * thread-locals after each task (JDK 17), so a scratch kept per thread was allocated and zeroed again by every task
 * (a standing tree's repair on NY: 2 MB, for a repair that touches a few hundred vertices). At most as many exist as
 * calls ever ran at once, each as large as its largest graph.
 */
public final class Spares<T> {
    private final ConcurrentLinkedQueue<T> idle = new ConcurrentLinkedQueue<>();
    private final Supplier<T> make;

    public Spares(Supplier<T> make) {
        this.make = make;
    }

    /** One not in use by any other call: a spare, or a new one. */
    public T take() {
        T t = idle.poll();
        return t != null ? t : make.get();
    }

    /** Gives back what {@link #take} returned, for the next call. */
    public void give(T t) {
        idle.offer(t);
    }
}
