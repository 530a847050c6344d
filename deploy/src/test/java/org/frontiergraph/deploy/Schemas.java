package org.frontiergraph.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonMetaSchema;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.NonValidationKeyword;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The vendored schemas (deploy/schemas, see its README) and a validator over them. */
final class Schemas {
    private static final Map<String, JsonSchema> CACHE = new ConcurrentHashMap<>();
    private static final SchemaValidatorsConfig CONFIG = SchemaValidatorsConfig.builder().build();

    private Schemas() {}

    /** The schema of an apiVersion and kind, or null when none is vendored. */
    static JsonSchema kubernetes(String apiVersion, String kind) {
        JsonNode file = Repo.json("deploy/schemas/kubernetes/index.json").get(apiVersion + "/" + kind);
        if (file == null) return null;
        return CACHE.computeIfAbsent(file.asText(), f -> JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7)
                .getSchema(Repo.json("deploy/schemas/" + f), CONFIG));
    }

    /**
     * The Compose specification's schema (draft 2019-09). It still carries draft-04 "id" annotations, which 2019-09
     * does not know, and nests one definition under "constraints" (read as a keyword): both are ignored, as the
     * Compose tools do.
     */
    static JsonSchema compose() {
        JsonMetaSchema meta = JsonMetaSchema.builder(JsonMetaSchema.getV201909())
                .keyword(new NonValidationKeyword("id")).keyword(new NonValidationKeyword("service")).build();
        return CACHE.computeIfAbsent("compose", f -> JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V201909,
                        b -> b.metaSchema(meta)).getSchema(Repo.json("deploy/schemas/compose-spec.json"), CONFIG));
    }

    /** The violations, as readable lines (empty when valid). */
    static List<String> violations(JsonSchema schema, JsonNode document) {
        return schema.validate(document).stream().map(ValidationMessage::getMessage).sorted().toList();
    }
}
