package org.frontiergraph.kernels.engine;

import java.util.Locale;

/** Which engine answers: AUTO takes the GPU when a device and the kernels are present, else the CPU. */
public enum BackendMode {
    AUTO, GPU, CPU;

    public static BackendMode parse(String s) {
        if (s == null || s.isBlank()) return AUTO;
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown backend '" + s + "'; expected auto, gpu or cpu");
        }
    }
}
