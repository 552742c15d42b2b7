package dev.hotspare.spring.internal;

import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.introspect.BeanPropertyDefinition;
import tools.jackson.databind.introspect.ClassIntrospector;
import dev.hotspare.json.Documents;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.spring.HotspareConfigurationException;
import dev.hotspare.spring.HotspareProperties;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Pool properties to {@link PoolSpec}s, through the very reading a spec file gets ({@link Documents#read}): every
 * field the spec has is accepted and validated by the spec itself, so the messages are the spec's and a field
 * added to {@code PoolSpec} works here at once. Spring's relaxed names ({@code running-count},
 * {@code RUNNINGCOUNT}, {@code running_count}) are first mapped to the spec's field names, found by asking
 * Jackson what the spec reads; a name matching no field is passed on camel-cased, so the spec's reading reports
 * it as an unknown field with its "did you mean".
 */
public final class PoolSpecs {

    private static final String POOLS = HotspareProperties.PREFIX + ".pools";

    private PoolSpecs() {
    }

    /**
     * Converts every pool, reporting the problems of all of them at once.
     *
     * @param pools pool name to its properties as bound (values are strings from properties files, numbers and
     *              maps from YAML)
     * @return pool name to spec, in the order given
     * @throws HotspareConfigurationException with every problem, each at its property
     *                                        ({@code hotspare.pools.ci.running-count})
     */
    public static Map<String, PoolSpec> read(Map<String, ? extends Map<String, ?>> pools) {
        Map<String, PoolSpec> specs = new LinkedHashMap<>();
        List<Problem> problems = new ArrayList<>();
        pools.forEach((name, fields) -> {
            String prefix = POOLS + "." + name;
            Map<String, String> written = new HashMap<>();
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("name", name);
            document.putAll(normalise(fields == null ? Map.of() : fields, type(PoolSpec.class), "", written));
            if (!name.equals(document.get("name"))) {
                problems.add(Problem.of(prefix + ".name", document.get("name"),
                        "the pool's name is its key under " + POOLS + " ('" + name + "'); omit name or make it equal"));
                document.put("name", name);
            }
            try {
                specs.put(name, Documents.read(Documents.toJsonLine(document), Documents.Format.JSON, PoolSpec.class));
            } catch (ValidationException e) {
                for (Problem p : e.problems()) {
                    // An unknown field's problem quotes the field; quote it as the user wrote it.
                    String field = p.path().substring(p.path().lastIndexOf('.') + 1);
                    String value = written.containsKey(p.path()) && p.value().equals(field) ? written.get(p.path()) : p.value();
                    problems.add(new Problem(p.path().isEmpty() ? prefix : prefix + "." + kebab(p.path()), value, p.message()));
                }
            }
        });
        if (!problems.isEmpty()) {
            throw new HotspareConfigurationException(problems);
        }
        return specs;
    }

    /**
     * The fields of {@code fields} under the names {@code type} reads; nested maps are normalised against the
     * field's type when it is one of hotspare's. Records in {@code written} the name as written of each field
     * that matched nothing (its camel-cased path → the name as written), so a problem can quote it.
     */
    private static Map<String, Object> normalise(Map<String, ?> fields, JavaType type, String path,
                                                 Map<String, String> written) {
        Map<String, JavaType> known = properties(type);
        Map<String, String> byCanonical = new HashMap<>();
        known.keySet().forEach(field -> byCanonical.put(canonical(field), field));
        Map<String, Object> out = new LinkedHashMap<>();
        fields.forEach((key, value) -> {
            String field = byCanonical.get(canonical(key));
            String fieldPath;
            if (field == null) {
                field = camel(key);
                fieldPath = path.isEmpty() ? field : path + "." + field;
                written.put(fieldPath, key);
            } else {
                fieldPath = path.isEmpty() ? field : path + "." + field;
            }
            JavaType fieldType = known.get(field);
            if (value instanceof Map<?, ?> nested && fieldType != null && isOurs(fieldType)) {
                Map<String, Object> copy = new LinkedHashMap<>();
                nested.forEach((k, v) -> copy.put(String.valueOf(k), v));
                out.put(field, normalise(copy, fieldType, fieldPath, written));
            } else {
                out.put(field, value);
            }
        });
        return out;
    }

    private static boolean isOurs(JavaType type) {
        JavaType content = type.isReferenceType() ? type.getContentType() : type;
        return content.getRawClass().getName().startsWith("dev.hotspare.");
    }

    /** The fields Jackson reads for {@code type} (the spec's creator parameters), with their types. */
    private static Map<String, JavaType> properties(JavaType type) {
        JavaType target = type.isReferenceType() ? type.getContentType() : type;
        Map<String, JavaType> known = new LinkedHashMap<>();
        if (!target.getRawClass().getName().startsWith("dev.hotspare.")) {
            return known;
        }
        DeserializationConfig config = Documents.jsonReader().getConfig();
        ClassIntrospector introspector = config.classIntrospectorInstance();
        BeanDescription description = introspector.introspectForDeserialization(target,
                introspector.introspectClassAnnotations(target));
        for (BeanPropertyDefinition property : description.findProperties()) {
            known.put(property.getName(), property.getPrimaryType());
        }
        return known;
    }

    private static JavaType type(Class<?> type) {
        return Documents.jsonReader().getConfig().constructType(type);
    }

    /** Spring's canonical form: lower case, no dashes or underscores. */
    private static String canonical(String name) {
        return name.replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
    }

    /** {@code running-count} → {@code runningCount}; a name without dashes or underscores is kept. */
    static String camel(String name) {
        StringBuilder out = new StringBuilder();
        boolean upper = false;
        for (char c : name.toCharArray()) {
            if (c == '-' || c == '_') {
                upper = out.length() > 0;
            } else {
                out.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return out.toString();
    }

    /** {@code claimLifetime.default} → {@code claim-lifetime.default}, as Spring writes property names. */
    static String kebab(String path) {
        StringBuilder out = new StringBuilder();
        for (char c : path.toCharArray()) {
            if (Character.isUpperCase(c)) {
                out.append('-').append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
