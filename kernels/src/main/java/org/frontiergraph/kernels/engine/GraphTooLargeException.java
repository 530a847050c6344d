package org.frontiergraph.kernels.engine;

/** The graph does not fit in the backend's memory. */
public class GraphTooLargeException extends RuntimeException {
    public GraphTooLargeException(String message) {
        super(message);
    }
}
