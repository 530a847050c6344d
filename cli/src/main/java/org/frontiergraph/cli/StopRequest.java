package org.frontiergraph.cli;

import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) and SIGTERM as a request to stop, not an exit: a command that holds something open on the
 * cluster (a subscription) undoes it and exits with its own status. A second signal while it does so exits at once
 * (status 130, as a shell reports an interrupted command). The previous handlers come back on {@link #close()}.
 *
 * <p>Uses {@code sun.misc.Signal} (module jdk.unsupported, in every JDK since 9): a shutdown hook cannot choose
 * the exit status, and the JVM would be exiting already while the command publishes its cancel.
 */
final class StopRequest implements AutoCloseable {
    private static final String[] SIGNALS = {"INT", "TERM"};

    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();
    private volatile boolean requested;
    private volatile String why;

    private StopRequest() {}

    /** Catches SIGINT and SIGTERM from now until {@link #close()}; a signal this JVM cannot catch is left alone. */
    static StopRequest install() {
        StopRequest s = new StopRequest();
        for (String name : SIGNALS) {
            try {
                Signal signal = new Signal(name);
                SignalHandler old = Signal.handle(signal, sig -> s.signalled("SIG" + sig.getName()));
                s.signals.add(signal);
                s.previous.add(old);
            } catch (IllegalArgumentException e) {
                // not available here (or reserved by the JVM, e.g. with -Xrs): the default behaviour stays
            }
        }
        return s;
    }

    private void signalled(String signal) {
        if (requested) Runtime.getRuntime().halt(130);   // asked twice: do not wait for the clean-up
        request(signal);
    }

    /** Asks the command to stop (what a signal does), saying why. */
    void request(String reason) {
        why = reason;
        requested = true;
    }

    boolean requested() { return requested; }

    /** Why a stop was requested ({@code SIGINT}, {@code SIGTERM}, ...); null when none was. */
    String why() { return why; }

    @Override
    public void close() {
        for (int i = 0; i < signals.size(); i++) Signal.handle(signals.get(i), previous.get(i));
    }
}
