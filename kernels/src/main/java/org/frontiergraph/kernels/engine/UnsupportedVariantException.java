package org.frontiergraph.kernels.engine;

import java.util.Collection;

/** A query named an algorithm variant (or an algorithm) this backend does not implement. */
public class UnsupportedVariantException extends RuntimeException {
    public UnsupportedVariantException(String algorithm, String variant, String backend, Collection<String> known) {
        super("backend '" + backend + "' has no " + algorithm + " variant '" + variant + "'; known: " + known);
    }

    public UnsupportedVariantException(String message) {
        super(message);
    }
}
