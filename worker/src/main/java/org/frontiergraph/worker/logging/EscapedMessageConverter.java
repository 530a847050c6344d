package org.frontiergraph.worker.logging;

import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * {@code %safeMsg} in logback.xml: the formatted message with line breaks and other control characters escaped
 * ({@link LogSafe#escapeControls}), so that no text a client sends (a key, an id, a reason quoting them) can end
 * a log line and start one of its own.
 */
public class EscapedMessageConverter extends MessageConverter {
    @Override
    public String convert(ILoggingEvent event) {
        return LogSafe.escapeControls(super.convert(event));
    }
}
