package org.frontiergraph.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.frontiergraph.cli.UpdateEdits.Edit;
import org.frontiergraph.cli.UpdateEdits.Op;

/** One line of an {@code update --file}: CSV ({@code add,1,2,3.5}) or a JSON object; see {@link UpdateEdits}. */
final class UpdateLine {
    private static final JsonFactory JSON = new JsonFactory();

    private UpdateLine() {}

    static Edit csv(String line, String where) {
        String[] f = line.indexOf(',') >= 0 ? line.split("\\s*,\\s*", -1) : line.split("\\s+");
        Op op = Op.of(f[0], where);
        if (f[0].equalsIgnoreCase(UpdateEdits.NAMED_VERTEX)) {
            if (f.length != 2 || f[1].isEmpty()) throw new CliFailure(where + ": add-vertex takes one name: add-vertex,NAME");
            return Edit.vertex(f[1]);
        }
        if (op == Op.ADD_VERTICES) {
            if (f.length != 2) throw new CliFailure(where + ": add-vertices takes one count: add-vertices,N");
            return Edit.vertices(count(f[1], where));
        }
        int min = op == Op.REMOVE || op == Op.ADD ? 3 : 4, max = op == Op.REMOVE ? 3 : 4;
        if (f.length < min || f.length > max) {
            throw new CliFailure(where + ": " + op.word + " takes " + (op == Op.REMOVE ? "U,V" : op == Op.ADD ? "U,V[,W]" : "U,V,W")
                    + ", found " + (f.length - 1) + " field(s)");
        }
        return Edit.edge(op, vertexText(f[1], where), vertexText(f[2], where), f.length == 4 ? weight(f[3], where) : Double.NaN);
    }

    static Edit json(String line, String where) {
        Map<String, String> fields = new HashMap<>();
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new CliFailure(where + ": not a JSON object");
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    throw new CliFailure(where + ": field '" + name + "' must be a number or a string");
                }
                fields.put(name, p.getText());
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new CliFailure(where + ": malformed JSON (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            throw new CliFailure(where + ": cannot read the line: " + e.getMessage());
        }
        String opName = fields.get("op");
        if (opName == null) throw new CliFailure(where + ": no \"op\" (add, remove, reweight or add-vertices)");
        Op op = Op.of(opName, where);
        if (opName.equalsIgnoreCase(UpdateEdits.NAMED_VERTEX)) return Edit.vertex(vertexText(required(fields, "name", where), where));
        if (op == Op.ADD_VERTICES) return Edit.vertices(count(required(fields, "n", where), where));
        String w = fields.get("w");
        if (op == Op.REWEIGHT && w == null) throw new CliFailure(where + ": reweight needs \"w\"");
        if (op == Op.REMOVE && w != null) throw new CliFailure(where + ": remove takes no \"w\"");
        return Edit.edge(op, vertexText(required(fields, "u", where), where), vertexText(required(fields, "v", where), where),
                w == null ? Double.NaN : weight(w, where));
    }

    private static String required(Map<String, String> fields, String name, String where) {
        String v = fields.get(name);
        if (v == null) throw new CliFailure(where + ": no \"" + name + "\"");
        return v;
    }

    /** A vertex as given: an id, or a name (not empty). */
    static String vertexText(String s, String where) {
        if (s.isEmpty()) throw new CliFailure(where + ": an empty vertex (an id or a name)");
        return s;
    }

    static int vertex(String s, String where) {
        try {
            return Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            throw new CliFailure(where + ": '" + s + "' is not a vertex id (an integer)");
        }
    }

    static int count(String s, String where) {
        int n;
        try {
            n = Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            throw new CliFailure(where + ": '" + s + "' is not a vertex count");
        }
        if (n < 1) throw new CliFailure(where + ": add-vertices needs a count of at least 1, not " + n);
        return n;
    }

    static double weight(String s, String where) {
        double w;
        try {
            w = Double.parseDouble(s.strip());
        } catch (NumberFormatException e) {
            throw new CliFailure(where + ": '" + s + "' is not a weight (a number)");
        }
        if (!(w >= 0) || Double.isInfinite(w)) throw new CliFailure(where + ": weight " + s + " is not finite and non-negative");
        return w;
    }
}
