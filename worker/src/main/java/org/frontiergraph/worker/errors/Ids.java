package org.frontiergraph.worker.errors;

import java.nio.charset.StandardCharsets;

/**
 * The limits on what a client names (record keys, graph, query, subscription and update ids) and on the text the
 * worker echoes back in its outputs. An id is echoed in every output it causes (a failed QueryResult carries the
 * query id as its key and in its value, an error event the key, graph id and query id, every push chunk the
 * subscription id), so an unbounded id makes outputs larger than the producer may send. Ids longer than
 * {@link #MAX_BYTES} are refused on input (docs/contract.md, "Limits"); what the worker echoes of a refused one is cut
 * to {@link #ECHO_CHARS} characters.
 */
public final class Ids {
    /** The longest key or id a record may carry, in UTF-8 bytes. */
    public static final int MAX_BYTES = 1024;
    /** What an error event echoes of an over-long id, at most, in characters (then a note of its full length). */
    public static final int ECHO_CHARS = 128;
    /** The longest reason an error event or a failed result carries, in characters. */
    public static final int MAX_REASON_CHARS = 2048;

    private Ids() {}

    /** Bytes of {@code s} in UTF-8 (0 for null). */
    public static int bytes(String s) {
        if (s == null) return 0;
        if (s.length() > MAX_BYTES) return s.getBytes(StandardCharsets.UTF_8).length;
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) n++;
            else if (c < 0x800) n += 2;
            else if (Character.isHighSurrogate(c)) {
                n += 4;
                i++;
            } else n += 3;
        }
        return n;
    }

    /** Whether {@code s} is within {@link #MAX_BYTES}. */
    public static boolean fits(String s) {
        return s == null || s.length() <= MAX_BYTES / 4 || bytes(s) <= MAX_BYTES;
    }

    /**
     * @throws RejectedException {@code code} naming the limit, when {@code s} ({@code what}: "record key", "queryId" ...)
     *         is longer than {@link #MAX_BYTES}
     */
    public static void require(String what, String s, ErrorCode code) {
        if (!fits(s)) {
            throw new RejectedException(code, what + " of " + bytes(s) + " bytes is longer than the " + MAX_BYTES
                    + "-byte limit on keys and ids (docs/contract.md, \"Limits\"): " + echo(s));
        }
    }

    /** {@code s} as an output may echo it: itself when within the limit, else its start and its length. */
    public static String echo(String s) {
        return fits(s) ? s : start(s, ECHO_CHARS) + "...(" + bytes(s) + " bytes)";
    }

    /** A reason cut to {@link #MAX_REASON_CHARS} characters. */
    public static String reason(String s) {
        return s == null || s.length() <= MAX_REASON_CHARS ? s : start(s, MAX_REASON_CHARS) + "...(" + s.length() + " characters)";
    }

    /** The first {@code n} characters of {@code s}, one fewer where the n-th begins a surrogate pair. */
    private static String start(String s, int n) {
        return s.substring(0, Character.isHighSurrogate(s.charAt(n - 1)) ? n - 1 : n);
    }
}
