package org.frontiergraph.kernels.contract;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;
import org.frontiergraph.kernels.contract.TestGraphs.Fixture;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The graphs every single-source contract (BFS, SSSP) runs on: seeded random graphs, a Kronecker graph and the real
 * graphs of ../shared/datasets (skipped where absent), each from a few seeded sources.
 */
public abstract class SingleSourceContract extends BackendContract {
    /** Runs the algorithm from each source on the backend and asserts that the verifier accepts the answer. */
    protected abstract void assertVerifies(String name, CsrGraph g, int... sources);

    /** More checks on a real graph after it verified (none by default). */
    protected void checkRealGraph(String file, CsrGraph g, int[] sources) {}

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#random")
    void seededRandomGraphs(Fixture f) {
        assertVerifies(f.name(), f.graph(), TestGraphs.sources(f.graph(), 3, 17));
    }

    @Test
    void kroneckerGraph() {
        Fixture f = TestGraphs.kronecker();
        assertVerifies(f.name(), f.graph(), TestGraphs.sources(f.graph(), 4, 17));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#realNames")
    void realGraphs(String file) {
        Optional<CsrGraph> g = TestGraphs.real(file);
        assumeTrue(g.isPresent(), file + " not found under ../shared/datasets");
        int[] sources = TestGraphs.sources(g.get(), 3, 17);
        assertVerifies(file, g.get(), sources);
        checkRealGraph(file, g.get(), sources);
    }
}
