package org.frontiergraph.worker.subscription;

import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.standing.TreeKind;
import org.frontiergraph.schema.Algorithm;

/** Standing SSSP: a {@link TreeForm} of distances. */
public final class SsspForm extends TreeForm<SsspResult> {
    public SsspForm() {
        super(Algorithm.SSSP, TreeKind.SSSP);
    }
}
