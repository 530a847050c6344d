package org.frontiergraph.kernels.engine;

/**
 * The outcome of checking an answer against a reference and the rules of its problem. Verifiers return one of
 * these and never only print: a test asserts {@link #ok()} with {@link #message()}, a service calls
 * {@link #orThrow()} so that a wrong answer reaches the user as an error.
 */
public record Verification(boolean ok, String message) {
    private static final Verification OK = new Verification(true, "ok");

    /**
     * A passed check. (Named {@code passed}, not {@code ok}: a static {@code ok()} would clash with the record's
     * {@link #ok()} accessor.)
     */
    public static Verification passed() { return OK; }

    public static Verification fail(String message) { return new Verification(false, message); }

    /** This verification when it passed. @throws IllegalStateException with the message when it did not */
    public Verification orThrow() {
        if (!ok) throw new IllegalStateException("verification failed: " + message);
        return this;
    }
}
