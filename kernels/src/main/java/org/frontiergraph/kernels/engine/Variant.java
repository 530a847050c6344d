package org.frontiergraph.kernels.engine;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * An algorithm variant as a query names it, parsed once: {@code name[,key=value...]}, e.g. {@code persistent,bps=2}
 * or {@code nearfar,delta=4096}. {@link AlgorithmSpec#choose} parses the text and fills in the default name, so an
 * implementation always receives a named variant. Options are tuning knobs for benchmarks; every variant returns
 * the same (verified) answers.
 */
public record Variant(String name, Map<String, String> options) {
    public Variant {
        options = Map.copyOf(options);
    }

    /** A named variant with no options. */
    public static Variant of(String name) {
        return new Variant(name, Map.of());
    }

    /**
     * Parses {@code text}; null, blank and "default" give a variant with a null name (the backend's default) and
     * no options. {@code malformed} makes the exception for an option that is not {@code key=value}.
     */
    static Variant parse(String text, Supplier<? extends RuntimeException> malformed) {
        if (text == null || text.isBlank() || text.trim().equalsIgnoreCase("default")) return new Variant(null, Map.of());
        String[] parts = text.trim().toLowerCase(Locale.ROOT).split(",");
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq <= 0) throw malformed.get();
            options.put(parts[i].substring(0, eq).trim(), parts[i].substring(eq + 1).trim());
        }
        return new Variant(parts[0].isEmpty() || parts[0].equals("default") ? null : parts[0], options);
    }

    /** This variant under {@code name} (the default name filled in), same options. */
    Variant named(String name) {
        return new Variant(name, options);
    }

    public int intOption(String key, int fallback) {
        String v = options.get(key);
        return v == null ? fallback : Integer.parseInt(v);
    }

    public double doubleOption(String key, double fallback) {
        String v = options.get(key);
        return v == null ? fallback : Double.parseDouble(v);
    }

    public boolean is(String name) {
        return name.equals(this.name);
    }
}
