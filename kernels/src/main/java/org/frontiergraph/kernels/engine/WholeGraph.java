package org.frontiergraph.kernels.engine;

/** The query of an algorithm that takes nothing but the graph (MST). */
public enum WholeGraph {
    QUERY
}
