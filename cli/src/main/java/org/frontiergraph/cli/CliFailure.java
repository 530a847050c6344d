package org.frontiergraph.cli;

/** A command failed for a reason the user can act on: printed as one line, exit status 1. */
final class CliFailure extends RuntimeException {
    CliFailure(String message) {
        super(message);
    }
}
