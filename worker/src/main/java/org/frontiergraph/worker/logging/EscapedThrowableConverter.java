package org.frontiergraph.worker.logging;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;

/**
 * {@code %safeEx} in logback.xml: the stack trace as {@code %ex} prints it, with the messages of the exception, its
 * causes and suppressed exceptions escaped ({@link LogSafe#escapeControls}): an exception message that quotes a
 * client's id cannot start a line of its own either. Every line of a stack trace still starts with a tab,
 * "Caused by: ", or the exception's class name.
 */
public class EscapedThrowableConverter extends ThrowableProxyConverter {
    @Override
    protected String throwableProxyToString(IThrowableProxy tp) {
        return super.throwableProxyToString(Escaped.of(tp));
    }

    /** A throwable proxy whose messages (and its causes' and suppressed exceptions') are escaped. */
    private record Escaped(IThrowableProxy tp) implements IThrowableProxy {
        static IThrowableProxy of(IThrowableProxy tp) {
            return tp == null || tp instanceof Escaped ? tp : new Escaped(tp);
        }

        @Override public String getMessage() { return LogSafe.escapeControls(tp.getMessage()); }
        @Override public String getOverridingMessage() { return LogSafe.escapeControls(tp.getOverridingMessage()); }
        @Override public String getClassName() { return LogSafe.escapeControls(tp.getClassName()); }
        @Override public StackTraceElementProxy[] getStackTraceElementProxyArray() { return tp.getStackTraceElementProxyArray(); }
        @Override public int getCommonFrames() { return tp.getCommonFrames(); }
        @Override public IThrowableProxy getCause() { return of(tp.getCause()); }
        @Override public boolean isCyclic() { return tp.isCyclic(); }

        @Override
        public IThrowableProxy[] getSuppressed() {
            IThrowableProxy[] s = tp.getSuppressed();
            if (s == null) return null;
            IThrowableProxy[] out = new IThrowableProxy[s.length];
            for (int i = 0; i < s.length; i++) out[i] = of(s[i]);
            return out;
        }
    }
}
