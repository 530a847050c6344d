package org.frontiergraph.worker.logging;

/**
 * Client-controlled text (keys, graph ids, query and subscription ids) made safe for a log line: {@link #quote}
 * wraps it in single quotes with control characters, line separators, the quote and the backslash escaped, and cuts
 * a very long one to {@value #MAX_CHARS} characters followed by {@code ...(N chars)}. The text log's pattern
 * escapes control characters of every message as well ({@link EscapedMessageConverter}); quoting the ids too keeps
 * them unambiguous (where an id ends) and short.
 */
public final class LogSafe {
    /** Characters of an id kept in a log line. */
    public static final int MAX_CHARS = 200;

    private LogSafe() {}

    /** {@code 'text'}, escaped and cut to {@value #MAX_CHARS} characters; {@code null} for null. */
    public static String quote(CharSequence text) {
        if (text == null) return "null";
        int n = text.length();
        int keep = Math.min(n, MAX_CHARS);
        if (keep < n && Character.isHighSurrogate(text.charAt(keep - 1))) keep--;   // never half a code point
        StringBuilder b = new StringBuilder(keep + 24).append('\'');
        for (int i = 0; i < keep; i++) {
            char c = text.charAt(i);
            if (c == '\'' || c == '\\') b.append('\\').append(c);
            else appendEscaped(b, c, false);
        }
        b.append('\'');
        if (keep < n) b.append("...(").append(n).append(" chars)");
        return b.toString();
    }

    /**
     * {@code text} with every character that could end or rewrite a line escaped (CR, LF and the other C0 controls
     * but tab, DEL, the C1 controls including NEL, U+2028 and U+2029); {@code text} itself when it has none.
     */
    public static String escapeControls(String text) {
        if (text == null) return null;
        int i = 0, n = text.length();
        while (i < n && !unsafe(text.charAt(i), true)) i++;
        if (i == n) return text;
        StringBuilder b = new StringBuilder(n + 16).append(text, 0, i);
        for (; i < n; i++) appendEscaped(b, text.charAt(i), true);
        return b.toString();
    }

    private static boolean unsafe(char c, boolean keepTab) {
        if (c == '\t') return !keepTab;
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }

    private static void appendEscaped(StringBuilder b, char c, boolean keepTab) {
        if (!unsafe(c, keepTab)) {
            b.append(c);
            return;
        }
        switch (c) {
            case '\n' -> b.append("\\n");
            case '\r' -> b.append("\\r");
            case '\t' -> b.append("\\t");
            default -> b.append(String.format("\\u%04x", (int) c));
        }
    }
}
