package org.frontiergraph.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Something outside the JVM that an IT needs (Debian's Chromium, Python with its packages). When it is missing, the
 * IT's tests are reported as skipped with the reason: the test class checks it in {@code @BeforeAll} (starting nothing
 * then) and calls {@link #assumePresent} in {@code @BeforeEach}, so each test says "skipped" and why, where an
 * assumption failing in {@code @BeforeAll} would report "Tests run: 0". When its switch says {@code required} (.ci/run
 * sets them after installing what they need), a missing prerequisite fails instead.
 *
 * @param test    what is skipped, e.g. "browser test"
 * @param missing what is missing and how to install it; null when present
 */
record Prerequisite(String test, String missing) {

    /**
     * @param missing  what is missing, or null
     * @param property the system property that may say {@code required}, e.g. {@code frontier.it.browser}
     * @param env      the environment variable that may say it, e.g. {@code FRONTIER_IT_BROWSER}
     * @param install  how to install it
     */
    static Prerequisite check(String test, String missing, String property, String env, String install) {
        if (missing == null) return new Prerequisite(test, null);
        String required = System.getProperty(property, System.getenv(env));
        if ("required".equals(required)) {
            throw new AssertionError("the " + test + " is required (" + property + ", " + env + ") but " + missing + " (" + install + ")");
        }
        String reason = missing + " (" + install + ")";
        System.out.println("[skipped] " + test + ": " + reason);   // on the console too, beside "Skipped: N"
        return new Prerequisite(test, reason);
    }

    boolean present() {
        return missing == null;
    }

    /** In {@code @BeforeEach}: the test is skipped, with the reason, when the prerequisite is missing. */
    void assumePresent() {
        assumeTrue(missing == null, () -> test + " skipped: " + missing);
    }
}
