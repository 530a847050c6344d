package org.frontiergraph.client.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * clients/java/README.md shows the compiled example (ReadmeExample, built with the tests) line for line: the README's
 * first java block equals the lines between the example's markers, indentation taken off, so the README never shows
 * code that does not compile.
 */
class ReadmeExampleTest {
    static final Path MODULE = Path.of("").toAbsolutePath();

    @Test
    void theReadmeShowsTheCompiledExample() throws Exception {
        String source = Files.readString(MODULE.resolve("src/test/java/org/frontiergraph/client/example/ReadmeExample.java"));
        Matcher marked = Pattern.compile("(?s)// README example: begin\\n(.*?)\\n[ ]*// README example: end").matcher(source);
        assertTrue(marked.find(), "ReadmeExample has its markers");
        List<String> example = marked.group(1).lines().toList();
        int indent = example.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        String expected = String.join("\n", example.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).toList());

        String readme = Files.readString(MODULE.resolve("README.md"));
        Matcher block = Pattern.compile("(?s)```java\\n(.*?)\\n```").matcher(readme);
        assertTrue(block.find(), "clients/java/README.md has a java block");
        assertEquals(expected, block.group(1), "clients/java/README.md's example must be ReadmeExample's marked lines");
    }
}
