package org.frontiergraph.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/examples/grid-20x20.co fits the graph its README generates ({@code ./frontier generate --kind grid --vertices
 * 400}): every vertex has coordinates, read by the same reader as {@code --coordinates}, and every road joins two
 * neighbouring points of the lattice (one step east or south), so a GeoJSON answer draws the grid's streets.
 */
class ExampleCoordinatesTest {
    static final double LONGITUDE_STEP = 0.0025, LATITUDE_STEP = 0.002, EPS = 1e-9;

    @Test
    void theShippedCoordinatesFitTheGeneratedGrid(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("grid.gr");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = FrontierCli.run(new String[] {"generate", "--kind", "grid", "--vertices", "400", file.toString()},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        LoadedGraph grid = GraphFiles.read(file);
        assertEquals(400, grid.vertexCount());

        Path co = repo().resolve("docs/examples/grid-20x20.co");
        Coordinates at = Coordinates.read(co);
        EdgeList edges = grid.edges();
        for (int e = 0; e < edges.size(); e++) {
            long u = grid.userId(edges.source(e)), v = grid.userId(edges.target(e));
            double[] a = at.at((int) u), b = at.at((int) v);
            double east = Math.abs(a[0] - b[0]), south = Math.abs(a[1] - b[1]);
            boolean neighbours = Math.abs(east - LONGITUDE_STEP) < EPS && south < EPS
                    || Math.abs(south - LATITUDE_STEP) < EPS && east < EPS;
            assertTrue(neighbours, "road " + u + "-" + v + " joins " + a[0] + "," + a[1] + " and " + b[0] + "," + b[1]);
        }
        for (int id = 1; id <= 400; id++) at.at(id);   // every vertex placed, not only those on a road
    }

    private static Path repo() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve("docs/examples"))) return d;
        }
        throw new IllegalStateException("docs/examples not found above " + Path.of("").toAbsolutePath());
    }
}
