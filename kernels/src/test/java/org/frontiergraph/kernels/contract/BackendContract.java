package org.frontiergraph.kernels.contract;

import java.util.function.Function;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * What every contract shares: one backend per test class (opened by {@link #createBackend()}, closed after the
 * last test), and graphs made resident for the length of one check. A backend that cannot run here (no GPU) may
 * abort in {@code createBackend} with a JUnit assumption, which skips the whole class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class BackendContract {
    private ComputeBackend backend;

    /** The implementation under test, e.g. {@code new CpuBackend()}. */
    protected abstract ComputeBackend createBackend();

    @BeforeAll
    final void openBackend() {
        backend = createBackend();
    }

    @AfterAll
    final void closeBackend() {
        if (backend != null) backend.close();
    }

    protected final ComputeBackend backend() { return backend; }

    /** Loads {@code g}, applies {@code query} to the resident graph, and releases it. */
    protected final <T> T withResident(CsrGraph g, Function<ResidentGraph, T> query) {
        try (ResidentGraph resident = backend.load(g)) {
            return query.apply(resident);
        }
    }
}
