package org.frontiergraph.client;

/** What the integration tests (another package) read of a client's shared results reader. */
public final class ClientProbe {
    private ClientProbe() {}

    /** How many results readers (Kafka consumers) the client's query calls opened. */
    public static int resultReadersOpened(FrontierClient client) {
        return client.resultReadersOpened();
    }

    /** The query ids the client's query calls await now. */
    public static int pendingQueries(FrontierClient client) {
        return client.pendingQueries();
    }
}
