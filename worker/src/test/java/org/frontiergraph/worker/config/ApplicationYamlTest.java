package org.frontiergraph.worker.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import java.io.InputStream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * application.yml names each setting once: a key written twice (two edits meeting in a merge) is read by Micronaut as
 * the last one, silently, so a default documented at the first place may not be the one in force.
 */
class ApplicationYamlTest {
    @Test
    void everyKeyOnce() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        assertDoesNotThrow(() -> {
            try (InputStream in = ApplicationYamlTest.class.getResourceAsStream("/application.yml")) {
                new Yaml(options).load(in);
            }
        });
    }
}
