package org.frontiergraph.kernels.io;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.ZipException;

/**
 * A hand-written, line-aware tokenizer over bytes, for the graph readers: no String per line, no regex.
 * Spaces, tabs and {@code '\r'} separate tokens (so CRLF files read like LF files); {@code '\n'} ends a line.
 * Every error it raises is a {@link GraphFileException} carrying the file name and the current line number.
 */
final class ByteScanner {
    static final int EOF = -1;
    private static final int MAX_TOKEN = 64;

    private final InputStream in;
    private final String name;
    private final byte[] buf;
    private int pos;
    private int limit;
    private long line = 1;
    private final byte[] token = new byte[MAX_TOKEN];
    private int tokenLength;
    private boolean tokenTruncated;

    ByteScanner(InputStream in, String name, int bufferSize) {
        this.in = in;
        this.name = name;
        this.buf = new byte[bufferSize];
    }

    /** The 1-based number of the line being read. */
    long line() { return line; }

    String name() { return name; }

    int peek() throws IOException {
        if (pos < limit) return buf[pos] & 0xff;
        return fill() ? buf[pos] & 0xff : EOF;
    }

    private boolean fill() throws IOException {
        int n;
        try {
            do {
                n = in.read(buf, 0, buf.length);
            } while (n == 0);
        } catch (EOFException | ZipException e) {
            throw error("truncated or corrupt gzip data (" + e.getMessage() + ")", e);
        }
        if (n < 0) {
            pos = limit = 0;
            return false;
        }
        pos = 0;
        limit = n;
        return true;
    }

    /** Skips a UTF-8 byte order mark at the very start, if any. */
    void skipByteOrderMark() throws IOException {
        if (peek() == 0xEF) {
            pos++;
            if (peek() == 0xBB) pos++;
            if (peek() == 0xBF) pos++;
        }
    }

    private static boolean isSpace(int c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0B;
    }

    /** Skips spaces, tabs and carriage returns; returns the next byte ({@code '\n'} or {@link #EOF} at line end). */
    int skipSpaces() throws IOException {
        int c;
        while (isSpace(c = peek())) pos++;
        return c;
    }

    /** Consumes the rest of the current line, its {@code '\n'} included. */
    void skipLine() throws IOException {
        while (true) {
            if (pos == limit && !fill()) return;
            for (int i = pos; i < limit; i++) {
                if (buf[i] == '\n') {
                    pos = i + 1;
                    line++;
                    return;
                }
            }
            pos = limit;
        }
    }

    /** Lines seen by {@link #nextContentLine}, and how many of them were comments or blank. */
    long lines, comments, blanks;

    /**
     * Skips blank lines and lines whose first byte is one of {@code commentStarts}, counting them (and every line
     * it reaches in {@link #lines}); returns the first byte of the next content line, or {@link #EOF}.
     */
    int nextContentLine(String commentStarts) throws IOException {
        while (true) {
            int c = skipSpaces();
            if (c == EOF) return EOF;
            lines++;
            if (c == '\n') {
                blanks++;
            } else if (commentStarts.indexOf(c) >= 0) {
                comments++;
            } else {
                return c;
            }
            skipLine();
        }
    }

    /** True when only spaces remain on this line. Does not consume the {@code '\n'}. */
    boolean atLineEnd() throws IOException {
        int c = skipSpaces();
        return c == '\n' || c == EOF;
    }

    /** Requires that only spaces remain on this line, then consumes its {@code '\n'}. */
    void endLine(String after) throws IOException {
        int c = skipSpaces();
        if (c == '\n') {
            pos++;
            line++;
        } else if (c != EOF) {
            readToken();
            throw error("unexpected '" + tokenText() + "' after " + after);
        }
    }

    /** Reads the next whitespace-separated token on this line; returns its length, 0 at line end. */
    int readToken() throws IOException {
        skipSpaces();
        int len = 0;
        boolean truncated = false;
        while (true) {
            if (pos == limit && !fill()) break;
            int c = buf[pos] & 0xff;
            if (c == '\n' || isSpace(c)) break;
            if (len < MAX_TOKEN) token[len++] = (byte) c; else truncated = true;
            pos++;
        }
        tokenLength = len;
        tokenTruncated = truncated;
        return len;
    }

    /** Byte i of the last token. */
    int tokenByte(int i) { return token[i]; }

    /** The last token as text (shortened when very long), for messages and header words. */
    String tokenText() {
        String s = new String(token, 0, tokenLength, StandardCharsets.ISO_8859_1);
        return tokenTruncated ? s + "..." : s;
    }

    /** Reads an integer token; {@code what} names it in errors ("source vertex"). */
    long readLong(String what) throws IOException {
        int len = readToken();
        if (len == 0) throw error("missing " + what);
        long v = parseLong(len);
        if (v == Long.MIN_VALUE) throw error("expected an integer " + what + ", found '" + tokenText() + "'");
        return v;
    }

    /** Parses the token as a decimal integer of at most 18 digits; Long.MIN_VALUE when it is not one. */
    private long parseLong(int len) {
        if (tokenTruncated) return Long.MIN_VALUE;
        int i = 0;
        boolean negative = false;
        if (token[0] == '-' || token[0] == '+') {
            negative = token[0] == '-';
            i = 1;
        }
        if (i == len || len - i > 18) return Long.MIN_VALUE;
        long v = 0;
        for (; i < len; i++) {
            int d = token[i] - '0';
            if (d < 0 || d > 9) return Long.MIN_VALUE;
            v = v * 10 + d;
        }
        return negative ? -v : v;
    }

    /** Reads a finite number (integer or decimal, e.g. {@code 3}, {@code -2.5}, {@code 1e-3}). */
    double readNumber(String what) throws IOException {
        int len = readToken();
        if (len == 0) throw error("missing " + what);
        long asLong = parseLong(len);
        if (asLong != Long.MIN_VALUE && Math.abs(asLong) < (1L << 53)) return asLong;
        double v;
        try {
            if (tokenTruncated) throw new NumberFormatException();
            v = Double.parseDouble(tokenText());
        } catch (NumberFormatException e) {
            throw error("expected a number for " + what + ", found '" + tokenText() + "'");
        }
        // parseDouble also takes "NaN", "Infinity", "1e999" and Java suffixes ("2d"); only finite decimals pass.
        int last = token[len - 1];
        if (Double.isNaN(v) || Double.isInfinite(v) || !(last == '.' || (last >= '0' && last <= '9'))) {
            throw error(what + " must be a finite number, found '" + tokenText() + "'");
        }
        return v;
    }

    GraphFileException error(String reason) {
        return new GraphFileException(name, line, reason);
    }

    GraphFileException error(String reason, Throwable cause) {
        return new GraphFileException(name, line, reason, cause);
    }

    /** An error about the whole file (line 0). */
    GraphFileException fileError(String reason) {
        return new GraphFileException(name, 0, reason);
    }
}
