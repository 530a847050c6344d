package org.frontiergraph.kernels.graph;

/** A graph that Frontier refuses to hold: vertex out of range, a negative, NaN or infinite weight, too many edges. */
public class InvalidGraphException extends IllegalArgumentException {
    public enum Kind { INVALID_VERTEX, INVALID_WEIGHT, TOO_LARGE, INVALID_EDGE }

    private final Kind kind;

    public InvalidGraphException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() { return kind; }
}
