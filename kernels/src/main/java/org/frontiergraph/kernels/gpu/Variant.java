package org.frontiergraph.kernels.gpu;

import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;

/**
 * A GPU algorithm variant as a query names it: {@code name[,key=value...]}, e.g. {@code persistent,bps=2} or
 * {@code nearfar,delta=4096}. Null, empty and "default" select the algorithm's default name with no options.
 * Options are tuning knobs for benchmarks; every variant returns the same (verified) answers.
 */
public record Variant(String name, Map<String, String> options) {
    public static Variant parse(String algorithm, String text, String defaultName, Collection<String> known) {
        if (text == null || text.isBlank() || text.trim().equalsIgnoreCase("default")) {
            return new Variant(defaultName, Map.of());
        }
        String[] parts = text.trim().toLowerCase(Locale.ROOT).split(",");
        String name = parts[0].isEmpty() ? defaultName : parts[0];
        if (!known.contains(name)) throw new UnsupportedVariantException(algorithm, text, GpuBackend.NAME, known);
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq <= 0) throw new UnsupportedVariantException(algorithm, text, GpuBackend.NAME, known);
            options.put(parts[i].substring(0, eq).trim(), parts[i].substring(eq + 1).trim());
        }
        return new Variant(name, options);
    }

    /** The variant's name (before any options), lower case; null for the default. */
    public static String nameOf(String text) {
        if (text == null || text.isBlank() || text.trim().equalsIgnoreCase("default")) return null;
        return text.trim().toLowerCase(Locale.ROOT).split(",")[0];
    }

    public int intOption(String key, int fallback) {
        String v = options.get(key);
        return v == null ? fallback : Integer.parseInt(v);
    }

    public double doubleOption(String key, double fallback) {
        String v = options.get(key);
        return v == null ? fallback : Double.parseDouble(v);
    }
}
