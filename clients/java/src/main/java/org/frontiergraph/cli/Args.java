package org.frontiergraph.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Minimal `--name value` / `--flag` parsing for the CLI; unknown options are an error. */
final class Args {
    final Map<String, String> options = new HashMap<>();
    final List<String> positional = new ArrayList<>();

    static Args parse(String[] argv, int from, Set<String> valued, Set<String> flags) {
        Args a = new Args();
        for (int i = from; i < argv.length; i++) {
            String s = argv[i];
            if (s.startsWith("--")) {
                String name = s.substring(2), value = null;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                }
                if (flags.contains(name)) {
                    a.options.put(name, "true");
                } else if (valued.contains(name)) {
                    if (value == null) {
                        if (i + 1 >= argv.length) throw new UsageException("--" + name + " needs a value");
                        value = argv[++i];
                    }
                    a.options.put(name, value);
                } else {
                    throw new UsageException("unknown option --" + name);
                }
            } else {
                a.positional.add(s);
            }
        }
        return a;
    }

    String get(String name) { return options.get(name); }

    String get(String name, String dflt) { return options.getOrDefault(name, dflt); }

    boolean flag(String name) { return options.containsKey(name); }

    String require(String name) {
        String v = options.get(name);
        if (v == null) throw new UsageException("missing --" + name);
        return v;
    }

    static final class UsageException extends RuntimeException {
        UsageException(String m) { super(m); }
    }
}
