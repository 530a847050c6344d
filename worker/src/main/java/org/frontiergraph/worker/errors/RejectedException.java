package org.frontiergraph.worker.errors;

/**
 * A record the worker refuses, with the code that goes on the errors topic (see ErrorEvent.code in the contract)
 * and a reason a person can act on.
 */
public class RejectedException extends RuntimeException {
    private final ErrorCode code;

    public RejectedException(ErrorCode code, String reason) {
        super(reason);
        this.code = code;
    }

    public RejectedException(ErrorCode code, String reason, Throwable cause) {
        super(reason, cause);
        this.code = code;
    }

    public ErrorCode code() { return code; }
}
