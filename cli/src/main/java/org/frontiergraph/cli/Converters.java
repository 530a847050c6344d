package org.frontiergraph.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.frontiergraph.kernels.io.GraphFormat;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.worker.subscription.StandingForm;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The CLI's option types. Each converter says in one phrase what it expected, and {@link FrontierCli} prefixes the
 * command and the option: {@code frontier query: --source: 'abc' is not a vertex id (an integer)}.
 */
final class Converters {
    private Converters() {}

    /** A number as a person types it: underscores allowed ({@code 1_000_000}). */
    private static long parseLong(String s, String what) {
        try {
            return Long.parseLong(s.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + s + "' is not " + what);
        }
    }

    /** A user vertex id: any int (the worker answers INVALID_VERTEX for one outside the graph). */
    static final class VertexId implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String s) {
            long v = parseLong(s, "a vertex id (an integer)");
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                throw new TypeConversionException("'" + s + "' is not a vertex id (an integer of at most 32 bits)");
            }
            return (int) v;
        }
    }

    /** A whole number of seconds, at least 1. */
    static final class Seconds implements ITypeConverter<Long> {
        @Override
        public Long convert(String s) {
            long v = parseLong(s, "a number of seconds (a positive integer)");
            if (v < 1) throw new TypeConversionException("'" + s + "' is not a number of seconds (a positive integer)");
            return v;
        }
    }

    /** A count or size: a non-negative integer. */
    static final class Count implements ITypeConverter<Long> {
        @Override
        public Long convert(String s) {
            long v = parseLong(s, "a count (a non-negative integer)");
            if (v < 0) throw new TypeConversionException("'" + s + "' is not a count (a non-negative integer)");
            return v;
        }
    }

    /** Any long, negative too (seeds). */
    static final class AnyLong implements ITypeConverter<Long> {
        @Override
        public Long convert(String s) {
            return parseLong(s, "an integer");
        }
    }

    /** A snapshot version: a non-negative long. */
    static final class Version implements ITypeConverter<Long> {
        @Override
        public Long convert(String s) {
            long v = parseLong(s, "a version (a non-negative integer)");
            if (v < 0) throw new TypeConversionException("'" + s + "' is not a version (a non-negative integer)");
            return v;
        }
    }

    /** The algorithms' value names: the contract's symbols, lower case (picocli's completion candidates and help). */
    static final class AlgorithmNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(Algorithm.values()).map(a -> a.name().toLowerCase(Locale.ROOT)).iterator();
        }
    }

    /**
     * The value names of the algorithms a subscription keeps: those with a standing form ({@link StandingForm#ALL}), in
     * the contract's order.
     */
    static final class SubscribableNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(Algorithm.values()).filter(StandingForm.ALL::containsKey)
                    .map(a -> a.name().toLowerCase(Locale.ROOT)).iterator();
        }
    }

    static final class AlgorithmName implements ITypeConverter<Algorithm> {
        @Override
        public Algorithm convert(String s) {
            return enumValue(Algorithm.class, s, "an algorithm");
        }
    }

    /** A query's result mode: full, targets or summary (DELTA is for subscriptions only). */
    static final class ModeName implements ITypeConverter<ResultMode> {
        private static final String QUERY_MODES = "full, targets or summary";

        @Override
        public ResultMode convert(String s) {
            if (s.trim().equalsIgnoreCase(ResultMode.DELTA.name())) {
                throw new TypeConversionException("'" + s + "' is for subscriptions (./frontier subscribe); a query's modes are "
                        + QUERY_MODES);
            }
            try {
                return enumValue(ResultMode.class, s, "a result mode");
            } catch (TypeConversionException e) {
                throw new TypeConversionException("'" + s + "' is not a result mode (" + QUERY_MODES + ")");
            }
        }
    }

    /** A subscription's result mode: delta, full, targets or summary. */
    static final class SubscriptionModeName implements ITypeConverter<ResultMode> {
        @Override
        public ResultMode convert(String s) {
            try {
                return enumValue(ResultMode.class, s, "a result mode");
            } catch (TypeConversionException e) {
                throw new TypeConversionException("'" + s + "' is not a result mode (delta, full, targets or summary)");
            }
        }
    }

    /** What a subscription can keep: an algorithm with a standing form ({@link SubscribableNames}). */
    static final class SubscribableAlgorithm implements ITypeConverter<Algorithm> {
        @Override
        public Algorithm convert(String s) {
            Algorithm a;
            try {
                a = enumValue(Algorithm.class, s, "an algorithm");
            } catch (TypeConversionException e) {
                a = null;
            }
            if (a == null || !StandingForm.ALL.containsKey(a)) {
                List<String> names = new ArrayList<>();
                new SubscribableNames().forEach(names::add);
                throw new TypeConversionException("'" + s + "' is not an algorithm a subscription keeps (" + names(names, " or ") + ")");
            }
            return a;
        }
    }

    /** A whole number of milliseconds, from 0 to Integer.MAX_VALUE. */
    static final class Millis implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String s) {
            long v = parseLong(s, "a number of milliseconds (a non-negative integer)");
            if (v < 0 || v > Integer.MAX_VALUE) {
                throw new TypeConversionException("'" + s + "' is not a number of milliseconds (0 to " + Integer.MAX_VALUE + ")");
            }
            return (int) v;
        }
    }

    static final class OutputFormatName implements ITypeConverter<OutputFormat> {
        @Override
        public OutputFormat convert(String s) {
            return enumValue(OutputFormat.class, s, "an output format");
        }
    }

    /** The engine a worker or a query uses: auto, gpu or cpu. */
    static final class BackendName implements ITypeConverter<String> {
        static final String CHOICES = "auto, gpu or cpu";

        @Override
        public String convert(String s) {
            String b = s.trim().toLowerCase(Locale.ROOT);
            if (!b.equals("auto") && !b.equals("gpu") && !b.equals("cpu")) {
                throw new TypeConversionException("'" + s + "' is not a backend (" + CHOICES + ")");
            }
            return b;
        }
    }

    /** A graph file format: dimacs, snap or mtx (GraphFormat's own names). */
    static final class GraphFormatName implements ITypeConverter<GraphFormat> {
        @Override
        public GraphFormat convert(String s) {
            try {
                return GraphFormat.parse(s);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + s + "' is not a graph file format (dimacs, snap or mtx)");
            }
        }
    }

    /** One {@code key=value} Kafka client setting. */
    static final class KafkaProperty implements ITypeConverter<String[]> {
        @Override
        public String[] convert(String s) {
            int eq = s.indexOf('=');
            if (eq <= 0) throw new TypeConversionException("'" + s + "' is not a Kafka setting (KEY=VALUE, e.g. security.protocol=SASL_SSL)");
            return new String[] {s.substring(0, eq).trim(), s.substring(eq + 1)};
        }
    }

    /** Lower-case names, accepted in any case; the message lists them. */
    private static <E extends Enum<E>> E enumValue(Class<E> type, String s, String what) {
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(s.trim())) return e;
        }
        throw new TypeConversionException("'" + s + "' is not " + what + " (" + names(type) + ")");
    }

    static <E extends Enum<E>> String names(Class<E> type) {
        return names(Arrays.stream(type.getEnumConstants()).map(e -> e.name().toLowerCase(Locale.ROOT)).toList(), " or ");
    }

    /** {@code a, b or c} ({@code last} joins the last two). */
    static String names(List<String> n, String last) {
        return n.size() == 1 ? n.get(0) : String.join(", ", n.subList(0, n.size() - 1)) + last + n.get(n.size() - 1);
    }
}
