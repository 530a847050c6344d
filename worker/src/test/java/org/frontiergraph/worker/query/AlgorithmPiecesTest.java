package org.frontiergraph.worker.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.frontiergraph.kernels.Algorithms;
import org.frontiergraph.kernels.engine.AlgorithmModule;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.worker.subscription.StandingForm;
import org.junit.jupiter.api.Test;

/**
 * Every algorithm registered with the engine has every piece that README's "Adding an algorithm" lists, and the
 * contract speaks no algorithm the engine lacks: the symbol in {@code Algorithm.avsc}; a spec with a CPU implementation
 * (its reference and verifier are the module's, run by the kernels' {@code AlgorithmsTest}); an answer encoder of
 * that spec (its answer's shape and decoding are the encoder's: {@code AnswersTest} checks every encoder's answers
 * come back through {@link Answers} and pass the module's verifier); the Python client's answer shape
 * ({@code result.py}'s {@code ANSWER_SHAPES}); docs/contract.md (GraphQuery's algorithms, QueryResult's payload);
 * README's algorithms table; and every algorithm with a standing form ({@code StandingForm.ALL}, the subscription
 * services file) is among the Subscription's algorithms in docs/contract.md. The CLI's values come from the contract's
 * symbols and the standing forms, so no CLI file is listed. Each failure names the file to change.
 */
class AlgorithmPiecesTest {
    private static final Path REPO = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().resolve("..").normalize();

    @Test
    void theContractAndTheEngineNameTheSameAlgorithms() {
        List<String> engine = Algorithms.MODULES.stream().map(m -> m.spec().name()).sorted().toList();
        List<String> contract = Arrays.stream(Algorithm.values()).map(Enum::name).sorted().toList();
        assertEquals(engine, contract, "the engine's modules (META-INF/services of kernels) and the symbols of "
                + "schemas/src/main/avro/common/Algorithm.avsc");
    }

    @Test
    void everyRegisteredAlgorithmHasACpuImplementationAndAnEncoder() {
        for (AlgorithmModule<?, ?> m : Algorithms.MODULES) {
            String name = m.spec().name();
            assertFalse(m.spec().variants("cpu").isEmpty(), name + ": its spec lists no CPU implementation");
            AnswerEncoder<?, ?> e = AnswerEncoders.of(Algorithm.valueOf(name));
            assertSame(m.spec(), e.spec(), name + ": the encoder runs another spec than the module's");
        }
    }

    @Test
    void everyRegisteredAlgorithmHasAPythonAnswerShape() throws IOException {
        String result = read("clients/python/frontier_client/result.py");
        Matcher table = Pattern.compile("(?m)^ANSWER_SHAPES = \\{([^}]*)}").matcher(result);
        assertTrue(table.find(), "result.py has no ANSWER_SHAPES table");
        for (String name : names()) {
            Matcher entry = Pattern.compile("\"" + name + "\": \"(\\w+)\"").matcher(table.group(1));
            assertTrue(entry.find(), name + " has no entry in clients/python/frontier_client/result.py ANSWER_SHAPES");
            assertTrue(result.contains("def _" + entry.group(1) + "(self)"), name + "'s answer shape " + entry.group(1)
                    + " has no method _" + entry.group(1) + " in result.py");
        }
    }

    @Test
    void everyRegisteredAlgorithmIsInTheContractAndTheReadme() throws IOException {
        String contract = read("docs/contract.md");
        String graphQuery = section(contract, "### GraphQuery");
        String queryResult = section(contract, "### QueryResult");
        String readme = section(read("README.md"), "## Algorithms and variants");
        for (String name : names()) {
            assertTrue(graphQuery.contains("`" + name + "`"), name + " is not among GraphQuery's algorithms in docs/contract.md");
            assertTrue(Pattern.compile("(?m)^- " + name + ": ").matcher(queryResult).find(),
                    name + " has no payload line ('- " + name + ": ...') in docs/contract.md's QueryResult section");
            assertTrue(readme.contains("\n| " + name + " |"), name + " has no row in README's algorithms table");
        }
    }

    @Test
    void everyStandingFormIsInTheContract() throws IOException {
        String subscription = section(read("docs/contract.md"), "### Subscription");
        assertFalse(StandingForm.ALL.isEmpty(), "no standing form registered (worker META-INF/services)");
        for (Algorithm a : StandingForm.ALL.keySet()) {
            assertTrue(subscription.contains("`" + a.name() + "`"), a + " has a standing form but is not among the "
                    + "Subscription's algorithms in docs/contract.md");
        }
    }

    private static List<String> names() {
        return Algorithms.MODULES.stream().map(m -> m.spec().name()).toList();
    }

    private static String read(String relative) throws IOException {
        return Files.readString(REPO.resolve(relative), StandardCharsets.UTF_8);
    }

    /** The section of {@code doc} from {@code heading} to the next heading of any level. */
    private static String section(String doc, String heading) {
        int at = doc.indexOf("\n" + heading);
        if (at < 0) fail("no section '" + heading + "'");
        int end = doc.indexOf("\n#", at + heading.length() + 1);
        return doc.substring(at, end < 0 ? doc.length() : end);
    }
}
