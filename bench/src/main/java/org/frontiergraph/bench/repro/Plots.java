package org.frontiergraph.bench.repro;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.frontiergraph.bench.BenchCli;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Renders the reproduction's CSVs (long form x,series,value,note, as the paper mains write them) into PNGs in the
 * papers' form (time against size; log axes where the paper uses them), and fills the generated sections of
 * docs/reproduction.md (between {@code <!-- BEGIN GENERATED paperNNN -->} and {@code <!-- END GENERATED paperNNN -->})
 * with the paper main's markdown fragment and the figures. Runs where java.desktop exists (not on the GPU machine).
 *
 * <pre>java -cp ... org.frontiergraph.bench.repro.Plots --in DIR [--figures docs/figures] [--doc docs/reproduction.md]</pre>
 */
public final class Plots {
    /** file, title, x label, y label, log x, log y. */
    record Spec(String file, String title, String x, String y, boolean logX, boolean logY) {}

    static final List<Spec> SPECS = List.of(
            new Spec("fig4_random", "004 Fig. 4: BFS and SSSP, random graphs, degree 6", "vertices (millions)", "time (ms)", false, true),
            new Spec("fig5_scalefree", "004 Fig. 5: BFS and SSSP, scale-free graphs (0.1% hubs)", "vertices (millions)", "time (ms)", false, true),
            new Spec("fig6_apsp", "004 Fig. 6: APSP, random degree-6 graphs", "vertices", "time (ms)", true, true),
            new Spec("fig7_degree", "004 Fig. 7: 100K vertices, varying degree", "average degree", "time (ms)", false, true),
            new Spec("table1_ny", "004 Table 1: USA-road-d.NY", "vertices", "time (ms)", false, true),
            new Spec("fig6_lists", "003 Fig. 6: SSSP, adjacency lists, in-degree 7", "vertices (x 2^20)", "time (ms)", false, true),
            new Spec("fig6_lists_iterations", "003: DA2CF iterations (lists)", "vertices (x 2^20)", "iterations", false, false),
            new Spec("fig7_matrix", "003 Fig. 7: SSSP, dense graphs (degree n/5)", "vertices (x 2^10)", "time (ms)", false, true),
            new Spec("fig7_matrix_iterations", "003: DA2CF iterations (dense)", "vertices (x 2^10)", "iterations", false, false),
            new Spec("fig9_prim", "000 Fig. 9: MST runtimes, GTgraph random, |E| = 2|V|", "vertices", "time (ms)", true, true),
            new Spec("fig10_speedup", "000 Fig. 10: speedups", "vertices", "speedup (x)", true, false));

    @Command(name = "Plots", description = "The reproduction's figures from its CSV files, and their links in the document.")
    static final class Cli implements BenchCli.Command<Cli> {
        @Option(names = "--in", paramLabel = "DIR", description = "the CSV files")
        Path in = Path.of("repro-out");
        @Option(names = "--figures", paramLabel = "DIR", description = "where the figures go")
        Path figures = Path.of("docs/figures");
        @Option(names = "--doc", paramLabel = "FILE.md", description = "the document that shows them")
        Path doc = Path.of("docs/reproduction.md");

        @Override
        public Cli options(String[] args) {
            return this;
        }
    }

    public static void main(String[] args) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Cli o = BenchCli.options("Plots", args, Cli::new);
        Path in = o.in, figures = o.figures, doc = o.doc;
        Files.createDirectories(figures);
        Map<String, List<String>> figsOfPaper = new LinkedHashMap<>();
        for (Spec s : SPECS) {
            Path csv = in.resolve(s.file() + ".csv");
            if (!Files.exists(csv)) continue;
            Path png = figures.resolve(s.file() + ".png");
            if (s.file().equals("table1_ny")) continue;
            if (plot(s, csv, png)) {
                String paper = s.title().substring(0, 3);
                figsOfPaper.computeIfAbsent(paper, k -> new ArrayList<>())
                        .add("![" + s.title() + "](figures/" + png.getFileName() + ")\n\n" + table(s, csv));
                System.out.println("wrote " + png);
            }
        }
        if (Files.exists(doc)) {
            String text = Files.readString(doc);
            for (String paper : List.of("000", "003", "004")) {
                List<Path> frags;
                try (var st = Files.list(in)) {
                    frags = st.filter(f -> f.getFileName().toString().startsWith("paper" + paper)
                            && f.getFileName().toString().endsWith(".md")).sorted().toList();
                }
                String begin = "<!-- BEGIN GENERATED paper" + paper + " -->", end = "<!-- END GENERATED paper" + paper + " -->";
                int b = text.indexOf(begin), e = text.indexOf(end);
                if (b < 0 || e < b || frags.isEmpty() && !figsOfPaper.containsKey(paper)) continue;
                StringBuilder body = new StringBuilder("\n");
                for (Path frag : frags) body.append(Files.readString(frag).strip()).append("\n\n");
                // a full fragment (paperNNN.md) has its own tables: then the figures only, else the CSVs as tables
                boolean full = frags.stream().anyMatch(f -> f.getFileName().toString().equals("paper" + paper + ".md"));
                for (String f : figsOfPaper.getOrDefault(paper, List.of())) {
                    body.append(full ? f.substring(0, f.indexOf("\n\n")) : f).append("\n\n");
                }
                text = text.substring(0, b + begin.length()) + body + text.substring(e);
                System.out.println("filled " + begin);
            }
            Files.writeString(doc, text);
        }
    }

    /** The CSV as a markdown table: one row per x, one column per series (values as measured; blank = not run). */
    static String table(Spec s, Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        String xName = lines.get(0).split(",")[0];
        Map<String, Map<String, String>> rows = new LinkedHashMap<>();
        List<String> cols = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            if (f.length < 3) continue;
            if (!cols.contains(f[1])) cols.add(f[1]);
            rows.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).put(f[1], f[2].isBlank() ? "n/a" : f[2]);
        }
        StringBuilder t = new StringBuilder("*" + s.title() + " — " + s.y() + " (CSV " + csv.getFileName() + ")*\n\n| ")
                .append(xName).append(" |");
        cols.forEach(c -> t.append(' ').append(c).append(" |"));
        t.append("\n|---|");
        cols.forEach(c -> t.append("---|"));
        t.append('\n');
        rows.forEach((x, m) -> {
            t.append("| ").append(x).append(" |");
            cols.forEach(c -> t.append(' ').append(m.getOrDefault(c, "")).append(" |"));
            t.append('\n');
        });
        return t.toString();
    }

    static boolean plot(Spec s, Path csv, Path png) throws IOException {
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(csv);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            if (f.length < 3 || f[2].isBlank()) continue;
            double x = Double.parseDouble(f[0]), y = Double.parseDouble(f[2]);
            if (!(y > 0) && s.logY()) continue;
            if (Double.isNaN(y) || Double.isInfinite(y)) continue;
            series.computeIfAbsent(f[1], k -> new ArrayList<>()).add(new double[] {x, y});
        }
        if (series.isEmpty()) return false;
        XYChart chart = new XYChartBuilder().width(1150).height(600).title(s.title()).xAxisTitle(s.x())
                .yAxisTitle(s.y() + (s.logY() ? ", log scale" : "")).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        chart.getStyler().setXAxisLogarithmic(s.logX());
        chart.getStyler().setYAxisLogarithmic(s.logY());
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridLinesColor(new Color(220, 220, 220));
        chart.getStyler().setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        chart.getStyler().setMarkerSize(7);
        chart.getStyler().setDecimalPattern("#,##0.###");
        for (var e : series.entrySet()) {
            double[] xs = e.getValue().stream().mapToDouble(p -> p[0]).toArray();
            double[] ys = e.getValue().stream().mapToDouble(p -> p[1]).toArray();
            XYSeries xy = chart.addSeries(e.getKey(), xs, ys);
            xy.setMarker(SeriesMarkers.CIRCLE);
            xy.setLineStyle(new BasicStroke(2f));
            if (e.getKey().startsWith("CPU")) {
                xy.setLineStyle(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
            }
        }
        BitmapEncoder.saveBitmap(chart, png.toString().replaceAll("\\.png$", ""), BitmapEncoder.BitmapFormat.PNG);
        return true;
    }

    private Plots() {}
}
