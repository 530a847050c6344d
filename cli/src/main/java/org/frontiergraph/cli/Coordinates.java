package org.frontiergraph.cli;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * Vertex coordinates from a 9th DIMACS challenge coordinate file ({@code .co}, gzip-compressed or not): {@code c}
 * comments, one {@code p aux sp co N} line, then {@code v ID X Y} lines where X is the longitude and Y the latitude
 * in millionths of a degree ({@code v 1 -73530767 41085396} is 73.530767 W, 41.085396 N), as in
 * {@code USA-road-d.NY.co}. GeoJSON wants {@code [longitude, latitude]} in degrees, which {@link #at} gives.
 */
final class Coordinates {
    /** DIMACS .co files store degrees times 10^6. */
    static final double MICRODEGREES = 1e6;

    private final Path file;
    private double[] lon = new double[0];
    private double[] lat = new double[0];

    private Coordinates(Path file) {
        this.file = file;
    }

    /**
     * Reads {@code file}.
     *
     * @throws CliFailure when it cannot be read or a line is malformed (naming the line)
     */
    static Coordinates read(Path file) {
        Coordinates c = new Coordinates(file);
        if (!Files.isRegularFile(file)) throw new CliFailure("--coordinates: no such file: " + file);
        try (BufferedReader r = new BufferedReader(new InputStreamReader(open(file), StandardCharsets.US_ASCII))) {
            String line;
            int lineNo = 0;
            while ((line = r.readLine()) != null) {
                lineNo++;
                String s = line.strip();
                if (s.isEmpty() || s.startsWith("c") || s.startsWith("p")) continue;
                String[] f = s.split("\\s+");
                if (!f[0].equals("v") || f.length != 4) {
                    throw new CliFailure(file + " line " + lineNo + ": expected 'v ID X Y' (a DIMACS .co file), got '" + s + "'");
                }
                try {
                    c.put(Integer.parseInt(f[1]), Long.parseLong(f[2]) / MICRODEGREES, Long.parseLong(f[3]) / MICRODEGREES);
                } catch (NumberFormatException e) {
                    throw new CliFailure(file + " line " + lineNo + ": expected integers in 'v ID X Y', got '" + s + "'");
                }
            }
        } catch (IOException e) {
            throw new CliFailure("--coordinates: cannot read " + file + ": " + e.getMessage());
        }
        return c;
    }

    /** The file, inflated when it starts with the gzip magic bytes. */
    private static InputStream open(Path file) throws IOException {
        InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        in.mark(2);
        int b0 = in.read(), b1 = in.read();
        in.reset();
        return b0 == 0x1f && b1 == 0x8b ? new GZIPInputStream(in, 1 << 16) : in;
    }

    private void put(int id, double longitude, double latitude) {
        if (id < 0) throw new NumberFormatException("negative id");
        if (id >= lon.length) {
            int size = Math.max(id + 1, lon.length * 2);
            int old = lon.length;
            lon = Arrays.copyOf(lon, size);
            lat = Arrays.copyOf(lat, size);
            Arrays.fill(lon, old, size, Double.NaN);
            Arrays.fill(lat, old, size, Double.NaN);
        }
        lon[id] = longitude;
        lat[id] = latitude;
    }

    /**
     * {@code [longitude, latitude]} of vertex {@code id}, in degrees.
     *
     * @throws CliFailure when the file has none for it
     */
    double[] at(int id) {
        if (id < 0 || id >= lon.length || Double.isNaN(lon[id])) {
            throw new CliFailure("vertex " + id + " has no coordinates in " + file + " (is it the graph's .co file?)");
        }
        return new double[] {lon[id], lat[id]};
    }
}
