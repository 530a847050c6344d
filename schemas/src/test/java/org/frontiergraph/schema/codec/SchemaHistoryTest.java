package org.frontiergraph.schema.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/**
 * Every fingerprint ever published still decodes: each schema of {@code history/} (kept there by the schemas build
 * when a fingerprint changes) is registered with {@link FrontierCodec}, a record written with it decodes to the
 * current class with its values, and every header docs/contract.md lists (the current table and the earlier
 * versions) names a type the codec reads; every history schema is listed there too.
 */
class SchemaHistoryTest {
    static {
        FrontierCodec.trust();   // bounds Avro's declared lengths before this class touches Avro (see ContractFingerprintsTest)
    }

    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
    private static final Path HISTORY = ROOT.resolve("src/main/resources/org/frontiergraph/schema/history");
    private static final Path CONTRACT = ROOT.resolve("../docs/contract.md").normalize();
    private static final Pattern HEADER = Pattern.compile("c3 01(?: [0-9a-f]{2}){8}");

    @Test
    void everyHistoryFileIsRegisteredWithTheCodec() throws IOException {
        Set<String> files;
        try (Stream<Path> all = Files.list(HISTORY)) {
            files = all.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(files, FrontierCodec.history().keySet(),
                "history/ holds <Type>-1.avsc, <Type>-2.avsc ... without gaps, each of a message type");
    }

    @Test
    void aRecordWrittenWithEveryEarlierSchemaDecodesWithItsValues() throws Exception {
        for (Map.Entry<String, Schema> e : FrontierCodec.history().entrySet()) {
            Schema earlier = e.getValue();
            GenericRecord written = (GenericRecord) sample(earlier);
            byte[] message = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), earlier).encode(written).array();
            SpecificRecord read = FrontierCodec.decode(message);
            assertEquals(earlier.getFullName(), read.getClass().getName(), e.getKey());
            for (Schema.Field f : earlier.getFields()) {
                Object was = written.get(f.name());
                if (was instanceof GenericRecord || was instanceof ByteBuffer || was instanceof List) continue;
                int at = read.getSchema().getField(f.name()).pos();
                assertEquals(String.valueOf(was), String.valueOf(read.get(at)), e.getKey() + ": field " + f.name());
            }
        }
    }

    @Test
    void everyHeaderTheContractListsDecodesAndEveryHistorySchemaIsListed() throws IOException {
        String doc = Files.readString(CONTRACT, StandardCharsets.UTF_8);
        int at = doc.indexOf("## Schemas: parse order and fingerprints");
        assertTrue(at >= 0, "docs/contract.md has no fingerprint section");
        int end = doc.indexOf("\n## ", at + 10);
        String section = doc.substring(at, end < 0 ? doc.length() : end);
        Matcher m = HEADER.matcher(section);
        Set<String> listed = new TreeSet<>();
        while (m.find()) listed.add(m.group());
        assertTrue(listed.size() >= 8, "the section lists the headers of the message types: " + listed);
        for (String header : listed) {
            byte[] message = HexFormat.ofDelimiter(" ").parseHex(header);
            try {
                FrontierCodec.typeOf(message);
            } catch (FrontierCodec.MalformedMessageException x) {
                throw new AssertionError("docs/contract.md lists header " + header + ", which no longer decodes: " + x.getMessage());
            }
        }
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, Schema> e : FrontierCodec.history().entrySet()) {
            String header = header(SchemaNormalization.parsingFingerprint64(e.getValue()));
            if (!listed.contains(header)) missing.add("history/" + e.getKey() + ": `" + header + "`");
        }
        assertEquals(List.of(), missing, "earlier schemas docs/contract.md does not list (\"Earlier versions still read\")");
    }

    /** {@code c3 01} and the fingerprint's eight bytes, little-endian, as the contract writes them. */
    static String header(long fingerprint) {
        byte[] b = ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN).put((byte) 0xC3).put((byte) 0x01).putLong(fingerprint).array();
        return HexFormat.ofDelimiter(" ").formatHex(b);
    }

    /** A value of {@code s} with something in every field: the first symbol, branch or a small number. */
    static Object sample(Schema s) {
        return switch (s.getType()) {
            case RECORD -> {
                GenericData.Record r = new GenericData.Record(s);
                for (Schema.Field f : s.getFields()) r.put(f.pos(), sample(f.schema()));
                yield r;
            }
            case ENUM -> new GenericData.EnumSymbol(s, s.getEnumSymbols().get(s.getEnumSymbols().size() - 1));
            case UNION -> sample(s.getTypes().get(s.getTypes().size() - 1));
            case ARRAY -> new GenericData.Array<>(s, List.of(sample(s.getElementType())));
            case MAP -> Map.of("k", sample(s.getValueType()));
            case STRING -> "s-" + s.hashCode() % 97;
            case BYTES -> ByteBuffer.wrap(new byte[] {1, 0, 0, 0});
            case INT -> 7;
            case LONG -> 11L;
            case FLOAT -> 1.5f;
            case DOUBLE -> 2.5;
            case BOOLEAN -> true;
            case NULL -> null;
            case FIXED -> new GenericData.Fixed(s, new byte[s.getFixedSize()]);
        };
    }
}
