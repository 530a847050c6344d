package org.frontiergraph.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's headless Chromium for the live page's browser tests: it loads a page, runs its script for a few seconds
 * of virtual time, and hands back the DOM it ended with (and a screenshot). Without Chromium a test is skipped with
 * the reason, unless {@code -Dfrontier.it.browser=required} or {@code FRONTIER_IT_BROWSER=required} (.ci/run sets it
 * after installing Chromium), which makes it fail.
 */
final class Chromium {
    static final Path BINARY = Path.of(System.getProperty("frontier.it.chromium", "/usr/bin/chromium"));
    /** The window the page is rendered in. */
    static final int WIDTH = 1280, HEIGHT = 1200;

    private Chromium() {}

    /** Checked once: a missing Chromium is reported once, on the console too ({@link Prerequisite}). */
    private static Prerequisite prerequisite;

    private static synchronized Prerequisite prerequisite() {
        if (prerequisite == null) {
            prerequisite = Prerequisite.check("browser test", Files.isExecutable(BINARY) ? null : "no Chromium at " + BINARY,
                    "frontier.it.browser", "FRONTIER_IT_BROWSER", "apt-get install chromium, or -Dfrontier.it.chromium=PATH");
        }
        return prerequisite;
    }

    /** Whether Chromium is here; when it is required (see above) and missing, fails instead. */
    static boolean available() {
        return prerequisite().present();
    }

    /**
     * Skips the calling test (a JUnit assumption with the reason, which the reports show) when Chromium is missing,
     * unless it is required. Call it from {@code @BeforeEach}: an assumption in {@code @BeforeAll} makes the reports
     * say "Tests run: 0" with no reason.
     */
    static void assumePresent() {
        prerequisite().assumePresent();
    }

    /** Loads {@code url} until its script settles; returns the DOM, and saves a screenshot of the same page. */
    static String render(String url, Path screenshot) throws Exception {
        Path profile = Files.createTempDirectory("frontier-chromium");
        List<String> common = List.of(BINARY.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--virtual-time-budget=6000", "--window-size=" + WIDTH + "," + HEIGHT);
        List<String> dump = new ArrayList<>(common);
        dump.addAll(List.of("--dump-dom", url));
        String dom = run(dump);
        Files.createDirectories(screenshot.toAbsolutePath().getParent());
        List<String> shot = new ArrayList<>(common);
        shot.addAll(List.of("--screenshot=" + screenshot.toAbsolutePath(), url));
        run(shot);
        return dom;
    }

    /** The value of attribute {@code name} of the element with id {@code id} in {@code dom}; fails when there is none. */
    static String attribute(String dom, String id, String name) {
        Matcher tag = Pattern.compile("<\\w+ id=\"" + Pattern.quote(id) + "\"[^>]*>").matcher(dom);
        assertTrue(tag.find(), "no element #" + id + " in the DOM:\n" + dom.substring(0, Math.min(dom.length(), 3000)));
        Matcher a = Pattern.compile(" " + Pattern.quote(name) + "=\"([^\"]*)\"").matcher(tag.group());
        assertTrue(a.find(), "#" + id + " has no " + name + ": " + tag.group());
        return a.group(1);
    }

    private static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "chromium did not finish");
        return new String(out, StandardCharsets.UTF_8);
    }
}
