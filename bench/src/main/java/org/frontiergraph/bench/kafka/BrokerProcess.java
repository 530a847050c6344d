package org.frontiergraph.bench.kafka;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.frontiergraph.cli.EmbeddedKafkaBroker;

/**
 * The embedded KRaft broker of the CLI alone in a JVM, for benchmarks that keep the broker out of the workers' and
 * the load generator's processes ({@link ScaleOutBench}). Writes its bootstrap address to the file named by its one
 * argument once it is ready (written whole: a reader never sees half of it), and stops, deleting its log, when its
 * standard input ends (the parent closed it or died) or on SIGTERM.
 *
 * <pre>java -cp ... org.frontiergraph.bench.kafka.BrokerProcess BOOTSTRAP-FILE</pre>
 */
public final class BrokerProcess {
    private BrokerProcess() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: BrokerProcess BOOTSTRAP-FILE");
            System.exit(2);
        }
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startTemporary();
        Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "broker-stop"));
        Path file = Path.of(args[0]);
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.writeString(partial, broker.bootstrapServers(), StandardCharsets.UTF_8);
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        while (System.in.read() >= 0) {
            // nothing is sent; the end of the stream is the signal to stop
        }
        System.exit(0);
    }
}
