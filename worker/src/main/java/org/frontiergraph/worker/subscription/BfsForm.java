package org.frontiergraph.worker.subscription;

import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.standing.TreeKind;
import org.frontiergraph.schema.Algorithm;

/** Standing BFS: a {@link TreeForm} of hop counts. */
public final class BfsForm extends TreeForm<BfsResult> {
    public BfsForm() {
        super(Algorithm.BFS, TreeKind.BFS);
    }
}
