package org.frontiergraph.kernels.engine;

/** A query named an algorithm variant this backend does not implement. */
public class UnsupportedVariantException extends RuntimeException {
    public UnsupportedVariantException(String algorithm, String variant, String backend, java.util.Collection<String> known) {
        super("backend '" + backend + "' has no " + algorithm + " variant '" + variant + "'; known: " + known);
    }
}
